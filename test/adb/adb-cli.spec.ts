import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { filter, firstValueFrom } from 'rxjs';
import { DeviceHub } from '@mobileclaw/device';
import { ADB_BRIDGE_EXIT, type RunningGateway } from '@mobileclaw/gateway';
import { AdbHostServer } from '@mobileclaw/simulator';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

const ROOT = resolve(__dirname, '../..');
const gateways = testGateways('mobileclaw-adb-cli-');
const children: ChildProcessWithoutNullStreams[] = [];
let adb: AdbHostServer;

beforeEach(async () => {
  adb = new AdbHostServer();
  await adb.listen();
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await adb.close();
});

/** `mobileclaw adb <args>` from the TypeScript sources, its stderr read line by line. */
function mobileclawAdb(args: string[]): { child: ChildProcessWithoutNullStreams; lines: string[]; line: (match: RegExp) => Promise<string>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--conditions=@mobileclaw/source', '--require', join(ROOT, 'tools/register-typescript.cjs'), join(ROOT, 'apps/gateway/src/main.ts'), 'adb', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '' },
  });
  children.push(child);
  const lines: string[] = [];
  const waiters: Array<{ match: RegExp; resolve: (line: string) => void }> = [];
  createInterface({ input: child.stderr }).on('line', (line) => {
    lines.push(line);
    for (const waiter of waiters.filter((w) => w.match.test(line))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  const exited = once(child, 'exit').then(() => child.exitCode);
  const line = (match: RegExp): Promise<string> => {
    const seen = lines.find((l) => match.test(l));
    return seen !== undefined ? Promise.resolve(seen) : new Promise((resolveLine) => waiters.push({ match, resolve: resolveLine }));
  };
  return { child, lines, line, exited };
}

const gatewayArgs = (gw: RunningGateway, token = gw.deviceToken): string[] => ['--gateway', `127.0.0.1:${gw.devicePort}`, '--token', token, '--adb', `127.0.0.1:${adb.port}`];

describe('mobileclaw adb (the CLI bridge, as a process)', () => {
  it('bridges the phone adb lists to a running gateway, and closes it on SIGTERM', async () => {
    const phone = adb.attach({ serial: 'R58M123ABC' });
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
    const bridge = mobileclawAdb([...gatewayArgs(gw), '--serial', 'R58M123ABC']);
    await bridge.line(/^R58M123ABC: online \(session /);
    await waitOnline(gw, 'R58M123ABC');
    const res = await fetch(gatewayUrl(gw, '/api/devices/R58M123ABC/commands'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ command: 'open', app: 'com.android.settings' }) });
    expect(await res.json()).toMatchObject({ status: 'success', data: { package: 'com.android.settings' } });
    expect(phone.ui.current.screen).toBe('settings');
    expect(bridge.lines[0]).toBe(`mobileclaw adb: following the adb server at 127.0.0.1:${adb.port}; bridging phone R58M123ABC (waiting until adb lists it) to the gateway at 127.0.0.1:${gw.devicePort}`);

    const disconnected = firstValueFrom(gw.app.get(DeviceHub).events$.pipe(filter((e) => e.type === 'device.disconnected' && e.deviceId === 'R58M123ABC')));
    bridge.child.kill('SIGTERM');
    expect(await bridge.exited).toBe(ADB_BRIDGE_EXIT.stopped);
    await disconnected;
    expect(await (await fetch(gatewayUrl(gw, '/api/devices/R58M123ABC'))).json()).toMatchObject({ status: 'offline' });
  });

  it('exits 3 when the gateway refuses the device token, and 1 when no adb server answers', async () => {
    adb.attach({ serial: 'R58M123ABC' });
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
    const refused = mobileclawAdb(gatewayArgs(gw, 'not-the-device-token'));
    expect(await refused.exited).toBe(ADB_BRIDGE_EXIT.refused);
    expect(refused.lines).toContainEqual(expect.stringMatching(/^R58M123ABC: gateway refused hello: UNAUTHORIZED.* — check --token/));

    const port = adb.port;
    await adb.close();
    const noAdb = mobileclawAdb(['--gateway', `127.0.0.1:${gw.devicePort}`, '--token', gw.deviceToken, '--adb', `127.0.0.1:${port}`]);
    expect(await noAdb.exited).toBe(ADB_BRIDGE_EXIT.adbUnreachable);
    expect(noAdb.lines).toEqual([`mobileclaw adb: no adb server at 127.0.0.1:${port} (connection refused); start one with \`adb -P ${port} start-server\``]);
  });

  it('keeps retrying an adb server lost after start, however long it stays away, and bridges its phones once it is back', async () => {
    const phone = adb.attach({ serial: 'R58M123ABC' });
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
    const bridge = mobileclawAdb(gatewayArgs(gw));
    await bridge.line(/^R58M123ABC: online \(session /);
    const port = adb.port;
    await adb.close();
    await bridge.line(/^mobileclaw adb: lost the adb server at /);
    // A retry that finds no server yet: before the fix, this is where the command exited 1.
    const retried = await Promise.race([bridge.line(/^mobileclaw adb: still no adb server at /), bridge.exited.then((code) => `exited ${code}`)]);
    expect(retried).toMatch(/^mobileclaw adb: still no adb server at 127\.0\.0\.1:\d+; retrying in \d+ ms$/);
    adb = new AdbHostServer({ port });
    adb.attach(phone);
    await adb.listen();
    await waitOnline(gw, 'R58M123ABC');
    expect(bridge.child.exitCode).toBeNull();
  });

  it('says so on stderr when a second bridge claims the same phone', async () => {
    adb.attach({ serial: 'R58M123ABC' });
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
    const first = mobileclawAdb([...gatewayArgs(gw), '--serial', 'R58M123ABC']);
    await first.line(/^R58M123ABC: online \(session /);
    const second = mobileclawAdb([...gatewayArgs(gw), '--serial', 'R58M123ABC']);
    await second.line(/^R58M123ABC: online \(session /);
    expect(await first.line(/another connection claimed/)).toBe(
      `R58M123ABC: another connection claimed device id R58M123ABC at the gateway 127.0.0.1:${gw.devicePort} and took over; is a second \`mobileclaw adb\` (or a gateway with MOBILECLAW_ADB=auto) bridging this phone? A phone must be bridged by one bridge at a time: stop the other one`,
    );
  });
});
