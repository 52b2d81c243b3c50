import { isMobileClawError, type PlanDecision, type PlannerHistoryEntry, type StepResult, type UiElement } from '@mobileclaw/domain';
import { RuleBasedPlanner } from './rule-based-planner';

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

/** A history entry of an action that succeeded, planned on `elements` (the observation is omitted when `elements` is). */
function entry(index: number, decision: PlanDecision, elements?: UiElement[], pkg?: string, result: StepResult = { status: 'success' }): PlannerHistoryEntry {
  const planned: PlannerHistoryEntry = { index, decision, result };
  if (elements) planned.observation = pkg === undefined ? { elements } : { elements, package: pkg };
  return planned;
}

/**
 * Plans on the same screen again and again, every action "succeeding" without effect; the history
 * keeps each step's observation unless `withObservations` is false.
 */
async function planOnUnchangedScreen(planner: () => RuleBasedPlanner, goal: string, elements: UiElement[], pkg: string, withObservations = true): Promise<PlanDecision[]> {
  const history: PlannerHistoryEntry[] = [];
  const decisions: PlanDecision[] = [];
  for (let i = 0; i < 10; i++) {
    const decision = await planner().plan(context(goal, elements, history, { pkg }));
    decisions.push(decision);
    if (decision.type !== 'action') break;
    history.push(entry(i, decision, withObservations ? elements : undefined, pkg));
  }
  return decisions;
}

describe('RuleBasedPlanner', () => {
  it('is named rule-based', () => {
    expect(new RuleBasedPlanner().name).toBe('rule-based');
  });

  it('fails at once, saying why, on a goal of invisible characters only', async () => {
    const decision = await new RuleBasedPlanner().plan(context('\u202e\u200b \u2066\ufeff\u200f', LAUNCHER, []));
    expect(decision).toEqual({
      type: 'fail',
      reason: 'The goal has no visible text: it is only spaces and invisible format characters (such as U+202E, U+200B or U+FEFF).',
      reasoning: 'Nothing is left of the goal once invisible format characters and spaces are removed.',
    });
  });

  it('reads a goal wrapped in bidi controls as the goal', async () => {
    const wrapped = await new RuleBasedPlanner().plan(context('\u2067open\u2069 \u200eSettings\u200f', LAUNCHER, []));
    const plain = await new RuleBasedPlanner().plan(context('open Settings', LAUNCHER, []));
    expect(plain.type).toBe('action');
    expect(wrapped).toEqual(plain);
  });

  it('taps a switch once more when the first tap changed nothing, then fails: no effect twice', async () => {
    const planner = new RuleBasedPlanner();
    const decisions = await planOnUnchangedScreen(() => planner, 'turn on Wi-Fi', STUCK_SETTINGS, 'com.android.settings');
    expect(decisions.map((d) => d.type)).toEqual(['action', 'action', 'fail']);
    expect(decisions[0]).toMatchObject({ action: { command: 'click', x: 964, y: 326 }, elementIndex: 2 });
    expect(decisions[1]).toMatchObject({ action: { command: 'click', x: 964, y: 326 }, elementIndex: 2, reasoning: 'Tapping the Wi-Fi switch changed nothing on the screen; tap it once more.' });
    expect(decisions[2]).toMatchObject({
      type: 'fail',
      reason: 'Goal understood as: turn on "Wi-Fi". Tapping the Wi-Fi switch had no visible effect, twice (the screen did not change).',
    });
  });

  it('plans the same on a new planner each step: what it knows of a task comes from the history', async () => {
    const shared = new RuleBasedPlanner();
    const once = await planOnUnchangedScreen(() => shared, 'turn on Wi-Fi', STUCK_SETTINGS, 'com.android.settings');
    const fresh = await planOnUnchangedScreen(() => new RuleBasedPlanner(), 'turn on Wi-Fi', STUCK_SETTINGS, 'com.android.settings');
    expect(fresh).toEqual(once);
    expect(fresh.map((d) => d.type)).toEqual(['action', 'action', 'fail']);
  });

  it('still stops a repeated action when the history carries no observations (e.g. rebuilt from stored steps)', async () => {
    const decisions = await planOnUnchangedScreen(() => new RuleBasedPlanner(), 'turn on Wi-Fi', STUCK_SETTINGS, 'com.android.settings', false);
    expect(decisions.map((d) => d.type)).toEqual(['action', 'action', 'fail']);
    expect(decisions[2]).toMatchObject({ reason: expect.stringContaining('was already tried 2 times on this screen without any change') });
  });

  it('keeps tasks apart on one planner, and learns nothing from a step it would not have taken', async () => {
    const planner = new RuleBasedPlanner();
    const launcher = 'com.google.android.apps.nexuslauncher';
    const failed: StepResult = { status: 'error', errorCode: 'DEVICE_ERROR', message: 'APP_NOT_FOUND' };
    const open = await planner.plan(context('open Settings', LAUNCHER, [], { taskId: 'a', pkg: launcher }));
    // Task b's history holds the same failed launch, but taken on a screen where this planner would
    // have done something else (Settings already open): that step teaches nothing, so b launches again.
    await planner.plan(context('open Settings', LAUNCHER, [], { taskId: 'b', pkg: launcher }));
    const b = await planner.plan(context('open Settings', LAUNCHER, [entry(0, open, STUCK_SETTINGS, 'com.android.settings', failed)], { taskId: 'b', pkg: launcher }));
    expect(b).toMatchObject({ action: { command: 'open', app: 'com.android.settings' } });
    const a = await planner.plan(context('open Settings', LAUNCHER, [entry(0, open, LAUNCHER, launcher, failed)], { taskId: 'a', pkg: launcher }));
    expect(a).toMatchObject({ action: { command: 'click', x: 135, y: 273 }, elementIndex: 0 });
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
    const second = await planner.plan(context('open Settings', LAUNCHER, [entry(0, first, LAUNCHER, 'com.google.android.apps.nexuslauncher', failed)], { pkg: 'com.google.android.apps.nexuslauncher' }));
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
    const next = await planner.plan(context(goal, after, [entry(0, send, conversation('hello there'), MESSAGING, result)], { pkg: MESSAGING }));
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
