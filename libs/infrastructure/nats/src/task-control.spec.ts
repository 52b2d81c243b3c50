import { connect, type NatsConnection } from '@nats-io/transport-node';
import { MobileClawError, type Task, type TaskControlRequest } from '@mobileclaw/domain';
import { NatsTaskControlRelay, taskControlSubject } from './task-control';
import { startNatsServer, type NatsServer } from './testing/nats-server';

const task = (taskId: string, status: Task['status']): Task => ({ taskId, deviceId: 'phone-1', goal: 'g', status, maxSteps: 5, planner: 'p', createdAt: '2026-05-01T10:00:00.000Z', stepCount: 1, owner: { instanceId: 'gw-a', leaseExpiresAt: '2026-05-01T10:01:00.000Z' } });

async function rejection(promise: Promise<unknown>): Promise<MobileClawError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof MobileClawError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('NatsTaskControlRelay (against a real nats-server)', () => {
  let server: NatsServer;
  const connections: NatsConnection[] = [];
  const open = async (): Promise<NatsConnection> => {
    const connection = await connect({ servers: server.url });
    connections.push(connection);
    return connection;
  };

  beforeAll(async () => {
    server = await startNatsServer();
  });
  afterEach(async () => {
    await Promise.all(connections.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await server.stop();
  });

  it('hands each request to the owner instance and returns its answer', async () => {
    const received: TaskControlRequest[] = [];
    const owner = new NatsTaskControlRelay(await open(), { instanceId: 'gw-a' });
    const listener = await owner.listen(async (request) => {
      received.push(request);
      return task(request.taskId, request.op === 'cancel' ? 'canceled' : 'running');
    });
    const caller = new NatsTaskControlRelay(await open(), { instanceId: 'gw-b' });

    expect(await caller.send('gw-a', { op: 'cancel', taskId: 't-1', reason: 'canceled by a caller' })).toEqual(task('t-1', 'canceled'));
    expect(await caller.send('gw-a', { op: 'approve', taskId: 't-2', approve: false })).toEqual(task('t-2', 'running'));
    expect(await caller.send('gw-a', { op: 'tool_result', taskId: 't-3', answer: { toolCallId: 'c-1', outcome: 'ok', result: { price: [1, 2] } } })).toEqual(task('t-3', 'running'));
    expect(received).toEqual([
      { op: 'cancel', taskId: 't-1', reason: 'canceled by a caller' },
      { op: 'approve', taskId: 't-2', approve: false },
      { op: 'tool_result', taskId: 't-3', answer: { toolCallId: 'c-1', outcome: 'ok', result: { price: [1, 2] } } },
    ]);
    await listener.close();
  });

  it('passes the owner\'s errors on with their code, message and field errors; other failures as INTERNAL_ERROR', async () => {
    const owner = new NatsTaskControlRelay(await open(), { instanceId: 'gw-a' });
    const listener = await owner.listen(async (request) => {
      if (request.taskId === 'ended') throw new MobileClawError('TASK_STATE_CONFLICT', 'task ended is already completed');
      if (request.taskId === 'bad') throw new MobileClawError('VALIDATION_FAILED', 'result too large', { fieldErrors: [{ field: 'result', message: 'at most 64 KiB' }] });
      throw new TypeError('boom');
    });
    const caller = new NatsTaskControlRelay(await open(), { instanceId: 'gw-b' });

    expect(await rejection(caller.send('gw-a', { op: 'cancel', taskId: 'ended', reason: 'r' }))).toEqual(new MobileClawError('TASK_STATE_CONFLICT', 'task ended is already completed'));
    const invalid = await rejection(caller.send('gw-a', { op: 'tool_result', taskId: 'bad', answer: { toolCallId: 'c', outcome: 'ok', result: 1 } }));
    expect([invalid.code, invalid.message, invalid.fieldErrors]).toEqual(['VALIDATION_FAILED', 'result too large', [{ field: 'result', message: 'at most 64 KiB' }]]);
    expect(await rejection(caller.send('gw-a', { op: 'approve', taskId: 'other', approve: true }))).toEqual(new MobileClawError('INTERNAL_ERROR', 'the instance running the task failed to answer'));
    await listener.close();
  });

  it('answers a message that is not a task control request with VALIDATION_FAILED, without calling the handler', async () => {
    let calls = 0;
    const owner = new NatsTaskControlRelay(await open(), { instanceId: 'gw-a' });
    const listener = await owner.listen(async (request) => {
      calls++;
      return task(request.taskId, 'running');
    });
    const raw = await open();
    for (const body of ['not json', JSON.stringify({ op: 'delete', taskId: 't' }), JSON.stringify({ op: 'approve', taskId: 't', approve: 'yes' })]) {
      const reply = (await raw.request(taskControlSubject('mobileclaw', 'gw-a'), body, { timeout: 10_000 })).json<{ error: { code: string } }>();
      expect(reply.error.code).toBe('VALIDATION_FAILED');
    }
    expect(calls).toBe(0);
    await listener.close();
  });

  it('fails DEVICE_DISCONNECTED at once when no instance listens there (never started, or closed its listener)', async () => {
    // A long deadline: the answer must come from the server's "no responders", not from a timer.
    const caller = new NatsTaskControlRelay(await open(), { instanceId: 'gw-b', timeoutMs: 600_000 });
    const gone = await rejection(caller.send('gw-c', { op: 'cancel', taskId: 't-9', reason: 'r' }));
    expect([gone.code, gone.message]).toEqual(['DEVICE_DISCONNECTED', 'gateway instance gw-c, which runs task t-9, cannot be reached over the cluster link (NATS) for cancel: no instance listens there: it stopped or is restarting']);

    const ownerConnection = await open();
    const owner = new NatsTaskControlRelay(ownerConnection, { instanceId: 'gw-a' });
    const listener = await owner.listen(async (request) => task(request.taskId, 'canceled'));
    expect((await caller.send('gw-a', { op: 'cancel', taskId: 't-1', reason: 'r' })).status).toBe('canceled');
    await listener.close();
    await ownerConnection.flush();
    expect((await rejection(caller.send('gw-a', { op: 'cancel', taskId: 't-1', reason: 'r' }))).code).toBe('DEVICE_DISCONNECTED');
  });

  it('fails TIMEOUT when the owner does not answer within timeoutMs', async () => {
    const owner = new NatsTaskControlRelay(await open(), { instanceId: 'gw-a' });
    const listener = await owner.listen(() => new Promise<Task>(() => undefined));
    const caller = new NatsTaskControlRelay(await open(), { instanceId: 'gw-b', timeoutMs: 50 });
    const late = await rejection(caller.send('gw-a', { op: 'approve', taskId: 't-1', approve: true }));
    expect([late.code, late.message]).toEqual(['TIMEOUT', 'gateway instance gw-a, which runs task t-1, did not answer approve within 50 ms over the cluster link (NATS); read the task to see whether it took effect']);
    await listener.close();
  });
});
