import type { InvocationEvent, JsonValue, LocalTool, MobileClawClient, StreamingInvocationOptions, ToolApprovalRequest, ToolCallContext } from '@mobileclaw/client';
import type { RunningGateway } from '@mobileclaw/gateway';
import { clientSdkHarness, storedShownIds, taskIdOf } from '../support/client-sdk';
import { SseClient } from '../support/sse-client';
import { gatewayUrl } from '../support/test-gateways';

const { start, newClient, proxyTo, storeDir } = clientSdkHarness('mobileclaw-local-tools-');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

const LOOKUP_GOAL = 'call lookup_order with {"orderId":"A-17"} and then open Settings';
const REFUND_GOAL = 'call refund_order with {"orderId":"A-17","amountCents":500} and then open Settings';

/** A local tool that counts its executions and answers `answer(args)`. */
function countedTool(spec: Omit<LocalTool, 'execute'>, answer: (args: Record<string, unknown>, context: ToolCallContext) => Promise<JsonValue> | JsonValue): LocalTool & { runs: Record<string, unknown>[] } {
  const runs: Record<string, unknown>[] = [];
  return {
    ...spec,
    runs,
    execute: (args, context) => {
      runs.push(args);
      return answer(args, context);
    },
  };
}

const lookupOrder = (answer: (args: Record<string, unknown>, context: ToolCallContext) => Promise<JsonValue> | JsonValue = (args) => ({ orderId: args['orderId'] as string, status: 'shipped' })) =>
  countedTool(
    {
      name: 'lookup_order',
      description: 'Finds an order of the shop by its id.',
      inputSchema: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'], additionalProperties: false },
      kind: 'OBSERVATION',
    },
    answer,
  );

const refundOrder = () =>
  countedTool(
    {
      name: 'refund_order',
      description: 'Refunds part of an order, in cents.',
      inputSchema: { type: 'object', properties: { orderId: { type: 'string' }, amountCents: { type: 'integer', minimum: 1 } }, required: ['orderId', 'amountCents'] },
      kind: 'ACTION',
    },
    (args) => ({ refunded: args['amountCents'] as number }),
  );

/** Runs a STREAMING invocation to its end: the events the app saw. */
async function stream(client: MobileClawClient, options: Omit<StreamingInvocationOptions, 'mode' | 'deviceId'>): Promise<{ invocationRef: string; events: InvocationEvent[] }> {
  const invocation = client.invoke({ mode: 'STREAMING', deviceId: 'sim-1', ...options });
  const events: InvocationEvent[] = [];
  for await (const event of invocation) events.push(event);
  return { invocationRef: invocation.invocationRef, events };
}

async function taskOf(gw: RunningGateway, taskId: string): Promise<Json> {
  return (await fetch(gatewayUrl(gw, `/api/tasks/${taskId}`))).json();
}

/** The events in a compact, comparable form: type plus what tells them apart. */
function shapes(events: InvocationEvent[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case 'status_changed':
        return `status_changed ${event.status}`;
      case 'step_progress':
        return `step ${event.stepIndex} ${event.phase} ${event.phase === 'acted' ? event.result?.status : event.description}`;
      case 'tool_call_requires_confirmation':
        return `tool_call_requires_confirmation ${event.name} ${JSON.stringify(event.arguments)}`;
      case 'failed':
        return `failed ${event.error.code}`;
      default:
        return event.type;
    }
  });
}

/** A promise the test settles itself. */
function deferred<T = void>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** The app events of a task whose one tool call (step 0) was rejected, so that the rule-based planner gives up. */
const rejectedRun = (name: string, reason: string): string[] => [
  'accepted',
  'status_changed running',
  `step 0 planned call ${name}`,
  'status_changed running',
  'step 0 acted denied',
  `step 1 planned give up: The goal needs the caller's tool ${name} (call ${name}), and the caller rejected it: ${reason}.`,
  'step 1 acted success',
  'failed GOAL_FAILED',
];

/** The app events of a task whose tool call (step 0) was answered with `result`, then Settings opened. */
const answeredRun = (name: string, result: JsonValue, confirmed: string[] = []): string[] => [
  'accepted',
  'status_changed running',
  `step 0 planned call ${name}`,
  ...confirmed,
  'status_changed running',
  'step 0 acted success',
  'step 1 planned Open the Settings app.',
  'step 1 acted success',
  `step 2 planned done: ${name} returned ${JSON.stringify(result)} Settings is open.`,
  'step 2 acted success',
  'completed',
];

/**
 * Checks what the gateway stored for a rejected tool call: step 0 `denied` with the SDK's reason (the
 * app saw the same outcome on its `acted` event), the task failed `GOAL_FAILED` quoting it.
 */
async function expectRejected(gw: RunningGateway, client: MobileClawClient, run: { invocationRef: string; events: InvocationEvent[] }, name: string, reason: string): Promise<void> {
  expect(shapes(run.events)).toEqual(rejectedRun(name, reason));
  const task = await taskOf(gw, await taskIdOf(client, run.invocationRef));
  expect(task.steps[0]).toMatchObject({ plan: { type: 'tool_call', name, toolCallId: `${task.taskId}:0` }, result: { status: 'denied', message: reason } });
  expect(task.steps[0].result).toStrictEqual({ status: 'denied', message: reason });
  expect(run.events.find((e) => e.type === 'step_progress' && e.phase === 'acted')).toMatchObject({ stepIndex: 0, result: { status: 'denied', message: reason } });
  expect(task).toMatchObject({ status: 'failed', error: { code: 'GOAL_FAILED', message: `The goal needs the caller's tool ${name} (call ${name}), and the caller rejected it: ${reason}.` } });
  expect(run.events.at(-1)).toMatchObject({ type: 'failed', error: { code: 'GOAL_FAILED', message: task.error.message } });
  expect(gw.simulator!.ui.state.screen).not.toBe('settings');
}

describe('local tools through @mobileclaw/client against a real gateway with a simulated phone', () => {
  it('not exposed (no policy): rejected, the tool never runs, the goal fails; the task was offered no tools', async () => {
    const gw = await start();
    const client = newClient(gatewayUrl(gw, ''));
    const tool = lookupOrder();
    client.tools.register(tool);
    const run = await stream(client, { goal: LOOKUP_GOAL, conversationId: 'no-policy' });
    await expectRejected(gw, client, run, 'lookup_order', 'tool lookup_order is not exposed: the conversation has no tool policy');
    expect(tool.runs).toEqual([]);
    expect((await taskOf(gw, await taskIdOf(client, run.invocationRef))).tools).toEqual([]);
  });

  it("exposed for the conversation but narrowed away by the invocation's policy: rejected", async () => {
    const gw = await start();
    const client = newClient(gatewayUrl(gw, ''));
    const lookup = lookupOrder();
    const refund = refundOrder();
    client.tools.register(lookup);
    client.tools.register(refund);
    client.setConversationToolPolicy('narrowed', { allow: ['lookup_order', 'refund_order'] });
    const run = await stream(client, { goal: LOOKUP_GOAL, conversationId: 'narrowed', tools: { allow: '*', deny: ['lookup_order'] } });
    await expectRejected(gw, client, run, 'lookup_order', "tool lookup_order is not exposed: this invocation's tool policy does not allow it");
    expect(lookup.runs).toEqual([]);
    // Only what both policies allow travels with the invocation.
    expect((await taskOf(gw, await taskIdOf(client, run.invocationRef))).tools).toEqual([{ name: 'refund_order', description: 'Refunds part of an order, in cents.', kind: 'ACTION' }]);
  });

  it('an ACTION tool without an approval handler: rejected, never run', async () => {
    const gw = await start();
    const client = newClient(gatewayUrl(gw, ''));
    const refund = refundOrder();
    client.tools.register(refund);
    client.setConversationToolPolicy('refunds', { allow: ['refund_order'] });
    const run = await stream(client, { goal: REFUND_GOAL, conversationId: 'refunds', tools: { allow: ['refund_order'] } });
    await expectRejected(gw, client, run, 'refund_order', 'tool refund_order needs approval but no approval handler is set');
    expect(refund.runs).toEqual([]);
  });

  it('an ACTION tool approved: tool_call_requires_confirmation, the handler asked once, the tool runs once, the task goes on', async () => {
    const gw = await start();
    const client = newClient(gatewayUrl(gw, ''));
    const refund = refundOrder();
    client.tools.register(refund);
    client.setConversationToolPolicy('refunds', { allow: ['refund_order'] });
    const asked: ToolApprovalRequest[] = [];
    const run = await stream(client, {
      goal: REFUND_GOAL,
      conversationId: 'refunds',
      tools: { allow: ['refund_order'] },
      onToolApproval: (request) => {
        asked.push(request);
        return true;
      },
    });
    const taskId = await taskIdOf(client, run.invocationRef);
    const call = { toolCallId: `${taskId}:0`, name: 'refund_order', arguments: { orderId: 'A-17', amountCents: 500 } };
    expect(shapes(run.events)).toEqual(answeredRun('refund_order', { refunded: 500 }, ['tool_call_requires_confirmation refund_order {"orderId":"A-17","amountCents":500}']));
    expect(run.events.find((e) => e.type === 'tool_call_requires_confirmation')).toEqual({ invocationRef: run.invocationRef, conversationId: 'refunds', type: 'tool_call_requires_confirmation', ...call });
    expect(asked).toEqual([{ ...call, invocationRef: run.invocationRef, conversationId: 'refunds', kind: 'ACTION', description: 'Refunds part of an order, in cents.' }]);
    expect(refund.runs).toEqual([{ orderId: 'A-17', amountCents: 500 }]);
    const task = await taskOf(gw, taskId);
    expect(task.steps[0].result).toStrictEqual({ status: 'success', output: { refunded: 500 } });
    expect(task).toMatchObject({ status: 'completed', summary: expect.stringMatching(/^refund_order returned \{"refunded":500\} /) });
    expect(gw.simulator!.ui.state.screen).toBe('settings');
  });

  it("an ACTION tool denied by the approval handler: rejected with the handler's reason, never run", async () => {
    const gw = await start();
    const client = newClient(gatewayUrl(gw, ''));
    const refund = refundOrder();
    client.tools.register(refund);
    client.setConversationToolPolicy('refunds', { allow: ['refund_order'] });
    const run = await stream(client, { goal: REFUND_GOAL, conversationId: 'refunds', tools: { allow: ['refund_order'] }, onToolApproval: () => ({ approved: false, reason: 'refunds need a manager' }) });
    expect(run.events.filter((e) => e.type === 'tool_call_requires_confirmation')).toHaveLength(1);
    const withoutConfirmation = { ...run, events: run.events.filter((e) => e.type !== 'tool_call_requires_confirmation') };
    await expectRejected(gw, client, withoutConfirmation, 'refund_order', 'tool refund_order was not approved: refunds need a manager');
    expect(refund.runs).toEqual([]);
  });

  it("arguments violating the schema: rejected with ajv's message, never run", async () => {
    const gw = await start();
    const client = newClient(gatewayUrl(gw, ''));
    const lookup = lookupOrder();
    client.tools.register(lookup);
    client.setConversationToolPolicy('orders', { allow: ['lookup_order'] });
    const run = await stream(client, { goal: 'call lookup_order with {"orderId":17,"rush":true} and then open Settings', conversationId: 'orders', tools: { allow: ['lookup_order'] } });
    await expectRejected(
      gw,
      client,
      run,
      'lookup_order',
      'tool lookup_order: the arguments do not match its input schema: arguments must NOT have additional properties ("rush"); arguments/orderId must be string',
    );
    expect(lookup.runs).toEqual([]);
  });

  it("an OBSERVATION tool's result reaches the planner: the summary carries it, the phone opens Settings", async () => {
    const gw = await start();
    const client = newClient(gatewayUrl(gw, ''));
    const lookup = lookupOrder();
    client.tools.register(lookup);
    client.setConversationToolPolicy('orders', { allow: ['lookup_order'] });
    const run = await stream(client, { goal: LOOKUP_GOAL, conversationId: 'orders', tools: { allow: ['lookup_order'] } });
    expect(shapes(run.events)).toEqual(answeredRun('lookup_order', { orderId: 'A-17', status: 'shipped' }));
    expect(lookup.runs).toEqual([{ orderId: 'A-17' }]);
    const taskId = await taskIdOf(client, run.invocationRef);
    const task = await taskOf(gw, taskId);
    expect(task.steps[0].result).toStrictEqual({ status: 'success', output: { orderId: 'A-17', status: 'shipped' } });
    expect(run.events.find((e) => e.type === 'step_progress' && e.phase === 'acted')).toMatchObject({ stepIndex: 0, result: { status: 'success', output: { orderId: 'A-17', status: 'shipped' } } });
    expect(task.summary).toMatch(/^lookup_order returned \{"orderId":"A-17","status":"shipped"\} /);
    expect(run.events.at(-1)).toEqual({ invocationRef: run.invocationRef, conversationId: 'orders', eventId: expect.any(Number), type: 'completed', summary: task.summary });
    expect(run.events.map((e) => e.eventId)).toEqual(await storedShownIds(gw, taskId));
    expect(gw.simulator!.ui.state.screen).toBe('settings');
  });

  it('the same toolCallId delivered twice (stream cut between the call and the answer): one execution', async () => {
    const gw = await start();
    const proxy = await proxyTo(gw);
    const client = newClient(proxy.url);
    const lookup = lookupOrder((args) => {
      // The network breaks while the tool runs: the stream is cut and the answer cannot be sent (1 + 4 retries refused).
      proxy.cutAll();
      proxy.plan.push('refuse', 'refuse', 'refuse', 'refuse', 'refuse');
      return { orderId: args['orderId'] as string, status: 'shipped' };
    });
    client.tools.register(lookup);
    client.setConversationToolPolicy('orders', { allow: ['lookup_order'] });
    const run = await stream(client, { goal: LOOKUP_GOAL, conversationId: 'orders', tools: { allow: ['lookup_order'] } });
    expect(proxy.treated.filter((t) => t === 'refuse')).toHaveLength(5);
    // The resumed stream delivered the call again; its stored outcome was sent, the tool did not run again.
    expect(lookup.runs).toEqual([{ orderId: 'A-17' }]);
    expect(shapes(run.events)).toEqual(answeredRun('lookup_order', { orderId: 'A-17', status: 'shipped' }));
    const taskId = await taskIdOf(client, run.invocationRef);
    const task = await taskOf(gw, taskId);
    expect(task.steps[0].result).toStrictEqual({ status: 'success', output: { orderId: 'A-17', status: 'shipped' } });
    expect(task.status).toBe('completed');
    expect(await client.tools.record(`${taskId}:0`)).toMatchObject({ state: 'done', outcome: { outcome: 'ok', result: { orderId: 'A-17', status: 'shipped' } } });
    expect(run.events.map((e) => e.eventId)).toEqual(await storedShownIds(gw, taskId));
  });

  it('the same toolCallId delivered again after a restart (a fresh client over the same store replays the call): one execution', async () => {
    const gw = await start();
    const proxy = await proxyTo(gw);
    const dir = storeDir();
    const first = newClient(proxy.url, { storeDir: dir });
    const before = lookupOrder((args) => {
      // The gateway becomes unreachable while the tool runs: the answer never arrives.
      proxy.refusing = true;
      proxy.cutAll();
      return { orderId: args['orderId'] as string, status: 'shipped' };
    });
    first.tools.register(before);
    first.setConversationToolPolicy('orders', { allow: ['lookup_order'] });
    const lost = await stream(first, { goal: LOOKUP_GOAL, conversationId: 'orders', tools: { allow: ['lookup_order'] } });
    expect(lost.events.at(-1)).toMatchObject({ type: 'progress_uncertain', hint: 'QUERY_LATER_DO_NOT_REINVOKE' });
    expect(before.runs).toEqual([{ orderId: 'A-17' }]);
    first.close();

    // A new process: the same store directory, the same tool. Following the invocation delivers the unanswered call again.
    proxy.refusing = false;
    const second = newClient(proxy.url, { storeDir: dir });
    const after = lookupOrder();
    second.tools.register(after);
    // The app sets its policies again at start (they live in memory); the invocation's own is in its record.
    second.setConversationToolPolicy('orders', { allow: ['lookup_order'] });
    const rest: InvocationEvent[] = [];
    for await (const event of second.events(lost.invocationRef)) rest.push(event);
    expect(after.runs).toEqual([]);
    expect(rest.at(-1)).toMatchObject({ type: 'completed', summary: expect.stringMatching(/^lookup_order returned \{"orderId":"A-17","status":"shipped"\} /) });
    const taskId = await taskIdOf(second, lost.invocationRef);
    expect((await taskOf(gw, taskId)).steps[0].result).toStrictEqual({ status: 'success', output: { orderId: 'A-17', status: 'shipped' } });
    expect([...lost.events.slice(0, -1), ...rest].map((e) => e.eventId)).toEqual(await storedShownIds(gw, taskId));
  });

  it('ASYNC: the tool call is answered in the background, with nobody following', async () => {
    const gw = await start();
    const client = newClient(gatewayUrl(gw, ''));
    const ran = deferred<ToolCallContext>();
    const lookup = lookupOrder((args, context) => {
      ran.resolve(context);
      return { orderId: args['orderId'] as string, status: 'shipped' };
    });
    client.tools.register(lookup);
    client.setConversationToolPolicy('orders', { allow: ['lookup_order'] });
    const accepted = await client.invoke({ mode: 'ASYNC', goal: LOOKUP_GOAL, deviceId: 'sim-1', conversationId: 'orders', tools: { allow: ['lookup_order'] } });
    expect(accepted).toEqual({ invocationRef: expect.any(String), conversationId: 'orders', idempotencyKey: expect.any(String), status: 'running' });
    const context = await ran.promise;
    expect(context).toMatchObject({ invocationRef: accepted.invocationRef, conversationId: 'orders', toolCallId: expect.stringMatching(/:0$/) });
    // The gateway's own stream (not the SDK) shows the task going on to its end.
    const taskId = context.toolCallId.slice(0, -':0'.length);
    const gatewayStream = await SseClient.open(gatewayUrl(gw, `/api/tasks/${taskId}/events`));
    await gatewayStream.ended;
    expect(gatewayStream.events.at(-1)?.event).toBe('task.completed');
    expect(lookup.runs).toEqual([{ orderId: 'A-17' }]);
    const state = await client.get(accepted.invocationRef);
    expect(state).toMatchObject({ status: 'completed', summary: expect.stringMatching(/^lookup_order returned \{"orderId":"A-17","status":"shipped"\} /), taskRef: taskId });
  });
});
