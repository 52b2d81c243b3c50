import { once } from 'node:events';
import { SimulatedPhone } from '@mobileclaw/simulator';
import type { GatewayProcess, Json } from '../support/gateway-process';
import { SseClient } from '../support/sse-client';
import { TASK_LEASE_MS, connectPhone, startGatewayCluster, type GatewayCluster } from './gateway-cluster';

/**
 * Three gateway processes A, B and C on one nats-server and one PostgreSQL database, phones simulated
 * in this process: commands routed to the instance holding a phone, one listing everywhere, fencing
 * of a phone that moved, task event streams across instances, and what a crashed instance leaves.
 */
// Three gateway processes, a nats-server, PostgreSQL and the phones share this machine's cores with the
// other spec files: starts, kills and reconnects may take seconds under load (a budget, not a speed check).
jest.setTimeout(60_000);

let cluster: GatewayCluster;
let a: GatewayProcess;
let b: GatewayProcess;
let c: GatewayProcess;
const phones: SimulatedPhone[] = [];
const streams: SseClient[] = [];

beforeAll(async () => {
  cluster = await startGatewayCluster('cluster_routing', ['gw-a', 'gw-b', 'gw-c']);
  [a, b, c] = ['gw-a', 'gw-b', 'gw-c'].map((id) => cluster.gateways.get(id)!);
}, 120_000);

afterEach(() => {
  for (const stream of streams.splice(0)) stream.close();
});

afterAll(async () => {
  for (const phone of phones) await phone.stop();
  await cluster?.stop();
}, 60_000);

/** A phone connected to the first of `gateways` that takes it, announced by every running instance. */
async function phoneOn(deviceId: string, gateways: GatewayProcess[], reconnect = true): Promise<SimulatedPhone> {
  const seenBy = [...cluster.gateways.values()].filter((gateway) => gateway.process.exitCode === null && gateway.process.signalCode === null);
  const phone = await connectPhone(deviceId, gateways, { seenBy, reconnect });
  phones.push(phone);
  return phone;
}

async function openStream(gateway: GatewayProcess, path: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const stream = await SseClient.open(gateway.url(path), headers);
  streams.push(stream);
  return stream;
}

/** `ui_tree` data of `phone`'s screen now (each capture has a frame id and a capture time of its own). */
const sameScreen = (phone: SimulatedPhone): Json => ({ ...phone.ui.uiTree(), frameId: expect.any(String), captureMs: expect.any(Number) });
const command = (gateway: GatewayProcess, deviceId: string, body: Record<string, unknown>) => gateway.api('POST', `/api/devices/${deviceId}/commands`, body);
const listed = async (gateway: GatewayProcess): Promise<[string, string][]> =>
  ((await gateway.api('GET', '/api/devices')).body.devices as Json[]).map((d) => [d.deviceId, d.status] as [string, string]).sort(([x], [y]) => x.localeCompare(y));

describe('a cluster of three gateway processes', () => {
  it('runs a command sent to A on the phone connected to C, and every instance lists every phone once', async () => {
    const devicesOnA = await openStream(a, '/api/devices/events');
    await devicesOnA.next((e) => e.event === 'devices');
    const onA = await phoneOn('route-a', [a]);
    const onB = await phoneOn('route-b', [b]);
    const onC = await phoneOn('route-c', [c]);
    const connected = await devicesOnA.next((e) => e.event === 'device.connected' && JSON.parse(e.data).deviceId === 'route-c');
    expect(JSON.parse(connected.data)).toMatchObject({ type: 'device.connected', deviceId: 'route-c', device: { deviceId: 'route-c', sessionId: onC.sessionId, status: 'online' } });

    const opened = await command(a, 'route-c', { command: 'open', app: 'com.android.settings' });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ deviceId: 'route-c', command: 'open', status: 'success', data: { package: 'com.android.settings' } });
    const tree = await command(a, 'route-c', { command: 'ui_tree' });
    expect(tree.body.data).toEqual(sameScreen(onC));
    // The command ran on C's phone only.
    expect((await command(a, 'route-a', { command: 'ui_tree' })).body.data).toEqual(sameScreen(onA));
    expect(onA.ui.uiTree().nodes).not.toEqual(onC.ui.uiTree().nodes);
    expect((await command(c, 'route-b', { command: 'ui_tree' })).body.data).toEqual(sameScreen(onB));

    const expected = [
      ['route-a', 'online'],
      ['route-b', 'online'],
      ['route-c', 'online'],
    ];
    for (const gateway of [a, b, c]) expect(await listed(gateway)).toEqual(expected);
  });

  it('fences a phone that reconnected to B: the old session ends DEVICE_REPLACED, and so does a command pending on it', async () => {
    // Without reconnects: the old phone must not take the device back from B.
    const old = await phoneOn('mover', [a], false);
    old.faults.neverReply = true;
    // A command routed from C to A, in flight on the phone, which holds its reply.
    const received = once(old, 'action');
    const pending = command(c, 'mover', { command: 'home', timeoutMs: 600_000 });
    await received;

    const replaced = once(old, 'replaced');
    const moved = await phoneOn('mover', [b]);
    await replaced;
    const answer = await pending;
    expect(answer.body).toMatchObject({ code: 'DEVICE_REPLACED' });
    expect(answer.status).toBe(503);

    let reached = 0;
    moved.on('action', () => reached++);
    for (const gateway of [a, b, c]) {
      const result = await command(gateway, 'mover', { command: 'ui_tree' });
      expect(result).toMatchObject({ status: 200, body: { deviceId: 'mover', status: 'success', data: sameScreen(moved) } });
    }
    expect(reached).toBe(3);
    for (const gateway of [a, b, c]) expect((await listed(gateway)).filter(([id]) => id === 'mover')).toEqual([['mover', 'online']]);
  });

  it('streams a task running on A from B, resumed after a drop with Last-Event-ID: every event once, in order', async () => {
    await phoneOn('tasker', [a]);
    const created = await a.api('POST', '/api/tasks', { deviceId: 'tasker', goal: 'Turn on Wi-Fi' });
    expect(created.status).toBe(202);
    const { taskId } = created.body;
    const first = await openStream(b, `/api/tasks/${taskId}/events`);
    const cut = await first.next((e) => e.event === 'step.acted');
    first.close();
    const resumed = await openStream(b, `/api/tasks/${taskId}/events`, { 'last-event-id': cut.id! });
    await resumed.ended;

    const seen = [...first.events.slice(0, first.events.indexOf(cut) + 1), ...resumed.events];
    expect(seen.at(-1)?.event).toBe('task.completed');
    expect(seen.map((e) => Number(e.id))).toEqual(seen.map((_, i) => i + 1));
    // The same events as the running instance's own stream (the store's record).
    const onA = await openStream(a, `/api/tasks/${taskId}/events`);
    await onA.ended;
    expect(seen).toEqual(onA.events);
  });

  it('runs one task at a time on a phone across instances: a task created through B waits for the one A runs, C is refused DEVICE_BUSY', async () => {
    const phone = await phoneOn('one-at-a-time', [c]);
    // The first task's first command is swallowed: it runs, holding the phone, until it is canceled.
    phone.faults.neverReply = true;
    const first = await a.api('POST', '/api/tasks', { deviceId: 'one-at-a-time', goal: 'Turn on Wi-Fi' });
    expect(first.body).toMatchObject({ status: 'running' });
    const onA = await openStream(a, `/api/tasks/${first.body.taskId}/events`);
    await onA.next((e) => e.event === 'step.started');

    const second = await b.api('POST', '/api/tasks', { deviceId: 'one-at-a-time', goal: 'Turn on Bluetooth' });
    expect(second).toMatchObject({ status: 202, body: { status: 'queued', queuePosition: 1 } });
    const refused = await c.api('POST', '/api/tasks', { deviceId: 'one-at-a-time', goal: 'Go home', onBusy: 'reject' });
    expect(refused).toMatchObject({ status: 409, body: { code: 'DEVICE_BUSY', detail: `device one-at-a-time is running task ${first.body.taskId} on gateway instance gw-a` } });
    expect((await b.api('GET', `/api/tasks/${second.body.taskId}`)).body).toMatchObject({ status: 'queued', stepCount: 0 });

    phone.faults.neverReply = false;
    expect((await b.api('POST', `/api/tasks/${first.body.taskId}/cancel`)).body).toMatchObject({ status: 'canceled' });
    await onA.ended;
    const onB = await openStream(b, `/api/tasks/${second.body.taskId}/events`);
    await onB.ended;
    expect(onB.events.map((e) => e.event).slice(0, 3)).toEqual(['task.accepted', 'task.queued', 'task.started']);
    expect(onB.events.at(-1)?.event).toBe('task.completed');
    // The second task started once the first had ended (both instances' clocks are this host's).
    const endOfFirst = Date.parse(JSON.parse(onA.events.at(-1)!.data).at);
    expect(Date.parse(JSON.parse(onB.events.find((e) => e.event === 'task.started')!.data).at)).toBeGreaterThanOrEqual(endOfFirst);
    // The phone is free again: a task refused when busy is accepted through C.
    const third = await c.api('POST', '/api/tasks', { deviceId: 'one-at-a-time', goal: 'Go home', onBusy: 'reject' });
    expect(third).toMatchObject({ status: 202, body: { status: 'running' } });
    await (await openStream(c, `/api/tasks/${third.body.taskId}/events`)).ended;
  });

  it('never interleaves the steps of two tasks for one phone created at once through two instances', async () => {
    await phoneOn('no-interleave', [c]);
    const created = await Promise.all([
      a.api('POST', '/api/tasks', { deviceId: 'no-interleave', goal: 'Turn on Wi-Fi' }),
      b.api('POST', '/api/tasks', { deviceId: 'no-interleave', goal: 'Turn on Bluetooth' }),
    ]);
    expect(created.map((r) => r.status)).toEqual([202, 202]);
    expect(created.map((r) => r.body.status).sort()).toEqual(['queued', 'running']);
    for (const [gateway, response] of [
      [a, created[0]],
      [b, created[1]],
    ] as const) {
      await (await openStream(gateway, `/api/tasks/${response.body.taskId}/events`)).ended;
    }
    const tasks = await Promise.all(created.map(async (r) => (await c.api('GET', `/api/tasks/${r.body.taskId}`)).body));
    expect(tasks.map((t) => t.status)).toEqual(['completed', 'completed']);
    // Each task's steps span [first step's start, last step's end]; the two spans do not overlap.
    const spans = tasks.map((t) => [Date.parse(t.steps[0].startedAt), Date.parse(t.steps.at(-1).endedAt)]).sort(([x], [y]) => x - y);
    expect(spans[0][1]).toBeLessThanOrEqual(spans[1][0]);
  });

  it('answers DEVICE_DISCONNECTED at once for a phone whose instance was SIGKILLed, long before any command deadline', async () => {
    await phoneOn('orphan', [c]);
    await c.kill('SIGKILL');
    // The directory entry and C's heartbeat key outlive C by the instance TTL; only NATS knows nobody listens.
    const answer = await command(a, 'orphan', { command: 'ui_tree', timeoutMs: 600_000 });
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 'DEVICE_DISCONNECTED' });
  });

  it('after a SIGKILL of the instance with phones and a running task: phones back elsewhere, the task interrupted after the lease, nothing else lost', async () => {
    const busy = await phoneOn('crash-busy', [a, b]);
    const idle = await phoneOn('crash-idle', [a, b]);
    const bystander = await phoneOn('crash-bystander', [b]);

    // A finished task on B, and a task on A held mid-step by its phone.
    const finished = await b.api('POST', '/api/tasks', { deviceId: 'crash-bystander', goal: 'Turn on Bluetooth' });
    await (await openStream(b, `/api/tasks/${finished.body.taskId}/events`)).ended;
    const finishedTask = (await b.api('GET', `/api/tasks/${finished.body.taskId}`)).body;
    const running = await a.api('POST', '/api/tasks', { deviceId: 'crash-busy', goal: 'Turn on Wi-Fi' });
    const onA = await openStream(a, `/api/tasks/${running.body.taskId}/events`);
    await onA.next((e) => e.event === 'step.acted');
    busy.faults.neverReply = true;
    await onA.next((e) => e.event === 'step.started' && JSON.parse(e.data).data.index === 1);
    const onB = await openStream(b, `/api/tasks/${running.body.taskId}/events`);
    await onB.next((e) => e.id === onA.events.at(-1)!.id);
    const beforeKill = (await b.api('GET', `/api/tasks/${running.body.taskId}`)).body;
    expect(beforeKill).toMatchObject({ status: 'running', stepCount: 1 });

    const back = Promise.all([busy, idle].map((phone) => once(phone, 'welcome')));
    const killedAt = Date.now();
    await a.kill('SIGKILL');
    await back;
    busy.faults.neverReply = false;
    for (const phone of [busy, idle]) expect(phone.gatewayAddress).toBe(`127.0.0.1:${b.devicePort}`);

    // B's stream ends with the interruption that the sweep records once the lease has expired.
    const interrupted = await onB.next((e) => e.event === 'task.interrupted');
    await onB.ended;
    const after = (await b.api('GET', `/api/tasks/${running.body.taskId}`)).body;
    expect(after).toMatchObject({ status: 'interrupted', error: { code: 'INTERRUPTED' }, stepCount: beforeKill.stepCount, steps: beforeKill.steps });
    // The lease was renewed at most a third of it before the kill: no instance may take the task sooner.
    expect(Date.parse(after.endedAt)).toBeGreaterThanOrEqual(killedAt + Math.floor((TASK_LEASE_MS * 2) / 3) - 1);
    expect(onB.events.map((e) => Number(e.id))).toEqual(onB.events.map((_, i) => i + 1));
    expect(onB.events.slice(0, onA.events.length)).toEqual(onA.events);
    expect(onB.events.slice(onA.events.length)).toEqual([interrupted]);

    // The other task, the phones and commands through the survivor are unharmed.
    expect((await b.api('GET', `/api/tasks/${finished.body.taskId}`)).body).toEqual(finishedTask);
    for (const phone of [busy, idle, bystander]) {
      const result = await command(b, phone.deviceId, { command: 'ui_tree' });
      expect(result.body).toMatchObject({ status: 'success', data: sameScreen(phone) });
    }
    const next = await b.api('POST', '/api/tasks', { deviceId: 'crash-busy', goal: 'Go home' });
    expect(next.status).toBe(202);
    await (await openStream(b, `/api/tasks/${next.body.taskId}/events`)).ended;
    expect((await b.api('GET', `/api/tasks/${next.body.taskId}`)).body).toMatchObject({ status: 'completed' });
  }, 60_000);
});
