#!/usr/bin/env node
// Benchmark of the MobileClaw device adapter: in-process
// callers `await hub.execute(deviceId, command, {timeoutMs: 30000})` with a fixed number in flight,
// spread round-robin over N phones connected over real TCP (the device port) or WebSocket
// (`/ws/device` on a Nest app's HTTP server, as the gateway serves it). Prints one JSON line per
// command and transport:
//   {"gateway":"mobileclaw","transport","command","devices","requests","concurrency","throughput_per_s","p50_ms","p99_ms","cpu_ms_per_request","peak_rss_mb"}
// (cpu_ms_per_request: the gateway process's CPU time, user + system, over the measured run per
// request: what a command costs the gateway, less disturbed than throughput by other load on the machine)
// and, when both transports ran, WebSocket/TCP ratios of throughput and of CPU per request (medians over the rounds):
//   {"ratios":{"click":0.93,"screenshot":0.88},"of":"ws/tcp throughput","rounds":1}
//   {"ratios":{"click":1.12,"screenshot":1.05},"of":"ws/tcp gateway CPU per request","rounds":1}
//
//   npm run bench                                   # build, then click + screenshot over TCP and WebSocket with our fleet
//   node test/bench/gateway-bench.mjs --command click --transport ws --devices 50 --requests 20000 --concurrency 64
//   node test/bench/gateway-bench.mjs --command screenshot --devices 10 --requests 2000 --concurrency 8 --shot-bytes 1500000
//   node test/bench/gateway-bench.mjs --rounds 3    # tcp and ws alternate, three times per command
//   node test/bench/gateway-bench.mjs --external-fleet --port 7410 --token bench-token --command click --devices 50
//       (then start any fleet, e.g. node ../shared/bench/phone-fleet.mjs --port 7410 --devices 50)
//   node test/bench/gateway-bench.mjs --idle 10000  # RSS per idle connected phone, TCP then WebSocket
//
// --transport tcp|ws|both (default both; tcp with --external-fleet); --random-mask makes our fleet's
// WebSocket phones mask their frames with a random key as real phones do (default: a zero key, which
// costs neither side anything; see phone-fleet.mjs). Default mode spawns
// test/bench/phone-fleet.mjs as a separate process (as the reference gateways in ../shared/bench/
// are measured) and runs each command and transport in a fresh process so that its peak RSS is its
// own. Every run is bounded (--max-seconds, default 300).
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
// The built adapters (npm run bench builds first): the bench measures the compiled code a user runs.
import { DeviceHub, MobileClawModule } from '@mobileclaw/device';
import { TcpDeviceTransport } from '@mobileclaw/transport-tcp';
import { MobileClawWsAdapter, WsDeviceModule, WsDeviceTransport } from '@mobileclaw/transport-ws';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const FLEET = path.join(here, 'phone-fleet.mjs');

// ---- arguments ----------------------------------------------------------------------------------
const rawArgs = process.argv.slice(2);
const args = {};
for (let i = 0; i < rawArgs.length; i += 1) {
  const a = rawArgs[i];
  if (!a.startsWith('--')) continue;
  const next = rawArgs[i + 1];
  if (next === undefined || next.startsWith('--')) args[a.slice(2)] = true;
  else {
    args[a.slice(2)] = next;
    i += 1;
  }
}
const num = (name, fallback) => (args[name] === undefined || args[name] === true ? fallback : Number(args[name]));
const external = args['external-fleet'] === true || args['external-fleet'] === 'true';
const host = typeof args.host === 'string' ? args.host : '127.0.0.1';
const port = num('port', external ? 7397 : 0);
const token = typeof args.token === 'string' ? args.token : external ? 'bench-token' : randomBytes(12).toString('hex');
const shotBytes = num('shot-bytes', 1_500_000);
const timeoutMs = num('timeout-ms', 30_000);
const maxSeconds = num('max-seconds', 300);
const command = typeof args.command === 'string' ? args.command : 'all';
const transport = typeof args.transport === 'string' ? args.transport : external ? 'tcp' : 'both';
const rounds = num('rounds', 1);

const DEFAULTS = {
  click: { devices: 50, requests: 20_000, concurrency: 64, warmup: 2000 },
  screenshot: { devices: 10, requests: 2000, concurrency: 8, warmup: 200 },
};

function fail(message) {
  process.stderr.write(`gateway-bench: ${message}\n`);
  process.exit(1);
}

// Bounded: whatever happens, the process ends.
setTimeout(() => fail(`gave up after ${maxSeconds} s`), maxSeconds * 1000).unref();

if (args.idle === undefined && !['click', 'screenshot', 'all'].includes(command)) fail(`--command must be click, screenshot or all, got ${command}`);
if (!['tcp', 'ws', 'both'].includes(transport)) fail(`--transport must be tcp, ws or both, got ${transport}`);
if (external && transport === 'both') fail('--external-fleet measures one transport: pass --transport tcp or ws');

// ---- re-exec: each command and transport in a fresh process, and --idle with --expose-gc -----------
/** Runs this script again with `argv`; its JSON lines are printed as they are and returned parsed. */
function reexec(extraNodeFlags, argv) {
  const r = spawnSync(process.execPath, [...extraNodeFlags, fileURLToPath(import.meta.url), ...argv], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 1 << 24 });
  process.stdout.write(r.stdout ?? '');
  const lines = (r.stdout ?? '')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
  return { status: r.status ?? 1, lines };
}

/** `rawArgs` without `--name value` for each of `names`. */
function argsWithout(...names) {
  const drop = names.map((n) => `--${n}`);
  return rawArgs.filter((a, i, all) => !drop.includes(a) && !drop.includes(all[i - 1]));
}

if (!external && (transport === 'both' || (args.idle === undefined && command === 'all'))) {
  const transports = transport === 'both' ? ['tcp', 'ws'] : [transport];
  let status = 0;
  if (args.idle !== undefined) {
    for (const t of transports) status ||= reexec([], [...argsWithout('transport'), '--transport', t]).status;
    process.exit(status);
  }
  const commands = command === 'all' ? ['click', 'screenshot'] : [command];
  const throughput = {};
  const cpuPerRequest = {};
  for (let round = 0; round < rounds; round++) {
    for (const c of commands) {
      for (const t of transports) {
        const run = reexec([], [...argsWithout('command', 'transport', 'rounds'), '--command', c, '--transport', t]);
        status ||= run.status;
        for (const line of run.lines) {
          (throughput[`${c}/${t}`] ??= []).push(line.throughput_per_s);
          (cpuPerRequest[`${c}/${t}`] ??= []).push(line.cpu_ms_per_request);
        }
      }
    }
  }
  if (transports.length === 2) {
    // The ratio of each round's pair, then their median: the machine's noise falls on both alike.
    const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const ratio = (table, c) => +median((table[`${c}/ws`] ?? []).map((ws, i) => ws / table[`${c}/tcp`][i])).toFixed(3);
    process.stdout.write(JSON.stringify({ ratios: Object.fromEntries(commands.map((c) => [c, ratio(throughput, c)])), of: 'ws/tcp throughput', rounds }) + '\n');
    process.stdout.write(JSON.stringify({ ratios: Object.fromEntries(commands.map((c) => [c, ratio(cpuPerRequest, c)])), of: 'ws/tcp gateway CPU per request', rounds }) + '\n');
  }
  process.exit(status);
}
if (args.idle !== undefined && typeof globalThis.gc !== 'function') process.exit(reexec(['--expose-gc'], rawArgs).status);

// ---- the adapter ---------------------------------------------------------------------------------
// The adapter logs each connection; a benchmark measures the adapter, not the console.
const { Logger } = require('@nestjs/common');
const quiet = { log() {}, error() {}, warn() {}, debug() {}, verbose() {}, fatal() {} };
Logger.overrideLogger(quiet);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rssMb = (bytes) => +(bytes / 1e6).toFixed(1);

let fleet;
/** Starts our fleet of `devices` phones against `address` (`{port}` for TCP, `{url}` for WebSocket). */
function startFleet(address, devices) {
  const target = address.url === undefined ? ['--host', host, '--port', String(address.port)] : ['--url', address.url];
  const mask = args['random-mask'] === true ? ['--random-mask'] : [];
  fleet = spawn(process.execPath, [FLEET, ...target, ...mask, '--devices', String(devices), '--token', token, '--shot-bytes', String(shotBytes)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  fleet.on('exit', (code, signal) => {
    if (!stopping) fail(`phone fleet exited early (code ${code}, signal ${signal})`);
  });
}
let stopping = false;
function stopFleet() {
  stopping = true;
  if (fleet && fleet.exitCode === null) fleet.kill('SIGTERM');
}
process.on('exit', stopFleet);

async function waitOnline(hub, want, seconds) {
  const until = Date.now() + seconds * 1000;
  while (hub.stats().devicesOnline < want) {
    if (Date.now() > until) fail(`only ${hub.stats().devicesOnline} of ${want} phones said hello within ${seconds} s`);
    await sleep(20);
  }
}

async function onlineIds(hub, count) {
  const ids = (await hub.listDevices())
    .filter((d) => d.status !== 'offline')
    .map((d) => d.deviceId)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return ids.slice(0, count);
}

function commandOf(name) {
  return name === 'click' ? { command: 'click', x: 540, y: 1200 } : { command: 'screenshot' };
}

/** Runs `requests` commands with `concurrency` callers; returns latencies (ms) and the wall time. */
async function drive(hub, ids, name, requests, concurrency, errors) {
  const lat = new Float64Array(requests);
  let next = 0;
  const opts = { timeoutMs };
  async function worker() {
    for (let i = next++; i < requests; i = next++) {
      const cmd = commandOf(name);
      const s = performance.now();
      try {
        const result = await hub.execute(ids[i % ids.length], cmd, opts);
        if (name === 'screenshot' && !(typeof result.data.base64 === 'string' && result.data.base64.length > 0)) errors.set('BAD_REPLY', (errors.get('BAD_REPLY') ?? 0) + 1);
      } catch (e) {
        const code = e?.code ?? 'EXCEPTION';
        errors.set(code, (errors.get(code) ?? 0) + 1);
      }
      lat[i] = performance.now() - s;
    }
  }
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { lat, secs: (performance.now() - t0) / 1000 };
}

async function runCommand(hub, name, waitFor) {
  const d = DEFAULTS[name];
  const devices = num('devices', d.devices);
  const requests = num('requests', d.requests);
  const concurrency = num('concurrency', d.concurrency);
  const warmup = num('warmup', Math.min(d.warmup, requests));
  await waitOnline(hub, waitFor ?? devices, 120);
  const ids = await onlineIds(hub, devices);
  if (ids.length < devices) fail(`${devices} phones wanted, ${ids.length} online`);

  const warmErrors = new Map();
  if (warmup > 0) await drive(hub, ids, name, warmup, concurrency, warmErrors);
  if (warmErrors.size > 0) process.stderr.write(`warm-up errors: ${JSON.stringify(Object.fromEntries(warmErrors))}\n`);

  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    const r = process.memoryUsage.rss();
    if (r > peak) peak = r;
  }, 20);
  const errors = new Map();
  const cpuBefore = process.cpuUsage();
  const { lat, secs } = await drive(hub, ids, name, requests, concurrency, errors);
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  lat.sort();
  const line = {
    gateway: 'mobileclaw',
    transport,
    command: name,
    devices: ids.length,
    requests,
    concurrency,
    throughput_per_s: +(requests / secs).toFixed(1),
    p50_ms: +lat[Math.floor(requests / 2)].toFixed(3),
    p99_ms: +lat[Math.floor(requests * 0.99)].toFixed(3),
    cpu_ms_per_request: +((cpu.user + cpu.system) / 1000 / requests).toFixed(4),
    peak_rss_mb: rssMb(peak),
  };
  if (errors.size > 0) line.errors = Object.fromEntries(errors);
  process.stdout.write(JSON.stringify(line) + '\n');
  return errors.size === 0;
}

/**
 * The gateway side for `transport`: a hub with the TCP transport on the device port, or a Nest app
 * serving the WebSocket transport on its HTTP server as the gateway composes it (MobileClawModule,
 * WsDeviceModule, MobileClawWsAdapter). `listen()` resolves with where the fleet connects.
 */
async function deviceGateway() {
  if (transport === 'tcp') {
    const hub = new DeviceHub({ deviceToken: token });
    const listener = new TcpDeviceTransport({ port, host });
    return {
      hub,
      async listen() {
        await listener.start(hub);
        return { port: listener.port, describe: `${host}:${listener.port}` };
      },
      async stop() {
        hub.shutdown();
        await Promise.race([listener.stop(), sleep(500)]);
      },
    };
  }
  require('reflect-metadata');
  const { Module } = require('@nestjs/common');
  const { NestFactory } = require('@nestjs/core');
  const ws = new WsDeviceTransport({ maxMessageBytes: 2 * 16 * 1024 * 1024 });
  class BenchGatewayModule {}
  Module({ imports: [MobileClawModule.forRoot({ deviceToken: token, transports: [ws] }), WsDeviceModule.forRoot(ws)] })(BenchGatewayModule);
  const app = await NestFactory.create(BenchGatewayModule, { logger: false, bodyParser: false });
  app.useWebSocketAdapter(new MobileClawWsAdapter(app));
  await app.init();
  return {
    hub: app.get(DeviceHub),
    async listen() {
      await app.listen(port, host);
      const url = `ws://${host}:${app.getHttpServer().address().port}${ws.path}`;
      return { url, describe: url };
    },
    stop: () => Promise.race([app.close(), sleep(1000)]),
  };
}

async function main() {
  const gateway = await deviceGateway();
  const { hub, listen } = gateway;
  let ok = true;

  if (args.idle !== undefined) {
    const phones = num('idle', 10_000) || 10_000;
    const limit = Number(spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim());
    if (Number.isFinite(limit) && limit < phones + 256) fail(`ulimit -n is ${limit}; ${phones} phones need more than ${phones + 256} (run "ulimit -n ${phones * 2}" first)`);
    // Baseline before listening: code loaded, hub built, heap collected.
    globalThis.gc();
    await sleep(200);
    globalThis.gc();
    const base = process.memoryUsage.rss();
    const bound = await listen();
    if (!external) startFleet(bound, phones);
    else process.stderr.write(`listening on ${bound.describe}, waiting for ${phones} hellos\n`);
    await waitOnline(hub, phones, 240);
    globalThis.gc();
    await sleep(1000);
    globalThis.gc();
    await sleep(200);
    const rss = process.memoryUsage.rss();
    process.stdout.write(
      JSON.stringify({ gateway: 'mobileclaw', transport, idle_phones: phones, per_conn_kb: +((rss - base) / phones / 1024).toFixed(2), rss_mb: rssMb(rss), base_mb: rssMb(base) }) + '\n',
    );
  } else {
    const names = command === 'all' ? ['click', 'screenshot'] : [command];
    const want = Math.max(...names.map((n) => num('devices', DEFAULTS[n].devices)));
    const bound = await listen();
    if (!external) startFleet(bound, want);
    else process.stderr.write(`listening on ${bound.describe}, waiting for ${want} hellos\n`);
    for (const n of names) ok = (await runCommand(hub, n, want)) && ok;
  }

  stopping = true;
  await gateway.stop();
  stopFleet();
  process.exit(ok ? 0 : 1);
}

main().catch((e) => fail(e?.stack ?? String(e)));
