import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { filter, firstValueFrom, type Subscription } from 'rxjs';
import { DeviceHub } from '@mobileclaw/device';
import type { RunningGateway } from '@mobileclaw/gateway';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { mobileclawProcesses } from '../support/mobileclaw-cli';
import { gatewayUrl, testGateways } from '../support/test-gateways';

/**
 * The `mobileclaw` commands that talk to a gateway, as processes: their output, their one-line
 * messages for a gateway that is not running, a wrong token, an unknown device or task and an
 * offline phone, and their exit codes (README, "The mobileclaw command").
 */

const gateways = testGateways('mobileclaw-cli-commands-');
const cli = mobileclawProcesses();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

const API_TOKEN = 'cli-test-api-token-0123456789';

/** A gateway whose sim-1 is online, watched in its hub (the device event stream would need the API token). */
async function start(extra: Record<string, string> = {}): Promise<RunningGateway> {
  const gw = await gateways.start(extra);
  const hub = gw.app.get(DeviceHub);
  let subscription: Subscription | undefined;
  const connected = new Promise<void>((resolve) => (subscription = hub.events$.pipe(filter((e) => e.type === 'device.connected' && e.deviceId === 'sim-1')).subscribe(() => resolve())));
  const known = await hub.getDevice('sim-1').catch(() => undefined);
  if (known?.status !== 'online') await connected;
  subscription?.unsubscribe();
  return gw;
}

const base = (gw: RunningGateway) => gatewayUrl(gw, '');

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

describe('mobileclaw commands against a gateway (as processes)', () => {
  it('devices, do, screenshot and tasks: text for a person, JSON with --json, exit 0', async () => {
    const gw = await start();
    const env = { MOBILECLAW_URL: base(gw) };

    const devices = await cli.run(['devices'], env);
    expect(devices.code).toBe(0);
    expect(devices.stdout).toMatch(/^DEVICE {2}STATUS {2}MODEL {11}ANDROID {2}SCREEN {5}RTT +QUEUE\nsim-1 {3}online {2}MobileClaw Sim {2}14 {7}1080×2400 {2}\d+ ms +0\n$/);
    expect(JSON.parse((await cli.run(['devices', '--json'], env)).stdout)).toEqual({ devices: [expect.objectContaining({ deviceId: 'sim-1', status: 'online', screen: { width: 1080, height: 2400, densityDpi: 420, rotation: 0 } })] });

    const open = await cli.run(['do', 'sim-1', 'open', 'com.android.settings'], env);
    expect(open.code).toBe(0);
    expect(open.stdout).toMatch(/^open on sim-1: success in \d+ ms \(queued \d+ ms\)\n\{\n {2}"package": "com\.android\.settings"/);
    expect(gw.simulator!.ui.current.screen).toBe('settings');
    const click = await cli.run(['do', 'sim-1', 'click', '964', '326', '--json'], env);
    expect(JSON.parse(click.stdout)).toMatchObject({ deviceId: 'sim-1', command: 'click', status: 'success', data: { hit: { id: 'app/recycler_view/row_wifi/switch' } } });
    expect(gw.simulator!.ui.state.wifi).toBe(true);

    const shot = await cli.run(['screenshot', 'sim-1', '-o', join(cli.configHome(), '..', 'shot.png')], env);
    expect(shot).toEqual({ code: 0, stdout: expect.stringMatching(/^saved sim-1's screen to .*shot\.png \(1080×2400 px, image\/png, \d+ bytes\)\n$/), stderr: '' });
    const png = readFileSync(join(cli.configHome(), '..', 'shot.png'));
    expect([png.subarray(1, 4).toString('latin1'), png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual(['PNG', 1080, 2400]);

    expect((await cli.run(['tasks'], env)).stdout).toBe('no tasks\n');
    const run = await cli.run(['run', 'sim-1', 'Turn off Wi-Fi'], env);
    expect(run.code).toBe(0);
    const tasks = await cli.run(['tasks'], env);
    expect(tasks.stdout).toMatch(/^TASK {34}STATUS {5}DEVICE {2}STEPS {2}CREATED {15}GOAL\n[0-9a-f-]{36} {2}completed {2}sim-1 {3}\d {6}\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}Turn off Wi-Fi\n$/);
  });

  it('checks the arguments of a command before sending anything: exit 2 even with no gateway there', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    expect(await cli.run(['do', 'sim-1', 'click', '540', '12a', '--url', url])).toEqual({ code: 2, stdout: '', stderr: 'mobileclaw do: click: y must be an integer from 0 to 100000 (device px), got "12a"\n' });
    expect(await cli.run(['do', 'sim-1', 'tap', '540', '1200', '--url', url])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'mobileclaw do: unknown command "tap"; the commands are open, click, long_press, swipe, input, back, home, screenshot, ui_tree\n',
    });
    expect((await cli.run(['run', 'sim-1', 'x', '--max-steps', '0', '--url', url])).code).toBe(2);
    expect((await cli.run(['devices', '--url', 'localhost:3000'])).stderr).toBe('mobileclaw devices: --url: not an http:// or https:// URL: "localhost:3000"\n');
  });

  it('says in one line that a command or an option does not exist, and where the usage is: exit 2', async () => {
    expect(await cli.run(['bogus'])).toEqual({ code: 2, stdout: '', stderr: "mobileclaw: unknown command 'bogus' (run `mobileclaw --help` for usage)\n" });
    expect(await cli.run(['devices', '--bogus'])).toEqual({ code: 2, stdout: '', stderr: "mobileclaw devices: unknown option '--bogus' (run `mobileclaw devices --help` for usage)\n" });
    expect(await cli.run(['tasks', '--limit', '0'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "mobileclaw tasks: option '--limit <n>' argument '0' is invalid. --limit must be an integer from 1 to 200 (run `mobileclaw tasks --help` for usage)\n",
    });
  });

  it('finds the gateway of this environment by MOBILECLAW_HTTP_PORT and MOBILECLAW_HTTP_HOST without --url', async () => {
    const gw = await start();
    const devices = await cli.run(['devices', '--json'], { MOBILECLAW_HTTP_PORT: String(gw.httpPort), MOBILECLAW_HTTP_HOST: '0.0.0.0' });
    expect(devices.code).toBe(0);
    expect((JSON.parse(devices.stdout) as Json).devices.map((d: Json) => d.deviceId)).toEqual(['sim-1']);
    expect(await cli.run(['devices'], { MOBILECLAW_HTTP_PORT: 'web' })).toEqual({ code: 2, stdout: '', stderr: 'mobileclaw devices: MOBILECLAW_HTTP_PORT: not a port number (0-65535): "web"\n' });
  });

  it('says a screenshot could not be saved, and why: exit 9 (a local file), the phone and gateway being fine', async () => {
    const gw = await start();
    const missing = join(cli.configHome(), 'no-such-dir');
    expect(await cli.run(['screenshot', 'sim-1', '-o', join(missing, 'x.png'), '--url', base(gw)])).toEqual({
      code: 9,
      stdout: '',
      stderr: `mobileclaw screenshot: cannot write ${join(missing, 'x.png')}: the directory ${missing} does not exist\n`,
    });
  });

  it('types any text with do … input, exactly', async () => {
    const gw = await start();
    const env = { MOBILECLAW_URL: base(gw) };
    expect((await cli.run(['do', 'sim-1', 'open', 'com.google.android.apps.messaging'], env)).code).toBe(0);
    await cli.run(['do', 'sim-1', 'click', '843', '2158'], env);
    await cli.run(['do', 'sim-1', 'click', '403', '320'], env);
    const typed = await cli.run(['do', 'sim-1', 'input', 'héllo wörld 👋 "quoted" $HOME', '--clear', '--json'], env);
    expect(typed.code).toBe(0);
    expect(JSON.parse(typed.stdout)).toMatchObject({ command: 'input', status: 'success' });
    const tree = JSON.parse((await cli.run(['do', 'sim-1', 'ui_tree', '--json'], env)).stdout) as Json;
    expect(JSON.stringify(tree.data.nodes)).toContain(JSON.stringify('héllo wörld 👋 "quoted" $HOME'));
  });

  it('says in one line that no gateway runs at the URL: exit 1', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    for (const args of [['devices'], ['run', 'sim-1', 'Turn on Wi-Fi'], ['task', 'x']]) {
      const result = await cli.run([...args, '--url', url]);
      expect(result).toEqual({ code: 1, stdout: '', stderr: `mobileclaw ${args[0]}: no gateway at ${url}: connection refused; start one with \`mobileclaw start\`, or pass --url\n` });
    }
  });

  it('says the token is wrong or missing (exit 3), and streams a task with the right one from the environment', async () => {
    const gw = await start({ MOBILECLAW_API_TOKEN: API_TOKEN });
    const url = base(gw);
    expect(await cli.run(['devices', '--url', url])).toEqual({
      code: 3,
      stdout: '',
      stderr: `mobileclaw devices: the gateway at ${url} needs an API token: pass --token, set MOBILECLAW_API_TOKEN or run \`mobileclaw login\`\n`,
    });
    expect(await cli.run(['run', 'sim-1', 'Turn on Wi-Fi', '--url', url, '--token', 'not-the-api-token-at-all'])).toEqual({
      code: 3,
      stdout: '',
      stderr: `mobileclaw run: the gateway at ${url} refused the API token (invalid API token); check --token, MOBILECLAW_API_TOKEN or run \`mobileclaw login\`\n`,
    });
    // `task` reads the event stream only: the stream's refusal is reported the same way.
    expect((await cli.run(['task', 'x', '--url', url, '--token', 'not-the-api-token-at-all'])).code).toBe(3);
    const run = await cli.run(['run', 'sim-1', 'Turn on Wi-Fi', '--url', url], { MOBILECLAW_API_TOKEN: API_TOKEN });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/\n✓ completed in 3 steps, [\d.]+ m?s: Wi-Fi is on\.\n$/);
  });

  it('names an unknown device or task (exit 4) and an offline phone (exit 5)', async () => {
    const gw = await start();
    const url = base(gw);
    for (const args of [['run', 'pixel-9', 'Turn on Wi-Fi'], ['do', 'pixel-9', 'home'], ['screenshot', 'pixel-9']]) {
      expect(await cli.run([...args, '--url', url])).toEqual({ code: 4, stdout: '', stderr: `mobileclaw ${args[0]}: no device pixel-9 on the gateway at ${url} (\`mobileclaw devices\` lists them)\n` });
    }
    for (const args of [['task', 'no-such-task'], ['approve', 'no-such-task'], ['cancel', 'no-such-task']]) {
      expect(await cli.run([...args, '--url', url])).toEqual({ code: 4, stdout: '', stderr: `mobileclaw ${args[0]}: no task no-such-task on the gateway at ${url} (\`mobileclaw tasks\` lists them)\n` });
    }

    const phone = new SimulatedPhone({ port: gw.devicePort, token: gw.deviceToken, deviceId: 'phone-1' });
    await phone.start();
    const gone = firstValueFrom(gw.app.get(DeviceHub).events$.pipe(filter((e) => e.type === 'device.disconnected' && e.deviceId === 'phone-1')));
    await phone.stop();
    await gone;
    expect(await cli.run(['do', 'phone-1', 'home', '--url', url])).toEqual({
      code: 5,
      stdout: '',
      stderr: 'mobileclaw do: device phone-1 is offline (DEVICE_DISCONNECTED); `mobileclaw devices` shows which phones are online\n',
    });
    const run = await cli.run(['run', 'phone-1', 'Turn on Wi-Fi', '--url', url]);
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(/^mobileclaw run: device phone-1 is offline \(since [^)]+\) \(DEVICE_DISCONNECTED\); `mobileclaw devices` shows which phones are online\n$/);
  });

  it('logs in: checks the token, saves URL and token in a file only the user can read, and the other commands use them', async () => {
    const gw = await start({ MOBILECLAW_API_TOKEN: API_TOKEN });
    const url = base(gw);
    const file = join(cli.configHome(), 'mobileclaw', 'config.json');
    expect(await cli.run(['login', '--url', url, '--token-stdin'], {}, 'a-wrong-token-0123456789\n')).toEqual({
      code: 3,
      stdout: '',
      stderr: `mobileclaw login: the gateway at ${url} refused the API token (invalid API token): log in with the token it was started with (its MOBILECLAW_API_TOKEN), given by --token-stdin, --token or MOBILECLAW_API_TOKEN\n`,
    });
    expect(await cli.run(['login', '--url', url])).toEqual({
      code: 3,
      stdout: '',
      stderr: `mobileclaw login: the gateway at ${url} needs an API token: log in with the token it was started with (its MOBILECLAW_API_TOKEN), given by --token-stdin, --token or MOBILECLAW_API_TOKEN\n`,
    });
    expect(() => statSync(file)).toThrow(/ENOENT/);
    // A config directory that cannot be made: a local file failure (exit 9), the gateway having accepted the token.
    const notADirectory = join(cli.configHome(), '..', 'plain-file');
    writeFileSync(notADirectory, '');
    expect(await cli.run(['login', '--url', url, '--token-stdin'], { XDG_CONFIG_HOME: notADirectory }, `${API_TOKEN}\n`)).toEqual({
      code: 9,
      stdout: '',
      stderr: `mobileclaw login: cannot save the login to ${join(notADirectory, 'mobileclaw', 'config.json')}: a part of ${notADirectory} is not a directory\n`,
    });

    expect(await cli.run(['login', '--url', url, '--token-stdin'], {}, `${API_TOKEN}\n`)).toEqual({ code: 0, stdout: `logged in to ${url} (1 phone, with an API token); saved to ${file}\n`, stderr: '' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ url, token: API_TOKEN });
    const devices = await cli.run(['devices', '--json']);
    expect(devices.code).toBe(0);
    expect((JSON.parse(devices.stdout) as Json).devices.map((d: Json) => d.deviceId)).toEqual(['sim-1']);
  });
});

describe('mobileclaw start --sim and mobileclaw sim (as processes)', () => {
  it('starts the gateway with simulated phones sim-1…sim-3, and adds phones to it with sim --devices', async () => {
    const dataDir = gateways.dataDir();
    const gateway = cli.spawn(['start', '--sim', '3'], { MOBILECLAW_HTTP_PORT: '0', MOBILECLAW_DEVICE_PORT: '0', MOBILECLAW_DATA_DIR: dataDir });
    await gateway.shown(/"msg":"simulated phones sim-2, sim-3 attached"/);
    const url = /live view on (http:\/\/127\.0\.0\.1:\d+)\//.exec(gateway.stdout())![1];
    const devicePort = /phones connect to TCP port (\d+)[^;\n]*; simulated phone sim-1 attached/.exec(gateway.stdout())![1];
    const listed = async () => ((JSON.parse((await cli.run(['devices', '--json', '--url', url])).stdout) as Json).devices as Json[]).map((d) => `${d.deviceId} ${d.status}`).sort();
    expect(await listed()).toEqual(['sim-1 online', 'sim-2 online', 'sim-3 online']);

    const sim = cli.spawn(['sim', '--devices', '2', '--prefix', 'extra-', '--port', devicePort], { MOBILECLAW_DATA_DIR: dataDir });
    await sim.shown(/extra-2 connected to /);
    await sim.shown(/extra-1 connected to /);
    expect(sim.stdout()).toMatch(new RegExp(`^starting 2 simulated phone\\(s\\) for 127\\.0\\.0\\.1:${devicePort}\\n`));
    expect(await listed()).toEqual(['extra-1 online', 'extra-2 online', 'sim-1 online', 'sim-2 online', 'sim-3 online']);
    sim.child.kill('SIGINT');
    expect(await sim.exited).toBe(0);

    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
  }, 60_000);

  it('shows the simulator\'s usage for sim --help, under its mobileclaw name', async () => {
    const help = await cli.run(['sim', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: mobileclaw sim \[options\]\n/);
    expect(help.stdout).toContain('  mobileclaw sim --devices 3 ');
    const wrong = await cli.run(['sim', '--devices', 'x']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^mobileclaw sim: --devices must be an integer from 1 to 100000, got "x"\n/);
  });
});
