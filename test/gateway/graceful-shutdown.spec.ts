import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { SqliteTaskRepository } from '@mobileclaw/store-sqlite';
import { SseClient } from '../support/sse-client';

/**
 * SIGTERM to a gateway process: it stops taking work, interrupts the running and queued tasks with the
 * reason recorded, answers a command still waiting for its phone `SHUTTING_DOWN`, closes the phone's
 * session, lets answers in progress out and cuts HTTP connections still open 2 s later (a request that
 * never finishes), flushes the store and exits 0.
 */
const ROOT = resolve(__dirname, '../..');
const TYPESCRIPT_NODE_FLAGS = ['--conditions=@mobileclaw/source', '--require', join(ROOT, 'tools/register-typescript.cjs')];
const TOKEN = 'shutdown-test-device-token-0123456789';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

interface Child {
  process: ChildProcess;
  output: string[];
  httpPort: number;
  devicePort: number;
  exited: Promise<number | null>;
}

function startGatewayProcess(dataDir: string, env: Record<string, string> = {}): Promise<Child> {
  const child = spawn(process.execPath, [...TYPESCRIPT_NODE_FLAGS, join(ROOT, 'apps/gateway/src/main.ts')], {
    env: { ...process.env, MOBILECLAW_HTTP_PORT: '0', MOBILECLAW_DEVICE_PORT: '0', MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_SIM: 'off', MOBILECLAW_DEVICE_TOKEN: TOKEN, MOBILECLAW_LOG_LEVEL: 'info', MOBILECLAW_LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return new Promise((ready, reject) => {
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString('utf8'));
      const text = output.join('');
      const httpPort = Number(/REST API on http:\/\/127\.0\.0\.1:(\d+)/.exec(text)?.[1] ?? 0);
      const devicePort = Number(/phones connect to TCP port (\d+)/.exec(text)?.[1] ?? 0);
      if (httpPort && devicePort) ready({ process: child, output, httpPort, devicePort, exited });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`gateway exited with ${code} before it listened:\n${output.join('')}`)));
  });
}

async function api(child: Child, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`http://127.0.0.1:${child.httpPort}${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** The JSON log lines a process printed. */
const logLines = (child: Child): Json[] =>
  child.output
    .join('')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Json);

describe('graceful shutdown of the gateway process', () => {
  const dirs: string[] = [];
  const children: Child[] = [];
  const phones: SimulatedPhone[] = [];
  const dataDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'mobileclaw-shutdown-'));
    dirs.push(dir);
    return dir;
  };

  afterAll(async () => {
    for (const phone of phones) await phone.stop();
    for (const child of children) {
      if (child.process.exitCode === null && child.process.signalCode === null) {
        child.process.kill('SIGKILL');
        await child.exited;
      }
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('on SIGTERM interrupts the tasks, fails the waiting command SHUTTING_DOWN, closes the phone and exits 0', async () => {
    const dir = dataDir();
    const gateway = await startGatewayProcess(dir);
    children.push(gateway);
    const phone = new SimulatedPhone({ host: '127.0.0.1', port: gateway.devicePort, token: TOKEN, deviceId: 'phone-1', reconnect: false });
    phones.push(phone);
    const welcomed = new Promise<void>((ready) => phone.once('welcome', () => ready()));
    await phone.start();
    await welcomed;

    // A task stuck on a phone that stopped answering, one queued behind it, a command waiting too.
    const running = await api(gateway, 'POST', '/api/tasks', { deviceId: 'phone-1', goal: 'Turn on Wi-Fi' });
    const stream = await SseClient.open(`http://127.0.0.1:${gateway.httpPort}/api/tasks/${running.body.taskId}/events`);
    await stream.next((e) => e.event === 'step.acted');
    phone.faults.neverReply = true;
    await stream.next((e) => e.event === 'step.started' && JSON.parse(e.data).data.index === 1);
    const queued = await api(gateway, 'POST', '/api/tasks', { deviceId: 'phone-1', goal: 'Go home' });
    expect(queued.body.status).toBe('queued');
    const waiting = api(gateway, 'POST', '/api/devices/phone-1/commands', { command: 'home' });
    const phoneClosed = new Promise<void>((closed) => phone.once('close', () => closed()));

    gateway.process.kill('SIGTERM');
    const answer = await waiting;
    expect(answer).toMatchObject({ status: 503, body: { code: 'SHUTTING_DOWN' } });
    await stream.ended;
    expect(stream.events.at(-1)?.event).toBe('task.interrupted');
    await phoneClosed;
    expect(await gateway.exited).toBe(0);
    const lines = logLines(gateway).map((l) => l.msg);
    expect(lines).toContain('SIGTERM: shutting down (at most 10000 ms)');
    expect(lines.at(-1)).toBe('shut down');

    // The store was flushed and closed: both tasks are recorded interrupted, with the reason.
    const store = SqliteTaskRepository.open({ dataDir: dir });
    try {
      const runningTask = await store.getTask(running.body.taskId);
      expect(runningTask).toMatchObject({ status: 'interrupted', error: { code: 'INTERRUPTED', message: 'the gateway shut down while the task was unfinished' } });
      expect(await store.getTask(queued.body.taskId)).toMatchObject({ status: 'interrupted', error: { code: 'INTERRUPTED', message: 'the gateway shut down while the task was unfinished' } });
      const events = await store.listEvents(running.body.taskId);
      expect(events.at(-1)?.type).toBe('task.interrupted');
    } finally {
      await store.close();
    }
  }, 60_000);

  it('cuts an HTTP request that never finishes once the HTTP drain has passed, and exits 0', async () => {
    const gateway = await startGatewayProcess(dataDir(), { MOBILECLAW_SHUTDOWN_TIMEOUT_MS: '600000' });
    children.push(gateway);
    // A request whose body never comes: without cutting it the HTTP server could never close.
    const client = connect(gateway.httpPort, '127.0.0.1');
    await new Promise<void>((ready) => client.once('connect', () => ready()));
    const cut = new Promise<void>((closed) => client.once('close', () => closed()));
    client.on('error', () => undefined);
    client.write('POST /api/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"deviceId":');
    const ready = await fetch(`http://127.0.0.1:${gateway.httpPort}/health/ready`);
    expect(ready.status).toBe(200);
    gateway.process.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
    await cut;
    expect(logLines(gateway).filter((l) => l.level >= 50)).toEqual([]);
    expect(logLines(gateway).map((l) => l.msg)).toContain('shut down');
  }, 60_000);
});

/**
 * The shutdown deadline itself, in a process of its own: a gateway whose close never finishes is left
 * after MOBILECLAW_SHUTDOWN_TIMEOUT_MS with exit 1, and a second signal exits 1 at once.
 */
describe('the shutdown deadline (shutDownOnSignals)', () => {
  const children: ChildProcess[] = [];

  afterAll(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  /** A process whose gateway's close() never resolves, with `timeoutMs`; resolves once its handlers are installed. */
  async function holdingProcess(timeoutMs: number): Promise<{ child: ChildProcess; output: () => string; exited: Promise<number | null> }> {
    const script = [
      `const { shutDownOnSignals } = require(${JSON.stringify(join(ROOT, 'apps/gateway/src/gateway-process.ts'))});`,
      `shutDownOnSignals({ close: () => new Promise(() => undefined) }, ${timeoutMs}, { log: (m) => console.log(m), error: (m) => console.log('ERROR ' + m) });`,
      // Something to keep the process alive, as a gateway's open server would.
      'setInterval(() => undefined, 60_000);',
      "console.log('installed');",
    ].join('\n');
    const child = spawn(process.execPath, [...TYPESCRIPT_NODE_FLAGS, '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let text = '';
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    await new Promise<void>((ready, reject) => {
      const onData = (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (text.includes('installed')) ready();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      void exited.then((code) => reject(new Error(`exited with ${code} before installing its handlers:\n${text}`)));
    });
    return { child, output: () => text, exited };
  }

  it('exits 1 once the timeout passes while close() has not finished', async () => {
    const held = await holdingProcess(300);
    held.child.kill('SIGTERM');
    expect(await held.exited).toBe(1);
    expect(held.output().split('\n').filter((line) => line !== '' && line !== 'installed')).toEqual([
      'SIGTERM: shutting down (at most 300 ms)',
      'ERROR shutdown did not finish within 300 ms (MOBILECLAW_SHUTDOWN_TIMEOUT_MS): exiting',
    ]);
  }, 60_000);

  it('exits 1 at once on a second signal', async () => {
    const held = await holdingProcess(600_000);
    held.child.kill('SIGINT');
    await new Promise<void>((seen) => {
      const check = () => (held.output().includes('SIGINT: shutting down') ? seen() : undefined);
      held.child.stdout!.on('data', check);
      check();
    });
    held.child.kill('SIGINT');
    expect(await held.exited).toBe(1);
    expect(held.output()).toContain('ERROR SIGINT again: exiting without waiting for the shutdown to finish');
  }, 60_000);
});
