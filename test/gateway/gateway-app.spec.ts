import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filter, firstValueFrom } from 'rxjs';
import { ERROR_CATALOG, type UiNode } from '@mobileclaw/domain';
import { DeviceHub } from '@mobileclaw/device';
import { startGateway, type RunningGateway } from '@mobileclaw/gateway';
import { gatewayUrl, testGateways } from '../support/test-gateways';

const gateways = testGateways('mobileclaw-gw-');
const start = gateways.start;
const dataDir = gateways.dataDir;

const url = gatewayUrl;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

async function command(gw: RunningGateway, body: unknown, deviceId = 'sim-1', headers: Record<string, string> = {}): Promise<{ status: number; body: Json; type: string }> {
  const res = await fetch(url(gw, `/api/devices/${deviceId}/commands`), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), type: res.headers.get('content-type') ?? '' };
}

function flatten(nodes: UiNode[]): UiNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
}

function centre(node: UiNode): { x: number; y: number } {
  const [l, t, r, b] = node.bounds;
  return { x: Math.round((l + r) / 2), y: Math.round((t + b) / 2) };
}

async function uiTree(gw: RunningGateway): Promise<UiNode[]> {
  const res = await command(gw, { command: 'ui_tree' });
  expect(res.status).toBe(200);
  return flatten(res.body.data.nodes);
}

describe('gateway REST API over the simulated phone', () => {
  it('lists the phone, takes a real PNG and turns on Wi-Fi by clicking through Settings', async () => {
    const gw = await start();
    const list: Json = await (await fetch(url(gw, '/api/devices'))).json();
    expect(list.devices).toHaveLength(1);
    expect(list.devices[0]).toMatchObject({ deviceId: 'sim-1', status: 'online', queueLength: 0, screen: { width: 1080, height: 2400 } });
    expect(typeof list.devices[0].connectedAt).toBe('string');

    const shot = await fetch(url(gw, '/api/devices/sim-1/screenshot'));
    expect(shot.status).toBe(200);
    expect(shot.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await shot.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.readUInt32BE(16)).toBe(1080); // IHDR width
    expect(png.readUInt32BE(20)).toBe(2400); // IHDR height

    const settings = (await uiTree(gw)).find((n) => n.text === 'Settings' || n.desc === 'Settings');
    expect(settings).toBeDefined();
    const opened = await command(gw, { command: 'click', ...centre(settings as UiNode) });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ status: 'success', deviceId: 'sim-1', command: 'click' });
    expect(typeof opened.body.requestId).toBe('string');
    expect(typeof opened.body.durationMs).toBe('number');

    const wifiSwitch = () => uiTree(gw).then((nodes) => nodes.find((n) => n.checkable && (n.resourceId ?? '').includes('switch') && nodes.some((m) => m.text === 'Wi-Fi')));
    const before = (await uiTree(gw)).filter((n) => n.checkable);
    expect(before.length).toBeGreaterThanOrEqual(2);
    const wifiRow = (await uiTree(gw)).find((n) => n.text === 'Wi-Fi') as UiNode;
    expect(wifiRow).toBeDefined();
    const switches = (await uiTree(gw)).filter((n) => n.checkable);
    // The Wi-Fi switch is the checkable node on the Wi-Fi row's line.
    const wifi = switches.find((n) => n.bounds[1] < centre(wifiRow).y && n.bounds[3] > centre(wifiRow).y) as UiNode;
    expect(wifi.checked).toBe(false);
    expect((await command(gw, { command: 'click', ...centre(wifi) })).status).toBe(200);
    const after = (await uiTree(gw)).find((n) => n.id === wifi.id) as UiNode;
    expect(after.checked).toBe(true);
    expect(gw.simulator?.ui.state.wifi).toBe(true);
    expect(await wifiSwitch()).toBeDefined();
  });

  it('round-trips Unicode text typed into a field', async () => {
    const gw = await start();
    const text = 'Hello 世界 👋 «שלום» "q" 100% \\ 👩‍👩‍👧';
    expect((await command(gw, { command: 'open', app: 'com.android.chrome' })).status).toBe(200);
    const field = (await uiTree(gw)).find((n) => n.editable) as UiNode;
    expect((await command(gw, { command: 'click', ...centre(field) })).status).toBe(200);
    const typed = await command(gw, { command: 'input', text });
    expect(typed.status).toBe(200);
    const read = (await uiTree(gw)).find((n) => n.id === field.id) as UiNode;
    expect(read.text).toBe(text);
  });

  it('answers invalid requests with 400 VALIDATION_FAILED problem details listing each field', async () => {
    const gw = await start();
    const missing = await command(gw, { command: 'click', x: 10 });
    expect(missing.status).toBe(400);
    expect(missing.type).toContain('application/problem+json');
    expect(missing.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', type: 'urn:mobileclaw:error:VALIDATION_FAILED' });
    expect(missing.body.errors).toEqual([{ field: 'y', message: 'y is required' }]);
    const wrongType = await command(gw, { command: 'open' });
    expect(wrongType.body.errors).toEqual([{ field: 'app', message: 'app is required' }]);
    for (const app of ['a', 'settings', 'com.', 'com..x', 'com.1x']) {
      const notAPackage = await command(gw, { command: 'open', app });
      expect({ app, status: notAPackage.status, errors: notAPackage.body.errors }).toEqual({ app, status: 400, errors: [{ field: 'app', message: 'app must be an Android package name such as com.android.settings' }] });
    }

    const unknown = await command(gw, { command: 'teleport' });
    expect(unknown.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(unknown.body.errors[0].field).toBe('command');

    const extra = await command(gw, { command: 'home', sudo: true });
    expect(extra.body.errors).toEqual([{ field: 'sudo', message: 'property sudo should not exist' }]);

    const negative = await command(gw, { command: 'swipe', x1: -1, y1: 0, x2: 'a', y2: 5, durationMs: 0 });
    expect(negative.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['durationMs', 'x1', 'x2']);

    const malformed = await command(gw, '{"command": "click",');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('VALIDATION_FAILED');

    const latin1 = await fetch(url(gw, '/api/devices/sim-1/commands'), { method: 'POST', headers: { 'content-type': 'application/json; charset=latin1' }, body: '{"command":"home"}' });
    expect(latin1.status).toBe(415);
    expect(((await latin1.json()) as Json).code).toBe('UNSUPPORTED_MEDIA_TYPE');

    const notObject = await command(gw, '[1,2]');
    expect(notObject.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });

    const badQuery = await fetch(url(gw, '/api/devices/sim-1/screenshot?format=gif&maxWidth=abc'));
    expect(badQuery.status).toBe(400);
    expect((((await badQuery.json()) as Json).errors as { field: string }[]).map((e) => e.field).sort()).toEqual(['format', 'maxWidth']);
  });

  it('maps device failures to their HTTP status and code, and the phone keeps working', async () => {
    const gw = await start({ MOBILECLAW_QUEUE_LIMIT: '0' });
    const sim = gw.simulator!;

    const unknownDevice = await command(gw, { command: 'home' }, 'pixel-404');
    expect(unknownDevice.status).toBe(404);
    expect(unknownDevice.body).toMatchObject({ code: 'DEVICE_NOT_FOUND', deviceId: 'pixel-404' });
    expect((await fetch(url(gw, '/api/devices/pixel-404'))).status).toBe(404);

    const noApp = await command(gw, { command: 'open', app: 'com.example.missing' });
    expect(noApp.status).toBe(502);
    expect(noApp.body).toMatchObject({ code: 'DEVICE_ERROR', deviceCode: 'APP_NOT_FOUND' });

    sim.faults.neverReply = true;
    const timeout = await command(gw, { command: 'home', timeoutMs: 150 });
    expect(timeout.status).toBe(504);
    expect(timeout.body.code).toBe('TIMEOUT');
    sim.faults.neverReply = false;

    sim.faults.latencyMs = 300;
    const slow = command(gw, { command: 'home' });
    // Queue bound 0: a second command while one is in flight is refused at once.
    await new Promise<void>((resolve) => sim.once('action', () => resolve()));
    const busy = await command(gw, { command: 'back' });
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('DEVICE_BUSY');
    expect((await slow).status).toBe(200);
    sim.faults.latencyMs = 0;

    const frame = await command(gw, { command: 'ui_tree' });
    sim.rotate(1);
    const stale = await command(gw, { command: 'click', x: 10, y: 10, frameId: frame.body.data.frameId });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('STALE_FRAME');

    expect((await command(gw, { command: 'home' })).status).toBe(200);
  });

  it('withdraws the command when the HTTP client goes away, freeing the phone at once', async () => {
    const gw = await start();
    const sim = gw.simulator!;
    sim.faults.neverReply = true;
    const hub = gw.app.get(DeviceHub);
    const sent = new Promise<void>((resolve) => sim.once('action', () => resolve()));
    const client = new AbortController();
    const call = fetch(url(gw, '/api/devices/sim-1/commands'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ command: 'home', timeoutMs: 20_000 }),
      signal: client.signal,
    }).catch((err: Error) => err.name);
    await sent;
    expect((await gw.app.get(DeviceHub).getDevice('sim-1')).status).toBe('busy');
    const idle = firstValueFrom(hub.events$.pipe(filter((e) => e.type === 'device.status' && e.status === 'online')));
    client.abort();
    expect(await call).toBe('AbortError');
    await idle;
    expect(hub.stats().pending).toBe(0);
    sim.faults.neverReply = false;
    expect((await command(gw, { command: 'home' })).status).toBe(200);
  });

  it('answers 413 PAYLOAD_TOO_LARGE for a reply over the frame limit and 503 when the phone drops mid-command', async () => {
    const gw = await start({ MOBILECLAW_MAX_FRAME_BYTES: '65536' });
    const sim = gw.simulator!;
    sim.faults.oversizedReplyBytes = 200_000;
    const big = await command(gw, { command: 'ui_tree' });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');
    sim.faults.oversizedReplyBytes = 0;
    expect((await command(gw, { command: 'home' })).status).toBe(200);

    sim.faults.dropConnectionOnCommand = true;
    const dropped = await command(gw, { command: 'home' });
    expect(dropped.status).toBe(503);
    expect(dropped.body.code).toBe('DEVICE_DISCONNECTED');
  });

  it('generates a device token on first start, stores it and reuses it', async () => {
    const dir = dataDir();
    const first = await start({ MOBILECLAW_DATA_DIR: dir, MOBILECLAW_SIM: 'off' });
    const stored = readFileSync(join(dir, 'device-token'), 'utf8').trim();
    expect(stored).toBe(first.deviceToken);
    expect(stored.length).toBeGreaterThanOrEqual(32);
    await first.close();
    const second = await start({ MOBILECLAW_DATA_DIR: dir, MOBILECLAW_SIM: 'off' });
    expect(second.deviceToken).toBe(stored);
    expect(((await (await fetch(url(second, '/api/devices'))).json()) as Json).devices).toEqual([]);
  });

  it('requires the bearer API token when one is configured', async () => {
    const gw = await start({ MOBILECLAW_API_TOKEN: 'api-token-0123456789', MOBILECLAW_SIM: 'off' });
    const anonymous = await fetch(url(gw, '/api/devices'));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await anonymous.json()) as Json).code).toBe('UNAUTHORIZED');
    const wrong = await fetch(url(gw, '/api/devices'), { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    const right = await fetch(url(gw, '/api/devices'), { headers: { authorization: 'Bearer api-token-0123456789' } });
    expect(right.status).toBe(200);
  });

  it('sends CORS headers only to allowed origins', async () => {
    const gw = await start({ MOBILECLAW_CORS_ORIGINS: 'http://app.example:5173', MOBILECLAW_SIM: 'off' });
    const allowed = await fetch(url(gw, '/api/devices'), { headers: { origin: 'http://app.example:5173' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://app.example:5173');
    const other = await fetch(url(gw, '/api/devices'), { headers: { origin: 'http://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses invalid configuration with every problem listed', async () => {
    await expect(startGateway({ MOBILECLAW_HTTP_PORT: '70000', MOBILECLAW_SIM: 'maybe', MOBILECLAW_DATA_DIR: dataDir() })).rejects.toThrow(
      /MOBILECLAW_HTTP_PORT[\s\S]*MOBILECLAW_SIM/,
    );
    await expect(startGateway({ MOBILECLAW_HTTP_HOST: '0.0.0.0', MOBILECLAW_DATA_DIR: dataDir() })).rejects.toThrow(/MOBILECLAW_API_TOKEN/);
  });

  it('answers unknown routes with a NOT_FOUND problem', async () => {
    const gw = await start({ MOBILECLAW_SIM: 'off' });
    const res = await fetch(url(gw, '/api/nothing-here'));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await res.json()) as Json;
    expect(problem).toEqual({ type: 'urn:mobileclaw:error:NOT_FOUND', title: 'Not found', status: 404, detail: expect.any(String), instance: '/api/nothing-here', code: 'NOT_FOUND' });
    expect(problem.title).toBe(ERROR_CATALOG.NOT_FOUND.title);
    const health = await (await fetch(url(gw, '/api/health'))).json();
    // The terminus health check body (openapi.spec.ts has the full shape) keeps `status` and `devicesOnline`.
    expect(health).toMatchObject({ status: 'ok', devicesOnline: 0, details: { devices: { status: 'up', online: 0 }, 'tasks-store': { status: 'up' } } });
  });
});
