import { once } from 'node:events';
import { connect, createServer, type Server } from 'node:net';
import type { RunningGateway } from '@mobileclaw/gateway';
import { mobileclawProcesses, terminalText } from '../support/mobileclaw-cli';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

/**
 * `mobileclaw run` as a process against a real gateway (in this process) and its simulated phone
 * sim-1: the lines it streams, its exit code, in a pseudo-terminal and with --json; approval
 * answered from the terminal; Ctrl-C cancelling the task on the gateway.
 */

const gateways = testGateways('mobileclaw-cli-run-');
const cli = mobileclawProcesses();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

async function start(): Promise<RunningGateway> {
  const gw = await gateways.start();
  await waitOnline(gw, 'sim-1');
  return gw;
}

const urlOf = (gw: RunningGateway) => ['--url', gatewayUrl(gw, '')];
const restTask = async (gw: RunningGateway, taskId: string): Promise<Json> => (await fetch(gatewayUrl(gw, `/api/tasks/${taskId}`))).json();
const onlyTaskId = async (gw: RunningGateway): Promise<string> => {
  const { tasks } = (await (await fetch(gatewayUrl(gw, '/api/tasks'))).json()) as Json;
  expect(tasks).toHaveLength(1);
  return tasks[0].taskId;
};

/** A step's timings as the CLI prints them, in ms. */
const TIMINGS = String.raw`\d+(\.\d)? m?s \(settle \d+, capture \d+, transfer \d+, planning \d+, action \d+\)`;
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The lines of "Turn on Wi-Fi" on sim-1 from a fresh gateway, timings and the task id as patterns. */
const WIFI_LINES = [
  `^• task (${UUID}) on sim-1: "Turn on Wi-Fi" \\(planner rule-based, at most 25 steps\\)$`,
  `^✓ step 1 · open com.android.settings · verified · ${TIMINGS}$`,
  '^    Open the Settings app.$',
  `^✓ step 2 · click \\(964, 326\\) · verified · ${TIMINGS}$`,
  '^    The Wi-Fi switch is off; tap it to turn Wi-Fi on.$',
  `^✓ step 3 · done · ${TIMINGS}$`,
  '^    The screen shows the goal reached \\(turn on "Wi-Fi"\\).$',
  '^✓ completed in 3 steps, \\d+(\\.\\d)? m?s: Wi-Fi is on.$',
].map((source) => new RegExp(source));

/**
 * A TCP proxy to the gateway that ends the first connection whose answer carries the SSE record
 * `id: 3` right after passing it on, as a proxy or a network that drops a long-lived stream would.
 */
async function streamCuttingProxy(gw: RunningGateway): Promise<{ server: Server; port: number }> {
  let cut = false;
  const server = createServer((client) => {
    const upstream = connect(gw.httpPort, '127.0.0.1');
    client.pipe(upstream);
    let answer = '';
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
      answer += chunk.toString('latin1');
      if (!cut && answer.includes('\nid: 3\n')) {
        cut = true;
        client.end();
        upstream.destroy();
      }
    });
    upstream.on('end', () => client.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as { port: number }).port };
}

/**
 * A TCP proxy to the gateway that holds back the request starting a task (`POST /api/tasks`) until
 * `release()`, as a slow gateway would: `held` resolves once the request has come.
 */
async function taskStartHoldingProxy(gw: RunningGateway): Promise<{ server: Server; port: number; held: Promise<void>; release(): void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let onHeld!: () => void;
  const held = new Promise<void>((resolve) => (onHeld = resolve));
  const server = createServer((client) => {
    const upstream = connect(gw.httpPort, '127.0.0.1');
    // From the task's request on, everything this client sends waits, in order.
    let holding = false;
    client.on('data', (chunk: Buffer) => {
      if (!holding && !chunk.toString('latin1').startsWith('POST /api/tasks ')) return void upstream.write(chunk);
      if (!holding) onHeld();
      holding = true;
      void released.then(() => upstream.write(chunk));
    });
    upstream.pipe(client);
    client.on('end', () => upstream.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as { port: number }).port, held, release };
}

function expectLines(actual: string[], patterns: RegExp[]): void {
  expect(actual).toHaveLength(patterns.length);
  actual.forEach((line, i) => expect({ line, matches: patterns[i].test(line) }).toEqual({ line, matches: true }));
}

describe('mobileclaw run (a process, against a real gateway and simulated phone)', () => {
  it('streams each step and the result, exits 0 on completion; `mobileclaw task` replays the same lines', async () => {
    const gw = await start();
    const run = await cli.run(['run', 'sim-1', 'Turn on Wi-Fi', ...urlOf(gw)]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    // Through a pipe: the lines only, no spinner, no colours.
    expect(run.stdout).not.toContain('\x1b[');
    const lines = run.stdout.trimEnd().split('\n');
    expectLines(lines, WIFI_LINES);
    const taskId = WIFI_LINES[0].exec(lines[0])![1];
    expect(await restTask(gw, taskId)).toMatchObject({ status: 'completed', summary: 'Wi-Fi is on.', stepCount: 3 });
    expect(gw.simulator!.ui.state.wifi).toBe(true);

    // The stored events give the same lines, timings and duration included.
    const replay = await cli.run(['task', taskId, ...urlOf(gw)]);
    expect(replay).toEqual({ code: 0, stdout: run.stdout, stderr: '' });
  });

  it('exits 6 when the task fails, with the reason', async () => {
    const gw = await start();
    const run = await cli.run(['run', 'sim-1', 'Fly to the moon', ...urlOf(gw)]);
    expect(run.code).toBe(6);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^✗ failed \(GOAL_FAILED\) after 1 step, \d+(\.\d)? m?s: I do not understand the goal "Fly to the moon"\. The rule-based planner can: .+\.$/);
    // The reason (long: every goal form) is shown once, whole; the give-up step shows the planner's reasoning.
    expect(run.stdout.split('I do not understand the goal').length - 1).toBe(1);
    expect(lines.slice(1, 3)).toEqual([expect.stringMatching(/^✗ step 1 · give up · /), '    The goal matches none of the supported goal forms.']);
    expect((await restTask(gw, await onlyTaskId(gw))).status).toBe('failed');
  });

  it('prints one JSON object per line with --json: the gateway\'s events, ids 1, 2, 3… to the terminal one', async () => {
    const gw = await start();
    const run = await cli.run(['run', 'sim-1', 'Turn on Wi-Fi', '--json', ...urlOf(gw)]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const events = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Json);
    expect(events.map((e) => e.type)).toEqual([
      'task.accepted',
      'task.started',
      ...[0, 1, 2].flatMap(() => ['step.started', 'step.observed', 'step.planned', 'step.acted']),
      'task.completed',
    ]);
    expect(events.map((e) => e.id)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(events.at(-1).data).toEqual({ status: 'completed', summary: 'Wi-Fi is on.' });
    expect(events[8].data).toMatchObject({ index: 1, plan: { type: 'action', action: { command: 'click', x: 964, y: 326 } } });
  });

  it('shows a spinner and colours in a pseudo-terminal, and the same lines once drawn', async () => {
    const gw = await start();
    const run = cli.spawnInTerminal(['run', 'sim-1', 'Turn on Wi-Fi', ...urlOf(gw)]);
    expect(await run.exited).toBe(0);
    const output = run.stdout();
    // ora hides the cursor while it spins, draws its first frame in cyan at once (later texts only
    // as frames come: a backlog of events replayed at once may skip some), and shows the cursor at the end.
    expect(output).toContain('\x1b[?25l');
    expect(output).toContain('\x1b[36m⠋\x1b[39m waiting to start');
    expect(output).toContain('\x1b[32m✓\x1b[39m \x1b[1mstep 1\x1b[22m · open com.android.settings · \x1b[32mverified\x1b[39m');
    expect(output.endsWith('\x1b[?25h')).toBe(true);
    const drawn = terminalText(output).split('\n').filter((line) => line.trim() !== '');
    expectLines(drawn, WIFI_LINES);
  });

  it('prints no colour codes in a pseudo-terminal when NO_COLOR is set', async () => {
    const gw = await start();
    const run = cli.spawnInTerminal(['run', 'sim-1', 'Turn on Wi-Fi', ...urlOf(gw)], { NO_COLOR: '1' });
    expect(await run.exited).toBe(0);
    expect(run.stdout()).not.toMatch(/\x1b\[(3\d|1|2|22|39)m/);
    expectLines(terminalText(run.stdout()).split('\n').filter((line) => line.trim() !== ''), WIFI_LINES);
  });

  it.each([
    ['y', 0, 'completed'],
    ['n', 7, 'canceled'],
  ])('asks y/n in the terminal when a step needs approval; answered %s it exits %i, the task %s', async (answer, code, status) => {
    const gw = await start();
    const run = cli.spawnInTerminal(['run', 'sim-1', "send 'hi there' to Nina", ...urlOf(gw)]);
    await run.shown(/Approve\? \[y\/N\] $/);
    const shown = terminalText(run.stdout());
    expect(shown).toContain('? step 8 · click (938, 2179) needs approval: sending a message to "Nina", who is not an existing contact or conversation\n');
    run.type(`${answer}\r`);
    expect(await run.exited).toBe(code);
    const taskId = await onlyTaskId(gw);
    const task = await restTask(gw, taskId);
    expect(task.status).toBe(status);
    const drawn = terminalText(run.stdout());
    if (answer === 'y') {
      expect(drawn).toContain('• approved: click (938, 2179)\n');
      expect(drawn).toMatch(/\n✓ completed in 9 steps, [\d.]+ m?s: Sent "hi there" to Nina\.\n/);
      expect(gw.simulator!.ui.state.conversations['Nina']).toEqual([expect.objectContaining({ from: 'me', text: 'hi there' })]);
    } else {
      expect(task.error.code).toBe('APPROVAL_DENIED');
      expect(drawn).toMatch(/\n✗ step 8 · click \(938, 2179\) · denied · /);
      expect(drawn).toMatch(/\n✗ canceled \(APPROVAL_DENIED\) after 8 steps, [\d.]+ m?s: /);
      // The conversation was opened; nothing was sent.
      expect(gw.simulator!.ui.state.conversations['Nina']).toEqual([]);
    }
  });

  it('cancels the task on the gateway on Ctrl-C in the terminal (here: at the approval question), exit 130', async () => {
    const gw = await start();
    const run = cli.spawnInTerminal(['run', 'sim-1', "send 'hi there' to Nina", ...urlOf(gw)]);
    await run.shown(/Approve\? \[y\/N\] $/);
    run.type('\x03');
    expect(await run.exited).toBe(130);
    const task = await restTask(gw, await onlyTaskId(gw));
    expect(task).toMatchObject({ status: 'canceled', error: { code: 'CANCELED' } });
    expect(terminalText(run.stdout())).toMatch(new RegExp(`\\n• canceling task ${task.taskId} \\(Ctrl-C again to stop waiting\\)\\n✗ step 8 · click \\(938, 2179\\) · not performed · .*\\n.*\\n✗ canceled \\(CANCELED\\) after 8 steps`));
    expect(gw.simulator!.ui.state.conversations['Nina']).toEqual([]);
  });

  it('cancels the task on SIGINT while the phone is stuck on a command, and ends with its task.canceled event (--json)', async () => {
    const gw = await start();
    // The phone never answers: the first step waits on its first look at the screen until the cancel.
    gw.simulator!.faults.neverReply = true;
    const run = cli.spawn(['run', 'sim-1', 'Turn on Wi-Fi', '--json', ...urlOf(gw)]);
    await run.shown(/"type":"step\.started","at":"[^"]+","data":\{"index":0\}/);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    const events = run.stdout().trimEnd().split('\n').map((line) => JSON.parse(line) as Json);
    expect(events.at(-1)).toMatchObject({ type: 'task.canceled', data: { error: { code: 'CANCELED' } } });
    expect(run.stderr()).toBe(`mobileclaw run: canceling task ${events[0].taskId} (Ctrl-C again to stop waiting)\n`);
    expect(await restTask(gw, events[0].taskId)).toMatchObject({ status: 'canceled', error: { code: 'CANCELED' } });
  });

  it('cancels the task on SIGTERM as on Ctrl-C, and exits 130', async () => {
    const gw = await start();
    gw.simulator!.faults.neverReply = true;
    const run = cli.spawn(['run', 'sim-1', 'Turn on Wi-Fi', ...urlOf(gw)]);
    await run.shown(/^• task [0-9a-f-]{36} on sim-1/);
    // The task is running (its first step waits on the phone) before the signal.
    const taskId = await onlyTaskId(gw);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(130);
    expect(await restTask(gw, taskId)).toMatchObject({ status: 'canceled', error: { code: 'CANCELED' } });
    expect(run.stdout()).toContain(`\n• canceling task ${taskId} (SIGTERM again to stop waiting)\n`);
    expect(run.stdout().trimEnd().split('\n').at(-1)).toMatch(/^✗ canceled \(CANCELED\) after \d+ steps?, [\d.]+ m?s: /);
  });

  it('cancels the task it was starting when SIGTERM comes before the gateway accepted it', async () => {
    const gw = await start();
    gw.simulator!.faults.neverReply = true;
    const proxy = await taskStartHoldingProxy(gw);
    try {
      const run = cli.spawn(['run', 'sim-1', 'Turn on Wi-Fi', '--url', `http://127.0.0.1:${proxy.port}`]);
      await proxy.held;
      run.child.kill('SIGTERM');
      proxy.release();
      expect(await run.exited).toBe(130);
      expect(await restTask(gw, await onlyTaskId(gw))).toMatchObject({ status: 'canceled', error: { code: 'CANCELED' } });
    } finally {
      proxy.server.close();
    }
  });

  it('shows why a task was interrupted when the gateway shuts down under it: exit 6', async () => {
    const gw = await start();
    gw.simulator!.faults.neverReply = true;
    const run = cli.spawn(['run', 'sim-1', 'Turn on Wi-Fi', ...urlOf(gw)]);
    await run.shown(/^• task [0-9a-f-]{36} on sim-1/);
    await gw.close();
    expect(await run.exited).toBe(6);
    expect(run.stdout().trimEnd().split('\n').at(-1)).toMatch(/^✗ interrupted \(INTERRUPTED\) after \d+ steps?, [\d.]+ m?s: the gateway shut down while the task was unfinished$/);
  });

  it('resumes a dropped event stream after the last event received (Last-Event-ID): every event once, in order', async () => {
    const gw = await start();
    // Steps slow enough that the task is still running when the stream drops.
    gw.simulator!.faults.latencyMs = 100;
    const proxy = await streamCuttingProxy(gw);
    try {
      const run = cli.spawn(['run', 'sim-1', 'Turn on Wi-Fi', '--json', '--url', `http://127.0.0.1:${proxy.port}`]);
      expect(await run.exited).toBe(0);
      const events = run.stdout().trimEnd().split('\n').map((line) => JSON.parse(line) as Json);
      expect(events.map((e) => e.id)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
      expect(events.at(-1).type).toBe('task.completed');
      expect(run.stderr()).toMatch(/^mobileclaw run: lost the gateway \(.+\); reconnecting\n$/);
    } finally {
      proxy.server.close();
    }
  });

  it('leaves the approval to others when stdin is not a terminal, and follows the task to its end', async () => {
    const gw = await start();
    const run = cli.spawn(['run', 'sim-1', "send 'hi there' to Nina", '--json', ...urlOf(gw)]);
    await run.shown(/or deny with .*\n/, 'stderr');
    const taskId = await onlyTaskId(gw);
    expect(run.stderr()).toBe(
      `mobileclaw run: step 8 · click (938, 2179) needs approval: sending a message to "Nina", who is not an existing contact or conversation\n` +
        `mobileclaw run: approve with \`mobileclaw approve ${taskId}\` or deny with \`mobileclaw deny ${taskId}\` (or in the live view)\n`,
    );
    const approve = await cli.run(['approve', taskId, ...urlOf(gw)]);
    expect(approve).toEqual({ code: 0, stdout: `task ${taskId}: running\n`, stderr: '' });
    expect(await run.exited).toBe(0);
    expect(run.stdout().trimEnd().split('\n').map((line) => (JSON.parse(line) as Json).type).slice(-4)).toEqual(['step.observed', 'step.planned', 'step.acted', 'task.completed']);
  });

  it('says how to answer an approval on stderr, not among the step lines on stdout, when stdin is not a terminal', async () => {
    const gw = await start();
    const run = cli.spawn(['run', 'sim-1', "send 'hi there' to Nina", ...urlOf(gw)]);
    await run.shown(/or deny with .*\n/, 'stderr');
    const taskId = await onlyTaskId(gw);
    expect(run.stderr()).toBe(`mobileclaw run: approve with \`mobileclaw approve ${taskId}\` or deny with \`mobileclaw deny ${taskId}\` (or in the live view)\n`);
    expect(run.stdout()).toContain('? step 8 · click (938, 2179) needs approval: sending a message to "Nina", who is not an existing contact or conversation\n');
    expect(run.stdout()).not.toContain('approve with');
    expect((await cli.run(['deny', taskId, ...urlOf(gw)])).code).toBe(0);
    expect(await run.exited).toBe(7);
  });
});
