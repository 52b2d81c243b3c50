import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MobileClawError } from '@mobileclaw/domain';
import { OpenAiEmbeddingProvider, type OpenAiEmbeddingProviderOptions } from './openai-embedding-provider';
import { HASHED_EMBEDDING_DIMENSIONS, hashedWordEmbedding, startEmbeddingsServer, type EmbeddingsServer } from './testing';

const KEY = 'sk-test-0123456789abcdef';

async function failure(work: Promise<unknown>): Promise<MobileClawError> {
  try {
    await work;
  } catch (err) {
    if (err instanceof MobileClawError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

/**
 * Jest runs specs in a separate realm: a fetch failure from Node's own realm is not an instance of the
 * realm's `Error`, and the SDK then loses the `AbortError` name it tells a timeout by (outside Jest it
 * keeps it). This fetch re-creates such errors in the test realm, as a plain Node process has them.
 */
const realmFetch: typeof fetch = (input, init) =>
  fetch(input, init).catch((err: { name?: string; message?: string }) => {
    if (err instanceof Error) throw err;
    throw Object.assign(new Error(err.message), { name: err.name });
  });

/** A server answering every request with the same raw JSON body. */
async function rawServer(body: unknown): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

describe('OpenAiEmbeddingProvider', () => {
  let server: EmbeddingsServer;
  const provider = (options: Partial<OpenAiEmbeddingProviderOptions> = {}) =>
    new OpenAiEmbeddingProvider({ baseUrl: server.baseUrl, apiKey: KEY, model: 'text-embedding-3-small', maxRetries: 0, ...options });

  beforeEach(async () => {
    server = await startEmbeddingsServer({ apiKey: KEY });
  });

  afterEach(async () => {
    await server.close();
  });

  it('returns one float32 vector per text, in order, as the server computed it (base64 on the wire)', async () => {
    const texts = ['Mom is Alice', '妈妈是Alice', 'office Wi-Fi is ACME-5G'];
    const vectors = await provider().embed(texts);
    expect(vectors).toHaveLength(3);
    vectors.forEach((vector, index) => {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toEqual(Float32Array.from(hashedWordEmbedding(texts[index])));
    });
    expect(server.requests).toEqual([
      { method: 'POST', path: '/v1/embeddings', model: 'text-embedding-3-small', input: texts, encodingFormat: 'base64', authorization: `Bearer ${KEY}`, answer: 200 },
    ]);
  });

  it('sends batches of batchSize, one after the other, and keeps the order whatever order the answer has', async () => {
    server.reversed = true;
    server.embed = (text) => [Number(text), 1];
    const texts = Array.from({ length: 7 }, (_, i) => String(i));
    const vectors = await provider({ batchSize: 3 }).embed(texts);
    expect(vectors.map((vector) => vector[0])).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(server.requests.map((request) => request.input)).toEqual([['0', '1', '2'], ['3', '4', '5'], ['6']]);
  });

  it('answers no texts with no vectors, without a request', async () => {
    expect(await provider().embed([])).toEqual([]);
    expect(server.requests).toEqual([]);
  });

  it('understands a server that answers numbers although base64 was asked for', async () => {
    const raw = await rawServer({ object: 'list', data: [{ object: 'embedding', index: 0, embedding: [0.5, -0.25] }], model: 'm' });
    try {
      const vectors = await new OpenAiEmbeddingProvider({ baseUrl: raw.baseUrl, model: 'm', maxRetries: 0 }).embed(['x']);
      expect(vectors).toEqual([Float32Array.from([0.5, -0.25])]);
    } finally {
      await raw.close();
    }
  });

  it('sends no Authorization header without a key', async () => {
    const open = await startEmbeddingsServer();
    try {
      await new OpenAiEmbeddingProvider({ baseUrl: open.baseUrl, model: 'm', maxRetries: 0 }).embed(['x']);
      expect(open.requests[0].authorization).toBeUndefined();
    } finally {
      await open.close();
    }
  });

  it('fails with PLANNER_ERROR when vectors differ in length, also across batches', async () => {
    server.embed = (text) => new Array<number>(text.length).fill(1);
    const error = await failure(provider({ batchSize: 1 }).embed(['ab', 'abc']));
    expect(error.code).toBe('PLANNER_ERROR');
    expect(error.message).toBe(`embeddings endpoint ${server.baseUrl} (model text-embedding-3-small) answered vectors of 2 and 3 dimensions`);
  });

  it.each([
    ['no data list', { object: 'list' }],
    ['1 vectors for 2 texts', { data: [{ index: 0, embedding: [1] }] }],
    ['a vector with a missing, repeated or out-of-range index 0', { data: [{ index: 0, embedding: [1] }, { index: 0, embedding: [1] }] }],
    ['vector 1 is neither base64 float32 nor a list of numbers', { data: [{ index: 0, embedding: [1] }, { index: 1, embedding: ['1'] }] }],
    ['vector 0 is empty', { data: [{ index: 0, embedding: [] }, { index: 1, embedding: [] }] }],
  ])('fails with PLANNER_ERROR when the answer has %s', async (what, body) => {
    const raw = await rawServer(body);
    try {
      const error = await failure(new OpenAiEmbeddingProvider({ baseUrl: raw.baseUrl, model: 'm', maxRetries: 0 }).embed(['a', 'b'].slice(0, what.startsWith('no data') ? 1 : 2)));
      expect(error.code).toBe('PLANNER_ERROR');
      expect(error.message).toBe(`embeddings endpoint ${raw.baseUrl} (model m) answered ${what}`);
    } finally {
      await raw.close();
    }
  });

  it('maps an endpoint that is down to PLANNER_ERROR naming the status, and works again once it is back', async () => {
    server.down = true;
    const error = await failure(provider().embed(['x']));
    expect(error.code).toBe('PLANNER_ERROR');
    expect(error.message).toBe(`embeddings endpoint ${server.baseUrl} (model text-embedding-3-small) answered HTTP 503: 503 the embeddings service is unavailable`);
    server.down = false;
    expect(await provider().embed(['x'])).toHaveLength(1);
  });

  it("retries a failed request as the SDK does (maxRetries)", async () => {
    server.failNext(1);
    expect(await provider({ maxRetries: 1 }).embed(['x'])).toHaveLength(1);
    expect(server.requests.map((request) => request.answer)).toEqual([503, 200]);
  });

  it('never puts the API key in a message, even when the server quotes it', async () => {
    const quoting = await startEmbeddingsServer({ apiKey: 'another-key' });
    try {
      const error = await failure(new OpenAiEmbeddingProvider({ baseUrl: quoting.baseUrl, apiKey: KEY, model: 'm', maxRetries: 0 }).embed(['x']));
      expect(error.code).toBe('PLANNER_ERROR');
      expect(error.message).toContain('HTTP 401');
      expect(error.message).not.toContain(KEY);
    } finally {
      await quoting.close();
    }
    const echo = await rawServerWithStatus(400, { error: { message: `bad key ${KEY}` } });
    try {
      const error = await failure(new OpenAiEmbeddingProvider({ baseUrl: `${echo.baseUrl}?api-key=${KEY}`, apiKey: KEY, model: 'm', maxRetries: 0 }).embed(['x']));
      expect(error.code).toBe('PLANNER_ERROR');
      expect(error.message).toBe(`embeddings endpoint ${echo.baseUrl} (model m) answered HTTP 400: 400 bad key [API key]`);
    } finally {
      await echo.close();
    }
  });

  it('maps an unreachable endpoint to PLANNER_ERROR', async () => {
    const baseUrl = server.baseUrl;
    await server.close();
    server = await startEmbeddingsServer();
    const error = await failure(new OpenAiEmbeddingProvider({ baseUrl, model: 'm', maxRetries: 0 }).embed(['x']));
    expect(error.code).toBe('PLANNER_ERROR');
    expect(error.message).toMatch(new RegExp(`^cannot reach the embeddings endpoint ${baseUrl.replace(/\./g, '\\.')} \\(model m\\) after 1 try`));
  });

  it('maps a request that outlives timeoutMs to TIMEOUT', async () => {
    server.stallNext(1);
    const error = await failure(new OpenAiEmbeddingProvider({ baseUrl: server.baseUrl, apiKey: KEY, model: 'text-embedding-3-small', maxRetries: 0, timeoutMs: 50 }, { fetch: realmFetch }).embed(['x']));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toBe(`embeddings request to ${server.baseUrl} (model text-embedding-3-small) timed out after 50 ms (1 try)`);
  });

  it('maps an aborted signal to ABORTED, before or during the request', async () => {
    const before = new AbortController();
    before.abort();
    expect((await failure(provider().embed(['x'], before.signal))).code).toBe('ABORTED');
    expect(server.requests).toEqual([]);

    server.stallNext(1);
    const during = new AbortController();
    const arrived = server.nextRequest();
    const embedding = provider().embed(['x'], during.signal);
    await arrived;
    during.abort(new Error('the task was canceled'));
    const error = await failure(embedding);
    expect(error.code).toBe('ABORTED');
    expect(error.message).toBe('the task was canceled');
  });

  it('rejects bad options with RangeError', () => {
    expect(() => new OpenAiEmbeddingProvider({ baseUrl: 'ftp://x', model: 'm' })).toThrow(RangeError);
    expect(() => new OpenAiEmbeddingProvider({ baseUrl: 'http://x/v1', model: ' ' })).toThrow(RangeError);
    expect(() => new OpenAiEmbeddingProvider({ baseUrl: 'http://x/v1', model: 'm', batchSize: 0 })).toThrow(RangeError);
    expect(() => new OpenAiEmbeddingProvider({ baseUrl: 'http://x/v1', model: 'm', timeoutMs: 1.5 })).toThrow(RangeError);
  });
});

describe('the embeddings server', () => {
  it('speaks the wire format: a string or a list of inputs, float or base64, errors for anything else', async () => {
    const server = await startEmbeddingsServer({ embed: () => [1, 0.5] });
    try {
      const post = (body: unknown) =>
        fetch(`${server.baseUrl}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (res) => ({
          status: res.status,
          body: (await res.json()) as Record<string, unknown>,
        }));
      expect(await post({ model: 'm', input: 'one' })).toEqual({
        status: 200,
        body: { object: 'list', data: [{ object: 'embedding', index: 0, embedding: [1, 0.5] }], model: 'm', usage: { prompt_tokens: 1, total_tokens: 1 } },
      });
      const base64 = await post({ model: 'm', input: ['a b', 'c'], encoding_format: 'base64' });
      expect(base64.body['data']).toEqual([
        { object: 'embedding', index: 0, embedding: Buffer.from(Float32Array.from([1, 0.5]).buffer).toString('base64') },
        { object: 'embedding', index: 1, embedding: Buffer.from(Float32Array.from([1, 0.5]).buffer).toString('base64') },
      ]);
      expect(base64.body['usage']).toEqual({ prompt_tokens: 3, total_tokens: 3 });
      expect((await post({ model: 'm', input: [] })).status).toBe(400);
      expect((await post({ model: 'm', input: [[1, 2]] })).status).toBe(400);
      expect((await post({ input: 'x' })).status).toBe(400);
      expect((await post({ model: 'm', input: 'x', encoding_format: 'int8' })).status).toBe(400);
      server.failNext(2);
      expect([(await post({ model: 'm', input: 'x' })).status, (await post({ model: 'm', input: 'x' })).status, (await post({ model: 'm', input: 'x' })).status]).toEqual([503, 503, 200]);
      expect(server.requests).toHaveLength(9);
    } finally {
      await server.close();
    }
  });

  it('embeds by default as a normalised hashed bag of words: shared words are close, Chinese words count', () => {
    const alice = hashedWordEmbedding('Mom is Alice');
    expect(alice).toHaveLength(HASHED_EMBEDDING_DIMENSIONS);
    expect(Math.hypot(...alice)).toBeCloseTo(1, 10);
    const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i], 0);
    expect(cosine(alice, hashedWordEmbedding('alice is mom'))).toBeCloseTo(1, 10);
    expect(cosine(alice, hashedWordEmbedding('Alice'))).toBeGreaterThan(0.5);
    expect(cosine(hashedWordEmbedding('妈妈是Alice'), hashedWordEmbedding('Alice是妈妈'))).toBeCloseTo(1, 10);
    expect(hashedWordEmbedding('...')).toEqual(new Array(HASHED_EMBEDDING_DIMENSIONS).fill(0));
  });
});

async function rawServerWithStatus(status: number, body: unknown): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}
