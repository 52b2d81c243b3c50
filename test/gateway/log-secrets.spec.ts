import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmbeddingsServer, type EmbeddingsServer } from '@mobileclaw/embeddings-openai/testing';
import { SseClient } from '../support/sse-client';
import { toolCallCompletion } from '../support/chat-completions';

/**
 * Secrets never reach the logs: a gateway process at the most verbose log level, given an API token,
 * generating its device token (its embedded phone uses it), planning with an OpenAI-compatible model
 * (a local fake Chat Completions server) behind an API key, embedding its memories at a local
 * embeddings server behind another key, runs a task that types a password, takes a typed command over
 * REST and remembers something; everything it printed is then searched for each secret. The same
 * run shows the correlation the logs carry: request ids and the task id on its command and planner lines.
 */
const ROOT = resolve(__dirname, '../..');
const TYPESCRIPT_NODE_FLAGS = ['--conditions=@mobileclaw/source', '--require', join(ROOT, 'tools/register-typescript.cjs')];
const API_TOKEN = 'api-token-SECRET-4f9c1e7a2b';
const LLM_KEY = 'sk-llm-key-SECRET-83hd72kd';
const EMBEDDINGS_KEY = 'sk-embeddings-key-SECRET-5t2q9w';
const TYPED_BY_TASK = 'task-typed-SECRET-hunter2';
const TYPED_BY_REST = 'rest-typed-SECRET-correct-horse';
const BEARER = { authorization: `Bearer ${API_TOKEN}` };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON the fake model and the test read freely
type Json = any;

function toolCall(name: string, args: Record<string, unknown>): Json {
  return toolCallCompletion(name, args, 'fake-model');
}

/** The model's answers, one per request: open the browser, type the password, done. */
const ANSWERS = [
  toolCall('open_app', { reasoning: 'The browser has a field.', package: 'com.android.chrome' }),
  toolCall('type_text', { reasoning: 'Type the password.', text: TYPED_BY_TASK }),
  toolCall('done', { reasoning: 'Typed.', summary: 'Typed the password.' }),
];

interface Child {
  process: ChildProcess;
  output: string[];
  httpPort: number;
  exited: Promise<number | null>;
}

function startGatewayProcess(env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, [...TYPESCRIPT_NODE_FLAGS, join(ROOT, 'apps/gateway/src/main.ts')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return new Promise((resolvePort, reject) => {
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString('utf8'));
      const httpPort = Number(/REST API on http:\/\/127\.0\.0\.1:(\d+)/.exec(output.join(''))?.[1] ?? 0);
      if (httpPort) resolvePort({ process: child, output, httpPort, exited });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`gateway exited with ${code} before it listened:\n${output.join('')}`)));
  });
}

describe('secrets in the logs', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-secrets-'));
  let model: Server;
  let embeddings: EmbeddingsServer;
  let gateway: Child | undefined;
  const seenAuthorization: string[] = [];

  beforeAll(async () => {
    let answered = 0;
    model = createServer((req, res) => {
      seenAuthorization.push(req.headers.authorization ?? '');
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(ANSWERS[Math.min(answered++, ANSWERS.length - 1)]));
      });
    });
    await new Promise<void>((ready) => model.listen(0, '127.0.0.1', ready));
    embeddings = await startEmbeddingsServer({ apiKey: EMBEDDINGS_KEY });
  });

  afterAll(async () => {
    if (gateway && gateway.process.exitCode === null) {
      gateway.process.kill('SIGKILL');
      await gateway.exited;
    }
    model.closeAllConnections();
    await new Promise((done) => model.close(done));
    await embeddings.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints no API token, device token, LLM key, embeddings key or typed text, at log level trace', async () => {
    gateway = await startGatewayProcess({
      MOBILECLAW_HTTP_PORT: '0',
      MOBILECLAW_DEVICE_PORT: '0',
      MOBILECLAW_DATA_DIR: dataDir,
      MOBILECLAW_LOG_LEVEL: 'trace',
      MOBILECLAW_LOG_FORMAT: 'json',
      MOBILECLAW_API_TOKEN: API_TOKEN,
      MOBILECLAW_LLM_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`,
      MOBILECLAW_LLM_API_KEY: LLM_KEY,
      MOBILECLAW_LLM_MODEL: 'fake-model',
      MOBILECLAW_LLM_VISION: 'false',
      MOBILECLAW_EMBEDDINGS_BASE_URL: embeddings.baseUrl,
      MOBILECLAW_EMBEDDINGS_API_KEY: EMBEDDINGS_KEY,
    });
    const base = `http://127.0.0.1:${gateway.httpPort}`;
    const deviceToken = readFileSync(join(dataDir, 'device-token'), 'utf8').trim();
    expect(deviceToken.length).toBeGreaterThanOrEqual(16);

    // The phone is online: its device token went over the wire.
    const devices = await SseClient.open(`${base}/api/devices/events?access_token=${API_TOKEN}`);
    await devices.next((e) => e.event === 'device.connected' || (e.event === 'devices' && JSON.parse(e.data).devices.length > 0));
    devices.close();

    // A typed command over REST (refused by the phone: no field has the focus on the home screen), with
    // a request id of the caller's, and a refused token.
    const typed = await fetch(`${base}/api/devices/sim-1/commands`, {
      method: 'POST',
      headers: { ...BEARER, 'content-type': 'application/json', 'x-request-id': 'caller-request-7' },
      body: JSON.stringify({ command: 'input', text: TYPED_BY_REST }),
    });
    expect(typed.headers.get('x-request-id')).toBe('caller-request-7');
    expect((await fetch(`${base}/api/tasks?access_token=wrong-${API_TOKEN}`)).status).toBe(401);

    // A task planned by the model that types a password.
    const created = await fetch(`${base}/api/tasks`, { method: 'POST', headers: { ...BEARER, 'content-type': 'application/json' }, body: JSON.stringify({ deviceId: 'sim-1', goal: 'Type my password' }) });
    const { taskId } = (await created.json()) as { taskId: string };
    const stream = await SseClient.open(`${base}/api/tasks/${taskId}/events?access_token=${API_TOKEN}`);
    await stream.ended;
    const planned = stream.json<Json>().filter((e) => e.type === 'step.planned');
    expect(planned.map((e) => e.data.plan.action?.command ?? e.data.plan.type)).toEqual(['open', 'input', 'done']);
    expect(seenAuthorization).toEqual([`Bearer ${LLM_KEY}`, `Bearer ${LLM_KEY}`, `Bearer ${LLM_KEY}`]);

    // A memory, embedded at once behind the embeddings key.
    const remembered = await fetch(`${base}/api/memory`, { method: 'POST', headers: { ...BEARER, 'content-type': 'application/json' }, body: JSON.stringify({ scope: 'device:sim-1', text: 'Mom is Alice' }) });
    expect(((await remembered.json()) as Json).records.map((r: Json) => r.embedding)).toEqual(['present']);
    expect(embeddings.requests.length).toBeGreaterThan(0);
    expect(embeddings.requests.every((r) => r.authorization === `Bearer ${EMBEDDINGS_KEY}` && r.answer === 200)).toBe(true);

    gateway.process.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
    const printed = gateway.output.join('');

    for (const [secret, value] of [
      ['API token', API_TOKEN],
      ['device token', deviceToken],
      ['LLM key', LLM_KEY],
      ['embeddings key', EMBEDDINGS_KEY],
      ['text typed by the task', TYPED_BY_TASK],
      ['text typed over REST', TYPED_BY_REST],
    ]) {
      expect({ secret, printed: printed.includes(value) }).toEqual({ secret, printed: false });
    }
    expect(printed).not.toContain('SECRET');

    // The lines themselves: JSON, the generated token announced by where it is stored, the caller's
    // request id on its command's line, the task id on every planner line and on the task's commands.
    const lines = printed
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Json);
    expect(lines.find((l) => l.context === 'DeviceToken')?.msg).toBe(`generated a device token for phones, stored in ${join(dataDir, 'device-token')} (read it there, e.g. cat ${join(dataDir, 'device-token')}; or set MOBILECLAW_DEVICE_TOKEN)`);
    const restInput = lines.find((l) => /^command input on sim-1: /.test(l.msg) && l.req);
    expect(restInput).toMatchObject({ req: { id: 'caller-request-7', method: 'POST', url: '/api/devices/sim-1/commands' } });
    expect(restInput.req.headers.authorization).toBe('[Redacted]');
    const plannerLines = lines.filter((l) => l.context === 'LlmPlanner');
    expect(plannerLines.length).toBe(3);
    for (const line of plannerLines) expect(line).toMatchObject({ taskId, deviceId: 'sim-1' });
    const taskCommands = lines.filter((l) => l.taskId === taskId && /^command /.test(l.msg));
    expect(taskCommands.map((l) => /^command (\w+)/.exec(l.msg)![1])).toEqual(expect.arrayContaining(['ui_tree', 'screenshot', 'open', 'input']));
    // A task's lines outlive the request that created it and do not name it.
    for (const line of lines.filter((l) => l.taskId)) expect(line.req).toBeUndefined();
    // Every command line names either the task or the request it ran for.
    for (const line of lines.filter((l) => /^command /.test(l.msg))) expect(line.taskId ?? line.req?.id).toEqual(expect.any(String));
  }, 60_000);
});
