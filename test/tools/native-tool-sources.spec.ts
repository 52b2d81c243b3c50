import { Logger } from '@nestjs/common';
import { filter, firstValueFrom } from 'rxjs';
import sharp from 'sharp';
import { ControlLeaseRegistry } from '@mobileclaw/case-device-control';
import {
  GatewayToolSource,
  NATIVE_GATEWAY_TOOL_SOURCE,
  NATIVE_PHONE_TOOL_SOURCE,
  NativePhoneToolSource,
  PHONE_SCREENSHOT_LIMITS,
  TOOL_REGISTRY_DEFAULTS,
  ToolRegistry,
  phoneToolName,
  type ToolCallResult,
} from '@mobileclaw/case-tools';
import { DeviceHub } from '@mobileclaw/device';
import { COMMAND_NAMES } from '@mobileclaw/domain';
import { describeToolSourceContract } from '@mobileclaw/domain/testing';
import type { ActionFrame } from '@mobileclaw/protocol';
import { SharpScreenImageEncoder } from '@mobileclaw/screen-image';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { TcpDeviceTransport } from '@mobileclaw/transport-tcp';

const TOKEN = 'native-tools-device-token-0123456789';
const quietLogger = { log: () => undefined, error: () => undefined, warn: () => undefined };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tool results are indexed freely in tests
type Json = any;

const call = (registry: ToolRegistry, name: string, args: Record<string, unknown>): Promise<ToolCallResult> =>
  registry.invoke(name, args, { caller: 'rest', signal: new AbortController().signal, deadlineMs: 10_000 });

describeToolSourceContract('NativePhoneToolSource', {
  create: async () => new NativePhoneToolSource(new DeviceHub({ deviceToken: TOKEN }, { logger: quietLogger })),
});

describeToolSourceContract('GatewayToolSource', {
  create: async () => new GatewayToolSource(new DeviceHub({ deviceToken: TOKEN }, { logger: quietLogger })),
});

describe('native tools on a simulated phone', () => {
  let hub: DeviceHub;
  let listener: TcpDeviceTransport;
  let phone: SimulatedPhone;
  let leases: ControlLeaseRegistry;
  let actions: ActionFrame[];

  beforeEach(async () => {
    // The device listener announces its port on Nest's logger.
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    hub = new DeviceHub({ deviceToken: TOKEN }, { logger: quietLogger });
    listener = new TcpDeviceTransport({ port: 0, host: '127.0.0.1' });
    await listener.start(hub);
    phone = new SimulatedPhone({ port: listener.port, token: TOKEN, deviceId: 'sim-1' });
    actions = [];
    phone.on('action', (action: ActionFrame) => actions.push(action));
    await phone.start();
    leases = new ControlLeaseRegistry(hub);
  });

  afterEach(async () => {
    leases.onModuleDestroy();
    await phone.stop();
    hub.shutdown();
    await listener.stop();
    jest.restoreAllMocks();
  });

  /** A registry of both native sources (rest may call everything, actions without approval, as the gateway's default policy has it). */
  function registry(phoneTools = new NativePhoneToolSource(hub, { leases, images: new SharpScreenImageEncoder() })): ToolRegistry {
    return new ToolRegistry([phoneTools, new GatewayToolSource(hub, leases)], { policies: { defaultPolicy: { allow: '*', allowActionSourcesWithoutApproval: ['native:*'] } } });
  }

  it('lists one phone_<command> tool per command, actions and observations, with deviceId first', async () => {
    const tools = await new NativePhoneToolSource(hub).list();
    expect(tools.map((t) => t.name)).toEqual(['phone_open', 'phone_click', 'phone_long_press', 'phone_swipe', 'phone_input', 'phone_back', 'phone_home', 'phone_screenshot', 'phone_ui_tree']);
    expect(tools.map((t) => t.name)).toEqual(COMMAND_NAMES.map(phoneToolName));
    expect(Object.fromEntries(tools.map((t) => [t.name, t.kind]))).toMatchObject({ phone_click: 'ACTION', phone_open: 'ACTION', phone_screenshot: 'OBSERVATION', phone_ui_tree: 'OBSERVATION' });
    expect(new Set(tools.map((t) => t.mode))).toEqual(new Set(['NATIVE']));
    expect(new Set(tools.map((t) => `${t.source.kind}:${t.source.id}`))).toEqual(new Set(['native:phone']));
    const click = tools.find((t) => t.name === 'phone_click')!;
    expect(click.inputSchema).toMatchObject({ type: 'object', required: ['deviceId', 'x', 'y'], additionalProperties: false });
    expect(Object.keys(click.inputSchema.properties!)).toEqual(['deviceId', 'x', 'y', 'frameId']);
    expect(Object.keys(tools.find((t) => t.name === 'phone_ui_tree')!.inputSchema.properties!)).toEqual(['deviceId']);
    expect(NATIVE_PHONE_TOOL_SOURCE).toEqual({ kind: 'native', id: 'phone' });
    expect(NATIVE_GATEWAY_TOOL_SOURCE).toEqual({ kind: 'native', id: 'gateway' });
  });

  it('opens an app and reads the tree it shows, through the registry', async () => {
    const tools = registry();
    const opened: Json = await call(tools, 'phone_open', { deviceId: 'sim-1', app: 'com.android.settings' });
    expect(opened).toMatchObject({ ok: true, called: true, content: { deviceId: 'sim-1', command: 'open' } });
    expect(actions.map(({ command, app }) => [command, app])).toEqual([['open', 'com.android.settings']]);
    const tree: Json = await call(tools, 'phone_ui_tree', { deviceId: 'sim-1' });
    expect(tree.ok).toBe(true);
    expect(tree.content).toMatchObject({ deviceId: 'sim-1', screen: { width: 1080, height: 2400 } });
    expect(tree.content.frameId).toMatch(/^.+$/);
    expect(tree.text).toMatch(/^UI tree of sim-1, frameId .+, screen 1080×2400 px; bounds in device px:\n/);
    expect(JSON.stringify(tree.content.nodes)).toContain('com.android.settings');
  });

  it('sends exactly the command’s arguments, and the frameId as the command’s frame', async () => {
    const tools = registry();
    const tree: Json = await call(tools, 'phone_ui_tree', { deviceId: 'sim-1' });
    const clicked: Json = await call(tools, 'phone_click', { deviceId: 'sim-1', x: 540, y: 1200, frameId: tree.content.frameId });
    expect(clicked).toMatchObject({ ok: true, content: { command: 'click' } });
    const click = actions.find((a) => a.command === 'click')!;
    const { type: _type, requestId: _requestId, timeoutMs: _timeoutMs, ...sent } = click;
    expect(sent).toEqual({ command: 'click', x: 540, y: 1200, frameId: tree.content.frameId });
  });

  it('refuses arguments outside the command’s schema before anything reaches the phone', async () => {
    const tools = registry();
    const result = await call(tools, 'phone_click', { deviceId: 'sim-1', x: -1, y: 10, extra: true });
    expect(result).toMatchObject({ ok: false, called: false, error: { code: 'VALIDATION_FAILED' } });
    expect(actions).toEqual([]);
  });

  it('returns a bounded JPEG screenshot with the screen size and frame, the image never in the text', async () => {
    const result: Json = await call(registry(), 'phone_screenshot', { deviceId: 'sim-1' });
    expect(result.ok).toBe(true);
    const { image } = result.content;
    expect(image.mime).toBe('image/jpeg');
    const jpeg = Buffer.from(image.base64, 'base64');
    const meta = await sharp(jpeg).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height, bytes: jpeg.length }).toEqual({ format: 'jpeg', width: image.width, height: image.height, bytes: image.bytes });
    expect(Math.max(image.width, image.height)).toBe(PHONE_SCREENSHOT_LIMITS.maxLongSidePx);
    expect(image.bytes).toBeLessThanOrEqual(PHONE_SCREENSHOT_LIMITS.maxBytes);
    expect(result.content.screen).toMatchObject({ width: 1080, height: 2400 });
    expect(result.text).toBe(`Screenshot of sim-1: image/jpeg ${image.width}×${image.height} px (${image.bytes} bytes), screen 1080×2400 px, frameId ${result.content.frameId}.`);
    expect(Buffer.byteLength(JSON.stringify({ ok: true, content: result.content, text: result.text }))).toBeLessThanOrEqual(TOOL_REGISTRY_DEFAULTS.maxResultBytes);
  });

  it('without an image encoder, keeps a small image as it came and leaves out one over the budget, saying how to get it', async () => {
    const tools = registry(new NativePhoneToolSource(hub, { screenshotLimits: { maxLongSidePx: 1280, maxBytes: 20_000 } }));
    const small: Json = await call(tools, 'phone_screenshot', { deviceId: 'sim-1', format: 'jpeg', quality: 40, maxWidth: 120 });
    expect(small.ok).toBe(true);
    expect(small.content.image).toMatchObject({ mime: 'image/jpeg', width: 120 });
    expect((await sharp(Buffer.from(small.content.image.base64, 'base64')).metadata()).width).toBe(120);
    const large: Json = await call(tools, 'phone_screenshot', { deviceId: 'sim-1' });
    expect(large.ok).toBe(true);
    expect(large.content.image).toBeUndefined();
    expect(large.content).toMatchObject({ deviceId: 'sim-1', screen: { width: 1080, height: 2400 } });
    expect(large.content.omitted).toMatch(/^the image\/png image \(1080×2400 px, \d+ bytes\) is over the 20000 bytes a result may carry; ask for a smaller one \(format: "jpeg", maxWidth\) or read phone_ui_tree$/);
  });

  it('answers DEVICE_NOT_FOUND for a phone the gateway never saw', async () => {
    const result = await call(registry(), 'phone_home', { deviceId: 'nobody' });
    expect(result).toMatchObject({ ok: false, called: true, error: { code: 'DEVICE_NOT_FOUND', retryable: false } });
  });

  it('answers DEVICE_DISCONNECTED once the phone went away', async () => {
    const gone = firstValueFrom(hub.events$.pipe(filter((e) => e.type === 'device.disconnected' && e.deviceId === 'sim-1')));
    await phone.stop();
    await gone;
    const result = await call(registry(), 'phone_home', { deviceId: 'sim-1' });
    expect(result).toMatchObject({ ok: false, error: { code: 'DEVICE_DISCONNECTED', retryable: true } });
  });

  it('refuses actions with DEVICE_CONTROLLED while a person holds the phone, sending nothing; observing still works', async () => {
    leases.take('sim-1', { holderId: 'ada-browser-1', holder: 'Ada' });
    const tools = registry();
    const clicked: Json = await call(tools, 'phone_click', { deviceId: 'sim-1', x: 10, y: 10 });
    expect(clicked).toMatchObject({ ok: false, error: { code: 'DEVICE_CONTROLLED', retryable: true } });
    expect(clicked.error.message).toMatch(/^Ada controls sim-1 since /);
    const tree: Json = await call(tools, 'phone_ui_tree', { deviceId: 'sim-1' });
    expect(tree.ok).toBe(true);
    expect(actions.map((a) => a.command)).toEqual(['ui_tree']);
    const listed: Json = await call(tools, 'list_devices', {});
    expect(listed.content.devices).toEqual([expect.objectContaining({ deviceId: 'sim-1', status: 'online', controller: expect.objectContaining({ holder: 'Ada' }) })]);
    expect(listed.text).toBe('sim-1: online, MobileClaw Sim, Android 14, 1080×2400 px, held by Ada');
  });

  it('lists the phones with list_devices', async () => {
    const listed: Json = await call(registry(), 'list_devices', {});
    expect(listed).toMatchObject({ ok: true, called: true });
    expect(listed.content.devices).toEqual([
      expect.objectContaining({ deviceId: 'sim-1', status: 'online', model: 'MobileClaw Sim', screen: expect.objectContaining({ width: 1080, height: 2400 }), capabilities: expect.arrayContaining(['click', 'ui_tree']) }),
    ]);
    expect(listed.content.devices[0]).not.toHaveProperty('controller');
  });

  it('stops a call when the caller gives up', async () => {
    const controller = new AbortController();
    phone.faults = { ...phone.faults, neverReply: true };
    const pending = new NativePhoneToolSource(hub).invoke('phone_home', { deviceId: 'sim-1' }, { toolCallId: 't-1', signal: controller.signal, deadlineMs: 30_000 });
    controller.abort();
    await expect(pending).resolves.toMatchObject({ ok: false, error: { code: 'ABORTED' } });
  });
});
