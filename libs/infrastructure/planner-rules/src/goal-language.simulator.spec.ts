import { foregroundPackage, toUiElements, type AgentAction, type PlanDecision, type PlannerHistoryEntry } from '@mobileclaw/domain';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the test drives the simulated phone's pure UI state machine (no sockets); nothing outside tests imports it
import { PhoneUi } from '@mobileclaw/simulator';
import { RuleBasedPlanner } from './rule-based-planner';

function perform(ui: PhoneUi, action: AgentAction): void {
  if (action.command === 'open') ui.open(action.app);
  else if (action.command === 'click') ui.click(action.x, action.y);
  else if (action.command === 'swipe') ui.swipe(action.x1, action.y1, action.x2, action.y2);
  else if (action.command === 'input') ui.input(action.text, action.clear);
  else if (action.command === 'back') ui.back();
  else if (action.command === 'home') ui.home();
  else throw new Error(`unexpected action ${action.command}`);
}

/** Observe → plan → act on the simulated phone until the planner answers done or fail. */
async function drive(ui: PhoneUi, goal: string): Promise<{ final: PlanDecision; actions: AgentAction[] }> {
  const planner = new RuleBasedPlanner();
  const history: PlannerHistoryEntry[] = [];
  for (let stepIndex = 0; stepIndex < 25; stepIndex++) {
    const tree = ui.uiTree();
    const elements = toUiElements(tree.nodes);
    const pkg = foregroundPackage(tree.nodes);
    const decision = await planner.plan({
      taskId: `goal-language-${goal}`,
      deviceId: 'sim-1',
      goal,
      stepIndex,
      maxSteps: 25,
      observation: { frameId: tree.frameId, screen: { width: tree.screen.width, height: tree.screen.height }, elements, package: pkg },
      history: [...history],
      signal: new AbortController().signal,
    });
    if (decision.type !== 'action') return { final: decision, actions: history.flatMap((h) => (h.decision.type === 'action' ? [h.decision.action] : [])) };
    perform(ui, decision.action);
    history.push({ index: stepIndex, decision, result: { status: 'success' }, observation: { elements, package: pkg } });
  }
  throw new Error(`no done or fail within 25 steps for ${JSON.stringify(goal)}`);
}

describe('goal wordings on the simulated phone (final phone state checked)', () => {
  it.each([
    ['Turn on Bluetooth and Wi-Fi', { wifi: false, bluetooth: false }, { wifi: true, bluetooth: true }],
    ['turn Bluetooth and Wi-Fi off', { wifi: true, bluetooth: true }, { wifi: false, bluetooth: false }],
    ['关闭蓝牙和WLAN', { wifi: true, bluetooth: true }, { wifi: false, bluetooth: false }],
    ['打开蓝牙、WLAN', { wifi: false, bluetooth: false }, { wifi: true, bluetooth: true }],
    ['打开设置打开蓝牙', { wifi: false, bluetooth: false }, { wifi: false, bluetooth: true }],
    ['进入设置关闭WLAN', { wifi: true, bluetooth: false }, { wifi: false, bluetooth: false }],
  ])('%s', async (goal, before, after) => {
    const ui = new PhoneUi();
    Object.assign(ui.state, before);
    const run = await drive(ui, goal);
    expect(run.final.type).toBe('done');
    expect({ wifi: ui.state.wifi, bluetooth: ui.state.bluetooth }).toEqual(after);
  });

  it('打开浏览器访问 example.com: opens the browser, then loads the address, without going home', async () => {
    const ui = new PhoneUi();
    ui.open('com.android.settings');
    const run = await drive(ui, '打开浏览器访问 example.com');
    expect(run.final.type).toBe('done');
    expect(ui.state.browser.url).toBe('https://example.com');
    expect(run.actions[0]).toEqual({ command: 'open', app: 'com.android.chrome' });
    expect(run.actions.some((a) => a.command === 'home')).toBe(false);
  });
});
