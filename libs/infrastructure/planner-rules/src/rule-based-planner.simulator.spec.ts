import { readFileSync } from 'node:fs';
import path from 'node:path';
import { foregroundPackage, toUiElements, type AgentAction, type MemoryHit, type PlanDecision, type PlannerHistoryEntry, type StepResult, type TaskToolSpec } from '@mobileclaw/domain';
import { parseUiHierarchyXml } from '@mobileclaw/ui-hierarchy';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the test drives the simulated phone's pure UI state machine (no sockets); nothing outside tests imports it
import { PhoneError, PhoneUi, type UiNode as PhoneNode } from '@mobileclaw/simulator';
import type { GoalIntent } from './goal-intent';
import { RuleBasedPlanner } from './rule-based-planner';
import { Screen } from './screen';
import { decideStep } from './step-decision';
import { taskMemoryFrom } from './task-memory';

function perform(ui: PhoneUi, action: AgentAction): StepResult {
  try {
    switch (action.command) {
      case 'open':
        ui.open(action.app);
        break;
      case 'click':
        ui.click(action.x, action.y);
        break;
      case 'long_press':
        ui.longPress(action.x, action.y);
        break;
      case 'swipe':
        ui.swipe(action.x1, action.y1, action.x2, action.y2);
        break;
      case 'input':
        ui.input(action.text, action.clear);
        break;
      case 'back':
        ui.back();
        break;
      case 'home':
        ui.home();
        break;
    }
    return { status: 'success' };
  } catch (err) {
    if (err instanceof PhoneError) return { status: 'error', errorCode: 'DEVICE_ERROR', message: `${err.code}: ${err.message}` };
    throw err;
  }
}

/** The gateway's tools a {@link drive} offers, and how it answers a call of one. */
interface GatewayTools {
  specs: TaskToolSpec[];
  call: (name: string, args: Record<string, unknown>) => StepResult;
}

/**
 * The memory of one scope in miniature: `memory_store` keeps each text, and {@link recall} gives every
 * text kept as a memory hit, the newest best (as the gateway's memory ranks a fresh fact).
 */
class MiniatureMemory {
  private readonly texts: string[] = [];
  readonly tools: GatewayTools = {
    specs: [
      {
        name: 'memory_store',
        description: 'Remembers one fact.',
        inputSchema: { type: 'object' },
        kind: 'ACTION',
        mode: 'NATIVE',
        source: 'native:memory',
        eligibility: { eligible: true, missing: [] },
        available: true,
        needsApproval: false,
      },
    ],
    call: (_name, args) => {
      this.texts.push(String(args['text']));
      const stored = [{ id: `mem_${this.texts.length}`, layer: 'daily', source: { file: 'device/sim-1/2026-12-02.md', line: 3 * this.texts.length } }];
      return { status: 'success', output: { stored }, message: `Remembered ${JSON.stringify(args['text'])}.` };
    },
  };

  recall(): MemoryHit[] {
    return this.texts.map((text, i) => {
      const score = 0.5 + i / 100;
      return { layer: 'daily', id: `mem_${i + 1}`, text, score, ageDays: 0, createdAt: '2026-12-02T02:00:00.000Z', parts: { lexical: score, semantic: null, relevance: score, decay: 1 } };
    });
  }
}

interface Run {
  final: PlanDecision;
  /** Actions performed (approved ones included). */
  history: PlannerHistoryEntry[];
  /** Decisions that asked for approval. */
  approvals: PlanDecision[];
}

let taskSeq = 0;

/**
 * The task loop in miniature: observe the phone (`ui_tree` → compact elements), plan, act on the
 * phone, until the planner answers done or fail; the history keeps each step's observation, as the
 * gateway's loop does. Approval requests are granted unless `deny`. `plannerPerStep` plans every step
 * on a new planner instance. With `tools`, the gateway's tools are offered and a `tool_call` of one is
 * answered by it (as the gateway runs it at once) and the loop goes on; `memories` are what the task's
 * memory recalled.
 */
async function drive(
  ui: PhoneUi,
  goal: string,
  options: { reportPackage?: boolean; deny?: boolean; plannerPerStep?: boolean; memories?: MemoryHit[]; tools?: GatewayTools } = {},
): Promise<Run> {
  const shared = new RuleBasedPlanner();
  const taskId = `task-${++taskSeq}`;
  const history: PlannerHistoryEntry[] = [];
  const approvals: PlanDecision[] = [];
  const maxSteps = 25;
  for (let stepIndex = 0; stepIndex < maxSteps; stepIndex++) {
    const tree = ui.uiTree();
    const elements = toUiElements(tree.nodes);
    const pkg = options.reportPackage === false ? undefined : foregroundPackage(tree.nodes);
    const planner = options.plannerPerStep ? new RuleBasedPlanner() : shared;
    const decision = await planner.plan({
      taskId,
      deviceId: 'sim-1',
      goal,
      stepIndex,
      maxSteps,
      observation: { frameId: tree.frameId, screen: { width: tree.screen.width, height: tree.screen.height }, elements, package: pkg },
      history: [...history],
      ...(options.tools ? { gatewayTools: options.tools.specs } : {}),
      ...(options.memories ? { memories: options.memories } : {}),
      signal: new AbortController().signal,
    });
    if (decision.type === 'tool_call' && options.tools?.specs.some((tool) => tool.name === decision.name)) {
      history.push({ index: stepIndex, decision, result: options.tools.call(decision.name, decision.arguments) });
      continue;
    }
    if (decision.type !== 'action') return { final: decision, history, approvals };
    if (decision.approval) {
      approvals.push(decision);
      if (options.deny) return { final: decision, history, approvals };
    }
    history.push({ index: stepIndex, decision, result: perform(ui, decision.action), observation: pkg === undefined ? { elements } : { elements, package: pkg } });
  }
  throw new Error(`no done or fail within ${maxSteps} steps for ${JSON.stringify(goal)}`);
}

function lastMessage(ui: PhoneUi, name: string): { from: string; text: string } | undefined {
  const messages = ui.state.conversations[name] ?? [];
  return messages[messages.length - 1];
}

function fieldText(ui: PhoneUi, id: string): string | undefined {
  const visit = (nodes: PhoneNode[]): string | undefined => {
    for (const n of nodes) {
      if (n.id === id) return n.text;
      const inner = visit(n.children);
      if (inner !== undefined) return inner;
    }
    return undefined;
  };
  return visit(ui.nodes());
}

interface GoalCase {
  goal: string;
  setup?: (ui: PhoneUi) => void;
  check: (ui: PhoneUi) => void;
}

const GOALS: GoalCase[] = [
  { goal: 'Turn on Wi-Fi', check: (ui) => expect(ui.state.wifi).toBe(true) },
  { goal: 'turn wifi ON.', check: (ui) => expect(ui.state.wifi).toBe(true) },
  { goal: '打开 Wi\u2011Fi', check: (ui) => expect(ui.state.wifi).toBe(true) },
  { goal: '打开WLAN', check: (ui) => expect(ui.state.wifi).toBe(true) },
  { goal: 'disable Wi-Fi', setup: (ui) => void (ui.state.wifi = true), check: (ui) => expect(ui.state.wifi).toBe(false) },
  { goal: 'enable Bluetooth', check: (ui) => expect(ui.state.bluetooth).toBe(true) },
  { goal: '关闭蓝牙', setup: (ui) => void (ui.state.bluetooth = true), check: (ui) => expect(ui.state.bluetooth).toBe(false) },
  { goal: '把蓝牙打开', check: (ui) => expect(ui.state.bluetooth).toBe(true) },
  { goal: 'open Settings', check: (ui) => expect(ui.current).toEqual({ screen: 'settings' }) },
  { goal: '打开设置', setup: (ui) => void ui.open('com.android.chrome'), check: (ui) => expect(ui.current).toEqual({ screen: 'settings' }) },
  { goal: 'launch Messages', check: (ui) => expect(ui.current).toEqual({ screen: 'messages' }) },
  { goal: '启动浏览器', check: (ui) => expect(ui.current).toEqual({ screen: 'browser' }) },
  { goal: '打开联系人', check: (ui) => expect(ui.current).toEqual({ screen: 'contacts' }) },
  {
    goal: 'open Settings and turn on Wi-Fi, then turn on Bluetooth',
    check: (ui) => expect([ui.state.wifi, ui.state.bluetooth]).toEqual([true, true]),
  },
  { goal: '打开设置，然后关闭 Wi-Fi', setup: (ui) => void (ui.state.wifi = true), check: (ui) => expect(ui.state.wifi).toBe(false) },
  { goal: 'send “Hello 世界 👋” to Alice', check: (ui) => expect(lastMessage(ui, 'Alice')).toEqual({ from: 'me', text: 'Hello 世界 👋' }) },
  { goal: '给 Bob 发消息 明天见', check: (ui) => expect(lastMessage(ui, 'Bob')).toEqual({ from: 'me', text: '明天见' }) },
  { goal: '发消息给张伟：你好，周末一起吃饭吗？', check: (ui) => expect(lastMessage(ui, '张伟')).toEqual({ from: 'me', text: '你好，周末一起吃饭吗？' }) },
  { goal: 'text Carlos: see you at 5', check: (ui) => expect(ui.state.conversations['Carlos']).toEqual([{ from: 'me', text: 'see you at 5' }]) },
  { goal: "send a message to Zoë saying 'running late'", check: (ui) => expect(ui.state.conversations['Zoë']).toEqual([{ from: 'me', text: 'running late' }]) },
  { goal: 'open example.com in browser', check: (ui) => expect(ui.state.browser).toEqual({ url: 'https://example.com', title: 'example.com' }) },
  { goal: '在浏览器打开 example.org/docs', check: (ui) => expect(ui.state.browser.url).toBe('https://example.org/docs') },
  { goal: 'go home', setup: (ui) => void ui.open('com.android.settings'), check: (ui) => expect(ui.current).toEqual({ screen: 'launcher' }) },
  { goal: '回到主屏幕', setup: (ui) => void ui.open('com.android.contacts'), check: (ui) => expect(ui.current).toEqual({ screen: 'launcher' }) },
  {
    goal: '返回',
    setup: (ui) => {
      ui.open('com.google.android.apps.messaging');
      const row = ui.centreOf((n) => n.text === 'Bob');
      if (row) ui.click(row.x, row.y);
    },
    check: (ui) => expect(ui.current).toEqual({ screen: 'messages' }),
  },
  { goal: 'tap Bluetooth', setup: (ui) => void ui.open('com.android.settings'), check: (ui) => expect(ui.state.bluetooth).toBe(true) },
  { goal: '点击 蓝牙', setup: (ui) => void ui.open('com.android.settings'), check: (ui) => expect(ui.state.bluetooth).toBe(true) },
  { goal: 'open Contacts and tap Zoë', check: (ui) => expect(ui.current).toEqual({ screen: 'contact', param: 'Zoë' }) },
  { goal: 'open Zoë', setup: (ui) => void ui.open('com.android.contacts'), check: (ui) => expect(ui.current).toEqual({ screen: 'contact', param: 'Zoë' }) },
  { goal: '打开 张伟', setup: (ui) => void ui.open('com.android.contacts'), check: (ui) => expect(ui.current).toEqual({ screen: 'contact', param: '张伟' }) },
  {
    goal: 'open the browser and type hello into the address bar',
    check: (ui) => expect(fieldText(ui, 'app/toolbar/url_bar')).toBe('hello'),
  },
  {
    goal: '打开浏览器，在地址栏输入 你好',
    check: (ui) => expect(fieldText(ui, 'app/toolbar/url_bar')).toBe('你好'),
  },
];

describe('RuleBasedPlanner on the simulated phone (final phone state checked)', () => {
  it.each(GOALS)('$goal', async ({ goal, setup, check }) => {
    const ui = new PhoneUi();
    setup?.(ui);
    const run = await drive(ui, goal);
    expect(run.final).toMatchObject({ type: 'done' });
    check(ui);
    expect(run.approvals).toEqual([]);
    for (const entry of run.history) expect(entry.result?.status).toBe('success');
  });

  it.each(GOALS)('$goal, on a new planner instance at every step: the same run', async ({ goal, setup }) => {
    const runs: Run[] = [];
    const phones: PhoneUi[] = [];
    for (const plannerPerStep of [false, true]) {
      const ui = new PhoneUi();
      setup?.(ui);
      runs.push(await drive(ui, goal, { plannerPerStep }));
      phones.push(ui);
    }
    expect(runs[1]).toEqual(runs[0]);
    expect(phones[1]?.state).toEqual(phones[0]?.state);
  });

  it.each(GOALS.filter((c) => !c.goal.startsWith('go home') && !c.goal.startsWith('回到')))('$goal, without the foreground package', async ({ goal, setup, check }) => {
    const ui = new PhoneUi();
    setup?.(ui);
    const run = await drive(ui, goal, { reportPackage: false });
    expect(run.final).toMatchObject({ type: 'done' });
    check(ui);
  });

  it('turns on Wi-Fi in three steps: open Settings, tap the switch at its centre, done', async () => {
    const ui = new PhoneUi();
    const run = await drive(ui, 'Turn on Wi-Fi');
    const switchCentre = ui.centreOf((n) => n.class === 'android.widget.Switch' && n.desc === 'Wi-Fi');
    expect(run.history.map((h) => (h.decision.type === 'action' ? h.decision.action : null))).toEqual([
      { command: 'open', app: 'com.android.settings' },
      { command: 'click', x: switchCentre?.x, y: switchCentre?.y },
    ]);
    const click = run.history[1]?.decision;
    expect(click).toMatchObject({ type: 'action', elementIndex: expect.any(Number) });
    expect(run.final).toEqual({ type: 'done', summary: 'Wi-Fi is on.', reasoning: expect.stringContaining('turn on "Wi-Fi"') });
  });

  it.each([
    ['Turn off Wi-Fi', (ui: PhoneUi) => void ui.open('com.android.settings')],
    ['打开蓝牙', (ui: PhoneUi) => ((ui.state.bluetooth = true), void ui.open('com.android.settings'))],
    ['open Settings', (ui: PhoneUi) => void ui.open('com.android.settings')],
    ['go home', () => undefined],
  ])('"%s" already satisfied ends done at step 0', async (goal, setup) => {
    const ui = new PhoneUi();
    setup(ui);
    const before = JSON.stringify(ui.state);
    const run = await drive(ui, goal);
    expect(run.history).toEqual([]);
    expect(run.final.type).toBe('done');
    expect(JSON.stringify(ui.state)).toBe(before);
  });

  it.each([
    ['open example.com in browser', 'https://example.com', 'example.com'],
    ['visit example.com/docs', 'https://example.com/docs', 'https://example.com/docs'],
  ])('"%s" with the browser already there still loads the address itself: only its own navigation counts', async (goal, url, shown) => {
    const ui = new PhoneUi();
    ui.state.browser = { url, title: 'example.com' };
    ui.open('com.android.chrome');
    const run = await drive(ui, goal);
    const bar = ui.centreOf((n) => n.id === 'app/toolbar/url_bar');
    const go = ui.centreOf((n) => n.id === 'app/toolbar/go');
    // The focused address bar already holds the address: Go loads it.
    expect(run.history.map((h) => (h.decision.type === 'action' ? h.decision.action : null))).toEqual([
      { command: 'click', x: bar?.x, y: bar?.y },
      { command: 'click', x: go?.x, y: go?.y },
    ]);
    expect(run.final).toMatchObject({ type: 'done', summary: `The browser shows ${shown}.` });
  });

  it('"打开浏览器然后访问 example.com" on a page of the same site navigates to the address instead of taking that page for it', async () => {
    const ui = new PhoneUi();
    ui.state.browser = { url: 'https://example.com/docs', title: 'example.com' };
    const run = await drive(ui, '打开浏览器然后访问 example.com');
    expect(run.history.map((h) => h.decision.type === 'action' && h.decision.action.command)).toEqual(['open', 'click', 'input', 'click']);
    expect(ui.state.browser.url).toBe('https://example.com');
    expect(run.final).toMatchObject({ type: 'done', summary: 'The browser shows example.com.' });
  });

  it('asks for approval before sending to a new recipient, on the Send tap only, and sends once approved', async () => {
    const ui = new PhoneUi();
    const run = await drive(ui, "send 'hi there' to Nina");
    expect(run.final.type).toBe('done');
    expect(ui.state.conversations['Nina']).toEqual([{ from: 'me', text: 'hi there' }]);
    expect(run.approvals).toHaveLength(1);
    const send = ui.centreOf((n) => n.id === 'app/compose/send');
    expect(run.approvals[0]).toMatchObject({
      type: 'action',
      action: { command: 'click', x: send?.x, y: send?.y },
      approval: { reason: expect.stringContaining('"Nina"') },
    });
  });

  it('stops at the approval when it is denied: nothing is sent', async () => {
    const ui = new PhoneUi();
    const run = await drive(ui, 'text Nina: hello', { deny: true });
    expect(run.final).toMatchObject({ type: 'action', approval: { reason: expect.any(String) } });
    expect(ui.state.conversations['Nina']).toEqual([]);
  });

  it('sends to an existing conversation without approval even when the task starts inside it', async () => {
    const ui = new PhoneUi();
    ui.open('com.google.android.apps.messaging');
    const row = ui.centreOf((n) => n.text === 'Alice');
    ui.click(row?.x ?? 0, row?.y ?? 0);
    const run = await drive(ui, 'send ok to Alice');
    expect(run.approvals).toEqual([]);
    expect(lastMessage(ui, 'Alice')).toEqual({ from: 'me', text: 'ok' });
  });

  it.each([
    ['remember that mom is Alice', "send 'hi' to mom", 'mom is Alice (memory)'],
    ['记住妈妈是Alice', "给妈妈发消息'hi'", '妈妈 is Alice (memory)'],
  ])('remembers %j with memory_store, then plans %j with the name the memory gives: hi is sent to Alice', async (remember, send, note) => {
    const ui = new PhoneUi();
    const memory = new MiniatureMemory();
    const stored = await drive(ui, remember, { tools: memory.tools, memories: memory.recall() });
    expect(stored.final).toMatchObject({ type: 'done' });
    expect(stored.history.map((h) => h.decision.type)).toEqual(['tool_call']);
    const before = ui.state.conversations['Alice']?.length ?? 0;

    const run = await drive(ui, send, { tools: memory.tools, memories: memory.recall() });
    expect(run.final).toMatchObject({ type: 'done', summary: 'Sent "hi" to Alice.' });
    expect(lastMessage(ui, 'Alice')).toEqual({ from: 'me', text: 'hi' });
    expect(ui.state.conversations['Alice']).toHaveLength(before + 1);
    expect(ui.state.conversations['mom'] ?? []).toEqual([]);
    expect(run.approvals).toEqual([]);
    expect(run.history.every((h) => h.decision.reasoning.endsWith(` — ${note}`))).toBe(true);
  });

  it('stores "remember my office Wi-Fi is ACME-5G" as a fact, touching nothing on the phone', async () => {
    const ui = new PhoneUi();
    const memory = new MiniatureMemory();
    const run = await drive(ui, 'remember my office Wi-Fi is ACME-5G', { tools: memory.tools });
    expect(run.history.map((h) => h.decision)).toEqual([
      { type: 'tool_call', name: 'memory_store', arguments: { text: 'my office Wi-Fi is ACME-5G', category: 'fact', priority: 6 }, reasoning: 'The goal asks to remember "my office Wi-Fi is ACME-5G".' },
    ]);
    expect(run.final).toEqual({ type: 'done', summary: 'Remembered "my office Wi-Fi is ACME-5G".', reasoning: 'memory_store stored it.' });
    expect(memory.recall().map((hit) => hit.text)).toEqual(['my office Wi-Fi is ACME-5G']);
  });

  it('fails at once, without acting, on a goal it does not understand', async () => {
    const ui = new PhoneUi();
    const run = await drive(ui, 'make me a sandwich');
    expect(run.history).toEqual([]);
    expect(run.final.type).toBe('fail');
    const reason = run.final.type === 'fail' ? run.final.reason : '';
    expect(reason).toContain('"make me a sandwich"');
    expect(reason).toContain('turn a setting on or off');
  });

  it('fails with what it understood when a setting cannot be found after navigating', async () => {
    const ui = new PhoneUi();
    const run = await drive(ui, 'turn on Airplane mode');
    expect(run.final.type).toBe('fail');
    expect(run.final.type === 'fail' && run.final.reason).toBe(
      'Goal understood as: turn on "Airplane mode". Could not find the Airplane mode switch in Settings.',
    );
    expect(run.history.map((h) => h.decision.type === 'action' && h.decision.action.command)).toEqual(['open']);
  });

  it('fails when no app or item has the name, after looking on the home screen and for an app drawer', async () => {
    const ui = new PhoneUi();
    ui.open('com.android.settings');
    const run = await drive(ui, 'open Calculator');
    expect(run.history.map((h) => (h.decision.type === 'action' ? h.decision.action : null))).toEqual([
      { command: 'home' },
      { command: 'swipe', x1: 540, y1: 1920, x2: 540, y2: 720, durationMs: 300 },
    ]);
    expect(run.final).toMatchObject({
      type: 'fail',
      reason:
        'Goal understood as: open "Calculator". No app is known as "Calculator", and nothing labelled so is on the screen or the home screen; ' +
        'swiping up on the home screen showed no app drawer.',
    });
  });

  it.each([
    ['open Zoë', 'Zoë', ['click']],
    ['打开 张伟', '张伟', ['swipe', 'click']],
    ['open דוד', 'דוד', ['swipe', 'click']],
  ])('"%s" on the Contacts screen scrolls the list to the item as needed and taps it, never leaving the app', async (goal, name, expected) => {
    const ui = new PhoneUi();
    ui.open('com.android.contacts');
    const run = await drive(ui, goal);
    expect(run.history.map((h) => h.decision.type === 'action' && h.decision.action.command)).toEqual(expected);
    expect(ui.backStack).toEqual(['launcher', 'contacts', 'contact']);
    expect(ui.current).toEqual({ screen: 'contact', param: name });
    // The contact's page shows the name as its large title: that is the item open.
    expect(run.final).toEqual({ type: 'done', summary: `${JSON.stringify(name)} is open: the screen's title is ${JSON.stringify(name)}.`, reasoning: expect.any(String) });
  });

  it('"open" an item that no list holds: scrolls to the end of the list, then looks on the home screen once and for an app drawer, then fails', async () => {
    const ui = new PhoneUi();
    ui.open('com.android.contacts');
    const run = await drive(ui, 'open Zelda');
    const commands = run.history.map((h) => h.decision.type === 'action' && h.decision.action.command);
    const home = commands.indexOf('home');
    expect(home).toBeGreaterThan(0);
    expect(commands.slice(0, home).every((c) => c === 'swipe')).toBe(true);
    expect(commands.slice(home + 1)).toEqual(['swipe']);
    expect(run.final).toMatchObject({
      type: 'fail',
      reason: expect.stringMatching(
        new RegExp(`No app is known as "Zelda", and nothing labelled so is on the screen \\(its list scrolled ${home} time\\(s\\)\\) or the home screen; swiping up on the home screen showed no app drawer\\.$`),
      ),
    });
  });

  it.each([1000, 1500, 5000])('sends a %i-character message from the home screen exactly once, taps Send once, and ends done', async (length) => {
    const ui = new PhoneUi();
    const text = 'z'.repeat(length);
    const run = await drive(ui, `send ${text} to Alice`);
    const send = ui.centreOf((n) => n.id === 'app/compose/send');
    const sendTaps = run.history.filter((h) => h.decision.type === 'action' && h.decision.action.command === 'click' && h.decision.action.x === send?.x && h.decision.action.y === send?.y);
    expect(sendTaps).toHaveLength(1);
    expect(ui.state.conversations['Alice']?.filter((m) => m.text === text)).toEqual([{ from: 'me', text }]);
    expect(ui.state.conversations['Alice']).toHaveLength(3);
    expect(run.final).toEqual({
      type: 'done',
      summary: `Sent "${'z'.repeat(60)}…" (${length} characters) to Alice.`,
      reasoning: `The screen shows the goal reached (send "${'z'.repeat(60)}…" (${length} characters) to "Alice").`,
    });
  });

  it('scrolls a list to find a tap target and fails once the end of the list is reached', async () => {
    const ui = new PhoneUi();
    ui.open('com.android.contacts');
    const run = await drive(ui, 'tap Zelda');
    const commands = run.history.map((h) => h.decision.type === 'action' && h.decision.action.command);
    expect(commands.length).toBeGreaterThan(1);
    expect(commands.every((c) => c === 'swipe')).toBe(true);
    expect(run.final).toMatchObject({ type: 'fail', reason: expect.stringContaining('Nothing labelled "Zelda" is on the screen (scrolled') });
  });
});

describe('RuleBasedPlanner on the simulated phone replaying a recorded screen (static: nothing a tap does shows)', () => {
  const replay = parseUiHierarchyXml(readFileSync(path.resolve(__dirname, '../../../../test/fixtures/screens/settings-top.xml'), 'utf8'));

  it('"open Network & internet" never ends done: tap, tap once more, then fail for want of an effect', async () => {
    const ui = new PhoneUi({ replay });
    const run = await drive(ui, 'open Network & internet');
    expect(run.history.map((h) => (h.decision.type === 'action' ? h.decision.action : null))).toEqual([
      { command: 'click', x: 540, y: 497 },
      { command: 'click', x: 540, y: 497 },
    ]);
    expect(run.final).toMatchObject({ type: 'fail', reason: expect.stringContaining('Tapping "Network & internet" had no visible effect, twice') });
  });

  it('"turn on Wi-Fi" follows the known path, then fails: the row it taps (twice) opens nothing', async () => {
    const run = await drive(new PhoneUi({ replay }), 'turn on Wi-Fi');
    expect(run.history.map((h) => (h.decision.type === 'action' ? [h.decision.action, h.decision.elementIndex] : null))).toEqual([
      [{ command: 'click', x: 540, y: 497 }, 4],
      [{ command: 'click', x: 540, y: 497 }, 4],
    ]);
    expect(run.final).toMatchObject({ type: 'fail', reason: 'Goal understood as: turn on "Wi-Fi". Tapping "Network & internet" had no visible effect, twice (the screen did not change).' });
  });
});

describe('RuleBasedPlanner steps on the simulated phone for intents as the goal parser splits them', () => {
  /** The task loop over hand-made `intents` (one per object of "turn on Bluetooth and Wi-Fi", …). */
  function driveIntents(ui: PhoneUi, intents: GoalIntent[]): { final: PlanDecision; commands: string[] } {
    const history: PlannerHistoryEntry[] = [];
    for (let stepIndex = 0; stepIndex < 25; stepIndex++) {
      const tree = ui.uiTree();
      const elements = toUiElements(tree.nodes);
      const pkg = foregroundPackage(tree.nodes);
      const memory = taskMemoryFrom(history, intents);
      const decision = decideStep(intents, memory, { index: stepIndex, screen: new Screen(elements, pkg), history: [...history] });
      if (decision.type !== 'action') return { final: decision, commands: history.map((h) => (h.decision.type === 'action' ? h.decision.action.command : '')) };
      history.push({ index: stepIndex, decision, result: perform(ui, decision.action), observation: pkg === undefined ? { elements } : { elements, package: pkg } });
    }
    throw new Error('no done or fail within 25 steps');
  }

  it('turns on Bluetooth and Wi-Fi, one switch after the other, in Settings', () => {
    const ui = new PhoneUi();
    const run = driveIntents(ui, [
      { kind: 'toggle', setting: 'Bluetooth', on: true },
      { kind: 'toggle', setting: 'Wi-Fi', on: true },
    ]);
    expect(run.commands).toEqual(['open', 'click', 'click']);
    expect([ui.state.bluetooth, ui.state.wifi]).toEqual([true, true]);
    expect(run.final).toMatchObject({ type: 'done', summary: 'Wi-Fi is on.' });
  });

  it('opens the browser and visits an address (two intents), navigating itself', () => {
    const ui = new PhoneUi();
    const run = driveIntents(ui, [
      { kind: 'open', name: '浏览器' },
      { kind: 'open_url', url: 'example.com' },
    ]);
    expect(run.commands).toEqual(['open', 'click', 'input', 'click']);
    expect(ui.state.browser.url).toBe('https://example.com');
    expect(run.final.type).toBe('done');
  });
});
