#!/usr/bin/env node
// Benchmark of the MCP face next to the REST API, on the gateway `npm start` runs (built code) with
// its embedded simulated phone sim-1, over loopback HTTP, one caller at a time. Prints one JSON line
// per case, then one line of the MCP layer's added latency:
//   {"gateway":"mobileclaw","bench":"mcp","case","via","requests","p50_ms","p99_ms","mean_ms"[,"bytes"…]}
//   {"gateway":"mobileclaw","bench":"mcp","added_p50_ms":{…},"added_p99_ms":{…},"protocol_p50_ms":{…},"taps","screens","block","node"}
// (added = MCP tap − REST click, per percentile; protocol = added p50 − REST ui_tree p50.)
//
//   npm run bench                                  # build, gateway-bench.mjs, then this
//   node test/bench/mcp-bench.mjs --taps 600 --screens 60 --block 20
//
// Cases (each MCP case through a 2026-07-28 client and through a 2025 session client):
//   tap_element   MCP tap {frameId, element} on the clock of the home screen (nothing changes on screen)
//   tap_point     MCP tap {x, y} in screen px at the same point (no frame)
//   click         REST POST /api/devices/sim-1/commands {command: click} at the same point
//   ui_tree       REST POST /api/devices/sim-1/commands {command: ui_tree}: what every MCP tap reads first
//   get_screen    MCP get_screen (JPEG ≤ 1568 px long side + element list); bytes of the JPEG and of the result
//   screenshot    REST GET /api/devices/sim-1/screenshot?format=png; bytes of the PNG
// Every MCP tap re-reads the phone's ui_tree before it clicks (to refuse a stale frame, and to name
// the element under a point), so its cost is ui_tree + click + the protocol; tap_element also
// checks that the element is still there. The cases run interleaved in blocks of --block, so the
// noise of a shared machine spreads over all of them. Bounded by --max-seconds (default 300).
import { performance } from 'node:perf_hooks';
// The built gateway (npm run bench builds first): the bench measures the compiled code a user runs.
import { startGateway } from '@mobileclaw/gateway';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { failureOf, latencyStats, parseIntegerFlags, round3, startBenchGateway, waitOnline } from './bench-run.mjs';

const parseArguments = (argv) =>
  parseIntegerFlags(argv, { taps: 600, screens: 60, block: 20, warmup: 20, maxSeconds: 300 }, { '--taps': 'taps', '--screens': 'screens', '--block': 'block', '--warmup': 'warmup', '--max-seconds': 'maxSeconds' });
const fail = failureOf('mcp-bench');
const stats = latencyStats;

async function connect(base, era) {
  const client = new Client({ name: `mobileclaw-bench-${era}`, version: '1.0.0' }, era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  return client;
}

/** Calls a tool; throws with the error text when the result is an error (a stale frame would show here). */
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${result.content?.[0]?.text}`);
  return result;
}

async function rest(base, method, path, body) {
  const res = await fetch(`${base}${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${bytes.toString('utf8')}`);
  return bytes;
}

async function main() {
  const args = parseArguments(process.argv.slice(2));
  setTimeout(() => fail(`gave up after ${args.maxSeconds} s`), args.maxSeconds * 1000).unref();
  const { base, close } = await startBenchGateway(startGateway, 'mcp-bench', { MOBILECLAW_SIM: 'on' });
  const clients = [];
  try {
    await waitOnline(base, 'sim-1');
    const modern = await connect(base, '2026-07-28');
    const legacy = await connect(base, '2025');
    clients.push(modern, legacy);

    // The home screen's clock: an element whose tap changes nothing, so every frame stays valid.
    const frames = {};
    for (const [era, client] of [['2026-07-28', modern], ['2025', legacy]]) {
      const screen = await call(client, 'get_screen', { deviceId: 'sim-1', includeImage: false });
      const clock = /^\[(\d+)\] TextView "\d\d:\d\d"/m.exec(screen.content[0].text);
      if (!clock) fail(`no clock on the home screen:\n${screen.content[0].text}`);
      frames[era] = { frameId: screen.structuredContent.frameId, element: Number(clock[1]) };
    }
    const probe = await call(modern, 'tap', { deviceId: 'sim-1', ...frames['2026-07-28'] });
    const [x, y] = probe.structuredContent.point;

    const bytes = {};
    const cases = {
      'tap_element mcp-2026-07-28': () => call(modern, 'tap', { deviceId: 'sim-1', ...frames['2026-07-28'] }),
      'tap_element mcp-2025-session': () => call(legacy, 'tap', { deviceId: 'sim-1', ...frames['2025'] }),
      'tap_point mcp-2026-07-28': () => call(modern, 'tap', { deviceId: 'sim-1', x, y }),
      'tap_point mcp-2025-session': () => call(legacy, 'tap', { deviceId: 'sim-1', x, y }),
      'click rest': () => rest(base, 'POST', '/api/devices/sim-1/commands', { command: 'click', x, y }),
      'ui_tree rest': () => rest(base, 'POST', '/api/devices/sim-1/commands', { command: 'ui_tree' }),
    };
    const screenCases = {
      'get_screen mcp-2026-07-28': async () => {
        const result = await call(modern, 'get_screen', { deviceId: 'sim-1' });
        bytes['get_screen mcp-2026-07-28'] = { jpeg_bytes: result.structuredContent.image.bytes, result_bytes: Buffer.byteLength(JSON.stringify(result)), image: `${result.structuredContent.image.width}×${result.structuredContent.image.height}` };
      },
      'get_screen mcp-2025-session': async () => {
        const result = await call(legacy, 'get_screen', { deviceId: 'sim-1' });
        bytes['get_screen mcp-2025-session'] = { jpeg_bytes: result.structuredContent.image.bytes, result_bytes: Buffer.byteLength(JSON.stringify(result)), image: `${result.structuredContent.image.width}×${result.structuredContent.image.height}` };
      },
      'screenshot rest': async () => {
        const png = await rest(base, 'GET', '/api/devices/sim-1/screenshot?format=png');
        bytes['screenshot rest'] = { png_bytes: png.length };
      },
    };

    const measure = async (group, total) => {
      const latencies = Object.fromEntries(Object.keys(group).map((name) => [name, []]));
      for (const run of Object.values(group)) for (let i = 0; i < Math.min(args.warmup, total); i++) await run();
      for (let done = 0; done < total; done += args.block) {
        for (const [name, run] of Object.entries(group)) {
          for (let i = 0; i < Math.min(args.block, total - done); i++) {
            const start = performance.now();
            await run();
            latencies[name].push(performance.now() - start);
          }
        }
      }
      return latencies;
    };
    const results = { ...(await measure(cases, args.taps)), ...(await measure(screenCases, args.screens)) };

    const summary = {};
    for (const [key, latencies] of Object.entries(results)) {
      const [name, via] = key.split(' ');
      summary[key] = stats(latencies);
      process.stdout.write(`${JSON.stringify({ gateway: 'mobileclaw', bench: 'mcp', case: name, via, requests: latencies.length, ...summary[key], ...(bytes[key] ?? {}) })}\n`);
    }
    const added = (metric) =>
      Object.fromEntries(
        ['tap_element mcp-2026-07-28', 'tap_element mcp-2025-session', 'tap_point mcp-2026-07-28', 'tap_point mcp-2025-session'].map((key) => [
          key,
          round3(summary[key][metric] - summary['click rest'][metric]),
        ]),
      );
    // What is left of a tap's p50 once the phone's two commands are taken out: the MCP protocol's own cost.
    const protocol = Object.fromEntries(Object.entries(added('p50_ms')).map(([key, ms]) => [key, round3(ms - summary['ui_tree rest'].p50_ms)]));
    const line = { gateway: 'mobileclaw', bench: 'mcp', added_p50_ms: added('p50_ms'), added_p99_ms: added('p99_ms'), protocol_p50_ms: protocol };
    process.stdout.write(`${JSON.stringify({ ...line, taps: args.taps, screens: args.screens, block: args.block, node: process.version })}\n`);
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await close();
  }
}

main().then(
  () => process.exit(0),
  (err) => fail(err?.stack ?? String(err)),
);
