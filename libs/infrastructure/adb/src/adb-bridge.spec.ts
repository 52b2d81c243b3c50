import { TestGateway } from '@mobileclaw/phone-link/testing';
import { AdbBridge, deviceIdForSerial } from './adb-bridge';
import { ADB_SHELL } from './adb-executor';
import { AdbDeviceLostError } from './device-shell';
import { geometryOutput, GETPROP_PIXEL_7, ScriptedAdbShell, WM_DENSITY } from './testing';

describe('AdbBridge', () => {
  let gateway: TestGateway;
  let port: number;
  let bridge: AdbBridge | undefined;

  beforeEach(async () => {
    gateway = new TestGateway();
    port = await gateway.listen();
  });

  afterEach(async () => {
    await bridge?.stop();
    await gateway.close();
  });

  it('says hello with the phone facts read over adb, answers actions, and reports a rotation as event screen', async () => {
    const shell = new ScriptedAdbShell().always(ADB_SHELL.getprop, GETPROP_PIXEL_7).always(ADB_SHELL.density, WM_DENSITY).reply(ADB_SHELL.geometry, geometryOutput(0));
    const client = {
      getDevice: () => {
        throw new Error('the scripted shell replaces adbkit here');
      },
    };
    bridge = new AdbBridge({ client, serial: '192.168.1.20:5555', gateway: { host: '127.0.0.1', port }, token: 'device-token', shell, reconnect: false });
    const started = bridge.start();
    const side = await gateway.nextConnection();
    expect(await side.welcome()).toEqual({
      type: 'hello',
      protocolVersion: 1,
      deviceId: '192.168.1.20:5555',
      token: 'device-token',
      device: { model: 'Pixel 7', manufacturer: 'Google', android: '14', screen: { width: 1080, height: 2400, densityDpi: 420, rotation: 0 } },
      capabilities: ['open', 'click', 'long_press', 'swipe', 'input', 'back', 'home', 'screenshot', 'ui_tree'],
      client: { name: 'mobileclaw-adb', version: '0.1.0' },
    });
    await started;

    shell.always(ADB_SHELL.geometry, geometryOutput(1)).always('input tap 100 100', '');
    side.send({ type: 'action', requestId: 'r-1', command: 'click', x: 100, y: 100, frameId: 'unknown-1', timeoutMs: 30000 });
    expect(await side.nextFrame()).toEqual({ type: 'event', event: 'screen', data: { width: 2400, height: 1080, densityDpi: 420, rotation: 1 } });
    expect(await side.nextFrame()).toEqual({ type: 'response', requestId: 'r-1', status: 'error', error: { code: 'STALE_FRAME', message: 'unknown frameId "unknown-1"' } });
  });

  it('closes the gateway connection, answering nothing, when a command is cut off because the phone left adb', async () => {
    const shell = new ScriptedAdbShell().always(ADB_SHELL.getprop, GETPROP_PIXEL_7).always(ADB_SHELL.density, WM_DENSITY).always(ADB_SHELL.geometry, geometryOutput(0));
    const client = {
      getDevice: () => {
        throw new Error('the scripted shell replaces adbkit here');
      },
    };
    bridge = new AdbBridge({ client, serial: 'R58M123', gateway: { host: '127.0.0.1', port }, token: 'device-token', shell, reconnect: false });
    const started = bridge.start();
    const side = await gateway.nextConnection();
    await side.welcome();
    await started;

    shell.reply('input keyevent 4', new AdbDeviceLostError('input keyevent 4', "R58M123: the command was cut off: device 'R58M123' not found"));
    side.send({ type: 'action', requestId: 'r-1', command: 'back', timeoutMs: 30000 });
    await side.closed;
    expect(side.buffered).toBe(0);
  });

  it('derives the device id from the adb serial', () => {
    expect(deviceIdForSerial('emulator-5554')).toBe('emulator-5554');
    expect(deviceIdForSerial('adb-R58M123._adb-tls-connect._tcp')).toBe('adb-R58M123._adb-tls-connect._tcp');
    expect(deviceIdForSerial('usb:1-1 (phone)')).toBe('usb:1-1__phone_');
    expect(deviceIdForSerial('x'.repeat(200))).toHaveLength(128);
  });
});
