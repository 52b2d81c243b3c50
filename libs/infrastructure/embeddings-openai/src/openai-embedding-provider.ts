import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { EmbeddingProvider, MobileClawError } from '@mobileclaw/domain';

/** Options of {@link OpenAiEmbeddingProvider} (the gateway reads `MOBILECLAW_EMBEDDINGS_BASE_URL`, `_API_KEY`, `_MODEL`). */
export interface OpenAiEmbeddingProviderOptions {
  /** e.g. `https://api.openai.com/v1` or a local server's `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  /** Bearer token; omit for servers without authentication: no `Authorization` header is sent. */
  apiKey?: string;
  /** e.g. `text-embedding-3-small`. */
  model: string;
  /** Per request try, in ms. Default 30,000. */
  timeoutMs?: number;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /** SDK retries of one request after a 408/409/429/5xx answer, a timeout or a connection error. Default 2. */
  maxRetries?: number;
}

/** Collaborators that are not configuration. */
export interface OpenAiEmbeddingProviderDependencies {
  /** The `fetch` the SDK sends with (e.g. one with a proxy dispatcher); default: the global `fetch`. */
  fetch?: typeof globalThis.fetch;
}

export const OPENAI_EMBEDDING_DEFAULTS = { timeoutMs: 30_000, batchSize: 64, maxRetries: 2 } as const;

/** OpenAI accepts at most 2,048 inputs per request. */
const MAX_BATCH_SIZE = 2048;
/** The SDK's constructor insists on a key; without one it is never sent (the header is removed). */
const UNUSED_API_KEY = 'unused';

type EmbeddingsAnswer = { data?: unknown };

/**
 * Embeddings from an OpenAI-compatible `/v1/embeddings` endpoint through the official `openai` package.
 * Texts are sent in batches of `batchSize`, one request after the other, with `encoding_format: base64`
 * (little-endian float32, a quarter of the JSON numbers' size); a server that answers numbers anyway
 * is understood too. Each answer's `data` is put in order by its `index`.
 */
export class OpenAiEmbeddingProvider extends EmbeddingProvider {
  override readonly model: string;
  private readonly client: OpenAI;
  private readonly timeoutMs: number;
  private readonly batchSize: number;
  private readonly maxRetries: number;

  /** @throws RangeError when `baseUrl` is not an http(s) URL, `model` is blank, or a number is out of range. */
  constructor(
    readonly options: OpenAiEmbeddingProviderOptions,
    dependencies: OpenAiEmbeddingProviderDependencies = {},
  ) {
    super();
    if (!isHttpUrl(options.baseUrl)) throw new RangeError(`baseUrl must be an http(s) URL, got ${JSON.stringify(endpointOf(options.baseUrl))}`);
    if (!options.model.trim()) throw new RangeError('model must not be empty');
    this.model = options.model;
    this.timeoutMs = integerIn('timeoutMs', options.timeoutMs ?? OPENAI_EMBEDDING_DEFAULTS.timeoutMs, 1, 3_600_000);
    this.batchSize = integerIn('batchSize', options.batchSize ?? OPENAI_EMBEDDING_DEFAULTS.batchSize, 1, MAX_BATCH_SIZE);
    this.maxRetries = integerIn('maxRetries', options.maxRetries ?? OPENAI_EMBEDDING_DEFAULTS.maxRetries, 0, 10);
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey || UNUSED_API_KEY,
      // Explicit nulls keep the SDK from reading OPENAI_* variables meant for another tool.
      adminAPIKey: null,
      organization: null,
      project: null,
      webhookSecret: null,
      maxRetries: this.maxRetries,
      timeout: this.timeoutMs,
      ...(options.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
      ...(dependencies.fetch ? { fetch: dependencies.fetch } : {}),
    });
  }

  /**
   * One vector per text, in order, all of one length; `[]` for no texts, without a request.
   * @throws MobileClawError `ABORTED` when `signal` fires (the request is aborted too); `TIMEOUT` when
   *   the endpoint did not answer within `timeoutMs` (after the SDK's retries); `PLANNER_ERROR` when it
   *   cannot be reached, answers an HTTP error, or answers something that is not one vector per text of
   *   one length. Messages name the endpoint without user info or query, never the API key.
   */
  override async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    if (signal?.aborted) throw abortedError(signal);
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const batch = texts.slice(start, start + this.batchSize);
      let answer: EmbeddingsAnswer;
      try {
        answer = (await this.client.embeddings.create({ model: this.model, input: batch, encoding_format: 'base64' }, signal ? { signal } : {})) as EmbeddingsAnswer;
      } catch (err) {
        throw this.translate(err, signal);
      }
      for (const vector of this.vectorsOf(answer, batch.length)) {
        if (vectors.length > 0 && vector.length !== vectors[0].length) {
          throw this.unexpected(`vectors of ${vectors[0].length} and ${vector.length} dimensions`);
        }
        vectors.push(vector);
      }
    }
    return vectors;
  }

  /** The answer's vectors ordered by `index`: exactly one per input. */
  private vectorsOf(answer: EmbeddingsAnswer, count: number): Float32Array[] {
    if (!Array.isArray(answer?.data)) throw this.unexpected('no data list');
    if (answer.data.length !== count) throw this.unexpected(`${answer.data.length} vectors for ${count} texts`);
    const ordered = new Array<Float32Array | undefined>(count);
    for (const item of answer.data as Array<{ index?: unknown; embedding?: unknown }>) {
      const index = item?.index;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count || ordered[index]) {
        throw this.unexpected(`a vector with a missing, repeated or out-of-range index ${JSON.stringify(index)}`);
      }
      const vector = vectorOf(item.embedding);
      if (!vector) throw this.unexpected(`vector ${index} is neither base64 float32 nor a list of numbers`);
      if (vector.length === 0) throw this.unexpected(`vector ${index} is empty`);
      ordered[index] = vector;
    }
    return ordered as Float32Array[];
  }

  private unexpected(what: string): MobileClawError {
    return new MobileClawError('PLANNER_ERROR', `embeddings endpoint ${this.where} answered ${what}`);
  }

  /** `<endpoint> (model <model>)`, as error messages name the API. */
  private get where(): string {
    return `${endpointOf(this.options.baseUrl)} (model ${this.model})`;
  }

  private translate(err: unknown, signal: AbortSignal | undefined): MobileClawError {
    if (err instanceof MobileClawError) return err;
    if (signal?.aborted || err instanceof APIUserAbortError) return abortedError(signal);
    const tries = this.maxRetries === 0 ? '1 try' : `${this.maxRetries + 1} tries`;
    if (err instanceof APIConnectionTimeoutError) {
      return new MobileClawError('TIMEOUT', `embeddings request to ${this.where} timed out after ${this.timeoutMs} ms (${tries})`, { cause: err });
    }
    let message: string;
    if (err instanceof APIConnectionError) {
      const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
      message = `cannot reach the embeddings endpoint ${this.where} after ${tries}: ${err.message}${cause}`;
    } else if (err instanceof APIError && err.status !== undefined) {
      message = `embeddings endpoint ${this.where} answered HTTP ${err.status}: ${err.message}`;
    } else {
      message = `embeddings request to ${this.where} failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    return new MobileClawError('PLANNER_ERROR', this.withoutKey(message), { cause: err });
  }

  /** A server may quote the key it refused: it never reaches a message. */
  private withoutKey(message: string): string {
    const key = this.options.apiKey;
    return key ? message.split(key).join('[API key]') : message;
  }
}

/** A vector from base64 (little-endian float32 bytes) or a list of finite numbers; undefined for anything else. */
function vectorOf(embedding: unknown): Float32Array | undefined {
  if (typeof embedding === 'string') {
    const bytes = Buffer.from(embedding, 'base64');
    if (bytes.length % 4 !== 0) return undefined;
    const vector = new Float32Array(bytes.length / 4);
    for (let i = 0; i < vector.length; i++) vector[i] = bytes.readFloatLE(i * 4);
    return vector.every(Number.isFinite) ? vector : undefined;
  }
  if (Array.isArray(embedding) && embedding.every((value) => typeof value === 'number' && Number.isFinite(value))) {
    return Float32Array.from(embedding as number[]);
  }
  return undefined;
}

function abortedError(signal: AbortSignal | undefined): MobileClawError {
  const reason: unknown = signal?.reason;
  const message = reason instanceof Error && reason.name !== 'AbortError' ? reason.message : 'the embeddings request was aborted';
  return new MobileClawError('ABORTED', message, { cause: reason });
}

function integerIn(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  return value;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The base URL without user info, query or fragment, where a proxy may carry a key. */
function endpointOf(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname}`;
  } catch {
    return '(not a URL)';
  }
}
