import type { RunningGateway } from '@mobileclaw/gateway';
import { SseClient } from '../support/sse-client';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

const gateways = testGateways('mobileclaw-caller-tools-');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

const lookupOrder = {
  name: 'lookup_order',
  description: 'Finds an order of the shop by its id.',
  inputSchema: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
  kind: 'OBSERVATION',
};
const GOAL = 'call lookup_order with {"orderId":"A-17"} and then open Settings';

async function start(extra: Record<string, string> = {}): Promise<RunningGateway> {
  const gw = await gateways.start(extra);
  await waitOnline(gw, 'sim-1');
  return gw;
}

async function post(gw: RunningGateway, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const res = await fetch(gatewayUrl(gw, path), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** Starts a task with the caller's tools and follows its event stream. */
async function startTask(gw: RunningGateway, body: Record<string, unknown> = {}): Promise<{ taskId: string; stream: SseClient }> {
  const created = await post(gw, '/api/tasks', { deviceId: 'sim-1', goal: GOAL, tools: [lookupOrder], ...body });
  expect(created.status).toBe(202);
  const stream = await SseClient.open(gatewayUrl(gw, `/api/tasks/${created.body.taskId}/events`));
  return { taskId: created.body.taskId, stream };
}

/** The `data` of the task's first `task.input_required` event. */
async function toolCallOf(stream: SseClient): Promise<Json> {
  const event = await stream.next((e) => e.event === 'task.input_required');
  return JSON.parse(event.data).data;
}

describe('caller tools over REST (real gateway, simulated phone, rule-based planner)', () => {
  it('pauses for the caller\'s tool, takes its result, and opens Settings on the phone', async () => {
    const gw = await start();
    const { taskId, stream } = await startTask(gw);
    const toolCallId = `${taskId}:0`;
    expect(await toolCallOf(stream)).toStrictEqual({ toolCall: { toolCallId, name: 'lookup_order', arguments: { orderId: 'A-17' }, kind: 'OBSERVATION', stepIndex: 0 } });

    const waiting: Json = await (await fetch(gatewayUrl(gw, `/api/tasks/${taskId}`))).json();
    expect(waiting).toMatchObject({
      status: 'input_required',
      pendingToolCall: { stepIndex: 0, toolCallId, name: 'lookup_order', arguments: { orderId: 'A-17' }, kind: 'OBSERVATION' },
      tools: [{ name: 'lookup_order', kind: 'OBSERVATION', description: 'Finds an order of the shop by its id.' }],
    });
    expect(waiting.tools[0]).not.toHaveProperty('inputSchema');

    const answered = await post(gw, `/api/tasks/${taskId}/tool-results`, { toolCallId, outcome: 'ok', result: { status: 'shipped', items: [{ sku: 'X-1', qty: 2 }] } });
    expect(answered.status).toBe(200);
    expect(answered.body.taskId).toBe(taskId);
    expect(answered.body).not.toHaveProperty('pendingToolCall');

    await stream.ended;
    const types = stream.events.map((e) => e.event);
    expect(types.slice(types.indexOf('task.input_required'), types.indexOf('task.input_required') + 3)).toEqual(['task.input_required', 'task.resumed', 'step.acted']);
    expect(types.at(-1)).toBe('task.completed');
    const task: Json = await (await fetch(gatewayUrl(gw, `/api/tasks/${taskId}`))).json();
    expect(task.status).toBe('completed');
    expect(task.summary.startsWith('lookup_order returned {"status":"shipped","items":[{"sku":"X-1","qty":2}]} ')).toBe(true);
    expect(task.steps[0]).toMatchObject({ plan: { type: 'tool_call', name: 'lookup_order', arguments: { orderId: 'A-17' }, toolCallId }, result: { status: 'success', output: { status: 'shipped', items: [{ sku: 'X-1', qty: 2 }] } } });
    expect(task.steps[1].plan).toMatchObject({ type: 'action', action: { command: 'open', app: 'com.android.settings' } });
    expect(gw.simulator!.ui.state.screen).toBe('settings');

    // Answering again: the call is no longer pending.
    const twice = await post(gw, `/api/tasks/${taskId}/tool-results`, { toolCallId, outcome: 'ok', result: 1 });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'TOOL_CALL_NOT_PENDING', title: 'The task is not waiting for this tool call' });
  });

  it('fails the goal when the caller rejects the call it needed; a second answer is 409 TOOL_CALL_NOT_PENDING', async () => {
    const gw = await start();
    const { taskId, stream } = await startTask(gw);
    const { toolCall } = await toolCallOf(stream);
    const rejected = await post(gw, `/api/tasks/${taskId}/tool-results`, { toolCallId: toolCall.toolCallId, outcome: 'rejected', reason: 'lookup_order is not exposed to this conversation' });
    expect(rejected.status).toBe(200);
    const again = await post(gw, `/api/tasks/${taskId}/tool-results`, { toolCallId: toolCall.toolCallId, outcome: 'rejected', reason: 'again' });
    expect(again).toMatchObject({ status: 409, body: { code: 'TOOL_CALL_NOT_PENDING' } });
    await stream.ended;
    const task: Json = await (await fetch(gatewayUrl(gw, `/api/tasks/${taskId}`))).json();
    expect(task.steps[0].result).toStrictEqual({ status: 'denied', message: 'lookup_order is not exposed to this conversation' });
    expect(task).toMatchObject({
      status: 'failed',
      error: { code: 'GOAL_FAILED', message: 'The goal needs the caller\'s tool lookup_order (call lookup_order), and the caller rejected it: lookup_order is not exposed to this conversation.' },
    });
    expect(gw.simulator!.ui.state.screen).not.toBe('settings');
  });

  it('ends the step TOOL_RESULT_TIMEOUT when the caller does not answer within MOBILECLAW_TOOL_RESULT_TIMEOUT_MS, and the goal fails', async () => {
    const gw = await start({ MOBILECLAW_TOOL_RESULT_TIMEOUT_MS: '300' });
    const { taskId, stream } = await startTask(gw);
    await stream.ended;
    const task: Json = await (await fetch(gatewayUrl(gw, `/api/tasks/${taskId}`))).json();
    expect(task.steps[0].result).toStrictEqual({ status: 'error', errorCode: 'TOOL_RESULT_TIMEOUT', message: `the caller did not answer tool call ${taskId}:0 (lookup_order) within 300 ms` });
    expect(task).toMatchObject({ status: 'failed', error: { code: 'GOAL_FAILED' } });
    expect(task.error.message).toContain('the caller did not answer in time');
    const late = await post(gw, `/api/tasks/${taskId}/tool-results`, { toolCallId: `${taskId}:0`, outcome: 'ok', result: null });
    expect(late).toMatchObject({ status: 409, body: { code: 'TOOL_CALL_NOT_PENDING' } });
  });

  it('interrupts a task waiting for a tool call when the gateway stops; its tools survive the restart', async () => {
    const dataDir = gateways.dataDir();
    const gw = await start({ MOBILECLAW_DATA_DIR: dataDir });
    const { taskId, stream } = await startTask(gw);
    await toolCallOf(stream);
    await gw.close();
    const again = await start({ MOBILECLAW_DATA_DIR: dataDir });
    const task: Json = await (await fetch(gatewayUrl(again, `/api/tasks/${taskId}`))).json();
    expect(task).toMatchObject({ status: 'interrupted', error: { code: 'INTERRUPTED' }, tools: [{ name: 'lookup_order', kind: 'OBSERVATION', description: lookupOrder.description }] });
    expect(task).not.toHaveProperty('pendingToolCall');
    const late = await post(again, `/api/tasks/${taskId}/tool-results`, { toolCallId: `${taskId}:0`, outcome: 'ok', result: 1 });
    expect(late).toMatchObject({ status: 409, body: { code: 'TOOL_CALL_NOT_PENDING', detail: expect.stringContaining(`task ${taskId} is interrupted and waits for no tool call`) } });
  });

  it('refuses bad tool specs and answers with precise field errors', async () => {
    const gw = await start();
    const bad = await post(gw, '/api/tasks', { deviceId: 'sim-1', goal: GOAL, tools: [{ ...lookupOrder, name: 'tap' }, { ...lookupOrder, inputSchema: { type: 'array' } }] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: 'tools.0.name', message: 'tool name tap is reserved' },
      { field: 'tools.1.inputSchema.type', message: 'tools.1.inputSchema must have "type": "object" (tool arguments are a JSON object)' },
    ]);
    const notArray = await post(gw, '/api/tasks', { deviceId: 'sim-1', goal: GOAL, tools: { lookupOrder } });
    expect(notArray).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', errors: [{ field: 'tools' }] } });

    gw.simulator!.faults.neverReply = true;
    const { taskId } = (await post(gw, '/api/tasks', { deviceId: 'sim-1', goal: GOAL, tools: [] })).body;
    const noReason = await post(gw, `/api/tasks/${taskId}/tool-results`, { toolCallId: `${taskId}:0`, outcome: 'rejected' });
    expect(noReason).toMatchObject({ status: 400, body: { errors: [{ field: 'reason', message: 'reason must be a string of 1–2000 characters when outcome is rejected' }] } });
    const unknownMember = await post(gw, `/api/tasks/${taskId}/tool-results`, { toolCallId: `${taskId}:0`, outcome: 'ok', output: 1 });
    expect(unknownMember).toMatchObject({ status: 400, body: { errors: [{ field: 'output' }] } });
    expect((await post(gw, '/api/tasks/no-such-task/tool-results', { toolCallId: 'x:0', outcome: 'ok', result: 1 })).body.code).toBe('TASK_NOT_FOUND');
  });

  it('counts the tools in the idempotent content: the same key with other tools is 422', async () => {
    const gw = await start();
    gw.simulator!.faults.neverReply = true;
    const first = await post(gw, '/api/tasks', { deviceId: 'sim-1', goal: GOAL, tools: [lookupOrder] }, { 'idempotency-key': 'inv-1' });
    expect(first.status).toBe(202);
    const same = await post(gw, '/api/tasks', { deviceId: 'sim-1', goal: GOAL, tools: [lookupOrder] }, { 'idempotency-key': 'inv-1' });
    expect(same.body.taskId).toBe(first.body.taskId);
    const other = await post(gw, '/api/tasks', { deviceId: 'sim-1', goal: GOAL, tools: [] }, { 'idempotency-key': 'inv-1' });
    expect(other).toMatchObject({ status: 422, body: { code: 'IDEMPOTENCY_KEY_REUSED' } });
  });
});
