import type { PlanDecision, PlannerHistoryEntry, PlanningContext, StepResult, TaskToolSpec, UiElement } from '@mobileclaw/domain';
import { RuleBasedPlanner } from './rule-based-planner';
import { splitToolCalls } from './tool-call-clauses';

const LAUNCHER: UiElement[] = [{ index: 0, nodeId: 'n0', type: 'TextView', text: 'Settings', clickable: true, bounds: [0, 147, 270, 399], center: [135, 273] }];
const weather: TaskToolSpec = {
  name: 'lookup_weather',
  description: 'Forecast of a city.',
  inputSchema: { type: 'object' },
  kind: 'OBSERVATION',
  mode: 'REMOTE_PROXY',
  source: 'catalog:erp',
  eligibility: { eligible: true, missing: [] },
  available: true,
  needsApproval: false,
};
const gatewayTool = { source: 'catalog:erp', kind: 'OBSERVATION' as const, mode: 'REMOTE_PROXY' as const };

function context(goal: string, history: PlannerHistoryEntry[], gatewayTools: TaskToolSpec[] = [weather]): PlanningContext {
  return {
    taskId: 'task-1',
    deviceId: 'd1',
    goal,
    stepIndex: history.length,
    maxSteps: 25,
    observation: { screen: { width: 1080, height: 2400 }, elements: LAUNCHER, package: 'com.android.launcher3' },
    history,
    gatewayTools,
    signal: new AbortController().signal,
  };
}

function toolEntry(index: number, decision: PlanDecision, result: StepResult): PlannerHistoryEntry {
  return { index, decision: { ...decision, ...(decision.type === 'tool_call' ? { toolCallId: `task-1:${index}`, gatewayTool } : {}) }, result, observation: { elements: LAUNCHER, package: 'com.android.launcher3' } };
}

const plan = (ctx: PlanningContext) => new RuleBasedPlanner().plan(ctx);
const GOAL = '$lookup_weather {"city": "Oslo"} and then open Settings';
const callWeather: PlanDecision = { type: 'tool_call', name: 'lookup_weather', arguments: { city: 'Oslo' }, reasoning: 'The goal asks to $lookup_weather.' };

describe("the rule-based planner with the gateway's tools", () => {
  it('reads only $name clauses as tool calls when the caller offers no tools: words stay words', () => {
    expect(splitToolCalls(GOAL, ['lookup_weather'], { dollarOnly: true })).toEqual([
      { kind: 'tool', name: 'lookup_weather', arguments: { city: 'Oslo' }, clause: '$lookup_weather' },
      { kind: 'text', text: 'open Settings' },
    ]);
    expect(splitToolCalls('use lookup_weather with {"city": "Oslo"}', ['lookup_weather'], { dollarOnly: true })).toEqual([{ kind: 'text', text: 'use lookup_weather with {"city": "Oslo"}' }]);
  });

  it('calls the tool, then goes on with the rest of the goal, and sums up its result', async () => {
    expect(await plan(context(GOAL, []))).toEqual(callWeather);
    const called = toolEntry(0, callWeather, { status: 'success', output: { forecast: 'snow' }, message: '{"forecast":"snow"}' });
    expect(await plan(context(GOAL, [called]))).toMatchObject({ type: 'action', action: { command: 'open', app: 'com.android.settings' } });
  });

  it('says so when the result is unverified', async () => {
    const called = toolEntry(0, callWeather, { status: 'success', output: 'snow, probably', message: 'snow, probably', verified: false });
    expect(await plan(context('$lookup_weather {"city": "Oslo"}', [called]))).toEqual({
      type: 'done',
      summary: 'lookup_weather returned "snow, probably" (unverified: the answer shows no sign that the tool itself ran)',
      reasoning: 'Every part of the goal is done.',
    });
  });

  it('fails the goal, with the reason, when the call failed or was denied', async () => {
    const failed = toolEntry(0, callWeather, { status: 'error', errorCode: 'TOOL_UNAVAILABLE', message: 'the catalog is down' });
    expect(await plan(context(GOAL, [failed]))).toMatchObject({
      type: 'fail',
      reason: 'The goal needs the gateway tool lookup_weather ($lookup_weather), and it failed: TOOL_UNAVAILABLE: the catalog is down.',
    });
    const denied = toolEntry(0, callWeather, { status: 'denied', message: 'a person denied the call of lookup_weather' });
    expect(await plan(context(GOAL, [denied]))).toMatchObject({ type: 'fail', reason: 'The goal needs the gateway tool lookup_weather ($lookup_weather), and it was denied: a person denied the call of lookup_weather.' });
    const unknown: PlanDecision = { type: 'tool_call', name: 'nope', arguments: {}, reasoning: 'r' };
    const notFound: PlannerHistoryEntry = { index: 0, decision: { ...unknown, toolCallId: 'task-1:0' }, result: { status: 'error', errorCode: 'TOOL_NOT_FOUND', message: 'no tool nope' } };
    expect(await plan(context('$nope and then open Settings', [notFound]))).toMatchObject({ type: 'fail', reason: 'The goal needs the tool nope ($nope), and it failed: no tool nope.' });
  });

  it('reads a goal without gateway tools as before', async () => {
    expect(await plan(context('open Settings', [], []))).toMatchObject({ type: 'action', action: { command: 'open', app: 'com.android.settings' } });
  });
});
