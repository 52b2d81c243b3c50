import { isMobileClawError, type PlanDecision, type PlannerHistoryEntry, type StepResult, type UiElement } from '@mobileclaw/domain';
import { RuleBasedPlanner } from './rule-based-planner';
import { TaskMemoryStore } from './task-memory';

function el(index: number, props: Partial<UiElement> & Pick<UiElement, 'bounds'>): UiElement {
  const [l, t, r, b] = props.bounds;
  return { index, nodeId: `n${index}`, type: 'View', center: [Math.floor((l + r) / 2), Math.floor((t + b) / 2)], ...props };
}

/** A settings page whose Wi‑Fi switch ignores taps. */
const STUCK_SETTINGS: UiElement[] = [
  el(0, { type: 'TextView', text: 'Settings', bounds: [0, 63, 1080, 231] }),
  el(1, { type: 'LinearLayout', text: 'Wi‑Fi · Off', clickable: true, bounds: [0, 231, 1080, 420] }),
  el(2, { type: 'Switch', desc: 'Wi‑Fi', clickable: true, checkable: true, checked: false, bounds: [891, 263, 1038, 389] }),
];

const LAUNCHER: UiElement[] = [
  el(0, { type: 'TextView', text: 'Settings', clickable: true, bounds: [0, 147, 270, 399] }),
  el(1, { type: 'TextView', text: 'Messages', clickable: true, bounds: [270, 147, 540, 399] }),
];

const MESSAGING = 'com.google.android.apps.messaging';

/** A conversation with Alice: title, earlier bubble(s), the compose field holding `compose`, Send. */
function conversation(compose: string, bubbles: string[] = ['Hi!']): UiElement[] {
  const elements: UiElement[] = [el(0, { type: 'TextView', text: 'Alice', bounds: [189, 63, 1038, 231] })];
  bubbles.forEach((text, i) => elements.push(el(elements.length, { type: 'TextView', text, bounds: [42, 300 + i * 150, 600, 420 + i * 150] })));
  elements.push(el(elements.length, { type: 'EditText', text: compose === '' ? undefined : compose, editable: true, focused: true, bounds: [32, 2106, 807, 2253] }));
  elements.push(el(elements.length, { type: 'Button', text: 'Send', desc: 'Send message', clickable: true, bounds: [828, 2106, 1049, 2253] }));
  return elements;
}

function context(goal: string, elements: UiElement[], history: PlannerHistoryEntry[], options: { taskId?: string; pkg?: string; signal?: AbortSignal } = {}) {
  return {
    taskId: options.taskId ?? 'task-1',
    deviceId: 'd1',
    goal,
    stepIndex: history.length,
    maxSteps: 25,
    observation: { screen: { width: 1080, height: 2400 }, elements, package: options.pkg },
    history,
    signal: options.signal ?? new AbortController().signal,
  };
}

/** Plans on the same screen again and again, every action "succeeding" without effect. */
async function planOnUnchangedScreen(planner: () => RuleBasedPlanner, goal: string, elements: UiElement[], pkg: string): Promise<PlanDecision[]> {
  const history: PlannerHistoryEntry[] = [];
  const decisions: PlanDecision[] = [];
  for (let i = 0; i < 10; i++) {
    const decision = await planner().plan(context(goal, elements, history, { pkg }));
    decisions.push(decision);
    if (decision.type !== 'action') break;
    history.push({ index: i, decision, result: { status: 'success' } });
  }
  return decisions;
}

describe('RuleBasedPlanner', () => {
  it('is named rule-based', () => {
    expect(new RuleBasedPlanner().name).toBe('rule-based');
  });

  it('fails after trying the same action twice on an unchanged screen', async () => {
    const planner = new RuleBasedPlanner();
    const decisions = await planOnUnchangedScreen(() => planner, 'turn on Wi-Fi', STUCK_SETTINGS, 'com.android.settings');
    expect(decisions.map((d) => d.type)).toEqual(['action', 'action', 'fail']);
    expect(decisions[0]).toMatchObject({ action: { command: 'click', x: 964, y: 326 }, elementIndex: 2 });
    expect(decisions[2]).toMatchObject({
      type: 'fail',
      reason: 'Goal understood as: turn on "Wi-Fi". The same action ({"command":"click","x":964,"y":326}) was already tried 2 times on this screen without any change.',
    });
  });

  it('still stops a repeated action when its memory of the task is gone (a new planner each step)', async () => {
    const decisions = await planOnUnchangedScreen(() => new RuleBasedPlanner(), 'turn on Wi-Fi', STUCK_SETTINGS, 'com.android.settings');
    expect(decisions.map((d) => d.type)).toEqual(['action', 'action', 'fail']);
  });

  it('throws ABORTED when the task is canceled', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await new RuleBasedPlanner().plan(context('go home', LAUNCHER, [], { signal: controller.signal })).catch((e: unknown) => e);
    expect(isMobileClawError(error, 'ABORTED')).toBe(true);
  });

  it('asks for approval before tapping a deleting or paying control', async () => {
    const screen = [el(0, { type: 'Button', text: 'Delete conversation', clickable: true, bounds: [0, 500, 1080, 650] }), el(1, { type: 'Button', text: '立即支付', clickable: true, bounds: [0, 700, 1080, 850] })];
    expect(await new RuleBasedPlanner().plan(context('tap Delete conversation', screen, []))).toMatchObject({
      action: { command: 'click', x: 540, y: 575 },
      approval: { reason: 'tapping "Delete conversation" may delete data or spend money' },
    });
    expect(await new RuleBasedPlanner().plan(context('点击 立即支付', screen, []))).toMatchObject({ elementIndex: 1, approval: { reason: expect.stringContaining('立即支付') } });
  });

  it('falls back to the launcher icon when launching by package fails', async () => {
    const planner = new RuleBasedPlanner();
    const first = await planner.plan(context('open Settings', LAUNCHER, [], { pkg: 'com.google.android.apps.nexuslauncher' }));
    expect(first).toMatchObject({ action: { command: 'open', app: 'com.android.settings' } });
    const failed: StepResult = { status: 'error', errorCode: 'DEVICE_ERROR', message: 'APP_NOT_FOUND' };
    const second = await planner.plan(context('open Settings', LAUNCHER, [{ index: 0, decision: first, result: failed }], { pkg: 'com.google.android.apps.nexuslauncher' }));
    expect(second).toMatchObject({ action: { command: 'click', x: 135, y: 273 }, elementIndex: 0 });
  });

  it('treats System UI as an unknown foreground app', async () => {
    expect(await new RuleBasedPlanner().plan(context('open Settings', LAUNCHER, [], { pkg: 'com.android.systemui' }))).toMatchObject({
      action: { command: 'open', app: 'com.android.settings' },
    });
  });

  it('ends a compound goal done at step 0 when every part already holds', async () => {
    const on = STUCK_SETTINGS.map((e) => (e.checkable ? { ...e, checked: true } : e));
    expect(await new RuleBasedPlanner().plan(context('open Settings and turn on Wi-Fi', on, [], { pkg: 'com.android.settings' }))).toEqual({
      type: 'done',
      summary: 'Settings is open. Wi-Fi is on.',
      reasoning: 'The screen shows the goal reached (open "Settings", then turn on "Wi-Fi").',
    });
  });
});

describe('RuleBasedPlanner: Send is tapped at most once', () => {
  /** Plans Send on a conversation whose compose field holds the message, then plans again on `after`. */
  async function sendThen(after: UiElement[], result: StepResult): Promise<[PlanDecision, PlanDecision]> {
    const planner = new RuleBasedPlanner();
    const goal = 'send hello there to Alice';
    const send = await planner.plan(context(goal, conversation('hello there'), [], { pkg: MESSAGING }));
    const next = await planner.plan(context(goal, after, [{ index: 0, decision: send, result }], { pkg: MESSAGING }));
    return [send, next];
  }

  it('fails instead of tapping Send again when the compose field still holds the message after a successful tap', async () => {
    const [send, next] = await sendThen(conversation('hello there'), { status: 'success' });
    expect(send).toMatchObject({ type: 'action', action: { command: 'click', x: 938, y: 2179 }, elementIndex: 3 });
    expect(next).toEqual({
      type: 'fail',
      reason:
        'Goal understood as: send "hello there" to "Alice". The phone reported the Send tap done, but the compose field still holds the message, ' +
        'so the message to Alice may not have been sent; Send is not tapped again, since a message cannot be unsent.',
      reasoning: expect.any(String),
    });
  });

  it('fails instead of retrying when the Send tap itself failed and the message is still there', async () => {
    const [, next] = await sendThen(conversation('hello there'), { status: 'error', errorCode: 'TIMEOUT', message: 'no answer in 10000 ms' });
    expect(next).toMatchObject({ type: 'fail', reason: expect.stringContaining('The Send tap failed (TIMEOUT: no answer in 10000 ms), but the compose field still holds the message') });
  });

  it('is done once the compose field is empty after Send, saying when the message is not visible on screen', async () => {
    const [, shown] = await sendThen(conversation('', ['Hi!', 'hello there']), { status: 'success' });
    expect(shown).toMatchObject({ type: 'done', summary: 'Sent "hello there" to Alice.' });
    const [, hidden] = await sendThen(conversation('', ['Hi!']), { status: 'success' });
    expect(hidden).toMatchObject({ type: 'done', summary: 'Sent "hello there" to Alice (the compose field was emptied by Send; the message is not visible on screen).' });
  });

  it('fails without tapping Send again when the conversation is gone after the tap', async () => {
    const [, next] = await sendThen(LAUNCHER, { status: 'success' });
    expect(next).toMatchObject({ type: 'fail', reason: expect.stringContaining('the conversation was no longer on the screen, so the message cannot be confirmed; Send is not tapped again') });
  });
});

describe('TaskMemoryStore', () => {
  it('keeps at most its capacity of tasks, the least recently used evicted', () => {
    const store = new TaskMemoryStore(2);
    store.get('a', 'g', false).intentIndex = 1;
    store.get('b', 'g', false);
    store.get('a', 'g', false);
    store.get('c', 'g', false);
    expect(store.size).toBe(2);
    expect(store.get('a', 'g', false).intentIndex).toBe(1);
    expect(store.get('b', 'g', false).intentIndex).toBe(0);
  });

  it('starts a task over at its first step or when its goal changes', () => {
    const store = new TaskMemoryStore();
    store.get('a', 'g', false).intentIndex = 1;
    expect(store.get('a', 'other', false).intentIndex).toBe(0);
    store.get('a', 'other', false).intentIndex = 1;
    expect(store.get('a', 'other', true).intentIndex).toBe(0);
  });
});
