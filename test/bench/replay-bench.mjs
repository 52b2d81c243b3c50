#!/usr/bin/env node
// Benchmark of a learned skill's replay next to planning the same goal, on the gateway `npm start` runs
// (built code) with its embedded simulated phone sim-1. The planner is the LLM planner against a local
// Chat Completions server in this process, which answers at once like a tool-calling model would and
// counts its requests: so the figures are the gateway's and the phone's own time, and what a real model
// adds per call (seconds each) comes on top of the planned case only. The goal, "type hello into the
// address bar", is planned once and saved as a skill (POST /api/tasks/:id/skill); then tasks run
// alternately planned (POST /api/tasks) and replayed (POST /api/skills/:name/replay), each from the home
// screen. A task's time is its `endedAt − createdAt` as the gateway records them.
// --model-ms N makes the model take N ms per answer (default 0: the floor), as a remote model would.
// Prints one JSON line per mode:
//   {"gateway":"mobileclaw","bench":"replay","mode":"planned"|"replayed","goal","model_ms","tasks","steps_per_task","model_calls_per_task","p50_ms","p99_ms","mean_ms","node"}
//
//   npm run bench                                  # build, the other benches, then this
//   node test/bench/replay-bench.mjs --tasks 30 --model-ms 1000
import { createServer } from 'node:http';
// The built gateway (npm run bench builds first): the bench measures the compiled code a user runs.
import { startGateway } from '@mobileclaw/gateway';
import { failureOf, latencyStats, parseIntegerFlags, startBenchGateway, waitOnline } from './bench-run.mjs';

const GOAL = 'type hello into the address bar';
const args = parseIntegerFlags(process.argv.slice(2), { tasks: 30, warmup: 3, modelMs: 0 }, { '--tasks': 'tasks', '--warmup': 'warmup', '--model-ms': 'modelMs' });
const fail = failureOf('replay-bench');

const call = (name, argumentsJson) => ({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'bench-model',
  choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: JSON.stringify(argumentsJson) } }] }, finish_reason: 'tool_calls' }],
  usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
});

/** The model: open the browser, tap the address bar, type the goal's text, done once the bar shows it. */
function decide(body) {
  const user = body.messages.filter((m) => m.role === 'user').pop();
  const text = typeof user.content === 'string' ? user.content : user.content.find((p) => p.type === 'text').text;
  const want = /^Goal: type (.+) into the address bar$/m.exec(text)?.[1];
  if (want === undefined) return call('fail', { reasoning: 'unknown goal', reason: 'the bench model knows one goal' });
  const bar = text.split('\n').find((line) => /^\[\d+\] /.test(line) && line.includes('id=com.android.chrome:id/url_bar'));
  if (!bar) return call('open_app', { reasoning: 'the address bar is in the browser', package: 'com.android.chrome' });
  const index = Number(/^\[(\d+)\]/.exec(bar)[1]);
  if (bar.includes(`EditText ${JSON.stringify(want)}`)) return call('done', { reasoning: 'the bar shows it', summary: `The address bar shows ${want}.` });
  if (!/ focused/.test(bar)) return call('tap', { reasoning: 'focus the address bar', element_index: index });
  return call('type_text', { reasoning: 'type the text', text: want, clear: true, element_index: index });
}

async function post(base, path, body) {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

/** The task once it ended (asked every 5 ms, as adb-bench does). */
async function ended(base, taskId) {
  for (;;) {
    const task = await (await fetch(`${base}/api/tasks/${taskId}`)).json();
    if (['completed', 'failed', 'canceled', 'interrupted'].includes(task.status)) return task;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function main() {
  let requests = 0;
  const model = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      requests++;
      const reply = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(decide(JSON.parse(raw))));
      };
      // --model-ms: a model's answer time, to see what each call costs a planned task.
      if (args.modelMs > 0) setTimeout(reply, args.modelMs);
      else reply();
    });
  });
  await new Promise((resolve) => model.listen(0, '127.0.0.1', resolve));
  const { gateway, base, close } = await startBenchGateway(startGateway, 'replay', {
    MOBILECLAW_LLM_BASE_URL: `http://127.0.0.1:${model.address().port}/v1`,
    MOBILECLAW_LLM_API_KEY: 'bench-key',
    MOBILECLAW_LLM_MODEL: 'bench-model',
  });
  try {
    await waitOnline(base, 'sim-1');
    const ui = gateway.simulator.ui;
    /** Runs one task from the home screen; returns its time, steps and the model calls it made. */
    const once = async (mode) => {
      ui.home();
      const before = requests;
      const started = mode === 'planned' ? await post(base, '/api/tasks', { deviceId: 'sim-1', goal: GOAL }) : await post(base, '/api/skills/browser-address/replay', { deviceId: 'sim-1' });
      const task = await ended(base, started.taskId);
      if (task.status !== 'completed') throw new Error(`a ${mode} task ended ${task.status}: ${task.error?.message ?? ''}`);
      return { task, ms: Date.parse(task.endedAt) - Date.parse(task.createdAt), steps: task.stepCount, calls: requests - before };
    };
    const learned = await once('planned');
    await post(base, `/api/tasks/${learned.task.taskId}/skill`, { name: 'browser-address' });
    for (let i = 0; i < args.warmup; i++) for (const mode of ['planned', 'replayed']) await once(mode);
    const runs = { planned: [], replayed: [] };
    for (let i = 0; i < args.tasks; i++) for (const mode of i % 2 === 0 ? ['planned', 'replayed'] : ['replayed', 'planned']) runs[mode].push(await once(mode));
    for (const mode of ['planned', 'replayed']) {
      const list = runs[mode];
      const { p50_ms, p99_ms, mean_ms } = latencyStats(list.map((r) => r.ms));
      const perTask = (key) => list.reduce((a, r) => a + r[key], 0) / list.length;
      console.log(JSON.stringify({ gateway: 'mobileclaw', bench: 'replay', mode, goal: GOAL, model_ms: args.modelMs, tasks: list.length, steps_per_task: perTask('steps'), model_calls_per_task: perTask('calls'), p50_ms, p99_ms, mean_ms, node: process.version }));
    }
  } finally {
    await close();
    model.closeAllConnections();
    await new Promise((resolve) => model.close(resolve));
  }
}

main().then(
  () => process.exit(0),
  (err) => fail(err instanceof Error ? (err.stack ?? err.message) : String(err)),
);
