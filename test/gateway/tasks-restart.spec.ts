import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { SseClient } from '../support/sse-client';

/**
 * Restart safety: the gateway process is killed with SIGKILL in the middle of a task and
 * started again on the same data directory. Finished tasks, recorded steps and events survive; the
 * unfinished tasks are `interrupted`; no event is lost or duplicated.
 */
const ROOT = resolve(__dirname, '../..');
/** Runs the gateway's TypeScript sources directly (workspace packages resolved to their `src`). */
const TYPESCRIPT_NODE_FLAGS = ['--conditions=@mobileclaw/source', '--require', join(ROOT, 'tools/register-typescript.cjs')];
const TOKEN = 'restart-test-device-token-0123456789';

interface Child {
  process: ChildProcess;
  httpPort: number;
  devicePort: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

/** Starts `main.ts` in a child process and reads its bound ports from its log lines. */
function startGatewayProcess(dataDir: string): Promise<Child> {
  const child = spawn(process.execPath, [...TYPESCRIPT_NODE_FLAGS, join(ROOT, 'apps/gateway/src/main.ts')], {
    env: {
      ...process.env,
      MOBILECLAW_HTTP_PORT: '0',
      MOBILECLAW_DEVICE_PORT: '0',
      MOBILECLAW_DATA_DIR: dataDir,
      MOBILECLAW_SIM: 'off',
      MOBILECLAW_DEVICE_TOKEN: TOKEN,
      MOBILECLAW_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolvePorts, reject) => {
    let output = '';
    let httpPort = 0;
    let devicePort = 0;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      httpPort ||= Number(/REST API on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1] ?? 0);
      devicePort ||= Number(/phones connect to TCP port (\d+)/.exec(output)?.[1] ?? 0);
      if (httpPort && devicePort) resolvePorts({ process: child, httpPort, devicePort });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`gateway exited with ${code} before it listened:\n${output}`)));
  });
}

function kill(child: Child): Promise<void> {
  return new Promise((done) => {
    if (child.process.exitCode !== null || child.process.signalCode !== null) return done();
    child.process.once('exit', () => done());
    child.process.kill('SIGKILL');
  });
}

async function api(child: Child, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`http://127.0.0.1:${child.httpPort}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function allEvents(child: Child, taskId: string): Promise<Json[]> {
  const stream = await SseClient.open(`http://127.0.0.1:${child.httpPort}/api/tasks/${taskId}/events`);
  await stream.ended;
  return stream.json();
}

describe('restart safety (SIGKILL mid-task)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-restart-'));
  const children: Child[] = [];
  let phone: SimulatedPhone | undefined;

  afterAll(async () => {
    await phone?.stop();
    for (const child of children) await kill(child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps finished tasks, steps and events, and marks unfinished tasks interrupted', async () => {
    const first = await startGatewayProcess(dataDir);
    children.push(first);
    phone = new SimulatedPhone({ host: '127.0.0.1', port: first.devicePort, token: TOKEN, deviceId: 'phone-1', reconnect: false });
    const online = new Promise<void>((ready) => phone!.once('welcome', () => ready()));
    await phone.start();
    await online;

    // A task that finishes before the crash.
    const done = await api(first, 'POST', '/api/tasks', { deviceId: 'phone-1', goal: 'Turn on Bluetooth' });
    expect(done.status).toBe(202);
    const doneEvents = await allEvents(first, done.body.taskId);
    expect(doneEvents[doneEvents.length - 1].type).toBe('task.completed');
    const doneTask = (await api(first, 'GET', `/api/tasks/${done.body.taskId}`)).body;

    // A task killed mid-step: the phone stops answering after the first action, then the process dies.
    const running = await api(first, 'POST', '/api/tasks', { deviceId: 'phone-1', goal: 'Turn on Wi-Fi' });
    const stream = await SseClient.open(`http://127.0.0.1:${first.httpPort}/api/tasks/${running.body.taskId}/events`);
    await stream.next((e) => e.event === 'step.acted');
    phone.faults.neverReply = true;
    await stream.next((e) => e.event === 'step.started' && JSON.parse(e.data).data.index === 1);
    const queued = await api(first, 'POST', '/api/tasks', { deviceId: 'phone-1', goal: 'Go home' });
    expect(queued.body.status).toBe('queued');
    const beforeKill = (await api(first, 'GET', `/api/tasks/${running.body.taskId}`)).body;
    const eventsBeforeKill = stream.json();
    await kill(first);
    await phone.stop();

    const second = await startGatewayProcess(dataDir);
    children.push(second);
    const after = (await api(second, 'GET', `/api/tasks/${running.body.taskId}`)).body;
    expect(after).toMatchObject({ status: 'interrupted', error: { code: 'INTERRUPTED' }, stepCount: beforeKill.stepCount });
    expect(after.steps).toEqual(beforeKill.steps);
    const replayed = await allEvents(second, running.body.taskId);
    expect(replayed.slice(0, eventsBeforeKill.length)).toEqual(eventsBeforeKill);
    expect(replayed.slice(eventsBeforeKill.length).map((e: Json) => e.type)).toEqual(['task.interrupted']);
    expect(replayed.map((e: Json) => e.id)).toEqual(replayed.map((_: Json, i: number) => i + 1));

    expect((await api(second, 'GET', `/api/tasks/${queued.body.taskId}`)).body).toMatchObject({ status: 'interrupted' });
    expect((await api(second, 'GET', `/api/tasks/${done.body.taskId}`)).body).toEqual(doneTask);
    expect(await allEvents(second, done.body.taskId)).toEqual(doneEvents);
    const list = (await api(second, 'GET', '/api/tasks?deviceId=phone-1')).body.tasks.map((t: Json) => [t.goal, t.status]);
    expect(list).toEqual([
      ['Go home', 'interrupted'],
      ['Turn on Wi-Fi', 'interrupted'],
      ['Turn on Bluetooth', 'completed'],
    ]);
  }, 60_000);
});
