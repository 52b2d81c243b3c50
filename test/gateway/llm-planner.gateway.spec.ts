import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type RunningGateway } from '@mobileclaw/gateway';
import { SseClient } from '../support/sse-client';

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
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'fake-vl',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: JSON.stringify(args) } }] },
        finish_reason: 'tool_calls',
      },
    ],
    usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
  };
}

function decide(body: Json): Json {
  const user = body.messages.filter((m: Json) => m.role === 'user').pop();
  const text: string = typeof user.content === 'string' ? user.content : user.content.find((p: Json) => p.type === 'text').text;
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
        seen.push({ headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'application/json' });
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
});
