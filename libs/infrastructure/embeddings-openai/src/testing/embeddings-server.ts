import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { memoryWords } from '@mobileclaw/domain';

/** Dimensions of {@link hashedWordEmbedding}. */
export const HASHED_EMBEDDING_DIMENSIONS = 256;

/**
 * A deterministic embedding without a model: the bag of the text's {@link memoryWords}, each word
 * hashed (FNV-1a, 32-bit, of its UTF-8) to one of `dimensions` coordinates with a sign, then scaled to
 * length 1. Texts sharing words are close; a text without words is the zero vector.
 */
export function hashedWordEmbedding(text: string, dimensions = HASHED_EMBEDDING_DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of memoryWords(text)) {
    let hash = 0x811c9dc5;
    for (const byte of Buffer.from(word, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
    vector[hash % dimensions] += hash & 0x80000000 ? -1 : 1;
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

/** Options of {@link startEmbeddingsServer}. */
export interface EmbeddingsServerOptions {
  /** The vector of one input text. Default {@link hashedWordEmbedding} (256 dimensions). */
  embed?: (text: string) => number[];
  /** When set, a request without `Authorization: Bearer <apiKey>` is answered 401. */
  apiKey?: string;
}

/** One request the server received. */
export interface EmbeddingsRequest {
  /** `POST /v1/embeddings`, or whatever else was asked. */
  method: string;
  path: string;
  /** The `model` of the body. */
  model: string;
  /** The `input` of the body, as a list. */
  input: string[];
  /** The `encoding_format` asked for (`float` when absent). */
  encodingFormat: string;
  /** The `Authorization` header, when sent. */
  authorization?: string;
  /** How the server answered: its HTTP status, or `stalled`. */
  answer: number | 'stalled';
}

/** A running {@link startEmbeddingsServer}. */
export interface EmbeddingsServer {
  /** `http://127.0.0.1:<port>/v1`: the `baseUrl` of a client. */
  readonly baseUrl: string;
  /** Every request so far, oldest first. */
  readonly requests: readonly EmbeddingsRequest[];
  /** While true, every request is answered 503 (an endpoint that is down). */
  down: boolean;
  /** While true, `data` is answered in reverse order (a client must order it by `index`). */
  reversed: boolean;
  /** The vector of one input text; may be replaced while the server runs. */
  embed: (text: string) => number[];
  /** The next `count` requests are answered 503, then the server answers again. */
  failNext(count: number): void;
  /** The next `count` requests are never answered (until {@link close}): a client's timeout or abort ends them. */
  stallNext(count: number): void;
  /** Resolves with the next request once it has been answered (or stalled). */
  nextRequest(): Promise<EmbeddingsRequest>;
  /** Stops the server, dropping open connections. */
  close(): Promise<void>;
}

/**
 * A real local HTTP server speaking the OpenAI `POST /v1/embeddings` wire format, for tests and
 * benchmarks: `input` a string or an array of strings, `model` echoed, `encoding_format` `float`
 * (numbers) or `base64` (little-endian float32 bytes, which the `openai` package asks for by default),
 * `usage` counted in words. A body that is not such a request is answered 400 with an OpenAI error
 * body; a failure switch answers 503.
 */
export async function startEmbeddingsServer(options: EmbeddingsServerOptions = {}): Promise<EmbeddingsServer> {
  const requests: EmbeddingsRequest[] = [];
  const waiting: Array<(request: EmbeddingsRequest) => void> = [];
  let failing = 0;
  let stalling = 0;

  const record = (request: EmbeddingsRequest) => {
    requests.push(request);
    waiting.shift()?.(request);
  };

  const server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const request = requestOf(req, raw);
      if (stalling > 0) {
        stalling--;
        record({ ...request, answer: 'stalled' });
        return;
      }
      const status = answer(request, raw, res);
      record({ ...request, answer: status });
    });
  });

  const answer = (request: Omit<EmbeddingsRequest, 'answer'>, raw: string, res: ServerResponse): number => {
    if (handle.down || failing > 0) {
      if (failing > 0) failing--;
      return error(res, 503, 'the embeddings service is unavailable', 'server_error');
    }
    if (options.apiKey !== undefined && request.authorization !== `Bearer ${options.apiKey}`) {
      return error(res, 401, 'Incorrect API key provided', 'invalid_request_error');
    }
    if (request.method !== 'POST' || request.path !== '/v1/embeddings') return error(res, 404, `no route ${request.method} ${request.path}`, 'invalid_request_error');
    const body = parseJson(raw) as { input?: unknown; model?: unknown; encoding_format?: unknown } | undefined;
    const inputs = typeof body?.input === 'string' ? [body.input] : body?.input;
    if (!Array.isArray(inputs) || inputs.length === 0 || !inputs.every((input) => typeof input === 'string')) {
      return error(res, 400, "'input' must be a string or a non-empty array of strings", 'invalid_request_error');
    }
    if (typeof body?.model !== 'string' || !body.model) return error(res, 400, "'model' is required", 'invalid_request_error');
    if (request.encodingFormat !== 'float' && request.encodingFormat !== 'base64') {
      return error(res, 400, "'encoding_format' must be float or base64", 'invalid_request_error');
    }
    const data = (inputs as string[]).map((text, index) => {
      const vector = handle.embed(text);
      return { object: 'embedding', index, embedding: request.encodingFormat === 'base64' ? float32Base64(vector) : vector };
    });
    if (handle.reversed) data.reverse();
    const tokens = (inputs as string[]).reduce((sum, text) => sum + memoryWords(text).length, 0);
    return json(res, 200, { object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
  };

  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const handle: EmbeddingsServer = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    down: false,
    reversed: false,
    embed: options.embed ?? ((text) => hashedWordEmbedding(text)),
    failNext: (count) => {
      failing = count;
    },
    stallNext: (count) => {
      stalling = count;
    },
    nextRequest: () => new Promise((arrived) => waiting.push(arrived)),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((closed) => server.close(() => closed()));
    },
  };
  return handle;
}

function requestOf(req: IncomingMessage, raw: string): Omit<EmbeddingsRequest, 'answer'> {
  const body = parseJson(raw) as { input?: unknown; model?: unknown; encoding_format?: unknown } | undefined;
  const input = typeof body?.input === 'string' ? [body.input] : Array.isArray(body?.input) ? body.input.map(String) : [];
  return {
    method: req.method ?? '',
    path: new URL(req.url ?? '/', 'http://localhost').pathname,
    model: typeof body?.model === 'string' ? body.model : '',
    input,
    encodingFormat: typeof body?.encoding_format === 'string' ? body.encoding_format : 'float',
    ...(req.headers.authorization !== undefined ? { authorization: req.headers.authorization } : {}),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(''));
  });
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** The vector as little-endian float32 bytes in base64, as OpenAI answers `encoding_format: base64`. */
function float32Base64(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

function json(res: ServerResponse, status: number, body: unknown): number {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
  return status;
}

function error(res: ServerResponse, status: number, message: string, type: string): number {
  return json(res, status, { error: { message, type, param: null, code: null } });
}
