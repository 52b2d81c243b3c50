import type { CallerToolSpec, PlanDecision, PlannerHistoryEntry, PlanningContext, StepResult, UiElement } from '@mobileclaw/domain';
import { RuleBasedPlanner } from './rule-based-planner';
import { splitToolCalls } from './tool-call-clauses';

const LAUNCHER: UiElement[] = [
  { index: 0, nodeId: 'n0', type: 'TextView', text: 'Settings', clickable: true, bounds: [0, 147, 270, 399], center: [135, 273] },
  { index: 1, nodeId: 'n1', type: 'TextView', text: 'Messages', clickable: true, bounds: [270, 147, 540, 399], center: [405, 273] },
];
const SETTINGS: UiElement[] = [{ index: 0, nodeId: 'n0', type: 'TextView', text: 'Settings', bounds: [0, 63, 1080, 231], center: [540, 147] }];
/** The tools the caller offers in these tests. */
const tools: CallerToolSpec[] = [{ name: 'lookup_order', description: 'Looks an order up by its id.', inputSchema: { type: 'object' }, kind: 'OBSERVATION' }];

function context(goal: string, history: PlannerHistoryEntry[], options: { tools?: CallerToolSpec[]; elements?: UiElement[]; pkg?: string } = {}): PlanningContext {
  return {
    taskId: 'task-1',
    deviceId: 'd1',
    goal,
    stepIndex: history.length,
    maxSteps: 25,
    observation: { screen: { width: 1080, height: 2400 }, elements: options.elements ?? LAUNCHER, package: options.pkg ?? 'com.android.launcher3' },
    history,
    signal: new AbortController().signal,
    ...('tools' in options ? (options.tools ? { tools: options.tools } : {}) : { tools }),
  };
}

function toolEntry(index: number, decision: PlanDecision, result: StepResult): PlannerHistoryEntry {
  return { index, decision: { ...decision, ...(decision.type === 'tool_call' ? { toolCallId: `task-1:${index}` } : {}) }, result, observation: { elements: LAUNCHER, package: 'com.android.launcher3' } };
}

const plan = (ctx: PlanningContext) => new RuleBasedPlanner().plan(ctx);

describe('tool-call clauses of a goal', () => {
  const OFFERED = ['lookup_order', 'sync-2', 'notify_me'];

  it('splits at call/use/run clauses, reading JSON with nested objects, "and", commas and braces inside strings', () => {
    expect(splitToolCalls('call lookup_order with {"orderId": "A-17"} and then open Settings', OFFERED)).toEqual([
      { kind: 'tool', name: 'lookup_order', arguments: { orderId: 'A-17' }, clause: 'call lookup_order' },
      { kind: 'text', text: 'open Settings' },
    ]);
    expect(splitToolCalls('open Settings, then Run SYNC-2 and use notify_me with {"text": "done, and {really} \\"done\\"", "opts": {"a": [1, {"b": "and"}]}}', OFFERED)).toEqual([
      { kind: 'text', text: 'open Settings' },
      { kind: 'tool', name: 'sync-2', arguments: {}, clause: 'run sync-2' },
      { kind: 'tool', name: 'notify_me', arguments: { text: 'done, and {really} "done"', opts: { a: [1, { b: 'and' }] } }, clause: 'use notify_me' },
    ]);
    expect(splitToolCalls('打开设置然后call lookup_order', OFFERED)).toEqual([
      { kind: 'text', text: '打开设置' },
      { kind: 'tool', name: 'lookup_order', arguments: {}, clause: 'call lookup_order' },
    ]);
    expect(splitToolCalls('turn on Wi-Fi and Bluetooth', OFFERED)).toEqual([{ kind: 'text', text: 'turn on Wi-Fi and Bluetooth' }]);
  });

  it('leaves a verb with a name the task does not offer, and no arguments, to the other rules: "call Mom" is a phone call', () => {
    expect(splitToolCalls('call Mom', OFFERED)).toEqual([{ kind: 'text', text: 'call Mom' }]);
    expect(splitToolCalls('use Wi-Fi settings', OFFERED)).toEqual([{ kind: 'text', text: 'use Wi-Fi settings' }]);
    expect(splitToolCalls('open Settings and call Mom, then run the backup', OFFERED)).toEqual([{ kind: 'text', text: 'open Settings and call Mom, then run the backup' }]);
    expect(splitToolCalls('call Mom and then call lookup_order', OFFERED)).toEqual([
      { kind: 'text', text: 'call Mom' },
      { kind: 'tool', name: 'lookup_order', arguments: {}, clause: 'call lookup_order' },
    ]);
  });

  it('takes explicit arguments or $name as a tool call whatever the name (the caller rejects names it did not offer)', () => {
    expect(splitToolCalls('call hidden_tool with {"x": 1}', OFFERED)).toEqual([{ kind: 'tool', name: 'hidden_tool', arguments: { x: 1 }, clause: 'call hidden_tool' }]);
    expect(splitToolCalls('$hidden_tool', [])).toEqual([{ kind: 'tool', name: 'hidden_tool', arguments: {}, clause: '$hidden_tool' }]);
    expect(splitToolCalls('open Settings, then $lookup_order {"orderId": "A-17, and more"} and go back', OFFERED)).toEqual([
      { kind: 'text', text: 'open Settings' },
      { kind: 'tool', name: 'lookup_order', arguments: { orderId: 'A-17, and more' }, clause: '$lookup_order' },
      { kind: 'text', text: 'go back' },
    ]);
    expect(splitToolCalls('pay $5 to Bob', OFFERED)).toEqual([{ kind: 'text', text: 'pay $5 to Bob' }]);
  });

  it('says precisely what is wrong with a clause', () => {
    expect(() => splitToolCalls('call lookup_order with {"orderId": A-17}', OFFERED)).toThrow(/^the arguments of "call lookup_order" are not valid JSON \(.+\): \{"orderId": A-17\}$/);
    expect(() => splitToolCalls('call lookup_order with A-17', OFFERED)).toThrow('"call lookup_order with" must be followed by a JSON object, e.g. call lookup_order with {"orderId": "A-17"}');
    expect(() => splitToolCalls('call lookup_order with {"orderId": "A-17"', OFFERED)).toThrow('the arguments of "call lookup_order" are not a JSON object: "{\\"orderId\\": \\"A-17\\"" never closes');
    expect(() => splitToolCalls('call lookup_order now', OFFERED)).toThrow('"call lookup_order" is followed by "now" without "and" or "then" between them');
  });
});

describe('RuleBasedPlanner with caller tools', () => {
  const lookup: PlanDecision = { type: 'tool_call', name: 'lookup_order', arguments: { orderId: 'A-17' }, reasoning: 'The goal asks to call lookup_order.' };
  const goal = 'call lookup_order with {"orderId":"A-17"} and then open Settings';

  it('plans "call Mom" as it would without caller tools: a name the caller does not offer is not a tool', async () => {
    const withTools = await plan(context('call Mom', []));
    expect(withTools.type).not.toBe('tool_call');
    expect(withTools).toEqual(await plan(context('call Mom', [], { tools: undefined })));
  });

  it('calls the tool first, then opens Settings, and sums up both', async () => {
    expect(await plan(context(goal, []))).toEqual(lookup);
    const history = [toolEntry(0, lookup, { status: 'success', output: { status: 'shipped' } })];
    const open = await plan(context(goal, history));
    expect(open).toMatchObject({ type: 'action', action: { command: 'open', app: 'com.android.settings' } });
    const done = await plan(context(goal, [...history, { index: 1, decision: open, result: { status: 'success', verified: true }, observation: { elements: LAUNCHER, package: 'com.android.launcher3' } }], { elements: SETTINGS, pkg: 'com.android.settings' }));
    expect(done).toMatchObject({ type: 'done' });
    expect((done as { summary: string }).summary.startsWith('lookup_order returned {"status":"shipped"} ')).toBe(true);
  });

  it('completes a goal that is only a tool call with the result as its summary (at most 500 characters)', async () => {
    const only = 'use lookup_order with {"orderId":"A-17"}';
    const decision = { ...lookup, reasoning: 'The goal asks to use lookup_order.' };
    expect(await plan(context(only, []))).toEqual(decision);
    expect(await plan(context(only, [toolEntry(0, decision, { status: 'success', output: { status: 'shipped', items: [1, 2] } })]))).toEqual({
      type: 'done',
      summary: 'lookup_order returned {"status":"shipped","items":[1,2]}',
      reasoning: 'Every part of the goal is done.',
    });
    const long = (await plan(context(only, [toolEntry(0, decision, { status: 'success', output: 'x'.repeat(600) })]))) as { summary: string };
    expect(long.summary).toBe(`lookup_order returned "${'x'.repeat(498)}…`);
  });

  it('opens Settings first when the goal says so, then calls the tool', async () => {
    const first = 'open Settings and then call lookup_order';
    const open = await plan(context(first, []));
    expect(open).toMatchObject({ type: 'action', action: { command: 'open', app: 'com.android.settings' } });
    const history: PlannerHistoryEntry[] = [{ index: 0, decision: open, result: { status: 'success', verified: true }, observation: { elements: LAUNCHER, package: 'com.android.launcher3' } }];
    expect(await plan(context(first, history, { elements: SETTINGS, pkg: 'com.android.settings' }))).toEqual({ type: 'tool_call', name: 'lookup_order', arguments: {}, reasoning: 'The goal asks to call lookup_order.' });
  });

  it('fails the goal when the call it needed was rejected or not answered in time', async () => {
    expect(await plan(context(goal, [toolEntry(0, lookup, { status: 'denied', message: 'not exposed' })]))).toEqual({
      type: 'fail',
      reason: 'The goal needs the caller\'s tool lookup_order (call lookup_order), and the caller rejected it: not exposed.',
      reasoning: 'The tool lookup_order gave no result.',
    });
    expect(await plan(context(goal, [toolEntry(0, lookup, { status: 'error', errorCode: 'TOOL_RESULT_TIMEOUT', message: 'no answer within 1000 ms' })]))).toMatchObject({
      type: 'fail',
      reason: 'The goal needs the caller\'s tool lookup_order (call lookup_order), and the caller did not answer in time (no answer within 1000 ms).',
    });
  });

  it('fails at once, saying why, on arguments that are not JSON', async () => {
    const decision = await plan(context('call lookup_order with {orderId: "A-17"}', []));
    expect(decision.type).toBe('fail');
    expect((decision as { reason: string }).reason).toMatch(/^The goal's tool call cannot be read: the arguments of "call lookup_order" are not valid JSON \(.+\): \{orderId: "A-17"\}\.$/);
  });

  it('reads such words as before when the task offers no tools', async () => {
    const decision = await plan(context(goal, [], { tools: undefined }));
    expect(decision).toMatchObject({ type: 'fail' });
    expect((decision as { reason: string }).reason).toContain('I do not understand the goal');
  });
});
