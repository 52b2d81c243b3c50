#!/usr/bin/env node
// Benchmark of the live screen, on the gateway `npm start` runs (built code) with its embedded
// simulated phone sim-1, over loopback: a client of the live event socket (/ws/events, `ws`)
// subscribes to sim-1's screen; the bench changes the phone's screen through the REST API (`open`
// Settings, then `home`, alternating) and measures the time from sending the change to receiving the
// new `screen.frame` on the socket. It also measures what watching costs a task: REST `click`
// round trips on the home screen's clock (a tap that changes nothing) without and with a watcher.
// Prints one JSON line per case:
//   {"gateway":"mobileclaw","bench":"live-screen","case":"change_to_frame","changes","p50_ms","p95_ms","p99_ms","mean_ms","max_ms","target_ms":300,"within_target"}
//   {"gateway":"mobileclaw","bench":"live-screen","case":"click","watched":false|true,"requests","p50_ms","p95_ms","p99_ms","mean_ms"}
//   {"gateway":"mobileclaw","bench":"live-screen","frames","frame_bytes_mean","node"}
//
//   npm run bench                                    # build, the other benches, then this
//   node test/bench/live-screen-bench.mjs --changes 100 --clicks 300
//
// One caller at a time; clicks without and with a watcher run interleaved in blocks of --block, so
// the noise of a shared machine spreads over both. Bounded by --max-seconds (default 300).
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
// The built gateway (npm run bench builds first): the bench measures the compiled code a user runs.
import { startGateway } from '@mobileclaw/gateway';
import { failureOf, parseIntegerFlags, round3, startBenchGateway, waitOnline } from './bench-run.mjs';

const TARGET_MS = 300;
const parseArguments = (argv) =>
  parseIntegerFlags(argv, { changes: 100, clicks: 300, block: 25, warmup: 5, maxSeconds: 300 }, { '--changes': 'changes', '--clicks': 'clicks', '--block': 'block', '--warmup': 'warmup', '--max-seconds': 'maxSeconds' });
const fail = failureOf('live-screen-bench');

/** p50, p95, p99 (the sorted sample at ⌊q n⌋), mean and max of latencies in ms. */
function stats(samples) {
  const sorted = Float64Array.from(samples).sort();
  const at = (q) => round3(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]);
  return { p50_ms: at(0.5), p95_ms: at(0.95), p99_ms: at(0.99), mean_ms: round3(sorted.reduce((a, b) => a + b, 0) / sorted.length), max_ms: round3(sorted[sorted.length - 1]) };
}

async function rest(base, path, body) {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

/** A socket subscribed to sim-1's screen; `nextFrame(afterSeq)` resolves with the first frame numbered after it. */
async function watchScreen(base) {
  const socket = new WebSocket(`${base.replace('http:', 'ws:')}/ws/events`);
  const frames = [];
  let waiter;
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.type === 'screen.end') fail(`the screen stream ended: ${message.error.code} ${message.error.message}`);
    if (message.type !== 'screen.frame') return;
    const frame = { seq: message.seq, at: performance.now(), bytes: message.bytes };
    frames.push(frame);
    if (waiter && frame.seq > waiter.afterSeq) {
      const { resolve } = waiter;
      waiter = undefined;
      resolve(frame);
    }
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'subscribe', screens: ['sim-1'] }));
  const nextFrame = (afterSeq) => {
    const seen = frames.find((f) => f.seq > afterSeq);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => (waiter = { afterSeq, resolve }));
  };
  const closed = () =>
    new Promise((resolve) => {
      socket.once('close', resolve);
      socket.close();
    });
  return { frames, nextFrame, close: closed };
}

/** Centre of the home screen's clock (a `TextView` "hh:mm"): a tap there changes nothing. */
async function clockPoint(base) {
  await rest(base, '/api/devices/sim-1/commands', { command: 'home' });
  const { data } = await rest(base, '/api/devices/sim-1/commands', { command: 'ui_tree' });
  const stack = [...data.nodes];
  while (stack.length > 0) {
    const node = stack.pop();
    if (/^\d\d:\d\d$/.test(node.text ?? '')) return { x: Math.round((node.bounds[0] + node.bounds[2]) / 2), y: Math.round((node.bounds[1] + node.bounds[3]) / 2) };
    stack.push(...(node.children ?? []));
  }
  fail('no clock on the home screen');
}

async function main() {
  const args = parseArguments(process.argv.slice(2));
  setTimeout(() => fail(`gave up after ${args.maxSeconds} s`), args.maxSeconds * 1000).unref();
  const { base, close } = await startBenchGateway(startGateway, 'live-screen-bench', { MOBILECLAW_SIM: 'on' });
  try {
    await waitOnline(base, 'sim-1');
    const { x, y } = await clockPoint(base);

    // Change → frame on the socket.
    const watcher = await watchScreen(base);
    let last = await watcher.nextFrame(0);
    const latencies = [];
    for (let i = 0; i < args.warmup + args.changes; i++) {
      const started = performance.now();
      await rest(base, '/api/devices/sim-1/commands', i % 2 === 0 ? { command: 'open', app: 'com.android.settings' } : { command: 'home' });
      last = await watcher.nextFrame(last.seq);
      if (i >= args.warmup) latencies.push(last.at - started);
    }
    const frameBytes = watcher.frames.map((f) => f.bytes);
    const change = stats(latencies);
    console.log(JSON.stringify({ gateway: 'mobileclaw', bench: 'live-screen', case: 'change_to_frame', changes: latencies.length, ...change, target_ms: TARGET_MS, within_target: round3(latencies.filter((ms) => ms <= TARGET_MS).length / latencies.length) }));

    // What a watcher costs a task's commands: clicks without and with one, interleaved in blocks.
    await watcher.close();
    const clicks = { false: [], true: [] };
    let current;
    for (let done = 0; done < 2 * args.clicks; done += args.block) {
      const watched = (done / args.block) % 2 === 1;
      if (watched && !current) {
        current = await watchScreen(base);
        await current.nextFrame(0);
      }
      if (!watched && current) {
        await current.close();
        current = undefined;
      }
      for (let i = 0; i < args.block; i++) {
        const started = performance.now();
        await rest(base, '/api/devices/sim-1/commands', { command: 'click', x, y });
        clicks[watched].push(performance.now() - started);
      }
    }
    await current?.close();
    for (const watched of [false, true]) {
      const { p50_ms, p95_ms, p99_ms, mean_ms } = stats(clicks[watched]);
      console.log(JSON.stringify({ gateway: 'mobileclaw', bench: 'live-screen', case: 'click', watched, requests: clicks[watched].length, p50_ms, p95_ms, p99_ms, mean_ms }));
    }
    console.log(JSON.stringify({ gateway: 'mobileclaw', bench: 'live-screen', frames: frameBytes.length, frame_bytes_mean: Math.round(frameBytes.reduce((a, b) => a + b, 0) / frameBytes.length), node: process.version }));
  } finally {
    await close();
  }
  process.exit(0);
}

main().catch((err) => fail(err instanceof Error ? err.stack : String(err)));
