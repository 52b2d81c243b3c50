import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MobileClawClient, type MobileClawClientOptions } from './client';
import { MobileClawClientError } from './errors';
import { assertNever, type InvocationEvent } from './events';
import { FakeGateway } from './testing/fake-gateway';

const gateway = new FakeGateway();
let baseUrl: string;
const clients: MobileClawClient[] = [];
const dirs: string[] = [];

beforeEach(async () => {
  Object.assign(gateway, new FakeGateway());
  baseUrl = await gateway.start();
});
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await gateway.stop();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function newClient(extra: Partial<MobileClawClientOptions> = {}): MobileClawClient {
  const client = new MobileClawClient({ baseUrl, store: 'memory', creationRetry: { delaysMs: [1, 2, 3] }, streamRecovery: { delaysMs: [1, 2, 3] }, blockingPoll: { intervalMs: 1, maxAttempts: 3 }, ...extra });
  clients.push(client);
  return client;
}

/** A run of "Turn on Wi-Fi": accepted, started, one step, completed (ids 1–8). */
function storeRun(): void {
  gateway.append('task.accepted', { task: { taskId: gateway.taskId } });
  gateway.append('task.started');
  gateway.append('step.started', { index: 0 });
  gateway.append('step.observed', { index: 0, observation: {} });
  gateway.append('step.planned', { index: 0, plan: { type: 'action', action: { command: 'click', x: 540, y: 300 }, reasoning: 'tap the Wi-Fi switch' } });
  gateway.append('step.acted', { index: 0, result: { status: 'success', verified: true } });
  gateway.append('step.planned', { index: 1, plan: { type: 'done', summary: 'Wi-Fi is on', reasoning: 'the switch is on' } });
  gateway.append('task.completed', { summary: 'Wi-Fi is on' });
}

async function collect(events: AsyncIterable<InvocationEvent>): Promise<InvocationEvent[]> {
  const seen: InvocationEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

const idsOf = (events: InvocationEvent[]): (number | undefined)[] => events.map((e) => e.eventId);

describe('MobileClawClient', () => {
  describe('STREAMING', () => {
    it('creates the task with the idempotency key, conversation and goal, and maps each gateway event once', async () => {
      storeRun();
      const client = newClient();
      const invocation = client.invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', conversationId: 'order-4711', idempotencyKey: 'key-1', maxSteps: 10 });
      expect(invocation.invocationRef).toMatch(/^[0-9a-f-]{36}$/);
      const events = await collect(invocation);
      const ids = { invocationRef: invocation.invocationRef, conversationId: 'order-4711' };
      expect(events).toEqual([
        { ...ids, eventId: 1, type: 'accepted' },
        { ...ids, eventId: 2, type: 'status_changed', status: 'running' },
        { ...ids, eventId: 5, type: 'step_progress', stepIndex: 0, phase: 'planned', description: 'tap the Wi-Fi switch', action: { command: 'click', x: 540, y: 300 } },
        { ...ids, eventId: 6, type: 'step_progress', stepIndex: 0, phase: 'acted', description: 'succeeded', result: { status: 'success', verified: true } },
        { ...ids, eventId: 7, type: 'step_progress', stepIndex: 1, phase: 'planned', description: 'done: Wi-Fi is on' },
        { ...ids, eventId: 8, type: 'completed', summary: 'Wi-Fi is on' },
      ]);
      const [create] = gateway.sent('POST /api/tasks');
      expect(create.headers['idempotency-key']).toBe('key-1');
      // No local tool registered: `tools` is left out.
      expect(create.body).toEqual({ deviceId: 'sim-1', goal: 'Turn on Wi-Fi', maxSteps: 10, contextId: 'order-4711' });
      expect(gateway.sent('GET /api/tasks/task-1/events').map((r) => r.headers['last-event-id'])).toEqual(['0']);
      expect(await client.get(invocation.invocationRef)).toEqual({ ...ids, status: 'completed', summary: 'Wi-Fi is on', stepCount: 0, taskRef: 'task-1' });
    });

    it('is a closed union: an exhaustive switch compiles and every member is reachable', async () => {
      storeRun();
      const kinds: string[] = [];
      for await (const event of newClient().invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1' })) {
        switch (event.type) {
          case 'accepted':
          case 'status_changed':
          case 'step_progress':
          case 'input_required':
          case 'tool_call_requires_confirmation':
          case 'completed':
          case 'failed':
          case 'canceled':
          case 'progress_uncertain':
            kinds.push(event.type);
            break;
          default:
            assertNever(event);
        }
      }
      expect(kinds[kinds.length - 1]).toBe('completed');
    });

    it('resumes a stream the server destroyed mid-task after the last event id: every event once, in order', async () => {
      storeRun();
      gateway.streamPlans.push({ count: 5, then: 'destroy' });
      const events = await collect(newClient().invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1' }));
      expect(idsOf(events)).toEqual([1, 2, 5, 6, 7, 8]);
      expect(gateway.sent('GET /api/tasks/task-1/events').map((r) => r.headers['last-event-id'])).toEqual(['0', '5']);
      // The real state was asked for before resuming.
      const order = gateway.requests.map((r) => `${r.method} ${r.path}`);
      expect(order).toEqual(['POST /api/tasks', 'GET /api/tasks/task-1/events', 'GET /api/tasks/task-1', 'GET /api/tasks/task-1/events']);
    });

    it('skips events the gateway sends again at or below the last id', async () => {
      storeRun();
      gateway.streamPlans.push({ count: 6, then: 'end' });
      const invocation = newClient().invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1' });
      const iterator = invocation[Symbol.asyncIterator]();
      const first = await iterator.next();
      expect(first.value).toMatchObject({ eventId: 1 });
      const rest: InvocationEvent[] = [];
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);
      expect(idsOf(rest)).toEqual([2, 5, 6, 7, 8]);
    });

    it("shows a gateway tool's call waiting for approval as input_required with pendingToolApproval; BLOCKING returns there", async () => {
      gateway.append('task.accepted');
      gateway.append('task.started');
      const toolApproval = {
        stepIndex: 1,
        toolCallId: 'task-1:1',
        name: 'refund_order',
        arguments: { orderId: 'A-17' },
        kind: 'ACTION',
        mode: 'REMOTE_PROXY',
        source: 'catalog:erp',
        reason: 'ACTION tool refund_order (catalog:erp) runs only once a person approves it',
      };
      gateway.append('task.input_required', { toolApproval });
      gateway.streamPlans.push({ count: 3, then: 'destroy' });
      const client = newClient();
      const invocation = client.invoke({ mode: 'STREAMING', goal: '$refund_order {"orderId":"A-17"}', deviceId: 'sim-1' });
      const events = await collect(invocation);
      expect(events.map((e) => e.type)).toEqual(['accepted', 'status_changed', 'input_required']);
      expect(events[2]).toMatchObject({ pendingToolApproval: toolApproval, question: 'Approve step 1: call refund_order {"orderId":"A-17"} (catalog:erp)?' });
      expect(events[2]).not.toHaveProperty('pendingAction');
      expect(await client.get(invocation.invocationRef)).toMatchObject({ status: 'input_required', pendingToolApproval: toolApproval });
      const blocking = await newClient().invoke({ mode: 'BLOCKING', goal: '$refund_order {"orderId":"A-17"}', deviceId: 'sim-1' });
      expect(blocking).toMatchObject({ status: 'input_required', pendingToolApproval: { name: 'refund_order', stepIndex: 1 } });
    });

    it('ends on purpose when the stream drops while the task waits for approval; approve() then events() go on', async () => {
      gateway.append('task.accepted');
      gateway.append('task.started');
      const pendingAction = { stepIndex: 2, action: { command: 'click', x: 900, y: 2200 }, reason: 'sends a message to a new recipient' };
      gateway.append('task.input_required', { pendingAction });
      gateway.streamPlans.push({ count: 3, then: 'destroy' });
      const client = newClient();
      const invocation = client.invoke({ mode: 'STREAMING', goal: "send 'hi' to Nina", deviceId: 'sim-1' });
      const events = await collect(invocation);
      expect(events.map((e) => e.type)).toEqual(['accepted', 'status_changed', 'input_required']);
      expect(events[2]).toMatchObject({
        pendingAction: { stepIndex: 2, command: { command: 'click', x: 900, y: 2200 }, reason: 'sends a message to a new recipient' },
        question: 'Approve step 2: click (sends a message to a new recipient)?',
      });
      expect(gateway.sent('GET /api/tasks/task-1/events')).toHaveLength(1);
      expect(await client.get(invocation.invocationRef)).toMatchObject({ status: 'input_required', pendingAction: { stepIndex: 2 } });

      expect(await client.approve(invocation.invocationRef, true)).toMatchObject({ status: 'running' });
      expect(gateway.sent('POST /api/tasks/task-1/approval')[0].body).toEqual({ approve: true });
      gateway.append('task.resumed', { stepIndex: 2 });
      gateway.append('task.completed', { summary: 'sent' });
      const after = await collect(client.events(invocation.invocationRef));
      expect(after.map((e) => [e.eventId, e.type])).toEqual([
        [4, 'status_changed'],
        [5, 'completed'],
      ]);
      expect(gateway.sent('GET /api/tasks/task-1/events').map((r) => r.headers['last-event-id'])).toEqual(['0', '3']);
    });

    it('emits progress_uncertain (QUERY_LATER_DO_NOT_REINVOKE) when the task state cannot be established', async () => {
      gateway.append('task.accepted');
      gateway.append('task.started');
      gateway.streamPlans.push({ count: 2, then: 'destroy' });
      gateway.getAnswers.push('drop', { status: 503, body: { code: 'STORAGE_ERROR', detail: 'disk', status: 503 } }, 'drop');
      const invocation = newClient().invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', idempotencyKey: 'key-u' });
      const events = await collect(invocation);
      expect(events.map((e) => e.type)).toEqual(['accepted', 'status_changed', 'progress_uncertain']);
      expect(events[2]).toEqual({
        invocationRef: invocation.invocationRef,
        conversationId: invocation.conversationId,
        type: 'progress_uncertain',
        hint: 'QUERY_LATER_DO_NOT_REINVOKE',
        idempotencyKey: 'key-u',
        cause: expect.stringMatching(/could not be reached/),
      });
      expect(gateway.sent('GET /api/tasks/task-1')).toHaveLength(3);
    });

    it('gives up on a stream that keeps failing after the state is known (bounded attempts)', async () => {
      gateway.append('task.accepted');
      gateway.streamPlans.push({ count: 1, then: 'destroy' }, 'refuse', 'refuse', 'refuse');
      const events = await collect(newClient().invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1' }));
      expect(events.map((e) => e.type)).toEqual(['accepted', 'progress_uncertain']);
      expect(events[1]).toMatchObject({ hint: 'QUERY_LATER_DO_NOT_REINVOKE', cause: 'shutting down' });
      expect(gateway.sent('GET /api/tasks/task-1/events')).toHaveLength(4);
    });

    it('counts a silent stream as lost after streamIdleTimeoutMs and resumes it', async () => {
      gateway.append('task.accepted');
      gateway.append('task.started');
      gateway.streamPlans.push({ count: 2, then: 'hold' });
      const invocation = newClient({ streamIdleTimeoutMs: 50 }).invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1' });
      const iterator = invocation[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ eventId: 1 });
      expect((await iterator.next()).value).toMatchObject({ eventId: 2 });
      // Stored while no stream is open: only a resumed stream delivers it.
      gateway.cutStreams();
      gateway.streamPlans.push({ count: 0, then: 'hold' });
      gateway.append('task.completed', { summary: 'done' });
      expect((await iterator.next()).value).toMatchObject({ eventId: 3, type: 'completed' });
      expect((await iterator.next()).done).toBe(true);
    });

    it('re-sends an unacknowledged creation with the same key and body, 3 retries', async () => {
      storeRun();
      gateway.createAnswers.push('drop', { status: 503, body: { code: 'SHUTTING_DOWN', detail: 'restarting', status: 503 } }, { status: 409, body: { code: 'IDEMPOTENCY_KEY_IN_PROGRESS', detail: 'in progress', status: 409 } });
      const events = await collect(newClient().invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', idempotencyKey: 'key-r' }));
      expect(events[events.length - 1].type).toBe('completed');
      const creates = gateway.sent('POST /api/tasks');
      expect(creates).toHaveLength(4);
      expect(new Set(creates.map((c) => c.headers['idempotency-key']))).toEqual(new Set(['key-r']));
      expect(creates.map((c) => c.body)).toEqual(Array(4).fill(creates[0].body));
    });

    it('re-sends a creation the gateway did not answer within requestTimeoutMs', async () => {
      storeRun();
      gateway.createAnswers.push('hang');
      const events = await collect(newClient({ requestTimeoutMs: 100 }).invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', idempotencyKey: 'key-t' }));
      expect(events.at(-1)?.type).toBe('completed');
      expect(gateway.sent('POST /api/tasks').map((r) => r.headers['idempotency-key'])).toEqual(['key-t', 'key-t']);
    });

    it('emits progress_uncertain (RESEND_WITH_SAME_IDEMPOTENCY_KEY) when no attempt was acknowledged', async () => {
      gateway.createAnswers.push('drop', 'drop', 'drop', 'drop');
      const invocation = newClient().invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', idempotencyKey: 'key-x' });
      const events = await collect(invocation);
      expect(events).toEqual([
        { invocationRef: invocation.invocationRef, conversationId: invocation.conversationId, type: 'progress_uncertain', hint: 'RESEND_WITH_SAME_IDEMPOTENCY_KEY', idempotencyKey: 'key-x', cause: expect.stringMatching(/did not acknowledge the task after 4 attempts/) },
      ]);
      expect(gateway.sent('POST /api/tasks')).toHaveLength(4);
    });

    it('throws a refusal at once: 422 IDEMPOTENCY_KEY_REUSED is a typed error, not retried', async () => {
      gateway.createAnswers.push({ status: 422, body: { code: 'IDEMPOTENCY_KEY_REUSED', detail: 'Idempotency-Key "k" was used with another request', status: 422 } });
      const error = await collect(newClient().invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', idempotencyKey: 'k' })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MobileClawClientError);
      expect(error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', status: 422, retryable: false, idempotencyKey: 'k', message: 'Idempotency-Key "k" was used with another request' });
      expect(gateway.sent('POST /api/tasks')).toHaveLength(1);
    });

    it('stops following when the app breaks out of the loop', async () => {
      gateway.append('task.accepted');
      const invocation = newClient().invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1' });
      for await (const event of invocation) {
        expect(event.type).toBe('accepted');
        break;
      }
      // The client closes the held stream: the server sees it go.
      await gateway.whenStreamsClosed();
      expect(gateway.sent('GET /api/tasks/task-1/events')).toHaveLength(1);
    });
  });

  describe('tool calls', () => {
    it('answers a tool call through the local tools and goes on with the stream', async () => {
      gateway.append('task.accepted');
      gateway.append('task.input_required', { toolCall: { toolCallId: 'task-1:0', name: 'lookup_order', arguments: { orderId: 'A-17' }, kind: 'OBSERVATION', stepIndex: 0 } });
      gateway.append('task.resumed', { stepIndex: 0 });
      gateway.append('task.completed', { summary: 'lookup_order returned {"state":"shipped"}' });
      const client = newClient();
      const handle = jest.spyOn(client.tools, 'handle').mockResolvedValue({ outcome: 'ok', result: { state: 'shipped' } });
      const invocation = client.invoke({ mode: 'STREAMING', goal: 'call lookup_order', deviceId: 'sim-1', conversationId: 'c-1', tools: { allow: ['lookup_order'] } });
      const events = await collect(invocation);
      expect(events.map((e) => [e.eventId, e.type])).toEqual([
        [1, 'accepted'],
        [3, 'status_changed'],
        [4, 'completed'],
      ]);
      expect(handle).toHaveBeenCalledTimes(1);
      expect(handle.mock.calls[0][0]).toEqual({ toolCallId: 'task-1:0', name: 'lookup_order', arguments: { orderId: 'A-17' }, invocationRef: invocation.invocationRef, conversationId: 'c-1' });
      expect(handle.mock.calls[0][1]).toMatchObject({ invocationPolicy: { allow: ['lookup_order'] } });
      expect(gateway.sent('POST /api/tasks/task-1/tool-results').map((r) => r.body)).toEqual([{ toolCallId: 'task-1:0', outcome: 'ok', result: { state: 'shipped' } }]);
    });

    it('takes 409 TOOL_CALL_NOT_PENDING (already answered) as done, and re-sends an unacknowledged answer', async () => {
      gateway.append('task.accepted');
      gateway.append('task.input_required', { toolCall: { toolCallId: 'task-1:0', name: 'a', arguments: {}, stepIndex: 0 } });
      gateway.append('task.input_required', { toolCall: { toolCallId: 'task-1:1', name: 'b', arguments: {}, stepIndex: 1 } });
      gateway.append('task.completed', { summary: 'ok' });
      gateway.toolResultAnswers.push(
        { status: 409, body: { code: 'TOOL_CALL_NOT_PENDING', detail: 'already answered', status: 409 } },
        { status: 503, body: { code: 'STORAGE_ERROR', detail: 'disk', status: 503 } },
      );
      const client = newClient();
      jest.spyOn(client.tools, 'handle').mockResolvedValue({ outcome: 'rejected', reason: 'not exposed' });
      const events = await collect(client.invoke({ mode: 'STREAMING', goal: 'call a then call b', deviceId: 'sim-1' }));
      expect(events.map((e) => e.type)).toEqual(['accepted', 'completed']);
      expect(gateway.sent('POST /api/tasks/task-1/tool-results').map((r) => (r.body as { toolCallId: string }).toolCallId)).toEqual(['task-1:0', 'task-1:1', 'task-1:1']);
    });

    it('shows an ACTION tool waiting for the approval handler as tool_call_requires_confirmation', async () => {
      gateway.append('task.accepted');
      gateway.append('task.input_required', { toolCall: { toolCallId: 'task-1:0', name: 'refund', arguments: { amount: 5 }, kind: 'ACTION', stepIndex: 0 } });
      gateway.append('task.completed', { summary: 'refunded' });
      const client = newClient();
      jest.spyOn(client.tools, 'handle').mockImplementation(async (call, hooks) => {
        hooks.onConfirmationRequired?.({ ...call, kind: 'ACTION', description: 'refunds an order' });
        return { outcome: 'ok', result: 'refunded' };
      });
      const invocation = client.invoke({ mode: 'STREAMING', goal: 'call refund', deviceId: 'sim-1' });
      const events = await collect(invocation);
      expect(events[1]).toEqual({ invocationRef: invocation.invocationRef, conversationId: invocation.conversationId, type: 'tool_call_requires_confirmation', toolCallId: 'task-1:0', name: 'refund', arguments: { amount: 5 } });
    });
  });

  describe('BLOCKING', () => {
    it('resolves with the final result', async () => {
      storeRun();
      gateway.task = { ...gateway.task, stepCount: 2 };
      const result = await newClient().invoke({ mode: 'BLOCKING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', conversationId: 'c-2' });
      expect(result).toEqual({ invocationRef: expect.any(String), conversationId: 'c-2', status: 'completed', summary: 'Wi-Fi is on', stepCount: 2, taskRef: 'task-1' });
    });

    it('resolves when the task waits for approval; result() after approve() gives the end', async () => {
      gateway.append('task.accepted');
      gateway.append('task.input_required', { pendingAction: { stepIndex: 1, action: { command: 'click', x: 1, y: 2 }, reason: 'pays' } });
      const client = newClient();
      const waiting = await client.invoke({ mode: 'BLOCKING', goal: 'pay', deviceId: 'sim-1' });
      expect(waiting).toMatchObject({ status: 'input_required', pendingAction: { stepIndex: 1, command: { command: 'click', x: 1, y: 2 }, reason: 'pays' } });
      await client.approve(waiting.invocationRef, true);
      gateway.append('task.resumed');
      gateway.append('task.completed', { summary: 'paid' });
      expect(await client.result(waiting.invocationRef)).toMatchObject({ status: 'completed', summary: 'paid' });
    });

    it('falls back to bounded polling when no stream can be kept', async () => {
      gateway.append('task.accepted');
      gateway.streamPlans.push('refuse', 'refuse', 'refuse', 'refuse');
      gateway.getAnswers.push({ status: 200, body: { taskId: 'task-1', status: 'running', stepCount: 0 } }, { status: 200, body: { taskId: 'task-1', status: 'running', stepCount: 0 } }, { status: 200, body: { taskId: 'task-1', status: 'running', stepCount: 0 } });
      gateway.task = { taskId: 'task-1', status: 'completed', summary: 'done', stepCount: 3 };
      const result = await newClient({ blockingPoll: { intervalMs: 1, maxAttempts: 5 } }).invoke({ mode: 'BLOCKING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1' });
      expect(result).toMatchObject({ status: 'completed', summary: 'done', stepCount: 3 });
    });

    it('rejects with PROGRESS_UNCERTAIN (QUERY_LATER_DO_NOT_REINVOKE) when polling runs out', async () => {
      gateway.streamPlans.push('refuse', 'refuse', 'refuse', 'refuse');
      const error = await newClient({ blockingPoll: { intervalMs: 1, maxAttempts: 2 } }).invoke({ mode: 'BLOCKING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', idempotencyKey: 'key-b' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'PROGRESS_UNCERTAIN', hint: 'QUERY_LATER_DO_NOT_REINVOKE', idempotencyKey: 'key-b' });
    });

    it('rejects with RESEND_WITH_SAME_IDEMPOTENCY_KEY when creation was never acknowledged', async () => {
      gateway.createAnswers.push('drop', 'drop', 'drop', 'drop');
      const error = await newClient().invoke({ mode: 'BLOCKING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', idempotencyKey: 'key-n' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MobileClawClientError);
      expect(error).toMatchObject({ code: 'PROGRESS_UNCERTAIN', hint: 'RESEND_WITH_SAME_IDEMPOTENCY_KEY', idempotencyKey: 'key-n', retryable: true });
      // The conversation made for the invocation is part of the content a re-send repeats: the error carries it.
      const { conversationId } = error as MobileClawClientError;
      expect(conversationId).toMatch(/^[0-9a-f-]{36}$/);
      expect((error as Error).message).toContain(`invoke again with idempotencyKey key-n, conversationId ${conversationId} and the same content`);
    });
  });

  describe('ASYNC', () => {
    it('resolves once accepted; get() asks later', async () => {
      gateway.task = { taskId: 'task-1', status: 'queued', queuePosition: 2, stepCount: 0 };
      gateway.createAnswers.push({ status: 202, body: { taskId: 'task-1', status: 'queued', queuePosition: 2, events: '/api/tasks/task-1/events' } });
      const client = newClient();
      const accepted = await client.invoke({ mode: 'ASYNC', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', idempotencyKey: 'key-a', conversationId: 'c-3' });
      expect(accepted).toEqual({ invocationRef: expect.any(String), conversationId: 'c-3', idempotencyKey: 'key-a', status: 'queued', queuePosition: 2 });
      expect(gateway.sent('GET /api/tasks/task-1/events')).toHaveLength(0);
      expect(await client.get(accepted.invocationRef)).toMatchObject({ status: 'queued' });
      expect(await client.cancel(accepted.invocationRef)).toMatchObject({ status: 'canceled', error: { code: 'CANCELED' } });
    });

    it('answers tool calls in the background through an approval whose wait lost the stream (approved elsewhere, e.g. on the web page)', async () => {
      gateway.append('task.accepted');
      gateway.append('task.started');
      gateway.append('task.input_required', { pendingAction: { stepIndex: 0, action: { command: 'click', x: 900, y: 2200 }, reason: 'pays' } });
      // The background follower's first stream breaks while the task waits for the approval.
      gateway.streamPlans.push({ count: 3, then: 'destroy' });
      let answered!: () => void;
      const delivered = new Promise<void>((resolve) => (answered = resolve));
      // Resolves `delivered` once the gateway acknowledged a tool result.
      const client = newClient({
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          if (String(input).endsWith('/tool-results')) answered();
          return response;
        },
      });
      client.tools.register({ name: 'lookup_order', description: 'Finds an order.', inputSchema: { type: 'object' }, kind: 'OBSERVATION', execute: () => 'shipped' });
      client.setConversationToolPolicy('c-4', { allow: ['lookup_order'] });
      const handle = jest.spyOn(client.tools, 'handle');
      const accepted = await client.invoke({ mode: 'ASYNC', goal: 'pay, then call lookup_order', deviceId: 'sim-1', conversationId: 'c-4', tools: { allow: ['lookup_order'] } });
      // Someone else approves; the task goes on and calls the app's tool.
      gateway.append('task.resumed', { stepIndex: 0 });
      gateway.append('task.input_required', { toolCall: { toolCallId: 'task-1:1', name: 'lookup_order', arguments: {}, kind: 'OBSERVATION', stepIndex: 1 } });
      await delivered;
      expect(handle.mock.calls.map(([call]) => call)).toEqual([{ toolCallId: 'task-1:1', name: 'lookup_order', arguments: {}, invocationRef: accepted.invocationRef, conversationId: 'c-4' }]);
      expect(gateway.sent('POST /api/tasks/task-1/tool-results').map((r) => r.body)).toEqual([{ toolCallId: 'task-1:1', outcome: 'ok', result: 'shipped' }]);
      expect(gateway.sent('GET /api/tasks/task-1/events').map((r) => r.headers['last-event-id'])).toEqual(['0', '3']);
    });

    it('rejects with the same hint as BLOCKING when creation was never acknowledged', async () => {
      gateway.createAnswers.push({ status: 502, body: 'bad gateway' }, 'drop', 'drop', 'drop');
      await expect(newClient().invoke({ mode: 'ASYNC', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', idempotencyKey: 'key-z' })).rejects.toMatchObject({ code: 'PROGRESS_UNCERTAIN', hint: 'RESEND_WITH_SAME_IDEMPOTENCY_KEY', idempotencyKey: 'key-z' });
    });
  });

  it('picks the only online phone when no deviceId is given', async () => {
    storeRun();
    await collect(newClient().invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi' }));
    expect((gateway.sent('POST /api/tasks')[0].body as { deviceId: string }).deviceId).toBe('sim-1');
  });

  it('answers UNKNOWN_INVOCATION for a ref it has no record of', async () => {
    await expect(newClient().get('no-such-ref')).rejects.toMatchObject({ code: 'UNKNOWN_INVOCATION' });
    await expect(collect(newClient().events('no-such-ref'))).rejects.toMatchObject({ code: 'UNKNOWN_INVOCATION' });
  });

  it('sends the API token as a Bearer token', async () => {
    storeRun();
    await collect(newClient({ apiToken: 's3cret' }).invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1' }));
    expect(gateway.requests.map((r) => r.headers.authorization)).toEqual(gateway.requests.map(() => 'Bearer s3cret'));
  });

  it('keeps its records in an owner-only directory that a new client (after a restart) reads', async () => {
    const storeDir = mkdtempSync(join(tmpdir(), 'mobileclaw-client-'));
    dirs.push(storeDir);
    gateway.append('task.accepted');
    gateway.append('task.started');
    const first = new MobileClawClient({ baseUrl, storeDir, streamRecovery: { delaysMs: [1] } });
    clients.push(first);
    const invocation = first.invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1' });
    const iterator = invocation[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();
    await iterator.return?.();
    const dir = join(storeDir, 'invocations');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(dir)).toEqual([`${invocation.invocationRef}.json`]);
    expect(statSync(join(dir, `${invocation.invocationRef}.json`)).mode & 0o777).toBe(0o600);

    gateway.append('task.completed', { summary: 'done' });
    const restarted = new MobileClawClient({ baseUrl, storeDir });
    clients.push(restarted);
    const rest = await collect(restarted.events(invocation.invocationRef));
    expect(idsOf(rest)).toEqual([3]);
    expect(gateway.sent('GET /api/tasks/task-1/events').at(-1)?.headers['last-event-id']).toBe('2');
  });
});
