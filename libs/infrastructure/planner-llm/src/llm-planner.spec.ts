import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { Logger } from '@nestjs/common';
import {
  MobileClawError,
  PlannerMetrics,
  toUiElements,
  type PlanningContext,
  type PlannerHistoryEntry,
  type TaskToolSpec,
  type UiNode,
} from '@mobileclaw/domain';
import { LlmPlanner } from './llm-planner';
import type { LlmPlannerOptions } from './llm-planner.options';

// ---------------------------------------------------------------------------------------------------------
// A local server speaking the Chat Completions wire format: one scripted reply per request, in order.
// ---------------------------------------------------------------------------------------------------------

interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  raw: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a wire body, asserted field by field
  body: any;
}

type Reply = (res: ServerResponse) => void;

class ChatCompletionsServer {
  readonly requests: RecordedRequest[] = [];
  private readonly replies: Reply[] = [];
  private readonly arrivals: Array<(request: RecordedRequest) => void> = [];
  private readonly server: Server;

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw) };
        this.requests.push(request);
        const reply = this.replies.shift();
        if (reply) reply(res);
        else json(res, 400, { error: { message: 'no reply scripted', type: 'test_error' } }, { 'x-should-retry': 'false' });
        this.arrivals.shift()?.(request);
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** Scripts the replies to the next requests, in order. */
  reply(...replies: Reply[]): void {
    this.replies.push(...replies);
  }

  /** Resolves when the next request has arrived and its reply (if any) was started. */
  nextRequest(): Promise<RecordedRequest> {
    return new Promise((resolve) => this.arrivals.push(resolve));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const MODEL = 'test-model-vl';
const created = 1_760_000_000;

interface Call {
  id: string;
  name: string;
  arguments: string;
}

const call = (id: string, name: string, args: Record<string, unknown> | string): Call => ({
  id,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});

/** A non-streamed `chat.completion` with the given tool calls (and optional text). */
const completion =
  (calls: Call[], content: string | null = null): Reply =>
  (res) =>
    json(res, 200, {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created,
      model: MODEL,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content,
            ...(calls.length > 0
              ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }
              : {}),
          },
          logprobs: null,
          finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
        },
      ],
      usage: { prompt_tokens: 900, completion_tokens: 40, total_tokens: 940 },
    });

const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-stream',
    object: 'chat.completion.chunk',
    created,
    model: MODEL,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  })}\n\n`;

/** A streamed (SSE) answer: one tool call whose arguments arrive in the given pieces. */
const streamed =
  (id: string, name: string, argumentPieces: string[]): Reply =>
  (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }] }));
    for (const piece of argumentPieces) res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
    res.write(chunk({}, 'tool_calls'));
    res.end('data: [DONE]\n\n');
  };

const httpError =
  (status: number, message: string, headers: Record<string, string> = {}): Reply =>
  (res) =>
    json(res, status, { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } }, headers);

/** A page that is not a completion (a proxy's error page, a wrong URL), with the given status. */
const htmlPage =
  (status: number, title: string, headers: Record<string, string> = {}): Reply =>
  (res) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(`<html>\n  <head><title>${title}</title></head>\n  <body><h1>${title}</h1></body>\n</html>\n`);
  };

/** Never answers: the request stays open until the client gives up. */
const hang: Reply = () => undefined;

/** Sends the SSE headers and a first chunk, then stays open. */
const stallingStream: Reply = (res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(chunk({ role: 'assistant', content: '' }));
};

// ---------------------------------------------------------------------------------------------------------
// A screen: 1080x2400, a real PNG screenshot, a login form with a password field.
// ---------------------------------------------------------------------------------------------------------

const SCREEN = { width: 1080, height: 2400, densityDpi: 420, rotation: 0 };
const PASSWORD = 'hunter2-S3cret';

const nodes: UiNode[] = [
  {
    id: '0',
    class: 'android.widget.FrameLayout',
    package: 'com.example.shop',
    bounds: [0, 0, 1080, 2400],
    children: [
      { id: '1', class: 'android.widget.TextView', text: 'Sign in', bounds: [40, 120, 1040, 220] },
      { id: '2', class: 'android.widget.EditText', text: 'alice@example.com', editable: true, clickable: true, bounds: [40, 300, 1040, 420] },
      { id: '3', class: 'android.widget.EditText', text: PASSWORD, password: true, editable: true, focused: true, clickable: true, bounds: [40, 460, 1040, 580] },
      { id: '4', class: 'android.widget.Button', text: 'Continue', clickable: true, bounds: [40, 700, 1040, 820] },
      { id: '5', class: 'android.widget.Switch', desc: 'Remember me', checkable: true, checked: true, clickable: true, bounds: [860, 900, 1040, 980] },
    ],
  },
];
const elements = toUiElements(nodes);

async function screenshotPng(width: number, height: number): Promise<string> {
  const bar = (top: number, h: number, color: string) => ({
    input: { create: { width: width - 80, height: h, channels: 3 as const, background: color } },
    left: 40,
    top,
  });
  const png = await sharp({ create: { width, height, channels: 3, background: '#fafafa' } })
    .composite([bar(300, 120, '#dddddd'), bar(460, 120, '#dddddd'), bar(700, 120, '#1a73e8')])
    .png()
    .toBuffer();
  return png.toString('base64');
}

const history: PlannerHistoryEntry[] = [
  {
    index: 0,
    decision: { type: 'action', action: { command: 'open', app: 'com.example.shop' }, reasoning: 'Open the shop app first.' },
    result: { status: 'success', verified: true },
  },
  {
    index: 1,
    decision: { type: 'action', action: { command: 'click', x: 540, y: 1200 }, reasoning: 'Tap the sign-in area.', elementIndex: 7 },
    result: { status: 'error', errorCode: 'STALE_FRAME', message: 'screen changed' },
  },
];

let server: ChatCompletionsServer;
let baseUrl: string;
let screenshot: string;

beforeAll(async () => {
  screenshot = await screenshotPng(SCREEN.width, SCREEN.height);
});

beforeEach(async () => {
  server = new ChatCompletionsServer();
  baseUrl = await server.start();
});

afterEach(async () => {
  await server.stop();
});

function planner(options: Partial<LlmPlannerOptions> = {}, dependencies: ConstructorParameters<typeof LlmPlanner>[1] = {}): LlmPlanner {
  return new LlmPlanner({ baseUrl, apiKey: 'sk-test-key', model: MODEL, vision: true, ...options }, dependencies);
}

/**
 * Jest runs tests in a vm realm, where Node's fetch rejects with a DOMException that is not `instanceof`
 * the realm's `Error`; the SDK then loses the `AbortError` name it tells a timeout by (outside Jest it
 * keeps it). This fetch re-creates such errors in the test realm, as a plain Node process has them.
 */
const realmFetch: typeof fetch = (input, init) =>
  fetch(input, init).catch((err: { name?: string; message?: string }) => {
    if (err instanceof Error) throw err;
    throw Object.assign(new Error(err.message), { name: err.name });
  });

function context(overrides: Partial<PlanningContext> = {}): PlanningContext {
  return {
    taskId: 'task-1',
    deviceId: 'pixel-7-01',
    goal: 'Sign in to the shop',
    stepIndex: 2,
    maxSteps: 25,
    observation: {
      frameId: 'frame-3',
      screen: SCREEN,
      elements,
      package: 'com.example.shop',
      screenshot: { mime: 'image/png', width: SCREEN.width, height: SCREEN.height, base64: screenshot },
    },
    history,
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function imageOf(request: RecordedRequest): Promise<{ width?: number; height?: number; format?: string }> {
  const part = request.body.messages[1].content.find((p: { type: string }) => p.type === 'image_url');
  const url: string = part.image_url.url;
  expect(url.startsWith('data:image/jpeg;base64,')).toBe(true);
  const { width, height, format } = await sharp(Buffer.from(url.slice('data:image/jpeg;base64,'.length), 'base64')).metadata();
  return { width, height, format };
}

const userText = (request: RecordedRequest): string => {
  const content = request.body.messages[1].content;
  return typeof content === 'string' ? content : content.find((p: { type: string }) => p.type === 'text').text;
};

// ---------------------------------------------------------------------------------------------------------

// The planner's request and answer lines are not what these tests read.
beforeAll(() => Logger.overrideLogger(false));

describe('LlmPlanner over the Chat Completions wire format', () => {
  it('is named after its model', () => {
    expect(planner().name).toBe(`llm:${MODEL}`);
  });

  it('sends the goal, history, elements and a downscaled JPEG, and maps the tapped image point to device px', async () => {
    server.reply(completion([call('call_1', 'tap', { x: 288, y: 640, reasoning: 'The Continue button is below the form.' })]));

    const decision = await planner().plan(context());

    // 288 * 1080/576 = 540, 640 * 2400/1280 = 1200
    expect(decision).toEqual({
      type: 'action',
      action: { command: 'click', x: 540, y: 1200 },
      reasoning: 'The Continue button is below the form.',
    });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test-key');
    expect(Object.keys(request.body).sort()).toEqual(['messages', 'model', 'tool_choice', 'tools']);
    expect(request.body.model).toBe(MODEL);
    expect(request.body.tool_choice).toBe('auto');
    expect(request.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      'tap',
      'long_press',
      'swipe',
      'type_text',
      'open_app',
      'back',
      'home',
      'done',
      'fail',
    ]);
    expect(request.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(request.body.messages[0].content).toContain('exactly one tool call');

    expect(await imageOf(request)).toEqual({ width: 576, height: 1280, format: 'jpeg' });
    expect(userText(request).split('\n')).toEqual([
      'Goal: Sign in to the shop',
      'Step 3 of at most 25.',
      '',
      'Steps so far (oldest first):',
      '#1 open_app com.example.shop → success (effect confirmed) — Open the shop app first.',
      '#2 tap (288,640) on element [7] of that screen → error STALE_FRAME: screen changed — Tap the sign-in area.',
      '',
      'Screen: 1080x2400 px; the attached screenshot is 576x1280 px.',
      "Coordinate space: the screenshot's pixels (x 0-575, y 0-1279, origin top-left). Element bounds below and any x/y you give are in this space.",
      'Foreground app: com.example.shop',
      '',
      'UI elements:',
      // Device bounds / 1.875: e.g. 300 → 160, 1040 → 555 (554.67).
      '[0] TextView "Sign in" (21,64,555,117)',
      '[1] EditText "alice@example.com" clickable editable (21,160,555,224)',
      '[2] EditText clickable editable password focused (21,245,555,309)',
      '[3] Button "Continue" clickable (21,373,555,437)',
      '[4] Switch desc="Remember me" clickable checked (459,480,555,523)',
    ]);
    expect(request.raw).not.toContain(PASSWORD);
  });

  it('keeps the long side of the image at maxImageSide for other sizes and orientations', async () => {
    const landscape = await screenshotPng(3200, 1440);
    server.reply(completion([call('call_1', 'tap', { x: 1023, y: 459, reasoning: 'corner' })]));

    const decision = await planner({ maxImageSide: 1024 }).plan(
      context({
        history: [],
        observation: {
          screen: { width: 3200, height: 1440 },
          elements: [],
          screenshot: { mime: 'image/png', width: 3200, height: 1440, base64: landscape },
        },
      }),
    );

    // 3200x1440 → 1024x461 (460.8 rounded); 1023 * 3200/1024 = 3196.875 → 3197, 459 * 1440/461 = 1433.75 → 1434
    expect(await imageOf(server.requests[0])).toEqual({ width: 1024, height: 461, format: 'jpeg' });
    expect(decision).toMatchObject({ action: { command: 'click', x: 3197, y: 1434 } });
    expect(userText(server.requests[0])).toContain('Steps so far: none.');
    expect(userText(server.requests[0])).toContain('UI elements: none found on this screen.');
  });

  it('with vision off sends text only, in device px, and no Authorization header without a key', async () => {
    server.reply(completion([call('call_1', 'tap', { element_index: 3, reasoning: 'Continue' })]));

    const decision = await planner({ vision: false, apiKey: undefined }).plan(context());

    expect(decision).toEqual({
      type: 'action',
      action: { command: 'click', x: 540, y: 760 },
      reasoning: 'Continue',
      elementIndex: 3,
    });
    const [request] = server.requests;
    expect(request.headers.authorization).toBeUndefined();
    expect(typeof request.body.messages[1].content).toBe('string');
    expect(request.raw).not.toContain('image_url');
    expect(request.raw).not.toContain('data:image');
    expect(userText(request)).toContain('Coordinate space: screen pixels (x 0-1079, y 0-2399, origin top-left)');
    expect(userText(request)).toContain('[3] Button "Continue" clickable (40,700,1040,820)');
    expect(userText(request)).toContain('#2 tap (540,1200) on element [7] of that screen');
    expect(request.raw).not.toContain(PASSWORD);
  });

  it('reads a streamed answer whose arguments are split across chunks', async () => {
    const args = JSON.stringify({ text: 'Hello 世界 👋', element_index: 2, reasoning: 'Type into the focused field.' });
    const pieces = [args.slice(0, 5), args.slice(5, 14), args.slice(14, 15), args.slice(15, 40), args.slice(40)];
    expect(pieces.join('')).toBe(args);
    server.reply(streamed('call_s1', 'type_text', pieces));

    const decision = await planner({ stream: true, temperature: 0.2 }).plan(context());

    expect(decision).toEqual({
      type: 'action',
      action: { command: 'input', text: 'Hello 世界 👋' },
      reasoning: 'Type into the focused field.',
      elementIndex: 2,
    });
    const [request] = server.requests;
    expect(request.body.stream).toBe(true);
    expect(request.body.temperature).toBe(0.2);
    expect(Object.keys(request.body).sort()).toEqual(['messages', 'model', 'stream', 'temperature', 'tool_choice', 'tools']);
  });

  it('sends the validation error back and succeeds on a later answer', async () => {
    server.reply(
      completion([call('call_bad1', 'tap', '{"element_index": 3, "reasoning": "Continue"')]),
      completion([call('call_bad2', 'tap', { element_index: 42, reasoning: 'Continue' })]),
      completion([call('call_ok', 'tap', { element_index: 3, reasoning: 'Continue' })]),
    );

    const decision = await planner().plan(context());

    expect(decision).toEqual({
      type: 'action',
      action: { command: 'click', x: 540, y: 760 },
      reasoning: 'Continue',
      elementIndex: 3,
    });
    expect(server.requests).toHaveLength(3);
    const [, second, third] = server.requests.map((r) => r.body.messages);
    expect(second.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(second[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_bad1', type: 'function', function: { name: 'tap', arguments: '{"element_index": 3, "reasoning": "Continue"' } }],
    });
    expect(second[3].tool_call_id).toBe('call_bad1');
    expect(second[3].content).toMatch(/^Error: arguments are not valid JSON \(.+\)/);
    expect(third.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(third[5]).toEqual({
      role: 'tool',
      tool_call_id: 'call_bad2',
      content:
        'Error: element_index: 42 is not the index of a listed element (listed: 0 to 4). Call one tool again with corrected arguments.',
    });
  });

  it('uses the first of several tool calls and answers every call id when it is rejected', async () => {
    server.reply(
      completion([call('call_a', 'tap', { x: 9999, y: 1, reasoning: 'r' }), call('call_b', 'back', { reasoning: 'r' })]),
      completion([call('call_c', 'tap', { element_index: 4, reasoning: 'Untick.' }), call('call_d', 'home', { reasoning: 'r' })]),
    );

    const decision = await planner().plan(context());

    expect(decision).toEqual({ type: 'action', action: { command: 'click', x: 950, y: 940 }, reasoning: 'Untick.', elementIndex: 4 });
    const messages = server.requests[1].body.messages;
    expect(messages[2].tool_calls.map((c: { id: string }) => c.id)).toEqual(['call_a', 'call_b']);
    expect(messages.slice(3)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_a',
        content: 'Error: x: must be an integer from 0 to 575 (px), got 9999. Call one tool again with corrected arguments.',
      },
      { role: 'tool', tool_call_id: 'call_b', content: 'Not run: only the first tool call of an answer is used.' },
    ]);
  });

  it('asks again after an answer without a tool call', async () => {
    server.reply(completion([], 'I would tap Continue.'), completion([call('call_1', 'back', { reasoning: 'Leave.' })]));

    const decision = await planner().plan(context());

    expect(decision).toEqual({ type: 'action', action: { command: 'back' }, reasoning: 'Leave.' });
    const messages = server.requests[1].body.messages;
    expect(messages.slice(2)).toEqual([
      { role: 'assistant', content: 'I would tap Continue.' },
      { role: 'user', content: 'Your answer had no tool call. Answer with exactly one tool call (one of the provided tools).' },
    ]);
  });

  it('fails the step with every reason when all answers are malformed', async () => {
    server.reply(
      completion([call('c1', 'tap', '{oops')]),
      completion([call('c2', 'tap', { element_index: 42, reasoning: 'r' })]),
      completion([call('c3', 'click', { reasoning: 'r' })]),
    );

    const failure = planner().plan(context());

    await expect(failure).rejects.toThrow(
      new RegExp(
        `^llm:${MODEL} gave no valid tool call in 3 answers — answer 1: tap: arguments are not valid JSON .*; ` +
          'answer 2: tap: element_index: 42 is not the index of a listed element \\(listed: 0 to 4\\); ' +
          'answer 3: click: unknown tool "click"; use one of tap, long_press, swipe, type_text, open_app, back, home, done, fail$',
      ),
    );
    await expect(failure).rejects.not.toBeInstanceOf(MobileClawError);
    expect(server.requests).toHaveLength(3);
  });

  it('retries a 429 after its retry-after and then succeeds', async () => {
    server.reply(
      httpError(429, 'Rate limit reached', { 'retry-after': '0' }),
      completion([call('call_1', 'home', { reasoning: 'Start from home.' })]),
    );

    const decision = await planner().plan(context());

    expect(decision).toEqual({ type: 'action', action: { command: 'home' }, reasoning: 'Start from home.' });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0].raw).toBe(server.requests[1].raw);
    expect(server.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1']);
  });

  it('reports each retried HTTP request and each answer asked for again to PlannerMetrics', async () => {
    const retries: string[] = [];
    const metrics = new (class extends PlannerMetrics {
      retried(reason: string): void {
        retries.push(reason);
      }
    })();
    server.reply(
      httpError(429, 'Rate limit reached', { 'retry-after': '0' }),
      httpError(503, 'Overloaded', { 'retry-after': '0' }),
      completion([], 'I would tap Continue.'),
      completion([call('call_1', 'back', { reasoning: 'Leave.' })]),
    );

    const decision = await planner({ maxRetries: 2 }, { metrics }).plan(context());

    expect(decision).toEqual({ type: 'action', action: { command: 'back' }, reasoning: 'Leave.' });
    expect(server.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2', '0']);
    expect(retries).toEqual(['http', 'http', 'invalid_answer']);
  });

  it('waits the retry-after a 429 asks for', async () => {
    server.reply(
      httpError(429, 'Rate limit reached', { 'retry-after': '1' }),
      completion([call('call_1', 'home', { reasoning: 'Start from home.' })]),
    );
    const started = performance.now();

    await expect(planner().plan(context())).resolves.toMatchObject({ action: { command: 'home' } });

    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(server.requests).toHaveLength(2);
  });

  it('names the HTTP status when a 500 persists through the retries', async () => {
    const overloaded = httpError(500, 'upstream overloaded', { 'retry-after': '0' });
    server.reply(overloaded, overloaded, overloaded);

    await expect(planner({ maxRetries: 2 }).plan(context())).rejects.toThrow(
      `LLM API at ${baseUrl} (model ${MODEL}) answered HTTP 500 after 3 tries: 500 upstream overloaded`,
    );
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400 and names it', async () => {
    server.reply(httpError(400, 'image_url is not supported by this model'));

    await expect(planner().plan(context())).rejects.toThrow(
      `LLM API at ${baseUrl} (model ${MODEL}) answered HTTP 400: 400 image_url is not supported by this model`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('turns done and fail calls into done and fail decisions', async () => {
    server.reply(
      completion([call('call_d', 'done', { summary: 'Signed in as Alice.', reasoning: 'The account page shows.' })]),
      completion([call('call_f', 'fail', { reason: 'The password is unknown.', reasoning: 'A password is required.' })]),
    );
    const llm = planner();

    await expect(llm.plan(context())).resolves.toEqual({
      type: 'done',
      summary: 'Signed in as Alice.',
      reasoning: 'The account page shows.',
    });
    await expect(llm.plan(context())).resolves.toEqual({
      type: 'fail',
      reason: 'The password is unknown.',
      reasoning: 'A password is required.',
    });
  });

  it('carries the approval the model asks for', async () => {
    server.reply(
      completion([
        call('call_1', 'tap', { element_index: 3, reasoning: 'Confirm.', needs_approval: true, approval_reason: 'Pays 25 EUR.' }),
      ]),
    );
    await expect(planner().plan(context())).resolves.toMatchObject({ elementIndex: 3, approval: { reason: 'Pays 25 EUR.' } });
  });

  it('aborts the in-flight request when the signal fires', async () => {
    server.reply(hang);
    const controller = new AbortController();
    const arrived = server.nextRequest();

    const planning = planner().plan(context({ signal: controller.signal }));
    await arrived;
    controller.abort(new MobileClawError('ABORTED', 'task canceled by the user'));

    await expect(planning).rejects.toMatchObject({ code: 'ABORTED', message: 'task canceled by the user' });
    await expect(planning).rejects.toBeInstanceOf(MobileClawError);
  });

  it('aborts a stream in progress', async () => {
    server.reply(stallingStream);
    const controller = new AbortController();
    const arrived = server.nextRequest();

    const planning = planner({ stream: true }).plan(context({ signal: controller.signal }));
    await arrived;
    controller.abort();

    await expect(planning).rejects.toMatchObject({ code: 'ABORTED', message: 'planning was aborted' });
  });

  it('sends nothing when the signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(planner().plan(context({ signal: controller.signal }))).rejects.toMatchObject({ code: 'ABORTED' });
    expect(server.requests).toHaveLength(0);
  });

  it('names the timeout when the server does not answer in time', async () => {
    server.reply(hang);
    await expect(planner({ timeoutMs: 150, maxRetries: 0 }, { fetch: realmFetch }).plan(context())).rejects.toThrow(
      `LLM request to ${baseUrl} (model ${MODEL}) timed out after 150 ms (1 try)`,
    );
  });

  it('names a stalled stream', async () => {
    server.reply(stallingStream);
    await expect(planner({ stream: true, timeoutMs: 150, maxRetries: 0 }).plan(context())).rejects.toThrow(
      `LLM stream from ${baseUrl} stalled: no data for 150 ms`,
    );
  });
  it('fails at once, naming the endpoint and the status, when a 200 answer is an HTML page, not a completion', async () => {
    server.reply(htmlPage(200, 'Sign in to the proxy'), completion([call('call_1', 'home', { reasoning: 'never asked for' })]));

    const failure = planner().plan(context());

    await expect(failure).rejects.toThrow(
      `LLM API at ${baseUrl} (model ${MODEL}) answered HTTP 200 with text/html, not a Chat Completions response: ` +
        '"<html> <head><title>Sign in to the proxy</title></head> <body><h1>Sign in to the proxy</h1></body> </html>"',
    );
    await expect(failure).rejects.not.toBeInstanceOf(MobileClawError);
    // Not fed back to the model as a malformed answer: one request only.
    expect(server.requests).toHaveLength(1);
  });

  it('names the endpoint and the status when a JSON answer does not parse, or is an error or another shape', async () => {
    server.reply(
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id": "chatcmpl-1", "choices": [');
      },
      (res) => json(res, 200, { error: { message: 'quota exceeded for this key', type: 'insufficient_quota' } }),
      (res) => json(res, 200, { result: 'ok' }),
    );

    await expect(planner().plan(context())).rejects.toThrow(
      `LLM API at ${baseUrl} (model ${MODEL}) answered HTTP 200 with application/json, not a Chat Completions response: "{\\"id\\": \\"chatcmpl-1\\", \\"choices\\": ["`,
    );
    await expect(planner().plan(context())).rejects.toThrow(
      `LLM API at ${baseUrl} (model ${MODEL}) answered HTTP 200 with an error instead of a completion: quota exceeded for this key`,
    );
    await expect(planner().plan(context())).rejects.toThrow(
      `LLM API at ${baseUrl} (model ${MODEL}) answered HTTP 200 with application/json, not a Chat Completions response: "{\\"result\\":\\"ok\\"}"`,
    );
    expect(server.requests).toHaveLength(3);
  });

  it('names the status of an HTML error page, retried as the status allows', async () => {
    server.reply(htmlPage(502, '502 Bad Gateway'));
    await expect(planner({ maxRetries: 0 }).plan(context())).rejects.toThrow(
      new RegExp(`^LLM API at ${baseUrl} \\(model ${MODEL}\\) answered HTTP 502 with text/html, not a Chat Completions response: "<html> <head><title>502 Bad Gateway`),
    );
    expect(server.requests).toHaveLength(1);

    server.reply(htmlPage(502, '502 Bad Gateway', { 'retry-after-ms': '0' }), htmlPage(502, '502 Bad Gateway', { 'retry-after-ms': '0' }));
    await expect(planner({ maxRetries: 1 }).plan(context())).rejects.toThrow(
      `LLM API at ${baseUrl} (model ${MODEL}) answered HTTP 502 after 2 tries with text/html, not a Chat Completions response`,
    );
    expect(server.requests).toHaveLength(3);

    server.reply(htmlPage(404, '404 Not Found'));
    await expect(planner().plan(context())).rejects.toThrow(`answered HTTP 404 with text/html, not a Chat Completions response: "<html>`);
    expect(server.requests).toHaveLength(4);
  });

  it('fails at once when a streamed request is answered with an HTML page', async () => {
    server.reply(htmlPage(200, 'Sign in to the proxy'));
    await expect(planner({ stream: true }).plan(context())).rejects.toThrow(
      `LLM API at ${baseUrl} (model ${MODEL}) answered HTTP 200 with text/html, not a Chat Completions response: "<html>`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('reports each answer it requests through onProgress, before the request', async () => {
    server.reply(
      completion([call('c1', 'tap', '{oops')]),
      completion([], 'no tool'),
      completion([call('c3', 'back', { reasoning: 'Leave.' })]),
    );
    const reported: { attempt: number; maxAttempts: number; requestsBefore: number }[] = [];

    await planner().plan(context({ onProgress: (progress) => reported.push({ ...progress, requestsBefore: server.requests.length }) }));

    expect(reported).toEqual([
      { attempt: 1, maxAttempts: 3, requestsBefore: 0 },
      { attempt: 2, maxAttempts: 3, requestsBefore: 1 },
      { attempt: 3, maxAttempts: 3, requestsBefore: 2 },
    ]);
  });
});

describe('LlmPlanner with the caller\'s tools', () => {
  const lookupOrder = {
    name: 'lookup_order',
    description: 'Finds an order by its id.',
    inputSchema: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'], additionalProperties: false },
    kind: 'OBSERVATION' as const,
  };

  it('offers them as functions beside the phone\'s tools, and decodes a call of one to a tool_call', async () => {
    server.reply(completion([call('call_1', 'lookup_order', { orderId: 'A-17' })], 'The goal needs the order first.'));
    const decision = await planner({ vision: false }).plan(context({ tools: [lookupOrder] }));
    expect(decision).toEqual({ type: 'tool_call', name: 'lookup_order', arguments: { orderId: 'A-17' }, reasoning: 'The goal needs the order first.' });
    const request = server.requests[0];
    const offered = request.body.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(offered).toEqual(['tap', 'long_press', 'swipe', 'type_text', 'open_app', 'back', 'home', 'done', 'fail', 'lookup_order']);
    expect(request.body.tools.at(-1)).toEqual({
      type: 'function',
      function: { name: 'lookup_order', description: '[caller tool] (OBSERVATION) Finds an order by its id.', parameters: lookupOrder.inputSchema },
    });
    expect(request.body.messages[0].content).toContain('Tools marked [caller tool] belong to the user\'s own system');
    expect(userText(request)).toContain('Caller tools (run by the user\'s system, not on the phone):\n- lookup_order (OBSERVATION): Finds an order by its id.');
  });

  it('sends arguments that are not a JSON object back to the model, and names the caller\'s tools among the known ones', async () => {
    server.reply(
      completion([call('call_1', 'lookup_order', '["A-17"]')]),
      completion([call('call_2', 'lookup_ordr', { orderId: 'A-17' })]),
      completion([call('call_3', 'lookup_order', { orderId: 'A-17' })]),
    );
    const decision = await planner({ vision: false }).plan(context({ tools: [lookupOrder] }));
    expect(decision).toEqual({ type: 'tool_call', name: 'lookup_order', arguments: { orderId: 'A-17' }, reasoning: 'call the caller\'s tool lookup_order' });
    expect(server.requests[1].body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'Error: arguments must be a JSON object, got ["A-17"]. Call one tool again with corrected arguments.' });
    expect(server.requests[2].body.messages.at(-1).content).toBe(
      'Error: unknown tool "lookup_ordr"; use one of tap, long_press, swipe, type_text, open_app, back, home, done, fail, lookup_order. Call one tool again with corrected arguments.',
    );
  });

  it('shows a tool call\'s result, rejection or timeout in the history', async () => {
    server.reply(completion([call('call_1', 'done', { summary: 'Order A-17 shipped.', reasoning: 'The tool said so.' })]));
    const decision = { type: 'tool_call' as const, name: 'lookup_order', arguments: { orderId: 'A-17' }, reasoning: 'need the order', toolCallId: 'task-1:0' };
    await planner({ vision: false }).plan(
      context({
        tools: [lookupOrder],
        history: [
          { index: 0, decision, result: { status: 'success', output: { status: 'shipped', items: 2 } } },
          { index: 1, decision, result: { status: 'denied', message: 'the user declined' } },
          { index: 2, decision, result: { status: 'error', errorCode: 'TOOL_RESULT_TIMEOUT', message: 'no answer within 1000 ms' } },
        ],
      }),
    );
    const text = userText(server.requests[0]);
    expect(text).toContain('#1 caller tool lookup_order {"orderId":"A-17"} → success returned {"status":"shipped","items":2} — need the order');
    expect(text).toContain('#2 caller tool lookup_order {"orderId":"A-17"} → denied: the user declined — need the order');
    expect(text).toContain('#3 caller tool lookup_order {"orderId":"A-17"} → error TOOL_RESULT_TIMEOUT: no answer within 1000 ms — need the order');
  });
});

describe("LlmPlanner with the gateway's tools", () => {
  const spec = (name: string, overrides: Partial<TaskToolSpec> = {}): TaskToolSpec => ({
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
    kind: 'OBSERVATION',
    mode: 'REMOTE_PROXY',
    source: 'catalog:erp',
    eligibility: { eligible: true, missing: [] },
    available: true,
    needsApproval: false,
    ...overrides,
  });
  const weather = spec('lookup_weather', { mode: 'AGENT_SESSION', source: 'agent:weather' });
  const refund = spec('refund_order', { kind: 'ACTION', needsApproval: true, eligibility: { eligible: false, missing: ['env:ERP_TOKEN'] }, available: false });
  const booking = spec('book_table', { mode: 'SKILL', source: 'skills:workspace', inputSchema: { type: 'object', properties: {} } });
  const lookupOrder = { name: 'lookup_order', description: 'Finds an order.', inputSchema: { type: 'object' }, kind: 'OBSERVATION' as const };

  it('offers them as marked functions beside the phone and caller tools, a clashing name left to those, and decodes a call', async () => {
    server.reply(completion([call('call_1', 'lookup_weather', { city: 'Oslo' })]));
    const gatewayTools = [weather, refund, spec('Tap'), spec('lookup_order')];
    const decision = await planner({ vision: false }).plan(context({ tools: [lookupOrder], gatewayTools }));
    expect(decision).toEqual({ type: 'tool_call', name: 'lookup_weather', arguments: { city: 'Oslo' }, reasoning: 'call the gateway tool lookup_weather' });
    const request = server.requests[0];
    const offered = request.body.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(offered).toEqual(['tap', 'long_press', 'swipe', 'type_text', 'open_app', 'back', 'home', 'done', 'fail', 'lookup_order', 'lookup_weather', 'refund_order']);
    expect(request.body.tools.at(-2).function).toEqual({ name: 'lookup_weather', description: '[gateway tool] (OBSERVATION, AGENT_SESSION) The lookup_weather tool.', parameters: weather.inputSchema });
    expect(request.body.tools.at(-1).function.description).toBe(
      '[gateway tool] (ACTION, REMOTE_PROXY; a person approves each call first; may fail: missing env:ERP_TOKEN; unavailable now: a call fails until its source is back) The refund_order tool.',
    );
    expect(request.body.messages[0].content).toContain('Tools marked [gateway tool] are run by the gateway');
    expect(userText(request)).toContain('Gateway tools (run by the gateway, not on the phone):\n- lookup_weather (OBSERVATION, AGENT_SESSION): The lookup_weather tool.');
    expect(userText(request)).toContain('- refund_order (ACTION, REMOTE_PROXY; a person approves each call first; may fail: missing env:ERP_TOKEN;');
  });

  it('shows results in the history, an unverified one marked so, never as the tool’s result', async () => {
    server.reply(completion([call('call_1', 'done', { summary: 'Snow in Oslo.', reasoning: 'The tool said so.' })]));
    const decision = { type: 'tool_call' as const, name: 'lookup_weather', arguments: { city: 'Oslo' }, reasoning: 'need the weather', toolCallId: 'task-1:0', gatewayTool: { source: 'agent:weather', kind: 'OBSERVATION' as const, mode: 'AGENT_SESSION' as const } };
    await planner({ vision: false }).plan(
      context({
        gatewayTools: [weather],
        history: [
          { index: 0, decision, result: { status: 'success', output: { forecast: 'snow' }, message: 'Oslo: snow' } },
          { index: 1, decision, result: { status: 'success', output: 'Probably snowing.', message: 'Probably snowing.', verified: false } },
          { index: 2, decision, result: { status: 'error', errorCode: 'TOOL_UNAVAILABLE', message: 'the agent is down' } },
          { index: 3, decision, result: { status: 'denied', message: 'a person denied the call of lookup_weather' } },
        ],
      }),
    );
    const text = userText(server.requests[0]);
    expect(text).toContain('#1 gateway tool lookup_weather {"city":"Oslo"} → success returned Oslo: snow — need the weather');
    expect(text).toContain(
      "#2 gateway tool lookup_weather {\"city\":\"Oslo\"} → success returned Probably snowing. (UNVERIFIED: the answer shows no sign that the tool itself ran; do not take it as the tool's result) — need the weather",
    );
    expect(text).toContain('#3 gateway tool lookup_weather {"city":"Oslo"} → error TOOL_UNAVAILABLE: the agent is down — need the weather');
    expect(text).toContain('#4 gateway tool lookup_weather {"city":"Oslo"} → denied: a person denied the call of lookup_weather — need the weather');
  });

  it("puts an activated skill's instructions in the conversation as the result of its call", async () => {
    server.reply(completion([call('call_1', 'open_app', { package: 'com.example.booking', reasoning: 'The skill says to open the app.' })]));
    const activation = { type: 'tool_call' as const, name: 'book_table', arguments: {}, reasoning: 'there is a skill for this', toolCallId: 'task-1:0', gatewayTool: { source: 'skills:workspace', kind: 'OBSERVATION' as const, mode: 'SKILL' as const } };
    const instructions = '1. Open com.example.booking.\n2. Tap "Reserve".';
    const decision = await planner({ vision: false }).plan(
      context({ gatewayTools: [booking], history: [{ index: 0, decision: activation, result: { status: 'success', output: { name: 'book_table', body: instructions }, message: instructions } }] }),
    );
    expect(decision).toEqual({ type: 'action', action: { command: 'open', app: 'com.example.booking' }, reasoning: 'The skill says to open the app.' });
    const messages = server.requests[0].body.messages;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(messages[2]).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'call_skill_0', type: 'function', function: { name: 'book_table', arguments: '{}' } }] });
    expect(messages[3]).toEqual({
      role: 'tool',
      tool_call_id: 'call_skill_0',
      content: `Instructions of skill book_table, activated at step #1: follow them with the phone's tools, one step at a time.\n\n${instructions}`,
    });
    expect(userText(server.requests[0])).toContain("#1 gateway tool book_table {} → success: the skill's instructions are in the tool result of this call below — there is a skill for this");
    expect(server.requests[0].body.tools.at(-1).function.description).toBe("[gateway tool] (OBSERVATION, SKILL; returns the skill's instructions, to follow with the phone's tools) The book_table tool.");
  });
});
