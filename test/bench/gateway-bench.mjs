#!/usr/bin/env node
// Benchmark of the MobileClaw device adapter: in-process
// callers `await hub.execute(deviceId, command, {timeoutMs: 30000})` with a fixed number in flight,
// spread round-robin over N phones connected over real TCP. Prints one JSON line per command:
//   {"gateway":"mobileclaw","command","devices","requests","concurrency","throughput_per_s","p50_ms","p99_ms","peak_rss_mb"}
//
//   npm run bench                                   # build, then click + screenshot with our fleet
//   node test/bench/gateway-bench.mjs --command click --devices 50 --requests 20000 --concurrency 64
//   node test/bench/gateway-bench.mjs --command screenshot --devices 10 --requests 2000 --concurrency 8 --shot-bytes 1500000
//   node test/bench/gateway-bench.mjs --external-fleet --port 7410 --token bench-token --command click --devices 50
//       (then start any fleet, e.g. node ../shared/bench/phone-fleet.mjs --port 7410 --devices 50)
//   node test/bench/gateway-bench.mjs --idle 10000  # RSS per idle connected phone
//
// Default mode spawns test/bench/phone-fleet.mjs as a separate process (as the reference gateways
// in ../shared/bench/ are measured) and, for --command all, runs each command in a fresh process so
// that its peak RSS is its own. Every run is bounded (--max-seconds, default 300).
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
// The built adapters (npm run bench builds first): the bench measures the compiled code a user runs.
import { DeviceHub } from '@mobileclaw/device';
import { TcpDeviceTransport } from '@mobileclaw/transport-tcp';

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

// ---- re-exec: --command all with our own fleet, and --idle without --expose-gc ---------------------
function reexec(extraNodeFlags, argv) {
  const r = spawnSync(process.execPath, [...extraNodeFlags, fileURLToPath(import.meta.url), ...argv], { stdio: 'inherit' });
  return r.status ?? 1;
}

if (args.idle === undefined && command === 'all' && !external) {
  let status = 0;
  for (const c of ['click', 'screenshot']) status ||= reexec([], [...rawArgs.filter((_, i, all) => all[i] !== '--command' && all[i - 1] !== '--command'), '--command', c]);
  process.exit(status);
}
if (args.idle !== undefined && typeof globalThis.gc !== 'function') process.exit(reexec(['--expose-gc'], rawArgs));

// ---- the adapter ---------------------------------------------------------------------------------
// The adapter logs each connection; a benchmark measures the adapter, not the console.
const { Logger } = require('@nestjs/common');
const quiet = { log() {}, error() {}, warn() {}, debug() {}, verbose() {}, fatal() {} };
Logger.overrideLogger(quiet);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rssMb = (bytes) => +(bytes / 1e6).toFixed(1);

let fleet;
function startFleet(listenPort, devices) {
  fleet = spawn(process.execPath, [FLEET, '--host', host, '--port', String(listenPort), '--devices', String(devices), '--token', token, '--shot-bytes', String(shotBytes)], {
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
  const { lat, secs } = await drive(hub, ids, name, requests, concurrency, errors);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  lat.sort();
  const line = {
    gateway: 'mobileclaw',
    command: name,
    devices: ids.length,
    requests,
    concurrency,
    throughput_per_s: +(requests / secs).toFixed(1),
    p50_ms: +lat[Math.floor(requests / 2)].toFixed(3),
    p99_ms: +lat[Math.floor(requests * 0.99)].toFixed(3),
    peak_rss_mb: rssMb(peak),
  };
  if (errors.size > 0) line.errors = Object.fromEntries(errors);
  process.stdout.write(JSON.stringify(line) + '\n');
  return errors.size === 0;
}

async function main() {
  const hub = new DeviceHub({ deviceToken: token });
  const listener = new TcpDeviceTransport({ port, host });
  const listen = async () => {
    await listener.start(hub);
    return listener.port;
  };
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
    else process.stderr.write(`listening on ${host}:${bound}, waiting for ${phones} hellos\n`);
    await waitOnline(hub, phones, 240);
    globalThis.gc();
    await sleep(1000);
    globalThis.gc();
    await sleep(200);
    const rss = process.memoryUsage.rss();
    process.stdout.write(
      JSON.stringify({ gateway: 'mobileclaw', idle_phones: phones, per_conn_kb: +((rss - base) / phones / 1024).toFixed(2), rss_mb: rssMb(rss), base_mb: rssMb(base) }) + '\n',
    );
  } else {
    const names = command === 'all' ? ['click', 'screenshot'] : [command];
    const want = Math.max(...names.map((n) => num('devices', DEFAULTS[n].devices)));
    const bound = await listen();
    if (!external) startFleet(bound, want);
    else process.stderr.write(`listening on ${host}:${bound}, waiting for ${want} hellos\n`);
    for (const n of names) ok = (await runCommand(hub, n, want)) && ok;
  }

  stopping = true;
  hub.shutdown();
  await Promise.race([listener.stop(), sleep(500)]);
  stopFleet();
  process.exit(ok ? 0 : 1);
}

main().catch((e) => fail(e?.stack ?? String(e)));
