import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { RunningGateway } from '@mobileclaw/gateway';
import { SseClient } from '../support/sse-client';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

const streams: SseClient[] = [];
// Registered first so that streams close before their gateways do.
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});
const gateways = testGateways('mobileclaw-tasks-');

/** A gateway whose simulated phone sim-1 is online. */
async function start(extra: Record<string, string> = {}): Promise<RunningGateway> {
  const gw = await gateways.start(extra);
  await waitOnline(gw, 'sim-1');
  return gw;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;
const url = gatewayUrl;

async function api(gw: RunningGateway, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await fetch(url(gw, path), {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

async function events(gw: RunningGateway, taskId: string, headers: Record<string, string> = {}, query = ''): Promise<SseClient> {
  const stream = await SseClient.open(url(gw, `/api/tasks/${taskId}/events${query}`), headers);
  streams.push(stream);
  return stream;
}

const TERMINAL = ['task.completed', 'task.failed', 'task.canceled', 'task.interrupted'];

describe('tasks API (real gateway, simulated phone, SQLite, rule-based planner)', () => {
  it('runs "Turn on Wi-Fi" to completion, streaming every step over SSE', async () => {
    const gw = await start();
    expect(gw.simulator!.ui.state.wifi).toBe(false);
    const created = await api(gw, 'POST', '/api/tasks', { deviceId: 'sim-1', goal: 'Turn on Wi-Fi' });
    expect(created.status).toBe(202);
    expect(created.body).toEqual({ taskId: expect.any(String), status: 'running', events: `/api/tasks/${created.body.taskId}/events` });
    expect(created.headers.get('location')).toBe(`/api/tasks/${created.body.taskId}`);

    const stream = await events(gw, created.body.taskId);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['cache-control']).toBe('no-cache, no-transform');
    await stream.ended;
    const types = stream.events.map((e) => e.event);
    expect(types[0]).toBe('task.accepted');
    expect(types[types.length - 1]).toBe('task.completed');
    expect(stream.events.map((e) => Number(e.id))).toEqual(types.map((_, i) => i + 1));
    expect(types.filter((t) => t === 'step.observed').length).toBeGreaterThanOrEqual(2);
    expect(gw.simulator!.ui.state.wifi).toBe(true);

    const task = await api(gw, 'GET', `/api/tasks/${created.body.taskId}`);
    expect(task.body).toMatchObject({ status: 'completed', deviceId: 'sim-1', goal: 'Turn on Wi-Fi', planner: 'rule-based' });
    expect(task.body.steps.length).toBe(task.body.stepCount);
    const last = task.body.steps[task.body.steps.length - 1];
    expect(last.plan.type).toBe('done');
    const acted = task.body.steps.filter((s: Json) => s.plan.type === 'action');
    expect(acted.length).toBeGreaterThan(0);
    for (const step of acted) expect(step.result.status).toBe('success');
    // The switch tap is verified by the next observation.
    expect(acted[acted.length - 1].result.verified).toBe(true);
    for (const step of task.body.steps) {
      expect(step.observation.screen).toEqual({ width: 1080, height: 2400, rotation: 0 });
      expect(step.timings.planningMs).toBeGreaterThanOrEqual(0);
      // The simulated screen is still: two equal UI trees, one 200 ms pause (the default) apart.
      expect(step.observation.settled).toBe(true);
      expect(step.timings.settleMs).toBeGreaterThanOrEqual(200);
    }

    // Each step, live and replayed from the store, names its screenshot by URL; the owner stays internal.
    expect(task.body).not.toHaveProperty('owner');
    for (const step of task.body.steps) expect(step.observation.screenshotUrl).toBe(`/api/tasks/${created.body.taskId}/steps/${step.index}/screenshot`);
    const observedLive = stream.json<Json>().filter((e: Json) => e.type === 'step.observed');
    expect(observedLive.map((e: Json) => e.data.observation)).toEqual(task.body.steps.map((s: Json) => s.observation));
    expect(stream.json<Json>()[0].data.task).not.toHaveProperty('owner');
    const replayed = await events(gw, created.body.taskId);
    await replayed.ended;
    expect(replayed.json()).toEqual(stream.json());

    const image = await fetch(url(gw, task.body.steps[0].observation.screenshotUrl));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(bytes.readUInt32BE(16)).toBe(1080);

    const list = await api(gw, 'GET', '/api/tasks?deviceId=sim-1&status=completed&limit=5');
    expect(list.body.tasks.map((t: Json) => t.taskId)).toEqual([created.body.taskId]);
  });

  it('observes at once with MOBILECLAW_SETTLE_TIMEOUT_MS=0', async () => {
    const gw = await start({ MOBILECLAW_SETTLE_TIMEOUT_MS: '0' });
    const { body } = await api(gw, 'POST', '/api/tasks', { deviceId: 'sim-1', goal: 'Turn on Wi-Fi' });
    await (await events(gw, body.taskId)).ended;
    const task = await api(gw, 'GET', `/api/tasks/${body.taskId}`);
    expect(task.body.status).toBe('completed');
    for (const step of task.body.steps) {
      expect(step.observation).not.toHaveProperty('settled');
      expect(step.timings.settleMs).toBe(0);
    }
  });

  it('resumes the stream exactly after Last-Event-ID (header or query), live or from the store', async () => {
    const gw = await start();
    gw.simulator!.faults.latencyMs = 30;
    const { body } = await api(gw, 'POST', '/api/tasks', { deviceId: 'sim-1', goal: 'Turn on Wi-Fi' });
    // Read part of the live stream, drop it, reconnect with the last id seen: no gap, no duplicate.
    const first = await events(gw, body.taskId);
    await first.next((e) => e.event === 'step.observed');
    first.close();
    const seen = first.events.map((e) => Number(e.id));
    const second = await events(gw, body.taskId, { 'last-event-id': String(seen[seen.length - 1]) });
    await second.ended;
    const all = [...seen, ...second.events.map((e) => Number(e.id))];
    expect(all).toEqual(all.map((_, i) => i + 1));
    expect(TERMINAL).toContain(second.events[second.events.length - 1].event);

    // After the end: the query form, the full history for a late client, and nothing after the last id.
    const full = await events(gw, body.taskId);
    await full.ended;
    expect(full.events.map((e) => Number(e.id))).toEqual(all);
    const fromQuery = await events(gw, body.taskId, {}, '?lastEventId=3');
    await fromQuery.ended;
    expect(fromQuery.events.map((e) => Number(e.id))).toEqual(all.slice(3));
    expect(fromQuery.json()).toEqual(full.json().slice(3));
    const none = await events(gw, body.taskId, { 'last-event-id': String(all.length) });
    await none.ended;
    expect(none.events).toEqual([]);

    const bad = await api(gw, 'GET', `/api/tasks/${body.taskId}/events?lastEventId=-1`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    const unknown = await api(gw, 'GET', '/api/tasks/no-such-task/events');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('TASK_NOT_FOUND');
  });

  it('cancels a running task at once, aborting the command the phone is stuck on', async () => {
    const gw = await start();
    const { body } = await api(gw, 'POST', '/api/tasks', { deviceId: 'sim-1', goal: 'Turn on Wi-Fi' });
    const stream = await events(gw, body.taskId);
    await stream.next((e) => e.event === 'step.acted');
    gw.simulator!.faults.neverReply = true;
    await stream.next((e) => e.event === 'step.started' && JSON.parse(e.data).data.index === 1);
    const canceled = await api(gw, 'POST', `/api/tasks/${body.taskId}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', error: { code: 'CANCELED' } });
    await stream.ended;
    expect(stream.events[stream.events.length - 1].event).toBe('task.canceled');
    const again = await api(gw, 'POST', `/api/tasks/${body.taskId}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('TASK_STATE_CONFLICT');
  });

  it('queues a second task for the busy phone, or refuses it with DEVICE_BUSY when asked not to wait', async () => {
    const gw = await start();
    gw.simulator!.faults.neverReply = true;
    const first = await api(gw, 'POST', '/api/tasks', { deviceId: 'sim-1', goal: 'Turn on Wi-Fi' });
    const second = await api(gw, 'POST', '/api/tasks', { deviceId: 'sim-1', goal: 'Turn on Bluetooth' });
    expect(second.status).toBe(202);
    expect(second.body).toMatchObject({ status: 'queued', queuePosition: 1 });
    const refused = await api(gw, 'POST', '/api/tasks', { deviceId: 'sim-1', goal: 'Go home', onBusy: 'reject' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('DEVICE_BUSY');
    const queued = await events(gw, second.body.taskId);
    await queued.next((e) => e.event === 'task.queued');
    expect(JSON.parse(queued.events[1].data).data).toEqual({ position: 1 });
    await api(gw, 'POST', `/api/tasks/${second.body.taskId}/cancel`);
    await api(gw, 'POST', `/api/tasks/${first.body.taskId}/cancel`);
  });

  it('answers bad input with precise problem details', async () => {
    const gw = await start();
    const missing = await api(gw, 'POST', '/api/tasks', { goal: '' });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('VALIDATION_FAILED');
    expect(missing.body.errors.map((e: Json) => e.field).sort()).toEqual(['deviceId', 'goal']);
    const extra = await api(gw, 'POST', '/api/tasks', { deviceId: 'sim-1', goal: 'x', maxSteps: 0, speed: 3 });
    expect(extra.body.errors.map((e: Json) => e.field).sort()).toEqual(['maxSteps', 'speed']);
    const unknownPhone = await api(gw, 'POST', '/api/tasks', { deviceId: 'phone-404', goal: 'Turn on Wi-Fi' });
    expect(unknownPhone.status).toBe(404);
    expect(unknownPhone.body.code).toBe('DEVICE_NOT_FOUND');
    const deep = await api(gw, 'POST', '/api/tasks', `{"deviceId":"sim-1","goal":"go home","x":${'['.repeat(3000)}${']'.repeat(3000)}}`);
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: `x${'.0'.repeat(31)}`, message: 'nesting deeper than 32 levels' }] });
    const proto = await api(gw, 'POST', '/api/tasks', '{"deviceId":"sim-1","goal":"go home","__proto__":{"maxSteps":1}}');
    expect(proto.status).toBe(400);
    expect(proto.body.errors).toEqual([{ field: '__proto__', message: 'property __proto__ is not allowed' }]);
    const twice = await api(gw, 'GET', '/api/tasks/nope/events?lastEventId=9&lastEventId=3');
    expect(twice.body.code).toBe('VALIDATION_FAILED');
    const notJson = await api(gw, 'POST', '/api/tasks', '{"deviceId":');
    expect(notJson.status).toBe(400);
    expect((await api(gw, 'GET', '/api/tasks/nope')).body.code).toBe('TASK_NOT_FOUND');
    expect((await api(gw, 'POST', '/api/tasks/nope/cancel')).status).toBe(404);
    expect((await api(gw, 'POST', '/api/tasks/nope/approval', { approve: true })).status).toBe(404);
    expect((await api(gw, 'POST', '/api/tasks/nope/approval', { approve: 'yes' })).body.code).toBe('VALIDATION_FAILED');
    expect((await api(gw, 'GET', '/api/tasks?limit=0')).body.code).toBe('VALIDATION_FAILED');
    expect((await api(gw, 'GET', '/api/tasks?status=sleeping')).body.code).toBe('VALIDATION_FAILED');
    expect((await api(gw, 'GET', '/api/tasks?cursor=garbage!!')).body.code).toBe('VALIDATION_FAILED');
    expect((await api(gw, 'GET', '/api/tasks/nope/steps/x/screenshot')).body.code).toBe('VALIDATION_FAILED');
    expect((await api(gw, 'GET', '/api/tasks/nope/steps/0/screenshot')).body.code).toBe('TASK_NOT_FOUND');
  });

  it('shows tasks stored by the previous version, with their screenshot URLs, exactly as it did', async () => {
    // A first run creates the database; then the rows the previous version wrote for a finished task,
    // whose step and step.observed event stored the screenshot URL themselves.
    const dataDir = gateways.dataDir();
    await (await gateways.start({ MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_SIM: 'off' })).close();
    const taskId = '0b7e4f2a-6c1d-4e8f-9a3b-5c6d7e8f9a0b';
    const task = { taskId, deviceId: 'sim-1', goal: 'Go home', status: 'completed', maxSteps: 25, planner: 'rule-based', createdAt: '2026-04-01T09:00:00.000Z', startedAt: '2026-04-01T09:00:00.010Z', stepCount: 1, endedAt: '2026-04-01T09:00:01.000Z', summary: 'home' };
    const observation = { frameId: 'f1', screenshotUrl: `/api/tasks/${taskId}/steps/0/screenshot`, screenshotMime: 'image/png', screen: { width: 1080, height: 2400, rotation: 0 }, elementCount: 3, package: 'com.android.launcher3' };
    const step = { taskId, index: 0, startedAt: '2026-04-01T09:00:00.020Z', observation, plan: { type: 'done', summary: 'home', reasoning: 'the launcher shows' }, result: { status: 'success' }, timings: { captureMs: 4, transferMs: 2, planningMs: 1, actionMs: 0 }, endedAt: '2026-04-01T09:00:01.000Z' };
    const stored = [
      { id: 1, type: 'task.accepted', at: task.createdAt, data: { task: { ...task, status: 'queued', startedAt: undefined, endedAt: undefined, summary: undefined, stepCount: 0 } } },
      { id: 2, type: 'step.observed', at: '2026-04-01T09:00:00.500Z', data: { index: 0, observation, timings: { captureMs: 4, transferMs: 2 } } },
      { id: 3, type: 'task.completed', at: task.endedAt, data: { status: 'completed', summary: 'home' } },
    ];
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const db = new Database(join(dataDir, 'mobileclaw.db'));
    db.prepare('INSERT INTO tasks (task_id, device_id, status, created_at, ended_at, data) VALUES (?, ?, ?, ?, ?, ?)').run(taskId, 'sim-1', 'completed', Date.parse(task.createdAt), Date.parse(task.endedAt), JSON.stringify(task));
    db.prepare('INSERT INTO steps (task_id, idx, data) VALUES (?, ?, ?)').run(taskId, 0, JSON.stringify(step));
    for (const event of stored) db.prepare('INSERT INTO events (task_id, id, type, at, data) VALUES (?, ?, ?, ?, ?)').run(taskId, event.id, event.type, event.at, JSON.stringify(event.data));
    db.prepare('INSERT INTO screenshots (task_id, step_index, mime, file_name, byte_size) VALUES (?, ?, ?, ?, ?)').run(taskId, 0, 'image/png', '0.png', png.length);
    db.close();
    mkdirSync(join(dataDir, 'screenshots', taskId), { recursive: true });
    writeFileSync(join(dataDir, 'screenshots', taskId, '0.png'), png);

    const gw = await gateways.start({ MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_SIM: 'off' });
    const shown = await fetch(url(gw, `/api/tasks/${taskId}`));
    expect(await shown.text()).toBe(JSON.stringify({ ...task, steps: [step] }));
    const stream = await events(gw, taskId);
    await stream.ended;
    expect(stream.events.map((e) => e.data)).toEqual(stored.map((e) => JSON.stringify({ taskId, ...e })));
    const image = await fetch(url(gw, observation.screenshotUrl));
    expect(Buffer.from(await image.arrayBuffer())).toEqual(png);
  });

  it('streams device status for the page, starting with the current list', async () => {
    const gw = await start();
    const stream = await SseClient.open(url(gw, '/api/devices/events'));
    streams.push(stream);
    const first = await stream.next(() => true);
    expect(first.event).toBe('devices');
    expect(JSON.parse(first.data).devices).toEqual([expect.objectContaining({ deviceId: 'sim-1', status: 'online' })]);
    await gw.simulator!.stop();
    const gone = await stream.next((e) => e.event === 'device.disconnected');
    expect(JSON.parse(gone.data)).toMatchObject({ type: 'device.disconnected', deviceId: 'sim-1' });
  });
});
