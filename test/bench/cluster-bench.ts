/**
 * The cluster benchmark (`npm run bench:cluster`, part of `npm run bench`): several gateway instances
 * over one nats-server (JetStream, started on a free loopback port by `startNatsServer`), each a
 * `DeviceHub` on a TCP device port behind a `ClusterDeviceService`, phones from test/bench/phone-fleet.mjs
 * (a separate process, every action answered at once). Prints one JSON line per measurement:
 *
 * 1. `{"case":"hop","command":"click"|"screenshot","local":{p50_ms,p99_ms},"remote":{…},"hop_p50_ms","hop_p99_ms"}`:
 *    sequential round trips (one in flight) to a phone held by instance A, called through A (local:
 *    the hub) and through B (remote: a NATS request to A, A's hub, the reply back); the hop is
 *    remote − local. A and B run in this process, so the hop includes both ends' work on one thread.
 * 2. `{"case":"no-responders","p50_ms","p99_ms","max_ms","code"}`: calls through B to a phone whose
 *    directory entry names an instance C that is live (its key renewed) but serves no command subject
 *    (its service closed, as a SIGKILLed instance before its key expires), with a 30 s deadline: the
 *    answer comes from the server's no-responders status, not a timer.
 * 3. `{"case":"throughput","instances":1|3,…,"throughput_per_s","remote_share","p50_ms","p99_ms"}`: each
 *    instance a process of its own with its own phones, every instance calling every phone of the
 *    cluster round-robin (with 3 instances two calls in three cross NATS), `--concurrency` in flight per
 *    instance; then one instance alone on its own phones, for comparison.
 *
 * Usage: `npm run bench:cluster -- [--requests N] [--shots N] [--devices N] [--concurrency N] [--shot-bytes N]`
 * (`node --conditions=@mobileclaw/source --require ./tools/register-typescript.cjs test/bench/cluster-bench.ts …`).
 * Defaults: 2000 clicks and 300 screenshots per side of the hop, 400 no-responders calls, 10 phones per
 * instance, 16 in flight per instance, 20 000 clicks per instance for throughput, screenshots of
 * 600 000 base64 bytes (under nats-server's default 1 MB max payload). Needs `nats-server` on the PATH
 * (or `MOBILECLAW_NATS_SERVER`). Exit status 0; 1 when a run fails.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { LoggerService } from '@nestjs/common';
import { ClusterDeviceService, connectCluster, DeviceDirectory, type ClusterConnection } from '@mobileclaw/cluster-nats';
import { startNatsServer, type NatsServer } from '@mobileclaw/cluster-nats/testing';
import { DeviceHub } from '@mobileclaw/device';
import { isMobileClawError, type Command } from '@mobileclaw/domain';
import { TcpDeviceTransport } from '@mobileclaw/transport-tcp';

const ROOT = resolve(__dirname, '..', '..');
const FLEET = join(__dirname, 'phone-fleet.mjs');
const TOKEN = 'cluster-bench-device-token';
const quiet: LoggerService = { log: () => undefined, warn: () => undefined, error: () => undefined };
const CLICK: Command = { command: 'click', x: 540, y: 1200 };
const SCREENSHOT: Command = { command: 'screenshot' };

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1] ?? '');
const num = (name: string, fallback: number): number => (args.has(name) ? Number(args.get(name)) : fallback);

interface Instance {
  id: string;
  hub: DeviceHub;
  transport: TcpDeviceTransport;
  connection: ClusterConnection;
  directory: DeviceDirectory;
  service: ClusterDeviceService;
  close(): Promise<void>;
}

/** One gateway instance of the cluster: a hub on a free TCP device port, its directory and cluster service. */
async function startInstance(id: string, natsUrl: string): Promise<Instance> {
  const hub = new DeviceHub({ deviceToken: TOKEN }, { logger: quiet });
  const transport = new TcpDeviceTransport({ port: 0, host: '127.0.0.1' });
  await transport.start(hub.acceptorFor(transport.name));
  const connection = await connectCluster({ url: natsUrl, instanceId: id, logger: quiet });
  const directory = await DeviceDirectory.open(connection.nc, { instanceId: id, logger: quiet });
  const service = await ClusterDeviceService.start(hub, connection, directory, { logger: quiet });
  return {
    id,
    hub,
    transport,
    connection,
    directory,
    service,
    async close() {
      await service.close();
      hub.shutdown();
      await transport.stop();
      await directory.close();
      await connection.close();
    },
  };
}

/** Phones of phone-fleet.mjs on `port`, resolved once all said hello. */
async function startFleet(port: number, devices: number, prefix: string, shotBytes: number): Promise<ChildProcess> {
  const fleet = spawn(process.execPath, [FLEET, '--port', String(port), '--devices', String(devices), '--token', TOKEN, '--prefix', prefix, '--shot-bytes', String(shotBytes)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    fleet.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(`ready ${devices}`)) resolve();
    });
    fleet.once('exit', (code) => reject(new Error(`phone fleet exited ${code} before it was ready`)));
  });
  return fleet;
}

/** Resolves once `service` sees `deviceIds` online (the directory watch has every claim). */
async function seen(service: ClusterDeviceService, deviceIds: string[]): Promise<void> {
  for (;;) {
    const online = new Set((await service.listDevices()).filter((d) => d.status === 'online').map((d) => d.deviceId));
    if (deviceIds.every((id) => online.has(id))) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const round = (ms: number): number => Math.round(ms * 1000) / 1000;

function stats(latencies: number[]): { p50_ms: number; p99_ms: number } {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50_ms: round(percentile(sorted, 0.5)), p99_ms: round(percentile(sorted, 0.99)) };
}

/** `count` sequential calls of `command` on `deviceId` through `service` (after `count / 10` untimed ones). */
async function sequential(service: ClusterDeviceService, deviceId: string, command: Command, count: number): Promise<number[]> {
  for (let i = 0; i < Math.ceil(count / 10); i += 1) await service.execute(deviceId, command, { timeoutMs: 30_000 });
  const latencies: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    await service.execute(deviceId, command, { timeoutMs: 30_000 });
    latencies.push(performance.now() - start);
  }
  return latencies;
}

async function hopAndNoResponders(nats: NatsServer): Promise<void> {
  const shotBytes = num('shot-bytes', 600_000);
  const a = await startInstance('bench-a', nats.url);
  const b = await startInstance('bench-b', nats.url);
  const c = await startInstance('bench-c', nats.url);
  const fleetA = await startFleet(a.transport.port, 1, 'hop-a-', shotBytes);
  const fleetC = await startFleet(c.transport.port, 1, 'hop-c-', shotBytes);
  try {
    await seen(b.service, ['hop-a-0', 'hop-c-0']);
    for (const [command, count] of [
      [CLICK, num('requests', 2000)],
      [SCREENSHOT, num('shots', 300)],
    ] as const) {
      const local = stats(await sequential(a.service, 'hop-a-0', command, count));
      const remote = stats(await sequential(b.service, 'hop-a-0', command, count));
      const line = { case: 'hop', command: command.command, requests: count, local, remote, hop_p50_ms: round(remote.p50_ms - local.p50_ms), hop_p99_ms: round(remote.p99_ms - local.p99_ms) };
      if (command === SCREENSHOT) Object.assign(line, { shot_base64_bytes: shotBytes });
      console.log(JSON.stringify(line));
    }
    // C stops serving commands but stays live in the directory: the server has no responder for its subject.
    await c.service.close();
    const latencies: number[] = [];
    const codes = new Set<string>();
    for (let i = 0; i < num('no-responders', 400); i += 1) {
      const start = performance.now();
      await b.service.execute('hop-c-0', CLICK, { timeoutMs: 30_000 }).then(
        () => codes.add('success'),
        (err: unknown) => codes.add(isMobileClawError(err) ? err.code : String(err)),
      );
      latencies.push(performance.now() - start);
    }
    const sorted = [...latencies].sort((x, y) => x - y);
    console.log(JSON.stringify({ case: 'no-responders', requests: latencies.length, timeout_ms: 30_000, ...stats(latencies), max_ms: round(sorted.at(-1)!), code: [...codes].join(',') }));
  } finally {
    fleetA.kill();
    fleetC.kill();
    await Promise.all([a.close(), b.close(), c.close()]);
  }
}

/** What an instance process reports after its run. */
interface RunReport {
  id: string;
  requests: number;
  remote: number;
  errors: number;
  elapsedMs: number;
  latencies: number[];
}

/** The parent's side of the throughput case: `n` instance processes, their fleets, one run. */
async function throughput(nats: NatsServer, n: number, cluster: string): Promise<void> {
  const devices = num('devices', 10);
  const requests = num('throughput-requests', 20_000);
  const concurrency = num('concurrency', 16);
  const children = Array.from({ length: n }, (_, i) =>
    fork(__filename, ['--instance', `${cluster}-${i}`, '--nats', nats.url], { execArgv: ['--conditions=@mobileclaw/source', '--require', join(ROOT, 'tools/register-typescript.cjs')], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  const fleets: ChildProcess[] = [];
  try {
    const ports = await Promise.all(children.map(async (child) => ((await once(child, 'message')) as [{ port: number }])[0].port));
    for (const [i, port] of ports.entries()) fleets.push(await startFleet(port, devices, `${cluster}-${i}-`, 1000));
    const all = ports.flatMap((_, i) => Array.from({ length: devices }, (_, d) => `${cluster}-${i}-${d}`));
    const reports = Promise.all(children.map(async (child) => ((await once(child, 'message')) as [RunReport])[0]));
    for (const child of children) child.send({ deviceIds: all, requests, concurrency });
    const done = await reports;
    const total = done.reduce((s, r) => s + r.requests, 0);
    const wall = Math.max(...done.map((r) => r.elapsedMs));
    console.log(
      JSON.stringify({
        case: 'throughput',
        instances: n,
        devices: all.length,
        command: 'click',
        requests: total,
        concurrency_per_instance: concurrency,
        throughput_per_s: Math.round((total / wall) * 1000),
        remote_share: round(done.reduce((s, r) => s + r.remote, 0) / total),
        errors: done.reduce((s, r) => s + r.errors, 0),
        ...stats(done.flatMap((r) => r.latencies)),
      }),
    );
  } finally {
    for (const fleet of fleets) fleet.kill();
    for (const child of children) child.kill();
    await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? once(child, 'exit') : undefined)));
  }
}

/** An instance process: reports its device port, waits until every phone is seen, runs, reports, waits to be killed. */
async function instanceProcess(id: string, natsUrl: string): Promise<void> {
  const instance = await startInstance(id, natsUrl);
  process.send!({ port: instance.transport.port });
  const [order] = (await once(process, 'message')) as [{ deviceIds: string[]; requests: number; concurrency: number }];
  await seen(instance.service, order.deviceIds);
  const local = new Set((await instance.hub.listDevices()).map((d) => d.deviceId));
  const latencies: number[] = [];
  let next = 0;
  let remote = 0;
  let errors = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: order.concurrency }, async () => {
      while (next < order.requests) {
        const deviceId = order.deviceIds[next++ % order.deviceIds.length];
        if (!local.has(deviceId)) remote += 1;
        const t = performance.now();
        await instance.service.execute(deviceId, CLICK, { timeoutMs: 30_000 }).catch(() => (errors += 1));
        latencies.push(performance.now() - t);
      }
    }),
  );
  const report: RunReport = { id, requests: order.requests, remote, errors, elapsedMs: performance.now() - start, latencies };
  process.send!(report);
}

async function main(): Promise<void> {
  if (args.has('instance')) return instanceProcess(args.get('instance')!, args.get('nats')!);
  console.error(`cluster bench: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const nats = await startNatsServer();
  try {
    await hopAndNoResponders(nats);
    await throughput(nats, 3, 'three');
    // Only its own phones: the same instance code with nothing to route.
    await throughput(nats, 1, 'one');
  } finally {
    await nats.stop();
  }
}

main().then(
  () => {
    if (!args.has('instance')) process.exit(0);
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
