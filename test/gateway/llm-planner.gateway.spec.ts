import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type RunningGateway } from '@mobileclaw/gateway';
import { SseClient } from '../support/sse-client';
import { emptyMemorySummary, isMemorySummaryRequest, toolCallCompletion } from '../support/chat-completions';

/**
 * The gateway configured with an OpenAI-compatible model (MOBILECLAW_LLM_*): tasks are planned by the
 * LLM planner over HTTP. The model is a local server that speaks the Chat Completions wire format and
 * answers like a tool-calling model would: open Settings, tap the first unchecked switch, then done.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- request JSON that the fake model reads freely
type Json = any;

interface SeenRequest {
  headers: IncomingHttpHeaders;
  body: Json;
}

function answer(name: string, args: Record<string, unknown>): Json {
  return toolCallCompletion(name, args, 'fake-vl');
}

function decide(body: Json): Json {
  const user = body.messages.filter((m: Json) => m.role === 'user').pop();
  const text: string = typeof user.content === 'string' ? user.content : user.content.find((p: Json) => p.type === 'text').text;
  // Offered the caller's lookup_order: call it first, then report what it returned.
  if (body.tools.some((t: Json) => t.function.name === 'lookup_order')) {
    const returned = /caller tool lookup_order .* → success returned (.*?) —/.exec(text);
    if (!returned) return answer('lookup_order', { orderId: 'A-17' });
    return answer('done', { reasoning: 'the caller answered', summary: `The order is ${JSON.parse(returned[1]).status}.` });
  }
  const switchLine = text.split('\n').find((line) => /^\[\d+\] .* (un)?checked /.test(line));
  if (!switchLine) return answer('open_app', { reasoning: 'Wi-Fi lives in Settings', package: 'com.android.settings' });
  const index = Number(/^\[(\d+)\]/.exec(switchLine)![1]);
  if (/ unchecked /.test(switchLine)) return answer('tap', { reasoning: 'the Wi-Fi switch is off', element_index: index });
  return answer('done', { reasoning: 'the switch is on', summary: 'Wi-Fi is on.' });
}

describe('gateway with the LLM planner (local Chat Completions server)', () => {
  const seen: SeenRequest[] = [];
  let model: Server;
  let gateway: RunningGateway;
  const dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-llm-'));

  beforeAll(async () => {
    model = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (raw += chunk));
      req.on('end', () => {
        const body = JSON.parse(raw);
        res.writeHead(200, { 'content-type': 'application/json' });
        // The gateway summarises its sessions into memory when it stops: those requests keep nothing.
        if (isMemorySummaryRequest(body)) return void res.end(JSON.stringify(emptyMemorySummary()));
        seen.push({ headers: req.headers, body });
        res.end(JSON.stringify(decide(body)));
      });
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    gateway = await startGateway({
      MOBILECLAW_HTTP_PORT: '0',
      MOBILECLAW_DEVICE_PORT: '0',
      MOBILECLAW_DATA_DIR: dataDir,
      MOBILECLAW_LOG_LEVEL: 'silent',
      MOBILECLAW_LLM_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`,
      MOBILECLAW_LLM_API_KEY: 'sk-test-key',
      MOBILECLAW_LLM_MODEL: 'fake-vl',
      MOBILECLAW_LLM_VISION: 'true',
    });
    const devices = await SseClient.open(`http://127.0.0.1:${gateway.httpPort}/api/devices/events`);
    await devices.next((e) => e.event === 'device.connected' || (e.event === 'devices' && JSON.parse(e.data).devices.length > 0));
    devices.close();
  });

  afterAll(async () => {
    await gateway.close();
    model.closeAllConnections();
    await new Promise((resolve) => model.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('plans "Turn on Wi-Fi" with the model, sending it the elements and a downscaled screenshot', async () => {
    const res = await fetch(`http://127.0.0.1:${gateway.httpPort}/api/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ deviceId: 'sim-1', goal: 'Turn on Wi-Fi' }),
    });
    const { taskId } = (await res.json()) as Json;
    const stream = await SseClient.open(`http://127.0.0.1:${gateway.httpPort}/api/tasks/${taskId}/events`);
    await stream.ended;
    const task = (await (await fetch(`http://127.0.0.1:${gateway.httpPort}/api/tasks/${taskId}`)).json()) as Json;
    expect(task).toMatchObject({ status: 'completed', planner: 'llm:fake-vl', summary: 'Wi-Fi is on.', stepCount: 3 });
    expect(task.steps.map((s: Json) => s.plan.action?.command ?? s.plan.type)).toEqual(['open', 'click', 'done']);
    expect(gateway.simulator!.ui.state.wifi).toBe(true);

    expect(seen).toHaveLength(3);
    expect(seen[0].headers.authorization).toBe('Bearer sk-test-key');
    expect(seen[0].body.model).toBe('fake-vl');
    expect(seen[0].body.messages[0].role).toBe('system');
    const image = seen[0].body.messages.at(-1).content.find((p: Json) => p.type === 'image_url');
    expect(image.image_url.url.startsWith('data:image/jpeg;base64,')).toBe(true);
    // The 1080×2400 screen went to the model as a 576×1280 JPEG (long side ≤ 1280 px).
    const jpeg = Buffer.from(image.image_url.url.split(',')[1], 'base64');
    const sharp = (await import('sharp')).default;
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 576, height: 1280 });
    // The tap on the element went to its exact centre in device px.
    const tap = task.steps[1].plan;
    expect(tap.elementIndex).toEqual(expect.any(Number));
    expect(task.steps[1].result).toEqual({ status: 'success', verified: true });
  });

  it('offers the caller\'s tools to the model, pauses on its call of one, and shows the model the result', async () => {
    const lookupOrder = { name: 'lookup_order', description: 'Finds an order by its id.', inputSchema: { type: 'object', properties: { orderId: { type: 'string' } } }, kind: 'OBSERVATION' };
    const before = seen.length;
    const res = await fetch(`http://127.0.0.1:${gateway.httpPort}/api/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ deviceId: 'sim-1', goal: 'Tell me the status of order A-17', tools: [lookupOrder] }),
    });
    const { taskId } = (await res.json()) as Json;
    const stream = await SseClient.open(`http://127.0.0.1:${gateway.httpPort}/api/tasks/${taskId}/events`);
    const asked = JSON.parse((await stream.next((e) => e.event === 'task.input_required')).data).data;
    expect(asked).toStrictEqual({ toolCall: { toolCallId: `${taskId}:0`, name: 'lookup_order', arguments: { orderId: 'A-17' }, kind: 'OBSERVATION', stepIndex: 0 } });
    expect(seen[before].body.tools.find((t: Json) => t.function.name === 'lookup_order')).toStrictEqual({ type: 'function', function: { name: 'lookup_order', description: '[caller tool] (OBSERVATION) Finds an order by its id.', parameters: lookupOrder.inputSchema } });
    const answered = await fetch(`http://127.0.0.1:${gateway.httpPort}/api/tasks/${taskId}/tool-results`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ toolCallId: `${taskId}:0`, outcome: 'ok', result: { status: 'shipped' } }),
    });
    expect(answered.status).toBe(200);
    await stream.ended;
    const task = (await (await fetch(`http://127.0.0.1:${gateway.httpPort}/api/tasks/${taskId}`)).json()) as Json;
    expect(task).toMatchObject({ status: 'completed', summary: 'The order is shipped.', stepCount: 2 });
    expect(task.steps[0].plan).toMatchObject({ type: 'tool_call', name: 'lookup_order', arguments: { orderId: 'A-17' }, toolCallId: `${taskId}:0` });
  });
});

/**
 * The same gateway against endpoints that fail: each test sets how the local server answers. The LLM
 * requests have a 1 s deadline and no retries (MOBILECLAW_LLM_TIMEOUT_MS, MOBILECLAW_LLM_MAX_RETRIES), so a
 * hung model fails its step in a second instead of minutes.
 */
describe('gateway with the LLM planner against a failing endpoint', () => {
  let answer: (req: IncomingMessage, res: ServerResponse) => void;
  let requests = 0;
  let model: Server;
  let modelUrl: string;
  let gateway: RunningGateway;
  const dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-llm-failing-'));

  beforeAll(async () => {
    model = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        requests++;
        answer(req, res);
      });
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
    gateway = await startGateway({
      MOBILECLAW_HTTP_PORT: '0',
      MOBILECLAW_DEVICE_PORT: '0',
      MOBILECLAW_DATA_DIR: dataDir,
      MOBILECLAW_LOG_LEVEL: 'silent',
      MOBILECLAW_LLM_BASE_URL: modelUrl,
      MOBILECLAW_LLM_API_KEY: 'sk-test-key',
      MOBILECLAW_LLM_MODEL: 'fake-vl',
      MOBILECLAW_LLM_TIMEOUT_MS: '1000',
      MOBILECLAW_LLM_MAX_RETRIES: '0',
    });
    const devices = await SseClient.open(`http://127.0.0.1:${gateway.httpPort}/api/devices/events`);
    await devices.next((e) => e.event === 'device.connected' || (e.event === 'devices' && JSON.parse(e.data).devices.length > 0));
    devices.close();
  });

  beforeEach(() => (requests = 0));

  afterAll(async () => {
    await gateway.close();
    model.closeAllConnections();
    await new Promise((resolve) => model.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Runs a task to its end; returns the stored task and its events' types and data. */
  async function run(goal: string): Promise<{ task: Json; events: { event: string; data: Json }[] }> {
    const res = await fetch(`http://127.0.0.1:${gateway.httpPort}/api/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ deviceId: 'sim-1', goal }),
    });
    const { taskId } = (await res.json()) as Json;
    const stream = await SseClient.open(`http://127.0.0.1:${gateway.httpPort}/api/tasks/${taskId}/events`);
    await stream.ended;
    const task = (await (await fetch(`http://127.0.0.1:${gateway.httpPort}/api/tasks/${taskId}`)).json()) as Json;
    return { task, events: stream.events.map((e) => ({ event: e.event, data: JSON.parse(e.data).data })) };
  }

  it('fails a step whose model never answers after MOBILECLAW_LLM_TIMEOUT_MS, having reported the attempt', async () => {
    answer = () => undefined;
    const { task, events } = await run('Turn on Wi-Fi');
    expect(task).toMatchObject({ status: 'failed', error: { code: 'PLANNER_ERROR' } });
    // Under Jest, Node's fetch rejects with an error of another realm and the SDK reports the timeout as a
    // connection error (see realmFetch in the planner's own spec, which asserts the timeout wording); both
    // name the endpoint, the model and the single try.
    expect(task.error.message).toMatch(new RegExp(`^(LLM request to|cannot reach the LLM API at) ${modelUrl.replace(/[.]/g, '\\.')} \\(model fake-vl\\).*1 try`));
    expect(events.map((e) => e.event)).toEqual(['task.accepted', 'task.started', 'step.started', 'step.observed', 'step.planning', 'task.failed']);
    expect(events[4].data).toEqual({ index: 0, attempt: 1, maxAttempts: 3 });
    expect(requests).toBe(1);
  });

  it('fails at once with PLANNER_ERROR naming the endpoint when it answers 200 with an HTML page', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><head><title>Sign in</title></head><body>Sign in to the proxy</body></html>');
    };
    const { task, events } = await run('Turn on Wi-Fi');
    expect(task.status).toBe('failed');
    expect(task.error.code).toBe('PLANNER_ERROR');
    expect(task.error.message).toBe(
      `LLM API at ${modelUrl} (model fake-vl) answered HTTP 200 with text/html, not a Chat Completions response: "<html><head><title>Sign in</title></head><body>Sign in to the proxy</body></html>"`,
    );
    expect(task.error.message).not.toContain('sk-test-key');
    expect(events.filter((e) => e.event === 'step.planning')).toHaveLength(1);
    expect(requests).toBe(1);
  });

  it('names the status of a 502 error page', async () => {
    answer = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
    };
    const { task } = await run('Turn on Wi-Fi');
    expect(task.error).toEqual({
      code: 'PLANNER_ERROR',
      message: `LLM API at ${modelUrl} (model fake-vl) answered HTTP 502 with text/html, not a Chat Completions response: "<html><body><h1>502 Bad Gateway</h1></body></html>"`,
    });
    expect(requests).toBe(1);
  });
});
