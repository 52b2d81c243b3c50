import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { MobileClawError } from '@mobileclaw/domain';
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

/** The `ABORTED` error for a fired signal, carrying the signal's reason message when it has one. */
export function abortedError(signal: AbortSignal): MobileClawError {
  const reason: unknown = signal.reason;
  const message = reason instanceof Error && reason.name !== 'AbortError' ? reason.message : 'planning was aborted';
  return new MobileClawError('ABORTED', message, { cause: reason });
}

/** Rejects with {@link abortedError} as soon as `signal` fires, whatever `work` is doing. */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortedError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
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
      ...(dependencies.fetch ? { fetch: dependencies.fetch } : {}),
    });
  }

  /**
   * Sends the conversation and returns the first choice's content and function calls.
   * @throws MobileClawError `ABORTED` when `signal` fires (the HTTP request is aborted too).
   * @throws Error naming the HTTP status (after the SDK's retries), the timeout, or the connection failure.
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
      return await abortable(this.options.stream ? this.streamed(body, signal) : this.single(body, signal), signal);
    } catch (err) {
      throw this.translate(err, signal);
    }
  }

  private async single(body: ChatCompletionCreateParamsNonStreaming, signal: AbortSignal): Promise<ModelReply> {
    return replyOf(await this.client.chat.completions.create(body, { signal }));
  }

  /**
   * Reads an SSE answer. The SDK's timeout ends when the response headers arrive; here `timeoutMs` also
   * bounds each wait for the next chunk.
   */
  private async streamed(body: ChatCompletionCreateParamsNonStreaming, signal: AbortSignal): Promise<ModelReply> {
    const stream = await this.client.chat.completions.create({ ...body, stream: true }, { signal });
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
    if (stalled) throw new Error(`LLM stream from ${this.options.baseUrl} stalled: no data for ${this.options.timeoutMs} ms`);
    return accumulator.reply();
  }

  private translate(err: unknown, signal: AbortSignal): Error {
    if (err instanceof MobileClawError) return err;
    if (signal.aborted || err instanceof APIUserAbortError) return abortedError(signal);
    const where = `${this.options.baseUrl} (model ${this.options.model})`;
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
      return new Error(`LLM API at ${where} answered HTTP ${err.status}${retried}: ${err.message}`, { cause: err });
    }
    return err instanceof Error ? err : new Error(String(err));
  }
}
