/**
 * The simulated phones driven by Debian's real `adb` client (1.0.41; CI installs it with
 * `apt-get install -y adb`). Every call names the server as `-L tcp:127.0.0.1:PORT`: a remote-looking
 * socket spec makes adb fail instead of starting a real adb server when nothing listens there.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { parseUiHierarchyXml } from '@mobileclaw/ui-hierarchy';
import { PhoneUi } from '../phone-ui';
import { AdbDevice } from './adb-device';
import { AdbHostServer } from './adb-host-server';

const ADB = process.env['ADB'] ?? 'adb';

interface AdbResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

let server: AdbHostServer;
let phone: AdbDevice;

function adbArgs(args: string[]): string[] {
  return ['-L', `tcp:127.0.0.1:${server.port}`, ...args];
}

function adbEnv(): NodeJS.ProcessEnv {
  return { ...process.env, ANDROID_ADB_SERVER_PORT: String(server.port) };
}

/** Runs the adb client to completion. */
async function adb(...args: string[]): Promise<AdbResult> {
  const child = spawn(ADB, adbArgs(args), { env: adbEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') };
}

/** Output of a successful adb call as text. */
async function adbText(...args: string[]): Promise<string> {
  const result = await adb(...args);
  if (result.code !== 0) throw new Error(`adb ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout.toString('utf8');
}

beforeAll(() => {
  const probe = spawnSync(ADB, ['version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    throw new Error(`the adb client is needed for these tests and could not be run as "${ADB}" (${probe.error?.message ?? probe.stderr}); install it with: apt-get install -y adb`);
  expect(probe.stdout).toContain('Android Debug Bridge version 1.0.41');
});

beforeEach(async () => {
  server = new AdbHostServer();
  await server.listen();
  phone = server.attach({ serial: 'sim-1', ui: new PhoneUi() });
});

afterEach(async () => {
  await server.close();
});

describe('the adb client against the simulated ADB server', () => {
  it('adb devices and devices -l list the phones with their states', async () => {
    server.attach({ serial: 'sim-2', state: 'unauthorized' });
    server.attach({ serial: 'sim-3', state: 'offline' });
    expect(await adbText('devices')).toBe('List of devices attached\nsim-1\tdevice\nsim-2\tunauthorized\nsim-3\toffline\n\n');
    expect(await adbText('devices', '-l')).toBe(
      'List of devices attached\n' +
        'sim-1                  device usb:1-1 product:sim_phone model:MobileClaw_Simulated_Phone device:sim_phone transport_id:1\n' +
        'sim-2                  unauthorized usb:1-2 transport_id:2\n' +
        'sim-3                  offline usb:1-3 transport_id:3\n\n',
    );
    expect(await adbText('-s', 'sim-2', 'get-state')).toBe('unauthorized\n');
  });

  it('adb shell input tap on the Settings icon opens Settings', async () => {
    const icon = phone.ui.centreOf((n) => n.text === 'Settings' && n.clickable);
    expect(icon).not.toBeNull();
    expect(await adbText('-s', 'sim-1', 'shell', 'input', 'tap', String(icon?.x), String(icon?.y))).toBe('');
    expect(phone.ui.state.screen).toBe('settings');
    expect(phone.received).toEqual([{ service: 'shell', command: `input tap ${icon?.x} ${icon?.y}` }]);
    expect(await adbText('shell', 'dumpsys window | grep mCurrentFocus')).toContain('mCurrentFocus=Window{8c1f2e3 u0 com.android.settings/com.android.settings.Settings}');
  });

  it('adb exec-out screencap -p and adb shell screencap -p give the same PNG of the screen, byte for byte', async () => {
    const execOut = (await adb('exec-out', 'screencap', '-p')).stdout;
    const shell = (await adb('shell', 'screencap', '-p')).stdout;
    expect(execOut.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(shell.equals(execOut)).toBe(true);
    const meta = await sharp(execOut).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1080, 2400]);
  });

  it('adb shell uiautomator dump /dev/tty prints XML that parseUiHierarchyXml reads, then the trailer', async () => {
    const out = await adbText('shell', 'uiautomator', 'dump', '/dev/tty');
    const trailer = 'UI hierchary dumped to: /dev/tty\n';
    expect(out.endsWith(trailer)).toBe(true);
    const tree = parseUiHierarchyXml(out.slice(0, -trailer.length));
    expect(tree.screen).toEqual({ width: 1080, height: 2400, rotation: 0 });
    const labels: string[] = [];
    const visit = (nodes: typeof tree.nodes): void =>
      nodes.forEach((n) => {
        if (n.resourceId === 'com.google.android.apps.nexuslauncher:id/icon') labels.push(n.text);
        visit(n.children);
      });
    visit(tree.nodes);
    expect(labels).toEqual(['Settings', 'Messages', 'Contacts', 'Browser']);
  });

  it('adb pull fetches the file uiautomator dump wrote', async () => {
    expect(await adbText('shell', 'uiautomator', 'dump')).toBe('UI hierchary dumped to: /sdcard/window_dump.xml\n');
    const dir = mkdtempSync(path.join(tmpdir(), 'adb-pull-'));
    try {
      const local = path.join(dir, 'dump.xml');
      const result = await adb('pull', '/sdcard/window_dump.xml', local);
      expect(result.code).toBe(0);
      const pulled = readFileSync(local);
      expect(pulled.equals(phone.files.read('/sdcard/window_dump.xml')?.data as Buffer)).toBe(true);
      expect(parseUiHierarchyXml(pulled.toString('utf8')).screen.width).toBe(1080);
      const missing = await adb('pull', '/sdcard/nothing.xml', path.join(dir, 'x'));
      expect(missing.code).toBe(1);
      // adb 1.0.41 reports sync errors on standard output.
      expect(missing.stdout.toString('utf8')).toBe("adb: error: remote object '/sdcard/nothing.xml' does not exist\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('adb shell getprop and wm size answer as a phone does', async () => {
    expect(await adbText('shell', 'getprop', 'ro.product.model')).toBe('MobileClaw Simulated Phone\n');
    expect(await adbText('shell', 'getprop', 'ro.build.version.sdk')).toBe('34\n');
    expect(await adbText('shell', 'wm', 'size')).toBe('Physical size: 1080x2400\n');
    expect(await adbText('shell', 'settings put system user_rotation 1; wm size; dumpsys input | grep SurfaceOrientation')).toBe(
      'Physical size: 1080x2400\n      SurfaceOrientation: 1\n',
    );
    expect(phone.ui.screen).toMatchObject({ width: 2400, height: 1080, rotation: 1 });
  });

  it('an unauthorized phone gets adb’s own error, an unknown serial its own', async () => {
    server.attach({ serial: 'locked', state: 'unauthorized' });
    const locked = await adb('-s', 'locked', 'shell', 'echo', 'hi');
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain(
      "device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\nTry 'adb kill-server' if that seems wrong.\nOtherwise check for a confirmation dialog on your device.",
    );
    server.device('locked')?.setState('offline');
    expect((await adb('-s', 'locked', 'shell', 'echo', 'hi')).stderr).toContain('device offline');
    expect((await adb('-s', 'nope', 'shell', 'echo', 'hi')).stderr).toContain("device 'nope' not found");
    expect((await adb('shell', 'echo', 'hi')).stderr).toContain('more than one device/emulator');
  });

  describe('input text through the device shell', () => {
    beforeEach(() => {
      const ui = phone.ui;
      ui.open('com.google.android.apps.messaging');
      const alice = ui.centreOf((n) => n.text === 'Alice');
      ui.click(alice?.x ?? 0, alice?.y ?? 0);
      const field = ui.centreOf((n) => n.class === 'android.widget.EditText');
      ui.click(field?.x ?? 0, field?.y ?? 0);
      expect(ui.focusedText).toBe('');
    });

    it('text escaped for the device shell (one argument, spaces as %s, single quotes) arrives exactly', async () => {
      const wanted = `O'Brien & Sons: 100% "off" $HOME; a|b <c> \\d`;
      // %s is the only space Android's `input text` knows; the shell quoting keeps & | ; < > $ \ " literal.
      const escaped = `'${wanted.replace(/ /g, '%s').replace(/'/g, `'\\''`)}'`;
      expect(await adbText('shell', `input text ${escaped}`)).toBe('');
      expect(phone.ui.focusedText).toBe(wanted);
    });

    it('an unescaped & ends the command on the phone: the field gets the part before it', async () => {
      expect(await adbText('shell', 'input', 'text', 'Tom&Jerry')).toBe('/system/bin/sh: Jerry: inaccessible or not found\n');
      expect(phone.ui.focusedText).toBe('Tom');
    });

    it('separate words are separate arguments: input text types only the first', async () => {
      expect(await adbText('shell', 'input', 'text', 'hello world')).toBe('');
      expect(phone.ui.focusedText).toBe('hello');
    });
  });

  it('an unknown command prints the shell’s not-found message (exit status 127)', async () => {
    expect(await adbText('shell', 'foo', 'bar')).toBe('/system/bin/sh: foo: inaccessible or not found\n');
    expect(await adbText('shell', 'foo; echo $?')).toBe('/system/bin/sh: foo: inaccessible or not found\n127\n');
  });

  it('adb track-devices sees phones plugged in, changing state and unplugged', async () => {
    const child: ChildProcess = spawn(ADB, adbArgs(['track-devices']), { env: adbEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    const waitFor = (text: string): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => {
          if (!seen.includes(text)) return;
          child.stdout?.off('data', onData);
          resolve();
        };
        const onData = (chunk: Buffer): void => {
          seen += chunk.toString('utf8');
          check();
        };
        child.stdout?.on('data', onData);
        check();
      });
    try {
      await waitFor('sim-1\tdevice\n');
      server.attach({ serial: 'sim-2' });
      await waitFor('sim-1\tdevice\nsim-2\tdevice\n');
      server.device('sim-2')?.setState('offline');
      await waitFor('sim-2\toffline\n');
      server.detach('sim-1');
      await waitFor('000esim-2\toffline\n');
    } finally {
      child.kill();
      await once(child, 'close');
    }
  });

  it('a hanging command never answers until the client gives up; the server keeps serving', async () => {
    phone.hang(/^dumpsys/);
    const child = spawn(ADB, adbArgs(['shell', 'dumpsys', 'window']), { env: adbEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    await once(phone, 'service');
    expect(await adbText('shell', 'echo', 'still', 'here')).toBe('still here\n');
    child.kill();
    await once(child, 'close');
    expect(output).toBe('');
    expect(phone.received.map((r) => r.command)).toEqual(['dumpsys window', 'echo still here']);
  });
});
