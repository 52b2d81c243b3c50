import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { DeviceInfo, UiNode } from '@mobileclaw/domain';
import { DeviceHub } from '@mobileclaw/device';
import type { RunningGateway } from '@mobileclaw/gateway';
import { AdbHostServer, PhoneUi } from '@mobileclaw/simulator';
import { SseClient } from '../support/sse-client';
import { gatewayUrl, testGateways } from '../support/test-gateways';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

const run = promisify(execFile);
const gateways = testGateways('mobileclaw-adb-');
let adb: AdbHostServer;

beforeEach(async () => {
  adb = new AdbHostServer();
  await adb.listen();
});
afterEach(async () => {
  await adb.close();
});

/** A gateway with no simulated phone of its own that follows the simulated adb server. */
function start(adbPort = adb.port): Promise<RunningGateway> {
  return gateways.start({ MOBILECLAW_SIM: 'off', MOBILECLAW_ADB: 'auto', MOBILECLAW_ADB_SERVER: `127.0.0.1:${adbPort}` });
}

/** Resolves with the device list once `predicate` holds for it, re-checking at each device event (no polling). */
function listed(gw: RunningGateway, predicate: (devices: DeviceInfo[]) => boolean): Promise<DeviceInfo[]> {
  const hub = gw.app.get(DeviceHub);
  return new Promise((resolve) => {
    let done = false;
    const check = (): void => {
      void hub.listDevices().then((devices) => {
        if (done || !predicate(devices)) return;
        done = true;
        subscription.unsubscribe();
        resolve(devices);
      });
    };
    const subscription = hub.events$.subscribe(check);
    check();
  });
}

const online = (gw: RunningGateway, deviceId: string): Promise<DeviceInfo[]> => listed(gw, (list) => list.some((d) => d.deviceId === deviceId && d.status !== 'offline'));
const offline = (gw: RunningGateway, deviceId: string): Promise<DeviceInfo[]> => listed(gw, (list) => list.some((d) => d.deviceId === deviceId && d.status === 'offline'));

async function api(gw: RunningGateway, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(gatewayUrl(gw, path), { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const command = (gw: RunningGateway, deviceId: string, body: Record<string, unknown>) => api(gw, 'POST', `/api/devices/${deviceId}/commands`, body);

function flatten(nodes: UiNode[]): UiNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
}

function centre(node: UiNode): { x: number; y: number } {
  const [l, t, r, b] = node.bounds;
  return { x: Math.round((l + r) / 2), y: Math.round((t + b) / 2) };
}

/** The phone's ui tree over REST: its nodes, flattened, and the frame id. */
async function uiTree(gw: RunningGateway, deviceId: string): Promise<{ nodes: UiNode[]; frameId: string }> {
  const res = await command(gw, deviceId, { command: 'ui_tree' });
  expect(res.status).toBe(200);
  return { nodes: flatten(res.body.data.nodes), frameId: res.body.data.frameId };
}

/** Runs a task to its end over REST and SSE; resolves with the finished task. */
async function runTask(gw: RunningGateway, deviceId: string, goal: string): Promise<Json> {
  const created = await api(gw, 'POST', '/api/tasks', { deviceId, goal });
  expect(created.status).toBe(202);
  const stream = await SseClient.open(gatewayUrl(gw, `/api/tasks/${created.body.taskId}/events`));
  await stream.ended;
  return (await api(gw, 'GET', `/api/tasks/${created.body.taskId}`)).body;
}

/** Debian's adb client against the simulated server (`-L` keeps it from ever starting a real one). */
async function adbShell(serial: string, command: string): Promise<string> {
  return (await run('adb', ['-L', `tcp:127.0.0.1:${adb.port}`, '-s', serial, 'shell', command])).stdout;
}

describe('gateway with MOBILECLAW_ADB=auto over the simulated adb server', () => {
  it('lists a plugged-in phone with the facts adb reads, and runs REST commands on it', async () => {
    const phone = adb.attach({ serial: 'R58M123ABC', ui: new PhoneUi({ width: 720, height: 1600, densityDpi: 320 }), properties: { 'ro.product.model': 'Pixel 7', 'ro.product.manufacturer': 'Google', 'ro.build.version.release': '13' } });
    const gw = await start();
    await online(gw, 'R58M123ABC');
    const { body } = await api(gw, 'GET', '/api/devices');
    expect(body.devices).toEqual([
      expect.objectContaining({
        deviceId: 'R58M123ABC',
        status: 'online',
        model: 'Pixel 7',
        manufacturer: 'Google',
        android: '13',
        screen: { width: 720, height: 1600, densityDpi: 320, rotation: 0 },
        client: { name: 'mobileclaw-adb', version: '0.1.0' },
        capabilities: ['open', 'click', 'long_press', 'swipe', 'input', 'back', 'home', 'screenshot', 'ui_tree'],
      }),
    ]);
    expect(body.devices[0]).not.toHaveProperty('statusReason');

    const shot = await fetch(gatewayUrl(gw, '/api/devices/R58M123ABC/screenshot'));
    expect(shot.status).toBe(200);
    expect(shot.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await shot.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([720, 1600]);

    const settings = (await uiTree(gw, 'R58M123ABC')).nodes.find((n) => n.text === 'Settings' || n.desc === 'Settings') as UiNode;
    expect(settings).toBeDefined();
    const click = await command(gw, 'R58M123ABC', { command: 'click', ...centre(settings) });
    expect(click.body).toMatchObject({ status: 'success', deviceId: 'R58M123ABC', command: 'click' });
    expect(phone.ui.current.screen).toBe('settings');
    expect((await uiTree(gw, 'R58M123ABC')).nodes.some((n) => n.text === 'Wi-Fi')).toBe(true);
    expect(phone.received.filter((r) => r.command.startsWith('input tap'))).toEqual([{ service: 'exec', command: expect.stringMatching(new RegExp(`^input tap ${centre(settings).x} ${centre(settings).y}; echo "mobileclaw-exit-[0-9a-f]+:\\$\\?"$`)) }]);
  });

  it('completes "Turn on Wi-Fi" with verified steps, and types a message with quotes, & and ; exactly', async () => {
    const phone = adb.attach({ serial: 'emulator-5554' });
    const gw = await start();
    await online(gw, 'emulator-5554');

    const wifi = await runTask(gw, 'emulator-5554', 'Turn on Wi-Fi');
    expect(wifi).toMatchObject({ status: 'completed', planner: 'rule-based' });
    expect(phone.ui.state.wifi).toBe(true);
    const acted = wifi.steps.filter((s: Json) => s.plan.type === 'action');
    expect(acted.length).toBeGreaterThanOrEqual(1);
    expect(acted.map((s: Json) => s.result)).toEqual(acted.map(() => expect.objectContaining({ status: 'success', verified: true })));

    const text = `Tom's & Jerry's "deal"; 100% \\ok`;
    const message = await runTask(gw, 'emulator-5554', `send '${text}' to Alice`);
    expect(message.status).toBe('completed');
    expect(phone.ui.state.conversations['Alice']?.at(-1)).toEqual({ from: 'me', text });
  });

  /** A phone emulator-5556 behind the simulated adb server, its browser open and the address bar focused. */
  async function browserAddressBarFocused() {
    const phone = adb.attach({ serial: 'emulator-5556' });
    const gw = await start();
    await online(gw, 'emulator-5556');
    expect((await command(gw, 'emulator-5556', { command: 'open', app: 'com.android.chrome' })).status).toBe(200);
    const bar = (await uiTree(gw, 'emulator-5556')).nodes.find((n) => n.editable) as UiNode;
    expect((await command(gw, 'emulator-5556', { command: 'click', ...centre(bar) })).status).toBe(200);
    return { phone, gw };
  }

  it('types through REST input and reads the field back', async () => {
    const { phone, gw } = await browserAddressBarFocused();
    const typed = await command(gw, 'emulator-5556', { command: 'input', text: `a "b" & c; d's $HOME`, clear: true });
    expect(typed.body.data).toEqual({ text: `a "b" & c; d's $HOME`, verified: true, method: 'input-text' });
    expect(phone.received.some((r) => r.command.startsWith('input text '))).toBe(true);
  });

  it('types a 70 000-character text through REST input in pieces adb can carry, and reads it back verified', async () => {
    const { phone, gw } = await browserAddressBarFocused();
    // Mostly spaces, each sent as `%s`: in one command it would be about 140 KB, over adb's 64 KiB request limit.
    const text = `${' '.repeat(69_990)}end%sof it`;
    const typed = await command(gw, 'emulator-5556', { command: 'input', text, clear: true });
    expect(typed.status).toBe(200);
    expect(typed.body.data).toEqual({ text, verified: true, method: 'input-text' });
    expect(phone.received.filter((r) => r.command.startsWith('input text '))).toHaveLength(70);
  });

  it('fails a command in flight DEVICE_DISCONNECTED when the phone is unplugged, and brings it back online when plugged in again', async () => {
    const phone = adb.attach({ serial: 'R58M123ABC' });
    const gw = await start();
    await online(gw, 'R58M123ABC');
    const release = phone.hang((c) => c.startsWith('uiautomator dump'));
    const dumping = new Promise<void>((resolve) => phone.on('service', (r: { command: string }) => r.command.startsWith('uiautomator dump') && resolve()));
    const pending = command(gw, 'R58M123ABC', { command: 'ui_tree', timeoutMs: 60_000 });
    await dumping;
    adb.detach('R58M123ABC');
    const failed = await pending;
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ code: 'DEVICE_DISCONNECTED', deviceId: 'R58M123ABC' });
    expect((await offline(gw, 'R58M123ABC')).find((d) => d.deviceId === 'R58M123ABC')).not.toHaveProperty('statusReason');

    release();
    adb.attach(phone);
    await online(gw, 'R58M123ABC');
    expect((await command(gw, 'R58M123ABC', { command: 'home' })).body).toMatchObject({ status: 'success' });
  });

  it.each([
    ['click', { command: 'click', x: 10, y: 10 }],
    ['back', { command: 'back' }],
    ['swipe', { command: 'swipe', x1: 10, y1: 10, x2: 20, y2: 20 }],
  ])('fails a %s cut off by an unplug DEVICE_DISCONNECTED, never success', async (_name, body) => {
    const phone = adb.attach({ serial: 'R58M123ABC' });
    const gw = await start();
    await online(gw, 'R58M123ABC');
    phone.hang(/^input/);
    const typing = new Promise<void>((resolve) => phone.on('service', (r: { command: string }) => r.command.startsWith('input') && resolve()));
    const pending = command(gw, 'R58M123ABC', { ...body, timeoutMs: 60_000 });
    await typing;
    adb.detach('R58M123ABC');
    const failed = await pending;
    expect({ status: failed.status, code: failed.body.code }).toEqual({ status: 503, code: 'DEVICE_DISCONNECTED' });
  });

  it('fails a click cut off by the adb server stopping DEVICE_DISCONNECTED, never success', async () => {
    const phone = adb.attach({ serial: 'R58M123ABC' });
    const gw = await start();
    await online(gw, 'R58M123ABC');
    phone.hang(/^input/);
    const typing = new Promise<void>((resolve) => phone.on('service', (r: { command: string }) => r.command.startsWith('input') && resolve()));
    const pending = command(gw, 'R58M123ABC', { command: 'click', x: 10, y: 10, timeoutMs: 60_000 });
    await typing;
    await adb.close();
    const failed = await pending;
    expect({ status: failed.status, code: failed.body.code }).toEqual({ status: 503, code: 'DEVICE_DISCONNECTED' });
  });

  it('bridges two phones at once, each to its own device', async () => {
    const first = adb.attach({ serial: 'phone-a' });
    const second = adb.attach({ serial: 'phone-b' });
    const gw = await start();
    await listed(gw, (list) => list.filter((d) => d.status === 'online').length === 2);
    const [a, b] = await Promise.all([uiTree(gw, 'phone-a'), uiTree(gw, 'phone-b')]);
    const settings = a.nodes.find((n) => n.text === 'Settings') as UiNode;
    expect((await command(gw, 'phone-a', { command: 'click', ...centre(settings) })).status).toBe(200);
    expect(first.ui.current.screen).toBe('settings');
    expect(second.ui.current.screen).toBe('launcher');
    expect(b.nodes.length).toBeGreaterThan(0);
  });

  it('lists an unauthorized phone with its reason, then bridges it once authorized', async () => {
    const phone = adb.attach({ serial: 'R58M-locked', state: 'unauthorized' });
    const gw = await start();
    const devices = await listed(gw, (list) => list.some((d) => d.deviceId === 'R58M-locked'));
    expect(devices).toEqual([expect.objectContaining({ deviceId: 'R58M-locked', status: 'offline', sessionId: '', statusReason: expect.stringMatching(/^adb: unauthorized — accept the "Allow USB debugging\?" prompt/) })]);
    const rest = await api(gw, 'GET', '/api/devices/R58M-locked');
    expect(rest.body.statusReason).toBe(devices[0].statusReason);
    const refused = await command(gw, 'R58M-locked', { command: 'home' });
    expect(refused.body).toMatchObject({ code: 'DEVICE_DISCONNECTED', detail: expect.stringContaining('adb: unauthorized') });

    phone.setState('device');
    const now = (await online(gw, 'R58M-locked')).find((d) => d.deviceId === 'R58M-locked');
    expect(now).not.toHaveProperty('statusReason');
    expect(now).toMatchObject({ model: 'MobileClaw Simulated Phone', status: 'online' });
  });

  it('fails a command whose shell hangs TIMEOUT within its deadline, and runs the next one', async () => {
    const phone = adb.attach({ serial: 'R58M123ABC' });
    const gw = await start();
    await online(gw, 'R58M123ABC');
    const release = phone.hang(/^screencap/);
    const hung = await command(gw, 'R58M123ABC', { command: 'screenshot', timeoutMs: 1500 });
    expect(hung.body).toMatchObject({ code: 'DEVICE_ERROR', deviceCode: 'TIMEOUT', detail: expect.stringContaining('screencap -p') });
    release();
    const next = await command(gw, 'R58M123ABC', { command: 'screenshot', timeoutMs: 10_000 });
    expect(next.body).toMatchObject({ status: 'success', data: { mime: 'image/png', width: 1080, height: 2400 } });
  });

  it('refuses an action on a frame taken before a rotation STALE_FRAME', async () => {
    adb.attach({ serial: 'R58M123ABC' });
    const gw = await start();
    await online(gw, 'R58M123ABC');
    const before = await uiTree(gw, 'R58M123ABC');
    await adbShell('R58M123ABC', 'settings put system user_rotation 1');
    const stale = await command(gw, 'R58M123ABC', { command: 'click', x: 100, y: 100, frameId: before.frameId });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'STALE_FRAME' });
    const after = await command(gw, 'R58M123ABC', { command: 'ui_tree' });
    expect(after.body.data.screen).toMatchObject({ width: 2400, height: 1080, rotation: 1 });
  });

  it('starts without an adb server and bridges phones once one answers', async () => {
    const port = adb.port;
    await adb.close();
    const gw = await start(port);
    adb = new AdbHostServer({ port });
    adb.attach({ serial: 'late-phone' });
    await adb.listen();
    await online(gw, 'late-phone');
    expect((await api(gw, 'GET', '/api/devices/late-phone')).body).toMatchObject({ status: 'online' });
  });

  it('takes a lost adb server as every phone unplugged, and bridges them again once it is back', async () => {
    const phone = adb.attach({ serial: 'R58M123ABC' });
    const gw = await start();
    await online(gw, 'R58M123ABC');
    const port = adb.port;
    await adb.close();
    await offline(gw, 'R58M123ABC');
    adb = new AdbHostServer({ port });
    adb.attach(phone);
    await adb.listen();
    await online(gw, 'R58M123ABC');
    expect((await command(gw, 'R58M123ABC', { command: 'home' })).body).toMatchObject({ status: 'success' });
  });
});
