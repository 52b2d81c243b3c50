import type { RunningGateway } from '@mobileclaw/gateway';
import { EventsSocketClient } from '../support/events-socket-client';
import { PrometheusScrape } from '../support/prometheus-scrape';
import { SseClient } from '../support/sse-client';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

/**
 * The live event socket `/ws/events` against a real gateway (simulated phone sim-1, SQLite, rule-based
 * planner) on a real port, through the `ws` client a Node frontend would use.
 */

const sockets: EventsSocketClient[] = [];
const streams: SseClient[] = [];
// Registered first so that clients close before their gateways do.
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
  for (const s of streams.splice(0)) s.close();
});
const gateways = testGateways('mobileclaw-events-socket-');

async function start(extra: Record<string, string> = {}): Promise<RunningGateway> {
  const gw = await gateways.start(extra);
  await waitOnline(gw, 'sim-1');
  return gw;
}

const socketUrl = (gw: RunningGateway, query = '') => `ws://127.0.0.1:${gw.httpPort}/ws/events${query}`;

async function connect(gw: RunningGateway, query = '', options = {}): Promise<EventsSocketClient> {
  const client = await EventsSocketClient.open(socketUrl(gw, query), options);
  sockets.push(client);
  return client;
}

async function startTask(gw: RunningGateway, goal: string): Promise<string> {
  const res = await fetch(gatewayUrl(gw, '/api/tasks'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ deviceId: 'sim-1', goal }) });
  expect(res.status).toBe(202);
  return ((await res.json()) as { taskId: string }).taskId;
}

/** Every event of a task as its SSE stream sends them: `{id, type, data}` with data parsed. */
async function sseEvents(gw: RunningGateway, taskId: string, lastEventId?: number): Promise<unknown[]> {
  const stream = await SseClient.open(gatewayUrl(gw, `/api/tasks/${taskId}/events${lastEventId === undefined ? '' : `?lastEventId=${lastEventId}`}`));
  streams.push(stream);
  await stream.ended;
  return stream.events.map((e) => JSON.parse(e.data) as unknown);
}

const ended = (client: EventsSocketClient, taskId: string) => client.next((m) => m.type === 'task.end' && m['taskId'] === taskId);

describe('live event socket /ws/events (real gateway, simulated phone)', () => {
  it('greets, then streams a task\'s events exactly as its SSE stream does, and ends it with task.end', async () => {
    const gw = await start();
    const client = await connect(gw);
    expect(await client.next((m) => m.type === 'welcome')).toEqual({ type: 'welcome', v: 1, maxMessageBytes: 65536 });
    const taskId = await startTask(gw, 'Turn on Wi-Fi');
    expect(await client.request({ type: 'subscribe', tasks: [{ taskId }] })).toEqual({ type: 'reply', id: 'm1', ok: true });
    const end = await ended(client, taskId);
    const events = client.taskEvents(taskId);
    expect(events.map((e) => e['id'])).toEqual(events.map((_, i) => i + 1));
    expect(events[0].type).toBe('task.accepted');
    expect(events.at(-1)?.type).toBe('task.completed');
    expect(end).toEqual({ type: 'task.end', taskId, lastEventId: events.length });
    // Same types, payloads and ids as the SSE stream (screenshot URLs included).
    expect(events).toEqual(await sseEvents(gw, taskId));
    expect(events.find((e) => e.type === 'step.observed')?.['data'].observation.screenshotUrl).toBe(`/api/tasks/${taskId}/steps/0/screenshot`);
  });

  it('resumes after since exactly as Last-Event-ID does: no gap, no duplicate, live or from the store', async () => {
    const gw = await start();
    gw.simulator!.faults.latencyMs = 30;
    const taskId = await startTask(gw, 'Turn on Wi-Fi');
    const first = await connect(gw);
    first.send({ type: 'subscribe', tasks: [{ taskId }] });
    await first.next((m) => m.type === 'step.observed');
    first.close();
    await first.closed;
    const seen = first.taskEvents(taskId).map((e) => e['id'] as number);
    const since = seen.at(-1)!;

    const second = await connect(gw);
    second.send({ type: 'subscribe', tasks: [{ taskId, since }] });
    const end = await ended(second, taskId);
    const rest = second.taskEvents(taskId).map((e) => e['id'] as number);
    const all = [...seen, ...rest];
    expect(all).toEqual(all.map((_, i) => i + 1));
    expect(end['lastEventId']).toBe(all.length);

    // After the end, from the store: the same events as the SSE stream after the same id.
    const late = await connect(gw);
    late.send({ type: 'subscribe', tasks: [{ taskId, since: 3 }] });
    await ended(late, taskId);
    expect(late.taskEvents(taskId)).toEqual(await sseEvents(gw, taskId, 3));
    const none = await connect(gw);
    none.send({ type: 'subscribe', tasks: [{ taskId, since: all.length }] });
    expect(await ended(none, taskId)).toEqual({ type: 'task.end', taskId, lastEventId: all.length });
    expect(none.taskEvents(taskId)).toEqual([]);
  });

  it('cancels a running task: the reply carries the canceled task, the stream ends with task.canceled', async () => {
    const gw = await start();
    const client = await connect(gw);
    const taskId = await startTask(gw, 'Turn on Wi-Fi');
    client.send({ type: 'subscribe', tasks: [{ taskId }] });
    await client.next((m) => m.type === 'step.acted');
    gw.simulator!.faults.neverReply = true;
    await client.next((m) => m.type === 'step.started' && m['data'].index === 1);
    const reply = await client.request({ type: 'cancel', taskId });
    expect(reply).toMatchObject({ type: 'reply', ok: true, task: { taskId, status: 'canceled', error: { code: 'CANCELED' } } });
    expect(reply['task'].owner).toBeUndefined();
    await ended(client, taskId);
    expect(client.taskEvents(taskId).at(-1)?.type).toBe('task.canceled');
    expect(await client.request({ type: 'cancel', taskId })).toMatchObject({ ok: false, error: { code: 'TASK_STATE_CONFLICT' } });
  });

  it('approves or denies a sensitive action by the REST rules', async () => {
    const gw = await start();
    const client = await connect(gw);
    // A message to someone who is not a contact: the planner asks before tapping Send.
    const denied = await startTask(gw, "send 'hi there' to Nina");
    client.send({ type: 'subscribe', tasks: [{ taskId: denied }] });
    await client.next((m) => m.type === 'task.input_required' && m['taskId'] === denied);
    const deny = await client.request({ type: 'approve', taskId: denied, approved: false });
    expect(deny).toMatchObject({ ok: true, task: { taskId: denied, status: 'canceled', error: { code: 'APPROVAL_DENIED' } } });
    await ended(client, denied);

    const approved = await startTask(gw, "send 'hi there' to Nina");
    client.send({ type: 'subscribe', tasks: [{ taskId: approved }] });
    await client.next((m) => m.type === 'task.input_required' && m['taskId'] === approved);
    expect(await client.request({ type: 'approve', taskId: approved, approved: true })).toMatchObject({ ok: true, task: { taskId: approved, status: 'running' } });
    await ended(client, approved);
    expect(client.taskEvents(approved).at(-1)?.type).toBe('task.completed');
    // Not waiting for approval any more: the REST endpoint's conflict.
    expect(await client.request({ type: 'approve', taskId: approved, approved: true })).toMatchObject({ ok: false, error: { code: 'TASK_STATE_CONFLICT' } });
  });

  it('answers an unknown task with TASK_NOT_FOUND and subscribes nothing of that message', async () => {
    const gw = await start();
    const client = await connect(gw);
    const taskId = await startTask(gw, 'Turn on Wi-Fi');
    const reply = await client.request({ type: 'subscribe', tasks: [{ taskId }, { taskId: 'no-such-task' }], devices: '*' });
    expect(reply).toEqual({ type: 'reply', id: 'm1', ok: false, error: { code: 'TASK_NOT_FOUND', message: 'no task no-such-task' } });
    expect(await client.request({ type: 'cancel', taskId: 'no-such-task' })).toMatchObject({ ok: false, error: { code: 'TASK_NOT_FOUND' } });
    expect(await client.request({ type: 'approve', taskId: 'no-such-task', approved: true })).toMatchObject({ ok: false, error: { code: 'TASK_NOT_FOUND' } });
    // Without an id, the failure is an error message.
    client.send({ type: 'subscribe', tasks: [{ taskId: 'no-such-task' }] });
    expect(await client.next((m) => m.type === 'error')).toEqual({ type: 'error', error: { code: 'TASK_NOT_FOUND', message: 'no task no-such-task' } });
    expect(client.messages.filter((m) => m['taskId'] === taskId || m.type === 'devices')).toEqual([]);
  });

  it('answers malformed messages with VALIDATION_FAILED and keeps the socket and its subscriptions working', async () => {
    const gw = await start();
    const client = await connect(gw);
    client.send({ type: 'subscribe', devices: ['sim-1'] });
    await client.next((m) => m.type === 'devices');
    const bad: [unknown, string, unknown?][] = [
      ['{not json', 'not valid JSON: send one JSON object per text message'],
      ['[1,2]', 'a message must be a JSON object with a "type"'],
      [{ type: 'launch', id: 7 }, 'unknown message type "launch"; expected one of subscribe, unsubscribe, cancel, approve', 7],
      [{ type: 'subscribe', id: 'x1', tasks: [{ taskId: 't', since: -1 }] }, 'invalid subscribe message: tasks.0.since: Too small: expected number to be >=0', 'x1'],
      [{ type: 'subscribe' }, 'invalid subscribe message: (message): name devices, tasks or screens'],
      [{ type: 'cancel', taskId: 't' }, 'invalid cancel message: id: Invalid input'],
      [{ type: 'approve', id: 'a', taskId: 't', approved: 'yes' }, 'invalid approve message: approved: Invalid input: expected boolean, received string', 'a'],
      [{ type: 'cancel', id: 'c', taskId: 't', extra: 1 }, 'invalid cancel message: (message): Unrecognized key: "extra"', 'c'],
      [Buffer.from([1, 2, 3]), 'binary messages are not read: send JSON text messages'],
    ];
    for (const [message, text, id] of bad) {
      const from = client.messages.length;
      client.send(message);
      const error = await client.next((m) => m.type === 'error', from);
      expect({ message: error['error'].message, code: error['error'].code, id: error['id'] }).toEqual({ message: text, code: 'VALIDATION_FAILED', id });
    }
    // Still open, still subscribed: an unrelated later request works.
    expect(await client.request({ type: 'unsubscribe', devices: '*' })).toEqual({ type: 'reply', id: 'm1', ok: true });

    // A message over maxPayload closes the socket (1009), nothing else.
    const big = await connect(gw);
    big.send({ type: 'subscribe', devices: ['x'.repeat(70_000)] });
    expect((await big.closed).code).toBe(1009);
    expect(await client.request({ type: 'subscribe', devices: ['sim-1'] })).toMatchObject({ ok: true });
  });

  it('streams the subscribed phones: their list first, then their events; counts its clients', async () => {
    const gw = await start();
    const client = await connect(gw);
    client.send({ type: 'subscribe', devices: ['sim-1', 'other'] });
    const list = await client.next((m) => m.type === 'devices');
    expect((await PrometheusScrape.of(gatewayUrl(gw, '/metrics'))).value('mobileclaw_sse_clients', { stream: 'socket' })).toBe(1);
    expect(list['devices'].map((d: { deviceId: string; status: string }) => [d.deviceId, d.status])).toEqual([['sim-1', 'online']]);
    await fetch(gatewayUrl(gw, '/api/devices/sim-1/commands'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ command: 'home' }) });
    expect(await client.next((m) => m.type === 'device.status' && m['status'] === 'busy')).toMatchObject({ deviceId: 'sim-1', queueLength: 0 });
  });

  it('sends the live screen of a phone, a new frame when it changes, and screen.end for an unknown phone', async () => {
    const gw = await start();
    const client = await connect(gw);
    client.send({ type: 'subscribe', screens: ['sim-1', 'nope'] });
    const first = await client.next((m) => m.type === 'screen.frame');
    expect(first).toMatchObject({ deviceId: 'sim-1', seq: 1, mime: 'image/jpeg', deviceWidth: 1080, deviceHeight: 2400, width: 324, height: 720 });
    expect(Buffer.from(first['base64'], 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(await client.next((m) => m.type === 'screen.end')).toMatchObject({ deviceId: 'nope', error: { code: 'DEVICE_NOT_FOUND' } });
    const res = await fetch(gatewayUrl(gw, '/api/devices/sim-1/commands'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ command: 'open', app: 'com.android.settings' }) });
    expect(res.status).toBe(200);
    const second = await client.next((m) => m.type === 'screen.frame' && m['seq'] === 2);
    expect(second['base64']).not.toBe(first['base64']);
  });

  describe('access', () => {
    const TOKEN = 'events-api-token-0123456789';

    it('needs the API token when one is set: Bearer header or access_token, else closed 4401', async () => {
      const gw = await gateways.start({ MOBILECLAW_API_TOKEN: TOKEN, MOBILECLAW_SIM: 'off' });
      const none = await connect(gw);
      expect(await none.closed).toEqual({ code: 4401, reason: 'unauthorized: missing API token (Bearer header or access_token)' });
      const wrong = await connect(gw, '?access_token=wrong');
      expect(await wrong.closed).toEqual({ code: 4401, reason: 'unauthorized: invalid API token' });
      expect(none.messages).toEqual([]);
      const header = await connect(gw, '', { headers: { authorization: `Bearer ${TOKEN}` } });
      expect((await header.next((m) => m.type === 'welcome')).type).toBe('welcome');
      const query = await connect(gw, `?access_token=${TOKEN}`);
      expect((await query.next((m) => m.type === 'welcome')).type).toBe('welcome');
    });

    it('refuses browser pages of other origins (4403); the gateway\'s own origin, loopback hosts and CORS origins pass', async () => {
      const gw = await gateways.start({ MOBILECLAW_CORS_ORIGINS: 'https://app.example.com', MOBILECLAW_SIM: 'off' });
      const evil = await connect(gw, '', { origin: 'https://evil.example' });
      expect(await evil.closed).toEqual({ code: 4403, reason: 'origin not allowed (MOBILECLAW_CORS_ORIGINS)' });
      for (const origin of [`http://127.0.0.1:${gw.httpPort}`, 'http://localhost:5173', 'https://app.example.com']) {
        const page = await connect(gw, '', { origin });
        expect((await page.next((m) => m.type === 'welcome')).type).toBe('welcome');
      }
    });
  });
});
