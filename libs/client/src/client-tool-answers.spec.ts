import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MobileClawClient, type MobileClawClientOptions } from './client';
import { MobileClawClientError } from './errors';
import type { InvocationEvent } from './events';
import { FakeGateway } from './testing/fake-gateway';
import type { LocalTool } from './tools/tool-types';

/** How the client answers tool calls the gateway refuses, and tool calls an invocation's cancel overtakes. */

const gateway = new FakeGateway();
let baseUrl: string;
const clients: MobileClawClient[] = [];

beforeEach(async () => {
  Object.assign(gateway, new FakeGateway());
  baseUrl = await gateway.start();
});
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await gateway.stop();
});

function newClient(extra: Partial<MobileClawClientOptions> = {}): MobileClawClient {
  const client = new MobileClawClient({ baseUrl, store: 'memory', creationRetry: { delaysMs: [1, 2, 3] }, streamRecovery: { delaysMs: [1, 2, 3] }, blockingPoll: { intervalMs: 1, maxAttempts: 3 }, ...extra });
  clients.push(client);
  return client;
}

function toolNamed(name: string, execute: LocalTool['execute']): LocalTool {
  return { name, description: `The ${name} tool.`, inputSchema: { type: 'object' }, kind: 'OBSERVATION', execute };
}

async function collect(events: AsyncIterable<InvocationEvent>): Promise<InvocationEvent[]> {
  const seen: InvocationEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

/** A task that calls `name` once, then (after the answer) completes. */
function storeToolCallRun(name: string): void {
  gateway.append('task.accepted');
  gateway.append('task.input_required', { toolCall: { toolCallId: 'task-1:0', name, arguments: {}, kind: 'OBSERVATION', stepIndex: 0 } });
  gateway.append('task.resumed', { stepIndex: 0 });
  gateway.append('task.completed', { summary: 'done' });
}

const toolResults = (): unknown[] => gateway.sent('POST /api/tasks/task-1/tool-results').map((request) => request.body);

describe('answering tool calls', () => {
  it("cuts a tool's long error to 2,000 characters (code points) ending with … before it is sent", async () => {
    storeToolCallRun('lookup_order');
    const client = newClient();
    client.tools.register(
      toolNamed('lookup_order', () => {
        throw new Error('x'.repeat(3000));
      }),
    );
    client.setConversationToolPolicy('c-1', { allow: '*' });
    const events = await collect(client.invoke({ mode: 'STREAMING', goal: 'call lookup_order', deviceId: 'sim-1', conversationId: 'c-1', tools: { allow: '*' } }));
    expect(events.map((event) => event.type)).toEqual(['accepted', 'status_changed', 'completed']);
    const [body] = toolResults() as { outcome: string; reason: string }[];
    expect(body.outcome).toBe('rejected');
    expect(Array.from(body.reason)).toHaveLength(2000);
    expect(body.reason).toBe(`tool lookup_order failed: ${'x'.repeat(2000 - 26 - 1)}…`);
  });

  it('cuts a long reason the app itself hands over (e.g. built from a long gateway message)', async () => {
    storeToolCallRun('lookup_order');
    const client = newClient();
    jest.spyOn(client.tools, 'handle').mockResolvedValue({ outcome: 'rejected', reason: 'y'.repeat(2500) });
    await collect(client.invoke({ mode: 'STREAMING', goal: 'call lookup_order', deviceId: 'sim-1' }));
    expect(toolResults()).toEqual([{ toolCallId: 'task-1:0', outcome: 'rejected', reason: `${'y'.repeat(1999)}…` }]);
  });

  it('never takes a 400 as delivered: re-sends once as rejected with the short, cut gateway detail, and goes on', async () => {
    storeToolCallRun('lookup_order');
    const detail = `reason must be shorter than or equal to 2000 characters; ${'z'.repeat(5000)}`;
    gateway.toolResultAnswers.push({ status: 400, body: { code: 'VALIDATION_FAILED', detail, status: 400 } });
    const client = newClient();
    jest.spyOn(client.tools, 'handle').mockResolvedValue({ outcome: 'rejected', reason: 'the user declined' });
    const events = await collect(client.invoke({ mode: 'STREAMING', goal: 'call lookup_order', deviceId: 'sim-1' }));
    expect(events.map((event) => event.type)).toEqual(['accepted', 'status_changed', 'completed']);
    const bodies = toolResults() as { outcome: string; reason: string }[];
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toEqual({ toolCallId: 'task-1:0', outcome: 'rejected', reason: 'the user declined' });
    expect(bodies[1].outcome).toBe('rejected');
    expect(bodies[1].reason.startsWith('the gateway refused the answer of tool lookup_order: VALIDATION_FAILED: reason must be shorter than or equal to 2000 characters; zzz')).toBe(true);
    expect(Array.from(bodies[1].reason)).toHaveLength(2000);
    expect(bodies[1].reason.endsWith('z…')).toBe(true);
  });

  it('re-sends a refused ok result as rejected once too', async () => {
    storeToolCallRun('lookup_order');
    gateway.toolResultAnswers.push({ status: 400, body: { code: 'VALIDATION_FAILED', detail: 'result: nesting deeper than 32 levels', status: 400 } });
    const client = newClient();
    jest.spyOn(client.tools, 'handle').mockResolvedValue({ outcome: 'ok', result: { state: 'shipped' } });
    await collect(client.invoke({ mode: 'STREAMING', goal: 'call lookup_order', deviceId: 'sim-1' }));
    expect(toolResults()).toEqual([
      { toolCallId: 'task-1:0', outcome: 'ok', result: { state: 'shipped' } },
      { toolCallId: 'task-1:0', outcome: 'rejected', reason: 'the gateway refused the answer of tool lookup_order: VALIDATION_FAILED: result: nesting deeper than 32 levels' },
    ]);
  });

  it('stops with TOOL_RESULT_REFUSED when the rejection sent instead is refused too (STREAMING throws, BLOCKING rejects)', async () => {
    storeToolCallRun('lookup_order');
    const refusal = { status: 400, body: { code: 'VALIDATION_FAILED', detail: 'toolCallId must be a string', status: 400 } };
    gateway.toolResultAnswers.push(refusal, refusal, refusal, refusal);
    const client = newClient();
    jest.spyOn(client.tools, 'handle').mockResolvedValue({ outcome: 'rejected', reason: 'the user declined' });
    const streamed = await collect(client.invoke({ mode: 'STREAMING', goal: 'call lookup_order', deviceId: 'sim-1' })).catch((error: unknown) => error);
    expect(streamed).toBeInstanceOf(MobileClawClientError);
    expect(streamed).toMatchObject({ code: 'TOOL_RESULT_REFUSED', status: 400 });
    expect((streamed as Error).message).toMatch(/^the gateway refused the answer to tool call task-1:0 \(toolCallId must be a string\) and then the rejection sent instead \(toolCallId must be a string\)/);
    expect(toolResults()).toHaveLength(2);

    await expect(client.invoke({ mode: 'BLOCKING', goal: 'call lookup_order', deviceId: 'sim-1' })).rejects.toMatchObject({ code: 'TOOL_RESULT_REFUSED' });
    expect(toolResults()).toHaveLength(4);
  });
});

describe('cancel while a local tool runs', () => {
  /** A task waiting for the `slow` tool, which runs until its signal fires; `started` resolves once it runs. */
  function slowToolClient(): { client: MobileClawClient; started: Promise<void>; aborted: Promise<void> } {
    gateway.append('task.accepted');
    gateway.append('task.input_required', { toolCall: { toolCallId: 'task-1:0', name: 'slow', arguments: {}, kind: 'OBSERVATION', stepIndex: 0 } });
    const client = newClient();
    let markStarted!: () => void;
    let markAborted!: () => void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const aborted = new Promise<void>((resolve) => (markAborted = resolve));
    client.tools.register(
      toolNamed('slow', (_args, context) => {
        markStarted();
        return new Promise((resolve) => context.signal.addEventListener('abort', () => (markAborted(), resolve('stopped')), { once: true }));
      }),
    );
    client.setConversationToolPolicy('c-1', { allow: '*' });
    return { client, started, aborted };
  }

  /** What the gateway does on cancel: the task ends and its streams get `task.canceled`. */
  async function cancelOnGateway(client: MobileClawClient, invocationRef: string): Promise<void> {
    const state = await client.cancel(invocationRef);
    expect(state.status).toBe('canceled');
    gateway.append('task.canceled', { reason: 'canceled by the caller' });
  }

  it('STREAMING ends with canceled from the stream, without recovery and without answering the call', async () => {
    const { client, started, aborted } = slowToolClient();
    const invocation = client.invoke({ mode: 'STREAMING', goal: 'call slow', deviceId: 'sim-1', conversationId: 'c-1', tools: { allow: '*' } });
    const events = collect(invocation);
    await started;
    await cancelOnGateway(client, invocation.invocationRef);
    await aborted;
    expect((await events).map((event) => event.type)).toEqual(['accepted', 'canceled']);
    expect(gateway.sent('GET /api/tasks/task-1/events')).toHaveLength(1);
    expect(toolResults()).toEqual([]);
  });

  it('BLOCKING resolves canceled from the stream, without reopening it', async () => {
    const { client, started } = slowToolClient();
    const handle = jest.spyOn(client.tools, 'handle');
    const result = client.invoke({ mode: 'BLOCKING', goal: 'call slow', deviceId: 'sim-1', conversationId: 'c-1', tools: { allow: '*' } });
    await started;
    await cancelOnGateway(client, handle.mock.calls[0][0].invocationRef);
    await expect(result).resolves.toMatchObject({ status: 'canceled' });
    expect(gateway.sent('GET /api/tasks/task-1/events')).toHaveLength(1);
    expect(toolResults()).toEqual([]);
  });
});

describe('a damaged invocation record', () => {
  it('makes get() fail INVOCATION_RECORD_UNREADABLE, not a raw SyntaxError', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mobileclaw-client-'));
    try {
      gateway.append('task.accepted');
      const client = newClient({ store: 'file', storeDir: dir });
      const accepted = await client.invoke({ mode: 'ASYNC', goal: 'Turn on Wi-Fi', deviceId: 'sim-1' });
      writeFileSync(join(dir, 'invocations', `${accepted.invocationRef}.json`), '{"invocationRef": ');
      await expect(client.get(accepted.invocationRef)).rejects.toMatchObject({ name: 'MobileClawClientError', code: 'INVOCATION_RECORD_UNREADABLE' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
