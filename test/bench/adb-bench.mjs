#!/usr/bin/env node
// Benchmark of the ADB bridge: the same simulated phone reached two ways by the built gateway
// (`npm start`'s code, `startGateway`) — over wire protocol v1 on TCP (the embedded phone sim-1) and
// through the ADB bridge (MOBILECLAW_ADB=auto) from a simulated adb server (`AdbHostServer`, phone
// adb-1) — over loopback HTTP, one caller at a time. Prints one JSON line per case, then the
// bridge's added latency:
//   {"gateway":"mobileclaw","bench":"adb","case","via","requests","p50_ms","p99_ms","mean_ms"}
//   {"gateway":"mobileclaw","bench":"adb","added_p50_ms":{…},"added_mean_ms":{…},"node"}
// (added = via adb − via tcp, per command: what the bridge and adb cost on top of the TCP path, the
// simulated phone doing the same work behind both; adb_exec shows how much of it is adb's own.)
// Then the step time of a whole task ("Turn on Wi-Fi", rule-based planner) through each:
//   {"gateway":"mobileclaw","bench":"adb","task":"Turn on Wi-Fi","via","tasks","steps","step_p50_ms","step_mean_ms","capture_mean_ms","action_mean_ms"}
//
//   npm run bench                                   # build, the other benches, then this
//   node test/bench/adb-bench.mjs --commands 300 --tasks 20 --block 20
//
// Cases, interleaved in blocks of --block so a shared machine's noise falls on all alike:
//   click       REST POST /api/devices/<id>/commands {command: click} on the home screen's clock (changes nothing)
//   ui_tree     REST POST … {command: ui_tree}
//   screenshot  REST GET /api/devices/<id>/screenshot?format=png
//   adb_exec    adbkit `exec:` calls alone, as the bridge sends them: `input tap x y` (click), `uiautomator
//               dump /dev/tty` + the geometry read (ui_tree), `screencap -p` + the geometry read (screenshot)
// Bounded by --max-seconds (default 300).
import { performance } from 'node:perf_hooks';
// The built code (npm run bench builds first): the bench measures what a user runs.
import { startGateway } from '@mobileclaw/gateway';
import { AdbHostServer } from '@mobileclaw/simulator';
import { ADB_SHELL, AdbkitDeviceShell, createAdbClient } from '@mobileclaw/adb-bridge';
import { failureOf, latencyStats, parseIntegerFlags, round3, startBenchGateway, waitOnline } from './bench-run.mjs';

const parseArguments = (argv) =>
  parseIntegerFlags(argv, { commands: 300, tasks: 20, block: 20, warmup: 20, maxSeconds: 300 }, { '--commands': 'commands', '--tasks': 'tasks', '--block': 'block', '--warmup': 'warmup', '--max-seconds': 'maxSeconds' });
const fail = failureOf('adb-bench');
const stats = latencyStats;

async function json(res) {
  const body = await res.json();
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/** Resolves once `deviceId` is listed online (polls the list: setup only, never measured). */
async function main() {
  const args = parseArguments(process.argv.slice(2));
  setTimeout(() => fail(`gave up after ${args.maxSeconds} s`), args.maxSeconds * 1000).unref();
  const adb = new AdbHostServer();
  await adb.listen();
  const adbPhone = adb.attach({ serial: 'adb-1' });
  const { gateway: gw, base, close } = await startBenchGateway(startGateway, 'adb-bench', { MOBILECLAW_ADB: 'auto', MOBILECLAW_ADB_SERVER: `127.0.0.1:${adb.port}` });
  try {
    await waitOnline(base, 'sim-1');
    await waitOnline(base, 'adb-1');
    const phones = { tcp: { id: 'sim-1', ui: gw.simulator.ui }, adb: { id: 'adb-1', ui: adbPhone.ui } };
    const clock = gw.simulator.ui.centreOf((n) => /^\d{1,2}:\d{2}$/.test(n.text ?? '')) ?? { x: 540, y: 60 };
    const shell = new AdbkitDeviceShell(createAdbClient({ host: '127.0.0.1', port: adb.port }).getDevice('adb-1'));
    const exec = (command) => shell.exec(command, { timeoutMs: 30_000, signal: new AbortController().signal });
    const post = (id, body) => fetch(`${base}/api/devices/${id}/commands`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(json);

    const cases = [];
    for (const via of ['tcp', 'adb']) {
      const { id } = phones[via];
      cases.push({ name: 'click', via, run: () => post(id, { command: 'click', ...clock }) });
      cases.push({ name: 'ui_tree', via, run: () => post(id, { command: 'ui_tree' }) });
      cases.push({ name: 'screenshot', via, run: () => fetch(`${base}/api/devices/${id}/screenshot?format=png`).then((res) => res.arrayBuffer()) });
    }
    cases.push({ name: 'click', via: 'adb_exec', run: () => exec(`input tap ${clock.x} ${clock.y}`) });
    cases.push({ name: 'ui_tree', via: 'adb_exec', run: () => Promise.all([exec(ADB_SHELL.uiDump), exec(ADB_SHELL.geometry)]) });
    cases.push({ name: 'screenshot', via: 'adb_exec', run: () => Promise.all([exec(ADB_SHELL.screencap), exec(ADB_SHELL.geometry)]) });

    for (const c of cases) {
      c.samples = [];
      for (let i = 0; i < args.warmup; i++) await c.run();
    }
    for (let done = 0; done < args.commands; done += args.block) {
      for (const c of cases) {
        for (let i = 0; i < Math.min(args.block, args.commands - done); i++) {
          const started = performance.now();
          await c.run();
          c.samples.push(performance.now() - started);
        }
      }
    }
    const results = {};
    for (const c of cases) {
      const s = stats(c.samples);
      results[`${c.name}/${c.via}`] = s;
      console.log(JSON.stringify({ gateway: 'mobileclaw', bench: 'adb', case: c.name, via: c.via, requests: c.samples.length, ...s }));
    }
    const added = { p50: {}, mean: {} };
    for (const name of ['click', 'ui_tree', 'screenshot']) {
      added.p50[name] = round3(results[`${name}/adb`].p50_ms - results[`${name}/tcp`].p50_ms);
      added.mean[name] = round3(results[`${name}/adb`].mean_ms - results[`${name}/tcp`].mean_ms);
    }
    console.log(JSON.stringify({ gateway: 'mobileclaw', bench: 'adb', added_p50_ms: added.p50, added_mean_ms: added.mean, node: process.version }));

    // Whole tasks, alternating the two phones, each from the home screen with Wi-Fi off.
    const steps = { tcp: [], adb: [] };
    for (let i = 0; i < args.tasks * 2; i++) {
      const via = i % 2 === 0 ? 'tcp' : 'adb';
      const { id, ui } = phones[via];
      ui.state.wifi = false;
      ui.home();
      const { taskId } = await json(await fetch(`${base}/api/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ deviceId: id, goal: 'Turn on Wi-Fi' }) }));
      let task;
      for (;;) {
        task = await json(await fetch(`${base}/api/tasks/${taskId}`));
        if (['completed', 'failed', 'canceled', 'interrupted'].includes(task.status)) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      if (task.status !== 'completed') throw new Error(`task over ${via} ended ${task.status}: ${task.error?.message ?? ''}`);
      for (const step of task.steps) steps[via].push({ total: Date.parse(step.endedAt) - Date.parse(step.startedAt), ...step.timings });
    }
    for (const via of ['tcp', 'adb']) {
      const list = steps[via];
      const mean = (key) => round3(list.reduce((a, s) => a + s[key], 0) / list.length);
      console.log(
        JSON.stringify({
          gateway: 'mobileclaw',
          bench: 'adb',
          task: 'Turn on Wi-Fi',
          via,
          tasks: args.tasks,
          steps: list.length,
          step_p50_ms: stats(list.map((s) => s.total)).p50_ms,
          step_mean_ms: mean('total'),
          capture_mean_ms: mean('captureMs'),
          transfer_mean_ms: mean('transferMs'),
          action_mean_ms: mean('actionMs'),
        }),
      );
    }
  } finally {
    await close();
    await adb.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => fail(err instanceof Error ? (err.stack ?? err.message) : String(err)),
);
