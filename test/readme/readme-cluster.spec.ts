import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MOBILECLAW_NODE_ARGS, shellQuote } from '../support/mobileclaw-cli';

/**
 * The README's "Run several gateways": its `sh` blocks run as written, in order, in one `bash` (its
 * background jobs, exports and `$PG_BIN` carry from block to block, as in a reader's terminal), with
 * what a reader's machine has and this test cannot assume replaced: the directory
 * `/tmp/mobileclaw-cluster` by a fresh one, the fixed ports by free ones, the built gateway, simulator
 * and `npx mobileclaw` by this checkout's commands from their sources, still one `node` process each
 * (so `npm run build` is left out). PostgreSQL refuses to run as root: in a root test process its
 * commands run as the system user `postgres` (Debian's package makes it; `runuser`), as a reader runs
 * them as an ordinary user. The test waits for nothing the README does not: each block's own wait (the
 * gateways' readiness, the phones listed) must hold when it returns; only NATS's start, which the
 * README leaves to the gateways' retries, is awaited from its log. Every command exits 0 and prints
 * the lines shown below it (rows in any order: the phones connect concurrently); the HAProxy example
 * shown is the one in examples/cluster/haproxy.cfg; the stop block leaves no process of the shell
 * running.
 */

const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const README_DIR = '/tmp/mobileclaw-cluster';
const README_PORTS = [4222, 5432, 3001, 3002, 3003, 7401, 7402, 7403] as const;
const README_API_TOKEN = 'change-me-cluster-api-token';
const SIM_NODE_ARGS = ['--conditions=@mobileclaw/source', '--require', join(ROOT, 'tools/register-typescript.cjs'), join(ROOT, 'apps/simulator/src/cli.ts')];

/** The section, up to the next `## ` header. */
function section(): string {
  const text = /^## Run several gateways\n([\s\S]*?)^## /m.exec(README)?.[1];
  expect(text).toBeDefined();
  return text!;
}

interface Block {
  commands: string[];
  /** The `# ` lines: what the commands print, in order. */
  shown: string[];
}

function blocks(): Block[] {
  return [...section().matchAll(/```sh\n([\s\S]*?)```/g)].map(([, body]) => {
    const lines = body.trimEnd().split('\n');
    return { commands: lines.filter((l) => !l.startsWith('#')), shown: lines.filter((l) => l.startsWith('# ')).map((l) => l.slice(2)) };
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A rows' line without what changes from run to run: durations and column widths. */
const masked = (line: string): string =>
  line
    .replace(/\b\d+(\.\d+)? ms\b/g, '<ms>')
    .replace(/ {2,}/g, '  ')
    .trimEnd();

/** Resolves once `probe` resolves true, probing again every 100 ms (bounded by the test's timeout). */
async function until(probe: () => Promise<boolean>): Promise<void> {
  // For the shell's output and NATS's log line only: every wait on the cluster is the README's own.
  for (;;) {
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('README "Run several gateways" runs as written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mobileclaw-readme-cluster-'));
  const asRoot = process.getuid?.() === 0;
  const ports = new Map<number, number>();
  let shell: ChildProcessWithoutNullStreams;
  let output = '';
  let marks = 0;

  /** A README line as this test runs it. */
  function adapted(line: string): string {
    let out = line.replaceAll(README_DIR, dir);
    for (const [readme, real] of ports) out = out.replace(new RegExp(`\\b${readme}\\b`, 'g'), String(real));
    if (asRoot) out = out.replaceAll('"$PG_BIN/', 'runuser -u postgres -- "$PG_BIN/');
    out = out.replace(/\bnode apps\/simulator\/dist\/cli\.js\b/g, ['node', ...SIM_NODE_ARGS].map(shellQuote).join(' '));
    out = out.replace(/\bnode apps\/gateway\/dist\/main\.js\b/g, ['node', ...MOBILECLAW_NODE_ARGS].map(shellQuote).join(' '));
    return out.replace(/\bnpx mobileclaw\b/g, ['node', ...MOBILECLAW_NODE_ARGS].map(shellQuote).join(' '));
  }

  /** Runs `commands` in the shell; resolves with what they printed (stdout and stderr) and their exit codes. */
  async function runInShell(commands: string[]): Promise<{ printed: string; failures: string[] }> {
    const mark = `__readme_cluster_${++marks}__`;
    const from = output.length;
    const script = commands.map((command, i) => `${adapted(command)}\n__rc=$?; [ $__rc -eq 0 ] || echo "${mark}failed ${i} $__rc"\n`).join('');
    shell.stdin.write(`${script}echo ${mark}\n`);
    await until(async () => output.includes(`${mark}\n`, from));
    const printed = output.slice(from, output.indexOf(`${mark}\n`, from));
    const failures = [...printed.matchAll(new RegExp(`${mark}failed (\\d+) (\\d+)`, 'g'))].map(([, i, rc]) => `${commands[Number(i)]} → exit ${rc}`);
    return { printed: printed.replace(new RegExp(`${mark}failed.*\\n`, 'g'), ''), failures };
  }

  const http = (readmePort: number, path: string, headers: Record<string, string> = {}) => fetch(`http://127.0.0.1:${ports.get(readmePort)}${path}`, { headers });
  const withToken = { authorization: `Bearer ${README_API_TOKEN}` };

  /** The processes of the shell's session (the shell is its leader: `detached`), the shell itself left out: `pid args` lines. */
  function sessionProcesses(): string[] {
    const ps = spawnSync('ps', ['-e', '-o', 'pid=,sid=,args='], { encoding: 'utf8' });
    return ps.stdout
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([pid, sid]) => sid === String(shell.pid) && pid !== String(shell.pid))
      .map(([pid, , ...args]) => `${pid} ${args.join(' ')}`);
  }

  beforeAll(async () => {
    for (const port of README_PORTS) ports.set(port, await freePort());
    if (asRoot) {
      const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
      const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
      chownSync(dir, Number(id.stdout.trim()), Number(gid.stdout.trim()));
    }
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' };
    shell = spawn('bash', [], { cwd: ROOT, env, detached: true });
    shell.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    shell.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });

  afterAll(async () => {
    // Whatever a failed test left running: the shell's jobs and the PostgreSQL server.
    if (shell && shell.exitCode === null) {
      shell.stdin.write(`${adapted('"$PG_BIN/pg_ctl"')} --pgdata ${dir}/pg --mode immediate stop >/dev/null 2>&1; kill -9 $(jobs -p) 2>/dev/null; exit 0\n`);
      await new Promise((resolve) => shell.once('exit', resolve));
    }
    // And what a failed stop left behind in the shell's session (its jobs' children), by pid.
    if (shell) for (const line of sessionProcesses()) process.kill(Number(line.split(' ')[0]), 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('has the blocks: servers, gateways, phones, what a user sees, shared memory, stop', () => {
    const shown = blocks();
    expect(shown.map((b) => b.commands[0].split(' ')[0])).toEqual(['mkdir', 'npm', 'node', 'npx', 'curl', 'pids=$(jobs']);
    // The gateways and phones are the jobs' own processes (not an `npx` wrapper that a `kill` of the job would leave their children of).
    const started = shown.flatMap((b) => b.commands).filter((c) => c.trimEnd().endsWith('&'));
    expect(started.map((c) => /(?:^|\s)(nats-server|node \S+)/.exec(c)?.[1])).toEqual([
      'nats-server',
      'node apps/gateway/dist/main.js',
      'node apps/gateway/dist/main.js',
      'node apps/gateway/dist/main.js',
      'node apps/simulator/dist/cli.js',
      'node apps/simulator/dist/cli.js',
    ]);
    expect(shown[1].commands.filter((c) => c.includes('node apps/gateway')).map((c) => /MOBILECLAW_INSTANCE_ID=(\S+)/.exec(c)?.[1])).toEqual(['gw-a', 'gw-b', 'gw-c']);
    // The cluster sets an API token: a balancer in front makes every request look local.
    expect(shown[1].commands).toContain(`export MOBILECLAW_DEVICE_TOKEN=change-me-cluster-device-token MOBILECLAW_API_TOKEN=${README_API_TOKEN}`);
  });

  it('starts NATS with JetStream and PostgreSQL', async () => {
    const { printed, failures } = await runInShell(blocks()[0].commands);
    expect(failures).toEqual([]);
    expect(printed).toContain('server started');
    await until(async () => existsSync(join(dir, 'nats.log')) && readFileSync(join(dir, 'nats.log'), 'utf8').includes('Server is ready'));
  }, 120_000);

  it('starts three gateways on them, waits until they are ready, and each wants the API token', async () => {
    const { commands } = blocks()[1];
    expect(commands[0]).toBe('npm run build'); // the sources run here: nothing to build
    const { printed, failures } = await runInShell(commands.slice(1));
    expect(failures).toEqual([]);
    expect(printed).toBe(''); // no "not ready" line
    // The block's last line waited: every gateway is ready now, without a wait of the test's own.
    for (const port of [3001, 3002, 3003]) expect((await http(port, '/health/ready')).status).toBe(200);
    for (const port of [3001, 3002, 3003]) {
      // A request a balancer forwards looks local (Host 127.0.0.1): the token still guards the device token.
      expect((await http(port, '/api/pairing', { host: '127.0.0.1' })).status).toBe(401);
      expect((await http(port, '/api/devices', withToken)).status).toBe(200);
    }
  }, 240_000);

  it('connects phones with several addresses, and every instance lists every phone', async () => {
    const { failures } = await runInShell(blocks()[2].commands);
    expect(failures).toEqual([]);
    const ids = async (port: number) => ((await (await http(port, '/api/devices', withToken)).json()) as { devices: { deviceId: string; status: string }[] }).devices.filter((d) => d.status === 'online').map((d) => d.deviceId).sort();
    // The block's last line waited until every instance listed the three phones.
    for (const port of [3001, 3002, 3003]) expect(await ids(port)).toEqual(['lab-a-1', 'lab-a-2', 'lab-c-1']);
  }, 240_000);

  it('shows the phones through gw-b and runs a command through gw-a on a phone of gw-c, as the README prints', async () => {
    const block = blocks()[3];
    const { printed, failures } = await runInShell(block.commands);
    expect(failures).toEqual([]);
    const lines = printed.trimEnd().split('\n').map(masked);
    // The device table's rows come in the order the phones connected: compare them as a set.
    expect([...lines].sort()).toEqual(block.shown.map(masked).sort());
    const lab = await (await http(3003, '/api/devices/lab-c-1', withToken)).json();
    expect(lab).toMatchObject({ deviceId: 'lab-c-1', status: 'online' });
  }, 120_000);

  it('remembers a fact through gw-a and finds it through gw-c, as the README prints', async () => {
    const block = blocks()[4];
    const { printed, failures } = await runInShell(block.commands);
    expect(failures).toEqual([]);
    expect(printed.trimEnd().split('\n')).toEqual(block.shown);
    // gw-b finds it too, as the same record.
    const found = (await (await http(3002, '/api/memory?scope=context:lab&q=ACME-5G', withToken)).json()) as { hits: { id: string; layer: string; text: string }[] };
    expect(found.hits.map((hit) => [hit.layer, hit.text])).toEqual([['daily', 'The lab Wi-Fi is ACME-5G']]);
  }, 120_000);

  it('shows the HAProxy example of examples/cluster/haproxy.cfg, for the ports above', () => {
    const shown = /```\n(frontend phones[\s\S]*?)```/.exec(section())?.[1];
    expect(shown).toBeDefined();
    const file = readFileSync(join(ROOT, 'examples/cluster/haproxy.cfg'), 'utf8');
    const meaningful = (text: string) => text.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
    const fileLines = meaningful(file);
    const shownLines = meaningful(shown!);
    // The shown lines are the file's frontends and backends, in order (the file adds global and defaults).
    expect(fileLines.slice(fileLines.indexOf('frontend phones'))).toEqual(shownLines);
    const servers = shownLines.filter((l) => l.trim().startsWith('server ')).map((l) => l.trim());
    // Each port is checked where it serves: the device port by a TCP connect to itself (a PostgreSQL
    // outage, which /health/ready reports, must not take phones away), HTTP by /health/ready.
    expect(servers).toEqual([
      'server gw-a 127.0.0.1:7401 check',
      'server gw-b 127.0.0.1:7402 check',
      'server gw-c 127.0.0.1:7403 check',
      'server gw-a 127.0.0.1:3001 check',
      'server gw-b 127.0.0.1:3002 check',
      'server gw-c 127.0.0.1:3003 check',
    ]);
    const backend = (name: string) => shownLines.slice(shownLines.indexOf(`backend ${name}`) + 1).filter((_, i, rest) => !rest.slice(0, i + 1).some((l) => /^(frontend|backend) /.test(l)));
    expect(backend('gateway_device_ports').filter((l) => /httpchk|http-check/.test(l))).toEqual([]);
    expect(backend('gateway_http_ports').map((l) => l.trim()).filter((l) => /httpchk|http-check/.test(l))).toEqual(['option httpchk GET /health/ready', 'http-check expect status 200']);
  });

  it('stops everything: no process it started is left running', async () => {
    const running = sessionProcesses();
    // NATS, three gateways, two simulators: the jobs' own processes.
    expect(running.filter((line) => /^\d+ (nats-server|node \S+ \S+ \S+ \S+\/apps\/(gateway\/src\/main|simulator\/src\/cli)\.ts)/.test(line))).toHaveLength(6);
    const { failures, printed } = await runInShell(blocks()[5].commands);
    expect(failures).toEqual([]);
    expect(printed).toContain('server stopped');
    // `wait` returned: the gateways, the phones and NATS have exited, and nothing of theirs is left.
    expect(sessionProcesses()).toEqual([]);
    expect(existsSync(join(dir, 'pg', 'postmaster.pid'))).toBe(false);
    for (const port of [3001, 3002, 3003]) await expect(http(port, '/health/live')).rejects.toThrow();
    shell.stdin.end();
    const code = await new Promise<number | null>((resolve) => shell.once('exit', (exitCode) => resolve(exitCode)));
    expect(code).toBe(0);
  }, 120_000);
});
