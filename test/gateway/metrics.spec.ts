import { connect, type Socket } from 'node:net';
import type { RunningGateway } from '@mobileclaw/gateway';
import { PrometheusScrape } from '../support/prometheus-scrape';
import { SseClient } from '../support/sse-client';
import { gatewayUrl, testGateways } from '../support/test-gateways';

/**
 * `GET /metrics` of a real gateway, scraped over HTTP and parsed as Prometheus text: a command that
 * times out, a malformed frame from a phone and a completed task each show with exact values.
 */
const gateways = testGateways('mobileclaw-metrics-');
const url = gatewayUrl;
const TOKEN = 'metrics-api-token-0123456789';
const BEARER = { authorization: `Bearer ${TOKEN}` };

const streams: SseClient[] = [];
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});

async function openStream(gw: RunningGateway, path: string): Promise<SseClient> {
  const stream = await SseClient.open(url(gw, `${path}?access_token=${TOKEN}`));
  streams.push(stream);
  return stream;
}

/** Resolves once `deviceId` is listed online. */
async function online(gw: RunningGateway, deviceId: string): Promise<void> {
  const stream = await openStream(gw, '/api/devices/events');
  await stream.next((e) => (e.event === 'devices' && (JSON.parse(e.data) as { devices: { deviceId: string }[] }).devices.some((d) => d.deviceId === deviceId)) || e.event === 'device.connected');
  stream.close();
}

/** A phone speaking wire protocol v1 by hand over TCP: one JSON object per line. */
class LinePhone {
  private buffer = '';
  private readonly frames: Record<string, unknown>[] = [];
  private waiter?: { type: string; resolve: (frame: Record<string, unknown>) => void };

  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf('\n')) >= 0) {
        const frame = JSON.parse(this.buffer.slice(0, newline)) as Record<string, unknown>;
        this.buffer = this.buffer.slice(newline + 1);
        this.frames.push(frame);
        if (this.waiter && frame['type'] === this.waiter.type) this.waiter.resolve(frame);
      }
    });
  }

  static async connect(port: number): Promise<LinePhone> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    return new LinePhone(socket);
  }

  send(line: string): void {
    this.socket.write(`${line}\n`);
  }

  next(type: string): Promise<Record<string, unknown>> {
    const seen = this.frames.find((f) => f['type'] === type);
    if (seen) {
      this.frames.splice(this.frames.indexOf(seen), 1);
      return Promise.resolve(seen);
    }
    return new Promise((resolve) => (this.waiter = { type, resolve }));
  }
}

describe('GET /metrics', () => {
  it('follows the REST API token rule', async () => {
    const gw = await gateways.start({ MOBILECLAW_API_TOKEN: TOKEN, MOBILECLAW_SIM: 'off' });
    const refused = await fetch(url(gw, '/metrics'));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(((await refused.json()) as { code: string }).code).toBe('UNAUTHORIZED');
    expect((await fetch(url(gw, '/metrics'), { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
    expect((await PrometheusScrape.of(url(gw, '/metrics'), BEARER)).family('mobileclaw_devices_connected').type).toBe('gauge');
    expect((await PrometheusScrape.of(url(gw, `/metrics?access_token=${TOKEN}`))).family('mobileclaw_tasks').type).toBe('gauge');
    const open = await gateways.start({ MOBILECLAW_SIM: 'off' });
    const scrape = await PrometheusScrape.of(url(open, '/metrics'));
    expect(scrape.values('mobileclaw_devices_connected')).toEqual({ 'transport=tcp': 0, 'transport=ws': 0 });
  });

  it('counts a command timeout, a malformed frame and a completed task, with the process metrics and no device id', async () => {
    const gw = await gateways.start({ MOBILECLAW_API_TOKEN: TOKEN });
    await online(gw, 'sim-1');
    const scrape = () => PrometheusScrape.of(url(gw, '/metrics'), BEARER);

    const before = await scrape();
    expect(before.values('mobileclaw_devices_connected')).toEqual({ 'transport=tcp': 1, 'transport=ws': 0 });
    expect(before.value('mobileclaw_device_sessions_started_total', { transport: 'tcp', kind: 'first' })).toBe(1);
    expect(before.values('mobileclaw_device_frames_discarded_total')).toEqual({
      'reason=malformed,transport=tcp': 0,
      'reason=oversized,transport=tcp': 0,
      'reason=unexpected,transport=tcp': 0,
      'reason=malformed,transport=ws': 0,
      'reason=oversized,transport=ws': 0,
      'reason=unexpected,transport=ws': 0,
    });
    expect(before.values('mobileclaw_tasks')).toEqual({ 'state=input_required': 0, 'state=queued': 0, 'state=running': 0 });
    expect(before.values('mobileclaw_sse_clients')).toEqual({ 'stream=devices': 0, 'stream=socket': 0, 'stream=task': 0 });
    expect(before.family('process_cpu_user_seconds_total').type).toBe('counter');
    expect(before.family('nodejs_eventloop_lag_seconds').type).toBe('gauge');

    // A command the phone never answers: 504 TIMEOUT after its 300 ms deadline.
    gw.simulator!.faults.neverReply = true;
    const timedOut = await fetch(url(gw, '/api/devices/sim-1/commands'), { method: 'POST', headers: { ...BEARER, 'content-type': 'application/json' }, body: JSON.stringify({ command: 'home', timeoutMs: 300 }) });
    expect(timedOut.status).toBe(504);
    gw.simulator!.faults.neverReply = false;
    const afterTimeout = await scrape();
    expect(afterTimeout.values('mobileclaw_device_commands_total')).toEqual({ 'command=home,outcome=TIMEOUT': 1 });
    expect(afterTimeout.count('mobileclaw_device_command_duration_seconds', { command: 'home' })).toBe(1);
    // Node arms a timer from the event loop's cached whole-millisecond time, which lags the real time by
    // what the current loop turn has already spent: a 300 ms deadline may be measured (on the
    // high-resolution clock) a little short of 300 ms, never short of the 0.25 s bucket below.
    expect(afterTimeout.value('mobileclaw_device_command_duration_seconds_sum', { command: 'home' })).toBeGreaterThan(0.25);
    expect(afterTimeout.value('mobileclaw_device_command_duration_seconds_bucket', { command: 'home', le: '0.25' })).toBe(0);
    expect(afterTimeout.value('mobileclaw_device_command_duration_seconds_bucket', { command: 'home', le: '+Inf' })).toBe(1);
    expect(afterTimeout.value('mobileclaw_device_pending_requests')).toBe(0);

    // A phone that sends a line that is not JSON: discarded as malformed, answered PROTOCOL_ERROR.
    const phone = await LinePhone.connect(gw.devicePort);
    phone.send(JSON.stringify({ type: 'hello', protocolVersion: 1, deviceId: 'raw-1', token: gw.deviceToken }));
    await phone.next('welcome');
    phone.send('{"type": "response", "requestId": ');
    expect(await phone.next('error')).toMatchObject({ code: 'PROTOCOL_ERROR' });
    const afterFrame = await scrape();
    expect(afterFrame.values('mobileclaw_device_frames_discarded_total')).toEqual({
      'reason=malformed,transport=tcp': 1,
      'reason=oversized,transport=tcp': 0,
      'reason=unexpected,transport=tcp': 0,
      'reason=malformed,transport=ws': 0,
      'reason=oversized,transport=ws': 0,
      'reason=unexpected,transport=ws': 0,
    });
    expect(afterFrame.values('mobileclaw_devices_connected')).toEqual({ 'transport=tcp': 2, 'transport=ws': 0 });
    phone.socket.destroy();

    // A task that completes in three steps (open Settings, tap the switch, done).
    const created = await fetch(url(gw, '/api/tasks'), { method: 'POST', headers: { ...BEARER, 'content-type': 'application/json' }, body: JSON.stringify({ deviceId: 'sim-1', goal: 'Turn on Wi-Fi' }) });
    const { taskId } = (await created.json()) as { taskId: string };
    const events = await openStream(gw, `/api/tasks/${taskId}/events`);
    const devices = await openStream(gw, '/api/devices/events');
    await events.ended;
    expect(events.events.at(-1)?.event).toBe('task.completed');
    const afterTask = await scrape();
    expect(afterTask.values('mobileclaw_tasks_finished_total')).toEqual({ 'status=completed': 1 });
    expect(afterTask.values('mobileclaw_tasks')).toEqual({ 'state=input_required': 0, 'state=queued': 0, 'state=running': 0 });
    for (const [phase, count] of [
      ['settle', 3],
      ['capture', 3],
      ['transfer', 3],
      ['planning', 3],
      ['action', 2],
    ] as const) {
      expect({ phase, count: afterTask.count('mobileclaw_task_step_phase_seconds', { phase }) }).toEqual({ phase, count });
    }
    expect(afterTask.value('mobileclaw_device_commands_total', { command: 'open', outcome: 'ok' })).toBe(1);
    expect(afterTask.value('mobileclaw_device_commands_total', { command: 'click', outcome: 'ok' })).toBe(1);
    expect(afterTask.value('mobileclaw_device_commands_total', { command: 'screenshot', outcome: 'ok' })).toBe(3);
    expect(afterTask.values('mobileclaw_planner_errors_total')).toEqual({ 'reason=error': 0, 'reason=timeout': 0 });
    expect(afterTask.value('mobileclaw_sse_clients', { stream: 'devices' })).toBe(1);
    devices.close();
    // Per-phone series carry no device id unless MOBILECLAW_METRICS_DEVICE_LABELS is on.
    expect(afterTask.text).not.toMatch(/sim-1|raw-1|device_id/);
  });

  it('labels per-phone series with device_id when MOBILECLAW_METRICS_DEVICE_LABELS=on', async () => {
    const gw = await gateways.start({ MOBILECLAW_METRICS_DEVICE_LABELS: 'on' });
    await online(gw, 'sim-1');
    expect((await fetch(url(gw, '/api/devices/sim-1/commands'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ command: 'home' }) })).status).toBe(200);
    const scrape = await PrometheusScrape.of(url(gw, '/metrics'));
    expect(scrape.values('mobileclaw_device_commands_total')).toEqual({ 'command=home,device_id=sim-1,outcome=ok': 1 });
    expect(scrape.values('mobileclaw_device_pending_requests')).toEqual({ 'device_id=sim-1': 0 });
    expect(scrape.count('mobileclaw_device_command_queue_wait_seconds', { device_id: 'sim-1' })).toBe(1);
  });
});
