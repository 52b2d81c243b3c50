import type { SimulatedPhone } from '@mobileclaw/simulator';
import type { RawPhone } from '@mobileclaw/transport-tcp/testing';
import type { GatewayProcess, Json } from '../support/gateway-process';
import { SseClient } from '../support/sse-client';
import { connectPhone, connectRawPhone, startGatewayCluster, type GatewayCluster } from './gateway-cluster';

/**
 * Three gateway processes on one nats-server and one PostgreSQL database, each server taken down and
 * brought back under them: requests fail with catalog codes at once while a server is down and work
 * again afterwards, without restarting a gateway.
 */
// Three gateway processes, a nats-server, PostgreSQL and the phones share this machine's cores with the
// other spec files: starts, kills and reconnects may take seconds under load (a budget, not a speed check).
jest.setTimeout(60_000);

let cluster: GatewayCluster;
let a: GatewayProcess;
let c: GatewayProcess;
const phones: SimulatedPhone[] = [];
const rawPhones: RawPhone[] = [];

beforeAll(async () => {
  cluster = await startGatewayCluster('cluster_outages', ['gw-a', 'gw-b', 'gw-c']);
  [a, c] = ['gw-a', 'gw-c'].map((id) => cluster.gateways.get(id)!);
}, 120_000);

afterAll(async () => {
  for (const phone of phones) await phone.stop();
  for (const phone of rawPhones) phone.destroy();
  await cluster?.stop();
}, 60_000);

async function phoneOn(deviceId: string, gateway: GatewayProcess): Promise<SimulatedPhone> {
  const phone = await connectPhone(deviceId, [gateway], { seenBy: [...cluster.gateways.values()] });
  phones.push(phone);
  return phone;
}

/** `ui_tree` data of `phone`'s screen now (each capture has a frame id and a capture time of its own). */
const sameScreen = (phone: SimulatedPhone): Json => ({ ...phone.ui.uiTree(), frameId: expect.any(String), captureMs: expect.any(Number) });
const command = (gateway: GatewayProcess, deviceId: string, body: Record<string, unknown>) => gateway.api('POST', `/api/devices/${deviceId}/commands`, body);

describe('a cluster of three gateway processes whose servers go down', () => {
  it('fails routed commands with DEVICE_DISCONNECTED while NATS is down, and routes them again once it is back', async () => {
    // A hand-driven phone on C: the test decides when each command is answered, and with what.
    const phone = await connectRawPhone('nats-c', c, [...cluster.gateways.values()]);
    rawPhones.push(phone);
    // An answer that comes without the phone being asked (an error) is returned as it is, not awaited forever.
    const answered = async (gateway: GatewayProcess, data: Record<string, unknown>) => {
      const answer = command(gateway, 'nats-c', { command: 'home' });
      const action = await Promise.race([phone.nextOfType('action'), answer.then(() => undefined)]);
      if (action !== undefined) phone.reply(action, data);
      return answer;
    };
    expect(await answered(a, { screen: 'before' })).toMatchObject({ status: 200, body: { deviceId: 'nats-c', command: 'home', status: 'success', data: { screen: 'before' } } });

    // Mid-traffic: a command routed from A is on the phone, unanswered, when the server dies.
    const inFlight = command(a, 'nats-c', { command: 'home', timeoutMs: 600_000 });
    const held = await phone.nextOfType('action');
    const [downOnA, downOnC] = [a, c].map((gateway) => gateway.nextLog(/the cluster link \(NATS [^)]*\) is down/));
    await cluster.nats.kill();
    await Promise.all([downOnA, downOnC]);
    // Long deadlines: only the link's state can answer these, not a timer.
    expect(await inFlight).toMatchObject({ status: 503, body: { code: 'DEVICE_DISCONNECTED' } });
    expect(await command(a, 'nats-c', { command: 'home', timeoutMs: 600_000 })).toMatchObject({ status: 503, body: { code: 'DEVICE_DISCONNECTED' } });
    // The phone's own instance still serves it, once the phone answers the command it held.
    phone.reply(held, { screen: 'held' });
    expect(await answered(c, { screen: 'local' })).toMatchObject({ status: 200, body: { data: { screen: 'local' } } });

    const [backOnA, backOnC] = [a, c].map((gateway) => gateway.nextLog(/the cluster link \(NATS [^)]*\) is back/));
    await cluster.nats.restart();
    await Promise.all([backOnA, backOnC]);
    expect(await answered(a, { screen: 'after' })).toMatchObject({ status: 200, body: { deviceId: 'nats-c', data: { screen: 'after' } } });
    // A phone that connects now is announced and reached across instances as before.
    const later = await phoneOn('nats-later', c);
    expect(await command(a, 'nats-later', { command: 'ui_tree' })).toMatchObject({ status: 200, body: { data: sameScreen(later) } });
  });

  it("while NATS is down, runs no task it cannot lock: onBusy reject is 503 STORAGE_ERROR, a queued task starts once NATS is back", async () => {
    await phoneOn('nats-task', c);
    const [downOnA, downOnC] = [a, c].map((gateway) => gateway.nextLog(/the cluster link \(NATS [^)]*\) is down/));
    await cluster.nats.kill();
    await Promise.all([downOnA, downOnC]);
    // The phone is C's own, but whether a task of another instance holds it is only known through NATS.
    const refused = await c.api('POST', '/api/tasks', { deviceId: 'nats-task', goal: 'Turn on Wi-Fi', onBusy: 'reject' });
    expect(refused).toMatchObject({ status: 503, body: { code: 'STORAGE_ERROR' } });
    const waiting = await c.api('POST', '/api/tasks', { deviceId: 'nats-task', goal: 'Turn on Wi-Fi' });
    expect(waiting).toMatchObject({ status: 202, body: { status: 'queued', queuePosition: 1 } });
    const events = await SseClient.open(c.url(`/api/tasks/${waiting.body.taskId}/events`));
    try {
      expect((await c.api('GET', `/api/tasks/${waiting.body.taskId}`)).body).toMatchObject({ status: 'queued', stepCount: 0 });
      const [backOnA, backOnC] = [a, c].map((gateway) => gateway.nextLog(/the cluster link \(NATS [^)]*\) is back/));
      await cluster.nats.restart();
      await Promise.all([backOnA, backOnC]);
      await events.ended;
      expect(events.events.map((e) => e.event)).toEqual(expect.arrayContaining(['task.queued', 'task.started', 'task.completed']));
    } finally {
      events.close();
    }
  });

  it('answers task creation 503 STORAGE_ERROR while PostgreSQL is down, and creates and runs tasks once it is back', async () => {
    await phoneOn('pg-a', a);
    await cluster.postgres.kill();
    const refused = await a.api('POST', '/api/tasks', { deviceId: 'pg-a', goal: 'Turn on Wi-Fi' });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 503, code: 'STORAGE_ERROR' });
    const ready = await a.api('GET', '/health/ready');
    expect(ready).toMatchObject({ status: 503, body: { status: 'error', error: { 'tasks-store': { status: 'down' } } } });

    await cluster.postgres.restart();
    expect(await a.api('GET', '/health/ready')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const created = await a.api('POST', '/api/tasks', { deviceId: 'pg-a', goal: 'Turn on Wi-Fi' });
    expect(created.status).toBe(202);
    const events = await SseClient.open(c.url(`/api/tasks/${created.body.taskId}/events`));
    await events.ended;
    expect(events.events.at(-1)?.event).toBe('task.completed');
    expect(events.events.map((e) => Number(e.id))).toEqual(events.events.map((_, i) => i + 1));
    expect((await c.api('GET', `/api/tasks/${created.body.taskId}`)).body).toMatchObject({ status: 'completed' });
  });
});
