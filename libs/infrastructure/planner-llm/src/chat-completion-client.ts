import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { MobileClawError, NoPlannerMetrics, settleOrAbort, type PlannerMetrics } from '@mobileclaw/domain';
import type { ResolvedLlmPlannerOptions } from './llm-planner.options';

/** One function call in a model's answer. */
export interface ModelToolCall {
  /** The call's id; synthesized as `call_<n>` when a server omits it. */
  id: string;
  name: string;
  /** The arguments as the model wrote them: a JSON text, possibly malformed. */
  arguments: string;
}

/** The first choice of a chat completion, streamed or not. */
export interface ModelReply {
  content: string | null;
  toolCalls: ModelToolCall[];
  finishReason: string | null;
}

/** HTTP statuses the SDK retries (with `retry-after`/`retry-after-ms` respected). */
const RETRIED_STATUSES = (status: number): boolean => status === 408 || status === 409 || status === 429 || status >= 500;

/**
 * Placeholder the SDK's constructor insists on when no key is configured; it is never sent, because the
 * `Authorization` header is then removed from every request.
 */
const UNUSED_API_KEY = 'unused';

/** Collaborators of the client that are not configuration. */
export interface ChatCompletionClientDependencies {
  /** The `fetch` the SDK sends with (e.g. one with a proxy dispatcher); default: the global `fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Where retried HTTP requests (and, for the planner, asked-again answers) are reported. Default: nowhere. */
  metrics?: PlannerMetrics;
}

/** The header the SDK numbers its tries of one request with: `0` for the first, then 1, 2, … */
const RETRY_COUNT_HEADER = 'x-stainless-retry-count';

/**
 * `fetch` that reports each try the SDK makes after the first of a request (it numbers them in
 * {@link RETRY_COUNT_HEADER}) as `retried('http')`, then sends it with `inner`.
 */
export function retryCountingFetch(inner: typeof globalThis.fetch | undefined, metrics: PlannerMetrics): typeof globalThis.fetch {
  return (input, init) => {
    if (Number(new Headers(init?.headers).get(RETRY_COUNT_HEADER) ?? 0) > 0) metrics.retried('http');
    return (inner ?? globalThis.fetch)(input, init);
  };
}

/** Assembles a streamed completion (`chat.completion.chunk` deltas of choice 0) into a {@link ModelReply}. */
export class ChatCompletionChunkAccumulator {
  private content = '';
  private hasContent = false;
  private finishReason: string | null = null;
  private readonly calls = new Map<number, { id?: string; name: string; arguments: string }>();

  add(chunk: ChatCompletionChunk): void {
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string') {
        this.content += delta.content;
        this.hasContent = true;
      }
      for (const part of delta.tool_calls ?? []) {
        const index = part.index ?? 0;
        const call = this.calls.get(index) ?? { name: '', arguments: '' };
        if (part.id) call.id ??= part.id;
        const name = part.function?.name;
        // Servers send the name once; some repeat it whole in later chunks, which must not double it.
        if (name && name !== call.name) call.name += name;
        if (part.function?.arguments) call.arguments += part.function.arguments;
        this.calls.set(index, call);
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
  }

  reply(): ModelReply {
    const toolCalls = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ id: call.id ?? `call_${index}`, name: call.name, arguments: call.arguments }));
    return { content: this.hasContent ? this.content : null, toolCalls, finishReason: this.finishReason };
  }
}

/** Function arguments as JSON text; a few servers send an object instead of the standard string. */
function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

function replyOf(completion: ChatCompletion): ModelReply {
  const choice = completion.choices?.[0];
  if (!choice) return { content: null, toolCalls: [], finishReason: null };
  const toolCalls: ModelToolCall[] = [];
  for (const [index, call] of (choice.message?.tool_calls ?? []).entries()) {
    if (call.type !== 'function' && call.type !== undefined) continue;
    if (!('function' in call)) continue;
    toolCalls.push({ id: call.id || `call_${index}`, name: call.function?.name ?? '', arguments: argumentsText(call.function?.arguments) });
  }
  return { content: choice.message?.content ?? null, toolCalls, finishReason: choice.finish_reason ?? null };
}

/** Longest part of an unexpected response body quoted in an error message, in characters. */
const BODY_EXCERPT_CHARS = 120;

/**
 * The base URL as error messages show it: without user info, query or fragment, where a proxy or a
 * gateway may carry a key (`https://user:key@host/v1`, `?api-key=…`).
 */
export function endpointOf(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    if (!url.username && !url.password && !url.search && !url.hash) return baseUrl;
    return `${url.origin}${url.pathname}`;
  } catch {
    return baseUrl;
  }
}

/** A body's start for an error message: whitespace collapsed, cut at {@link BODY_EXCERPT_CHARS}. */
function excerpt(body: string): string {
  const text = body.replace(/\s+/g, ' ').trim();
  if (!text) return 'an empty body';
  return JSON.stringify(text.length > BODY_EXCERPT_CHARS ? `${text.slice(0, BODY_EXCERPT_CHARS)}…` : text);
}

/** The media type of a `content-type` header, lower case; `no content-type` when absent. */
function mediaTypeOf(contentType: string | null | undefined): string {
  return contentType?.split(';')[0]?.trim().toLowerCase() || 'no content-type';
}

/** True for a JSON object shaped like a `chat.completion`: it has a `choices` array. */
function isChatCompletion(value: unknown): value is ChatCompletion {
  return typeof value === 'object' && value !== null && Array.isArray((value as { choices?: unknown }).choices);
}

/** The `error.message` of an OpenAI-style error body (`{"error": {"message": …}}`), if it is one. */
function errorBodyMessage(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const error = (value as { error?: unknown }).error;
  if (typeof error === 'string') return error;
  if (typeof error !== 'object' || error === null) return undefined;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' ? message : JSON.stringify(error);
}

/** The `ABORTED` error for a fired signal, carrying the signal's reason message when it has one. */
export function abortedError(signal: AbortSignal): MobileClawError {
  const reason: unknown = signal.reason;
  const message = reason instanceof Error && reason.name !== 'AbortError' ? reason.message : 'planning was aborted';
  return new MobileClawError('ABORTED', message, { cause: reason });
}

/**
 * One Chat Completions request per call, through the official `openai` SDK: the SDK retries 408/409/429/5xx
 * and connection errors up to `maxRetries` times (respecting `retry-after`), with `timeoutMs` per try.
 * Only standard request fields are sent: `model`, `messages`, `tools`, `tool_choice`, `stream` (when on)
 * and `temperature` (when set).
 */
export class ChatCompletionClient {
  private readonly client: OpenAI;

  constructor(
    private readonly options: ResolvedLlmPlannerOptions,
    dependencies: ChatCompletionClientDependencies = {},
  ) {
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey ?? UNUSED_API_KEY,
      // Explicit nulls keep the SDK from reading OPENAI_* variables meant for another tool.
      adminAPIKey: null,
      organization: null,
      project: null,
      webhookSecret: null,
      maxRetries: options.maxRetries,
      timeout: options.timeoutMs,
      ...(options.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
      fetch: retryCountingFetch(dependencies.fetch, dependencies.metrics ?? new NoPlannerMetrics()),
    });
  }

  /**
   * Sends the conversation and returns the first choice's content and function calls.
   * @throws MobileClawError `ABORTED` when `signal` fires (the HTTP request is aborted too).
   * @throws Error naming the endpoint (see {@link endpointOf}) and the HTTP status (after the SDK's retries),
   *   the timeout, or the connection failure; or, for a response that is not a Chat Completions answer
   *   (not JSON, an error body, no `choices`, a non-SSE answer to a streamed request that is not a whole
   *   completion either), its status, media type and the start of its body.
   */
  async complete(
    messages: ChatCompletionMessageParam[],
    tools: readonly ChatCompletionFunctionTool[],
    signal: AbortSignal,
  ): Promise<ModelReply> {
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: this.options.model,
      messages,
      tools: [...tools],
      tool_choice: 'auto',
    };
    if (this.options.temperature !== undefined) body.temperature = this.options.temperature;
    try {
      return await settleOrAbort(this.options.stream ? this.streamed(body, signal) : this.single(body, signal), signal, abortedError);
    } catch (err) {
      throw this.translate(err, signal);
    }
  }

  /**
   * Sends the request (the SDK retries HTTP errors) and reads the answer's body itself, so that an answer
   * that is not a completion (an HTML error page, a wrong URL) is told apart from a model's answer.
   */
  private async single(body: ChatCompletionCreateParamsNonStreaming, signal: AbortSignal): Promise<ModelReply> {
    const response = await this.client.chat.completions.create(body, { signal }).asResponse();
    return replyOf(this.completionOf(response.status, response.headers.get('content-type'), await response.text()));
  }

  /**
   * The body as a completion.
   * @throws Error naming the endpoint and the status when it is not JSON, an error body, or JSON without `choices`.
   */
  private completionOf(status: number, contentType: string | null, text: string): ChatCompletion {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw this.notChatCompletion(status, contentType, text);
    }
    if (isChatCompletion(parsed)) return parsed;
    const error = errorBodyMessage(parsed);
    if (error !== undefined) throw new Error(`LLM API at ${this.where} answered HTTP ${status} with an error instead of a completion: ${error}`);
    throw this.notChatCompletion(status, contentType, text);
  }

  /** The error for a body that is not a completion; `tries` is the ` after N tries` of a retried status. */
  private notChatCompletion(status: number, contentType: string | null | undefined, text: string, tries = ''): Error {
    return new Error(
      `LLM API at ${this.where} answered HTTP ${status}${tries} with ${mediaTypeOf(contentType)}, not a Chat Completions response: ${excerpt(text)}`,
    );
  }

  /** `<endpoint> (model <model>)`, as error messages name the API. */
  private get where(): string {
    return `${endpointOf(this.options.baseUrl)} (model ${this.options.model})`;
  }

  /**
   * Reads an SSE answer. The SDK's timeout ends when the response headers arrive; here `timeoutMs` also
   * bounds each wait for the next chunk.
   */
  private async streamed(body: ChatCompletionCreateParamsNonStreaming, signal: AbortSignal): Promise<ModelReply> {
    const { data: stream, response } = await this.client.chat.completions.create({ ...body, stream: true }, { signal }).withResponse();
    if (mediaTypeOf(response.headers.get('content-type')) !== 'text/event-stream') {
      // Not a stream: a server that ignores `stream` (a whole completion is fine), or an error page.
      const text = await response.text();
      stream.controller.abort();
      return replyOf(this.completionOf(response.status, response.headers.get('content-type'), text));
    }
    const accumulator = new ChatCompletionChunkAccumulator();
    let stalled = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        stalled = true;
        stream.controller.abort();
      }, this.options.timeoutMs);
    };
    try {
      arm();
      // The SDK ends the iteration quietly when the request is aborted; the checks below tell why.
      for await (const chunk of stream) {
        arm();
        accumulator.add(chunk);
      }
    } finally {
      clearTimeout(timer);
    }
    if (signal.aborted) throw abortedError(signal);
    if (stalled) throw new Error(`LLM stream from ${endpointOf(this.options.baseUrl)} stalled: no data for ${this.options.timeoutMs} ms`);
    return accumulator.reply();
  }

  private translate(err: unknown, signal: AbortSignal): Error {
    if (err instanceof MobileClawError) return err;
    if (signal.aborted || err instanceof APIUserAbortError) return abortedError(signal);
    const where = this.where;
    const tries = this.options.maxRetries === 0 ? '1 try' : `${this.options.maxRetries + 1} tries`;
    if (err instanceof APIConnectionTimeoutError) {
      return new Error(`LLM request to ${where} timed out after ${this.options.timeoutMs} ms (${tries})`, { cause: err });
    }
    if (err instanceof APIConnectionError) {
      const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
      return new Error(`cannot reach the LLM API at ${where} after ${tries}: ${err.message}${cause}`, { cause: err });
    }
    if (err instanceof APIError) {
      if (err.status === undefined) return new Error(`LLM API at ${where} reported an error: ${err.message}`, { cause: err });
      const retried = RETRIED_STATUSES(err.status) && this.options.maxRetries > 0 ? ` after ${tries}` : '';
      if (err.error === undefined && !isJsonMediaType(err.headers?.get('content-type'))) {
        // The SDK puts a body that is not JSON (a proxy's HTML page) after the status in its message.
        const noBody = err.message === `${err.status} status code (no body)` || !err.message.startsWith(`${err.status} `);
        const body = noBody ? '' : err.message.slice(`${err.status} `.length);
        const error = this.notChatCompletion(err.status, err.headers?.get('content-type'), body, retried);
        return new Error(error.message, { cause: err });
      }
      return new Error(`LLM API at ${where} answered HTTP ${err.status}${retried}: ${err.message}`, { cause: err });
    }
    // A stream chunk that is not JSON: the SDK's parser throws a bare SyntaxError.
    if (err instanceof Error && err.name === 'SyntaxError') {
      return new Error(`LLM API at ${where} streamed data that is not JSON, not a Chat Completions stream: ${err.message}`, { cause: err });
    }
    return err instanceof Error ? err : new Error(String(err));
  }
}

function isJsonMediaType(contentType: string | null | undefined): boolean {
  const mediaType = mediaTypeOf(contentType);
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}
