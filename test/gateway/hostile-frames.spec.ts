import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { EventsSocketClient } from '../support/events-socket-client';

/**
 * Hostile frames and messages sent to a real gateway process: a JSON value nested 30,000 levels
 * deep (which `JSON.parse` accepts and `JSON.stringify` cannot serialise) as a phone's first frame
 * on the TCP device port and on /ws/device, and as a client message on /ws/events; a 65 KB message
 * type. Each is refused with a short error on its own connection; the process keeps serving, and a
 * phone and an event socket already connected keep working.
 */
const ROOT = resolve(__dirname, '../..');
const TYPESCRIPT_NODE_FLAGS = ['--conditions=@mobileclaw/source', '--require', join(ROOT, 'tools/register-typescript.cjs')];
const TOKEN = 'hostile-frames-device-token-0123456789';
const DEPTH = 30_000;
const deep = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;

interface Child {
  process: ChildProcess;
  output: string[];
  httpPort: number;
  devicePort: number;
  exited: Promise<number | null>;
}

function startGatewayProcess(dataDir: string): Promise<Child> {
  const child = spawn(process.execPath, [...TYPESCRIPT_NODE_FLAGS, join(ROOT, 'apps/gateway/src/main.ts')], {
    env: { ...process.env, MOBILECLAW_HTTP_PORT: '0', MOBILECLAW_DEVICE_PORT: '0', MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_SIM: 'off', MOBILECLAW_DEVICE_TOKEN: TOKEN, MOBILECLAW_LOG_LEVEL: 'info', MOBILECLAW_LOG_FORMAT: 'json' },
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

/** Sends `line` as the first frame on the TCP device port; resolves with what the gateway wrote back once it closed the connection. */
function sendOverTcp(port: number, line: string): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(line + '\n'));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', fail);
    socket.on('close', () => done(Buffer.concat(chunks).toString('utf8')));
  });
}

/** Sends `text` as the first message on /ws/device; resolves with the messages received and the close code once the gateway closed. */
function sendOverDeviceSocket(httpPort: number, text: string): Promise<{ messages: string[]; code: number }> {
  return new Promise((done, fail) => {
    const messages: string[] = [];
    const socket = new WebSocket(`ws://127.0.0.1:${httpPort}/ws/device`);
    socket.on('open', () => socket.send(text));
    socket.on('message', (data) => messages.push(data.toString()));
    socket.on('error', fail);
    socket.on('close', (code) => done({ messages, code }));
  });
}

describe('hostile frames and messages on a gateway process', () => {
  let gateway: Child;
  let dir: string;
  let phone: SimulatedPhone;
  let wsPhone: SimulatedPhone;
  let watcher: EventsSocketClient;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mobileclaw-hostile-'));
    gateway = await startGatewayProcess(dir);
    phone = new SimulatedPhone({ host: '127.0.0.1', port: gateway.devicePort, token: TOKEN, deviceId: 'bystander-tcp', reconnect: false });
    await phone.start();
    wsPhone = new SimulatedPhone({ url: `ws://127.0.0.1:${gateway.httpPort}/ws/device`, token: TOKEN, deviceId: 'bystander-ws', reconnect: false });
    await wsPhone.start();
    watcher = await EventsSocketClient.open(`ws://127.0.0.1:${gateway.httpPort}/ws/events`);
    expect(await watcher.request({ type: 'subscribe', devices: '*' })).toMatchObject({ ok: true });
  });

  afterAll(async () => {
    watcher?.close();
    await phone?.stop();
    await wsPhone?.stop();
    if (gateway && gateway.process.exitCode === null && gateway.process.signalCode === null) {
      gateway.process.kill('SIGKILL');
      await gateway.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  /** The gateway still answers, both bystander phones still execute commands, the bystander socket still reads messages. */
  async function expectStillServing(): Promise<void> {
    expect(gateway.process.exitCode).toBeNull();
    expect((await fetch(`http://127.0.0.1:${gateway.httpPort}/api/health`)).status).toBe(200);
    for (const deviceId of ['bystander-tcp', 'bystander-ws']) {
      const shot = await fetch(`http://127.0.0.1:${gateway.httpPort}/api/devices/${deviceId}/screenshot`);
      expect([deviceId, shot.status, shot.headers.get('content-type')]).toEqual([deviceId, 200, 'image/png']);
    }
    expect(await watcher.request({ type: 'subscribe', devices: ['bystander-tcp'] })).toMatchObject({ ok: true });
  }

  it('refuses a first frame on the TCP device port whose "type" nests 30,000 levels deep', async () => {
    const answer = await sendOverTcp(gateway.devicePort, `{"type":${deep}}`);
    expect(JSON.parse(answer)).toEqual({ type: 'error', code: 'PROTOCOL_ERROR', message: 'invalid hello: frame is nested deeper than 1024 levels' });
    await expectStillServing();
  });

  it.each([
    ['"type"', `{"type":${deep}}`],
    ['"deviceId"', `{"type":"hello","deviceId":${deep}}`],
    ['"id"', `{"id":${deep}}`],
  ])('refuses a first message on /ws/device whose %s nests 30,000 levels deep', async (_field, text) => {
    const { messages, code } = await sendOverDeviceSocket(gateway.httpPort, text);
    expect(messages.map((m) => JSON.parse(m) as unknown)).toEqual([{ type: 'error', code: 'PROTOCOL_ERROR', message: 'invalid hello: frame is nested deeper than 1024 levels' }]);
    expect(code).toBeGreaterThanOrEqual(1000);
    await expectStillServing();
  });

  it('answers a /ws/events message whose "type" nests 30,000 levels deep with a short error, and keeps the socket open', async () => {
    const client = await EventsSocketClient.open(`ws://127.0.0.1:${gateway.httpPort}/ws/events`);
    try {
      client.send(`{"type":${deep}}`);
      expect(await client.next((m) => m.type === 'error')).toEqual({
        type: 'error',
        error: {
          code: 'VALIDATION_FAILED',
          message: '"type" must be a string, got an array; expected one of subscribe, unsubscribe, cancel, approve',
          fieldErrors: [{ field: 'type', message: 'must be one of subscribe, unsubscribe, cancel, approve' }],
        },
      });
      expect(await client.request({ type: 'subscribe', devices: '*' })).toMatchObject({ ok: true });
    } finally {
      client.close();
    }
    await expectStillServing();
  });

  it('quotes at most 64 characters of a 65 KB message type on /ws/events', async () => {
    const client = await EventsSocketClient.open(`ws://127.0.0.1:${gateway.httpPort}/ws/events`);
    try {
      client.send({ type: 'x'.repeat(65_000), id: 'big' });
      const error = await client.next((m) => m.type === 'error');
      expect(error).toMatchObject({ id: 'big', error: { code: 'VALIDATION_FAILED', message: `unknown message type "${'x'.repeat(64)}…"; expected one of subscribe, unsubscribe, cancel, approve` } });
      expect(JSON.stringify(error).length).toBeLessThan(500);
    } finally {
      client.close();
    }
    await expectStillServing();
  });
});
