import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { MobileClawError, type SessionTurn } from '@mobileclaw/domain';
import { LlmMemorySummarizer, MAX_MEMORIES_PER_ANSWER, type LlmMemorySummarizerOptions } from './llm-memory-summarizer';
import { ORGANIZE_SYSTEM_PROMPT, SUMMARIZE_SYSTEM_PROMPT } from './llm-memory-summarizer.prompt';

// ---------------------------------------------------------------------------------------------------------
// A local server speaking the Chat Completions wire format: one scripted reply per request, in order.
// ---------------------------------------------------------------------------------------------------------

interface RecordedRequest {
  url: string;
  headers: IncomingHttpHeaders;
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
        const request = { url: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
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

  reply(...replies: Reply[]): void {
    this.replies.push(...replies);
  }

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

const MODEL = 'test-model';

/** A `chat.completion` whose message content is `content` (a value is sent as its JSON text). */
const answer =
  (content: unknown): Reply =>
  (res) =>
    json(res, 200, {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 1_760_000_000,
      model: MODEL,
      choices: [{ index: 0, message: { role: 'assistant', content: typeof content === 'string' || content === null ? content : JSON.stringify(content) }, logprobs: null, finish_reason: 'stop' }],
    });

const httpError =
  (status: number, message: string): Reply =>
  (res) =>
    json(res, status, { error: { message, type: 'invalid_request_error', param: null, code: null } });

const hang: Reply = () => undefined;

/** See llm-planner.spec.ts: re-creates fetch failures in Jest's realm, so the SDK tells a timeout by its name. */
const realmFetch: typeof fetch = (input, init) =>
  fetch(input, init).catch((err: { name?: string; message?: string }) => {
    if (err instanceof Error) throw err;
    throw Object.assign(new Error(err.message), { name: err.name });
  });

async function failure(work: Promise<unknown>): Promise<MobileClawError> {
  try {
    await work;
  } catch (err) {
    if (err instanceof MobileClawError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

const TURNS: SessionTurn[] = [
  { role: 'user', text: 'Remember that mom is Alice', at: '2026-12-02T10:00:00.000Z', taskId: 'task-1' },
  { role: 'assistant', text: 'memory_store "mom is Alice"', at: '2026-12-02T10:00:02.000Z', taskId: 'task-1' },
  { role: 'tool', text: 'ok', at: '2026-12-02T10:00:03.000Z', taskId: 'task-1' },
];

let server: ChatCompletionsServer;
let baseUrl: string;

beforeAll(() => Logger.overrideLogger(false));

beforeEach(async () => {
  server = new ChatCompletionsServer();
  baseUrl = await server.start();
});

afterEach(async () => {
  await server.stop();
});

const summarizer = (options: Partial<LlmMemorySummarizerOptions> = {}, dependencies = {}) =>
  new LlmMemorySummarizer({ baseUrl, apiKey: 'sk-test-key', model: MODEL, maxRetries: 0, ...options }, dependencies);

describe('LlmMemorySummarizer', () => {
  it('is named after its model', () => {
    expect(summarizer().name).toBe('llm:test-model');
  });

  describe('summarize', () => {
    it('sends the rules and the turns, asks for a JSON object, and returns the memories with priorities clamped to 1–7', async () => {
      server.reply(
        answer({
          memories: [
            { text: ' The user\'s mother is Alice. ', category: 'contact', priority: 6 },
            { text: 'Asked to remember a contact', category: 'Task Note', priority: 0 },
            { text: 'Mom is Alice — important!', category: 'fact', priority: 9 },
            { text: 'The user prefers tea', priority: '7' },
            { text: 'minor', category: 'fact', priority: 2.4, extra: 'ignored' },
          ],
        }),
      );
      const memories = await summarizer({ temperature: 0.2 }).summarize(TURNS);
      expect(memories).toEqual([
        { text: "The user's mother is Alice.", category: 'contact', priority: 6 },
        { text: 'Asked to remember a contact', category: 'task_note', priority: 1 },
        { text: 'Mom is Alice — important!', category: 'fact', priority: 7 },
        { text: 'The user prefers tea', category: 'fact', priority: 7 },
        { text: 'minor', category: 'fact', priority: 2 },
      ]);
      const [request] = server.requests;
      expect(request.url).toBe('/v1/chat/completions');
      expect(request.headers.authorization).toBe('Bearer sk-test-key');
      expect(request.body).toEqual({
        model: MODEL,
        temperature: 0.2,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: SUMMARIZE_SYSTEM_PROMPT },
          {
            role: 'user',
            content:
              'Session turns, oldest first:\n' +
              '[2026-12-02T10:00:00.000Z] user: Remember that mom is Alice\n' +
              '[2026-12-02T10:00:02.000Z] assistant: memory_store "mom is Alice"\n' +
              '[2026-12-02T10:00:03.000Z] tool: ok\n\n' +
              'Answer with the JSON object of the memories worth keeping.',
          },
        ],
      });
      expect(SUMMARIZE_SYSTEM_PROMPT).toMatch(/priority from 1 to 7/);
      expect(SUMMARIZE_SYSTEM_PROMPT).toMatch(/Never keep secrets/);
    });

    it('drops blank and repeated texts, cuts long ones, and keeps at most 50', async () => {
      const many = Array.from({ length: 60 }, (_, i) => ({ text: `memory ${i}`, category: 'fact', priority: 3 }));
      server.reply(
        answer({ memories: [{ text: '  ', priority: 5 }, { text: 'Mom is Alice', priority: 5 }, { text: 'mom   IS alice', priority: 6 }, { text: 'x'.repeat(4100), priority: 5 }] }),
        answer({ memories: many }),
      );
      expect(await summarizer().summarize(TURNS)).toEqual([
        { text: 'Mom is Alice', category: 'fact', priority: 5 },
        { text: 'x'.repeat(4000), category: 'fact', priority: 5 },
      ]);
      const kept = await summarizer().summarize(TURNS);
      expect(kept).toHaveLength(MAX_MEMORIES_PER_ANSWER);
      expect(kept.at(-1)).toEqual({ text: 'memory 49', category: 'fact', priority: 3 });
    });

    it('answers no turns with no memories, without a request', async () => {
      expect(await summarizer().summarize([])).toEqual([]);
      expect(server.requests).toEqual([]);
    });

    it('reads JSON in a code fence or after a sentence, and a bare list', async () => {
      server.reply(
        answer('Here you go:\n```json\n{"memories": [{"text": "Mom is Alice", "category": "contact", "priority": 6}]}\n```'),
        answer('[{"text": "Office Wi-Fi is ACME-5G", "category": "fact", "priority": 5}]'),
      );
      expect(await summarizer().summarize(TURNS)).toEqual([{ text: 'Mom is Alice', category: 'contact', priority: 6 }]);
      expect(await summarizer().summarize(TURNS)).toEqual([{ text: 'Office Wi-Fi is ACME-5G', category: 'fact', priority: 5 }]);
    });

    it('sends a bad answer back with the reason and uses the next good one', async () => {
      server.reply(answer('I could not decide.'), answer({ memories: [{ text: 42 }] }), answer({ memories: [{ text: 'Mom is Alice', category: 'contact', priority: 6 }] }));
      expect(await summarizer().summarize(TURNS)).toEqual([{ text: 'Mom is Alice', category: 'contact', priority: 6 }]);
      expect(server.requests).toHaveLength(3);
      const third = server.requests[2].body.messages;
      expect(third.slice(2)).toEqual([
        { role: 'assistant', content: 'I could not decide.' },
        { role: 'user', content: 'That answer was not usable: it was not JSON. Answer again with only the JSON object {"memories": [{"text": "…", "category": "…", "priority": …}]}.' },
        { role: 'assistant', content: '{"memories":[{"text":42}]}' },
        { role: 'user', content: expect.stringMatching(/^That answer was not usable: memories\.0\.text: .+\. Answer again with only the JSON object/) },
      ]);
    });

    it('fails with PLANNER_ERROR after 3 unusable answers, naming each', async () => {
      server.reply(answer(null), answer({ notes: [] }), answer('{"memories": "none"'));
      const error = await failure(summarizer().summarize(TURNS));
      expect(error.code).toBe('PLANNER_ERROR');
      expect(error.message).toMatch(/^llm:test-model gave no usable memory answer in 3 answers — answer 1: it was empty; answer 2: memories: .+; answer 3: it was not JSON$/);
      expect(server.requests).toHaveLength(3);
    });

    it('asks without response_format from then on when the endpoint refuses it', async () => {
      server.reply(httpError(400, "Unrecognized request argument supplied: response_format"), answer({ memories: [] }), answer({ memories: [] }));
      const instance = summarizer();
      expect(await instance.summarize(TURNS)).toEqual([]);
      expect(await instance.summarize(TURNS)).toEqual([]);
      expect(server.requests.map((request) => request.body.response_format)).toEqual([{ type: 'json_object' }, undefined, undefined]);
    });
  });

  describe('organize', () => {
    const DAYS = [
      { day: '2026-11-30', text: '# 2026-11-30\n\n## 09:00 · fact · p5\n\nThe user is a nurse at St. Mary\'s.\n' },
      { day: '2026-12-01', text: '   ' },
      { day: '2026-12-02', text: `# 2026-12-02\n\n## 10:00 · task · p3\n\nBuy milk\n\n${'x'.repeat(4000)}` },
    ];

    it('sends the strict rules and the non-blank days, and keeps only priority 9 and 10', async () => {
      server.reply(
        answer({
          memories: [
            { text: 'The user is a nurse at St. Mary\'s.', category: 'fact', priority: 9 },
            { text: 'Buy milk', category: 'task', priority: 4 },
            { text: 'The user prefers tea', category: 'preference', priority: 12 },
            { text: 'No priority given', category: 'fact' },
            { text: 'Nearly lasting', category: 'fact', priority: 8.4 },
            { text: 'Rounded up', category: 'fact', priority: 8.6 },
          ],
        }),
      );
      expect(await summarizer().organize(DAYS)).toEqual([
        { text: "The user is a nurse at St. Mary's.", category: 'fact', priority: 9 },
        { text: 'The user prefers tea', category: 'preference', priority: 10 },
        { text: 'Rounded up', category: 'fact', priority: 9 },
      ]);
      const { messages } = server.requests[0].body;
      expect(messages[0]).toEqual({ role: 'system', content: ORGANIZE_SYSTEM_PROMPT });
      expect(messages[1].content).toBe(
        'Daily memory notes, oldest first:\n\n' +
          "=== 2026-11-30 ===\n# 2026-11-30\n\n## 09:00 · fact · p5\n\nThe user is a nurse at St. Mary's.\n\n" +
          `=== 2026-12-02 ===\n${`# 2026-12-02\n\n## 10:00 · task · p3\n\nBuy milk\n\n${'x'.repeat(4000)}`.slice(0, 3000)}…\n\n` +
          'Answer with the JSON object of the lasting memories.',
      );
      expect(ORGANIZE_SYSTEM_PROMPT).toMatch(/better nothing than noise/);
      expect(ORGANIZE_SYSTEM_PROMPT).toMatch(/Do NOT keep day-to-day conversation, temporary or finished tasks, or one-off information/);
    });

    it('answers blank days with no memories, without a request', async () => {
      expect(await summarizer().organize([])).toEqual([]);
      expect(await summarizer().organize([{ day: '2026-12-01', text: '\n ' }])).toEqual([]);
      expect(server.requests).toEqual([]);
    });
  });

  describe('endpoint failures', () => {
    it('maps an HTTP error to PLANNER_ERROR naming the endpoint and status, never the key', async () => {
      server.reply(httpError(401, 'Incorrect API key provided: sk-test-key'));
      const error = await failure(summarizer().summarize(TURNS));
      expect(error.code).toBe('PLANNER_ERROR');
      expect(error.message).toBe(`LLM API at ${baseUrl} (model test-model) answered HTTP 401: 401 Incorrect API key provided: [API key]`);
    });

    it('maps an answer that is not a completion to PLANNER_ERROR', async () => {
      server.reply((res) => json(res, 200, { hello: 'world' }));
      const error = await failure(summarizer().summarize(TURNS));
      expect(error.code).toBe('PLANNER_ERROR');
      expect(error.message).toBe(`LLM API at ${baseUrl} (model test-model) answered something that is not a Chat Completions response`);
    });

    it('maps an unreachable endpoint to PLANNER_ERROR', async () => {
      await server.stop();
      const error = await failure(summarizer().summarize(TURNS));
      server = new ChatCompletionsServer();
      await server.start();
      expect(error.code).toBe('PLANNER_ERROR');
      expect(error.message).toMatch(/^cannot reach the LLM API at http:\/\/127\.0\.0\.1:\d+\/v1 \(model test-model\) after 1 try/);
    });

    it('maps a request that outlives timeoutMs to TIMEOUT', async () => {
      server.reply(hang);
      const error = await failure(summarizer({ timeoutMs: 50 }, { fetch: realmFetch }).summarize(TURNS));
      expect(error.code).toBe('TIMEOUT');
      expect(error.message).toBe(`LLM request to ${baseUrl} (model test-model) timed out after 50 ms (1 try)`);
    });

    it('maps an aborted signal to ABORTED, before or during the request', async () => {
      const before = new AbortController();
      before.abort(new Error('flush canceled'));
      expect(await failure(summarizer().organize([{ day: '2026-12-01', text: 'x' }], before.signal))).toMatchObject({ code: 'ABORTED', message: 'flush canceled' });
      expect(server.requests).toEqual([]);

      server.reply(hang);
      const during = new AbortController();
      const arrived = server.nextRequest();
      const asking = summarizer().summarize(TURNS, during.signal);
      await arrived;
      during.abort(new Error('the gateway is shutting down'));
      expect(await failure(asking)).toMatchObject({ code: 'ABORTED', message: 'the gateway is shutting down' });
    });

    it('rejects bad options with RangeError', () => {
      expect(() => new LlmMemorySummarizer({ baseUrl: 'not a url', model: MODEL })).toThrow(RangeError);
      expect(() => new LlmMemorySummarizer({ baseUrl, model: MODEL, maxAttempts: 0 })).toThrow(RangeError);
    });
  });
});
