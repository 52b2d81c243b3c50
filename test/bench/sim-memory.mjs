#!/usr/bin/env node
/**
 * Memory of a gateway with its embedded simulated phone (what `npm start` runs), over many tasks.
 *
 * Starts the gateway in-process (`startGateway` from `@mobileclaw/gateway`: `MOBILECLAW_SIM` on, HTTP
 * and device ports 0, a temporary data dir, log silent, the rule-based planner), then runs `--tasks N`
 * tasks one after another on the embedded phone `sim-1` through the REST API (`POST /api/tasks`,
 * followed on its SSE stream to the end; approval requests answered as the goal expects). The goals
 * cycle through `test/eval/goals.ts` (each goal's starting state is set up on the phone first, the
 * phone is sent home and rotated back before each task), so many different screens and texts are
 * drawn. After every task it samples RSS, V8 heap, external and array-buffer memory and libvips'
 * operation cache (`sharp.cache()`); at the end it runs `gc()` twice and samples RSS again.
 *
 * Prints one JSON line on stdout:
 * `{"tasks","statuses","rss_start_mb","rss_end_mb","rss_peak_mb","hwm_mb","rss_after_gc_mb",
 *   "heap_used_end_mb","external_end_mb","array_buffers_end_mb","sharp_cache_end":{…},
 *   "rss_at_mb":{"100":…},"wall_s","malloc_arena_max","node"}`
 * (MB = 2^20 bytes; `rss_peak_mb` is the highest per-task sample, `hwm_mb` the kernel's VmHWM).
 * With `--samples FILE` every per-task sample is written there as JSON lines.
 *
 * Usage (from the repo root; no build needed):
 *   node --expose-gc --conditions=@mobileclaw/source --require ./tools/register-typescript.cjs \
 *     test/bench/sim-memory.mjs [--tasks 600] [--max-seconds 1200] [--samples FILE]
 * Run under `MALLOC_ARENA_MAX=2` (env) to compare glibc's arena setting. Stops after `--max-seconds`
 * (the tasks done so far are reported) and always closes the gateway and removes its data dir.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { startBenchGateway, waitOnline } from './bench-run.mjs';

// CommonJS require: it goes through the TypeScript hook and the @mobileclaw/source condition.
const require = createRequire(import.meta.url);
const { startGateway } = require('@mobileclaw/gateway');
const { EVAL_GOALS } = require('../eval/goals.ts');
const { SseClient } = require('../support/sse-client.ts');
const sharp = require('sharp');

const MB = 1024 * 1024;
const TERMINAL = new Set(['task.completed', 'task.failed', 'task.canceled', 'task.interrupted']);

function parseArguments(argv) {
  const args = { tasks: 600, maxSeconds: 1200, samples: undefined };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`missing value for ${flag}`);
    if (flag === '--tasks') args.tasks = positive(flag, value);
    else if (flag === '--max-seconds') args.maxSeconds = positive(flag, value);
    else if (flag === '--samples') args.samples = value;
    else throw new Error(`unknown argument ${flag}`);
  }
  return args;
}

function positive(flag, value) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer, got ${value}`);
  return n;
}

const mb = (bytes) => Math.round((bytes / MB) * 10) / 10;

function vmHwmMb() {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : null;
}

function sample(task) {
  const m = process.memoryUsage();
  const cache = sharp.cache();
  return {
    task,
    rss_mb: mb(m.rss),
    heap_used_mb: mb(m.heapUsed),
    external_mb: mb(m.external),
    array_buffers_mb: mb(m.arrayBuffers),
    sharp_cache: { memory_mb: mb(cache.memory.current * MB), items: cache.items.current, files: cache.files.current },
  };
}

async function api(base, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** The embedded phone in the goal's starting state (goals needing another screen size start from home). */
function setUp(phone, goal) {
  phone.rotate(0);
  phone.ui.home();
  if (goal.screen || !goal.setup) return;
  try {
    goal.setup(phone);
  } catch {
    // A starting state that depends on a fresh phone (e.g. a conversation renamed by earlier tasks): start from home.
    phone.ui.home();
  }
}

/** Runs one task to its end; returns its final status. */
async function runTask(base, goal) {
  const { taskId } = await api(base, 'POST', '/api/tasks', { deviceId: 'sim-1', goal: goal.goal });
  const stream = await SseClient.open(`${base}/api/tasks/${taskId}/events`);
  try {
    let lastId = 0;
    for (;;) {
      const event = await Promise.race([
        stream.next((e) => Number(e.id) > lastId && (e.event === 'task.input_required' || TERMINAL.has(e.event))),
        stream.ended.then(() => undefined),
      ]);
      if (event === undefined || TERMINAL.has(event.event)) break;
      lastId = Number(event.id);
      await api(base, 'POST', `/api/tasks/${taskId}/approval`, { approve: goal.approval === 'approve' });
    }
  } finally {
    stream.close();
  }
  return (await api(base, 'GET', `/api/tasks/${taskId}`)).status;
}

async function main() {
  const args = parseArguments(process.argv.slice(2));
  if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
  const started = performance.now();
  const deadline = started + args.maxSeconds * 1000;
  const { gateway, base, close } = await startBenchGateway(startGateway, 'sim-memory', { MOBILECLAW_SIM: 'on' });
  const samples = [];
  const statuses = {};
  try {
    const phone = gateway.simulator;
    await waitOnline(base, 'sim-1');
    globalThis.gc();
    samples.push(sample(0));
    for (let t = 1; t <= args.tasks && performance.now() < deadline; t++) {
      const goal = EVAL_GOALS[(t - 1) % EVAL_GOALS.length];
      setUp(phone, goal);
      const status = await runTask(base, goal);
      statuses[status] = (statuses[status] ?? 0) + 1;
      samples.push(sample(t));
    }
  } finally {
    await close();
  }
  globalThis.gc();
  await delay(200);
  globalThis.gc();
  const afterGc = process.memoryUsage().rss;
  const first = samples[0];
  const last = samples[samples.length - 1];
  const rssAt = {};
  for (const s of samples) if (s.task > 0 && s.task % 100 === 0) rssAt[s.task] = s.rss_mb;
  if (args.samples) writeFileSync(args.samples, samples.map((s) => JSON.stringify(s)).join('\n') + '\n');
  const report = {
    tasks: last.task,
    statuses,
    rss_start_mb: first.rss_mb,
    rss_end_mb: last.rss_mb,
    rss_peak_mb: Math.max(...samples.map((s) => s.rss_mb)),
    hwm_mb: vmHwmMb(),
    rss_after_gc_mb: mb(afterGc),
    heap_used_end_mb: last.heap_used_mb,
    external_end_mb: last.external_mb,
    array_buffers_end_mb: last.array_buffers_mb,
    sharp_cache_end: last.sharp_cache,
    sharp_concurrency: sharp.concurrency(),
    rss_at_mb: rssAt,
    wall_s: Math.round((performance.now() - started) / 100) / 10,
    malloc_arena_max: process.env.MALLOC_ARENA_MAX ?? null,
    node: process.version,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`sim-memory: ${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
