import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { MobileClawClientError } from './errors';
import type { InvocationStatus, PendingGatewayToolCall, PhoneCommand } from './events';
import type { ToolCallOutcome, ToolSpec } from './tools/tool-types';

/**
 * The gateway's public REST API as the SDK uses it (`/api/tasks…`, problem documents with a stable
 * `code`), over `fetch`. Shapes here are the gateway's wire shapes, kept to the fields the SDK reads.
 */

/** `POST /api/tasks` body. */
export interface CreateTaskBody {
  deviceId: string;
  goal: string;
  maxSteps?: number;
  /** The conversation id (A2A `contextId`). */
  contextId: string;
  /** The local tools the invocation exposes (the gateway's `CallerToolSpec`s). */
  tools?: ToolSpec[];
}

/** `POST /api/tasks` answer (202). */
export interface TaskAcceptedResource {
  taskId: string;
  status: InvocationStatus;
  queuePosition?: number;
}

/** A tool call the task waits for (`pendingToolCall` on the task, `toolCall` on `task.input_required`). */
export interface PendingToolCallResource {
  toolCallId: string;
  name: string;
  arguments: Record<string, unknown>;
  kind?: 'OBSERVATION' | 'ACTION';
  stepIndex: number;
}

/** `GET /api/tasks/:taskId` (the fields the SDK reads). */
export interface TaskResource {
  taskId: string;
  status: InvocationStatus;
  contextId?: string;
  summary?: string;
  error?: { code: string; message: string };
  pendingAction?: { stepIndex: number; action: PhoneCommand; reason: string };
  pendingToolCall?: PendingToolCallResource;
  pendingToolApproval?: PendingGatewayToolCall;
  queuePosition?: number;
  stepCount: number;
}

/** One record of `GET /api/tasks/:taskId/events`: SSE `id` and `event`, `data` the JSON `{taskId, id, type, at, data}`. */
export interface TaskEventRecord {
  id: number;
  type: string;
  /** ISO-8601. */
  at: string;
  data: Record<string, unknown>;
}

/** `POST /api/tasks/:taskId/tool-results` body. */
export type ToolResultBody = { toolCallId: string } & ToolCallOutcome;

export interface GatewayApiOptions {
  /** e.g. `http://127.0.0.1:8080`; paths are appended to it. */
  baseUrl: string;
  apiToken?: string;
  fetch: typeof fetch;
  /** Per request, until the answer's headers and (for JSON answers) body arrived, in ms. */
  requestTimeoutMs: number;
  /** A stream with no bytes for this long (the gateway sends a keep-alive every 15 s) counts as lost, in ms. */
  streamIdleTimeoutMs: number;
  /** Largest answer body read, in bytes; past it the request is aborted (`BAD_RESPONSE`). */
  maxResponseBytes: number;
  /** Largest event of a stream, in bytes (its `id`, `event` and `data` lines); past it the stream is aborted (`BAD_RESPONSE`). */
  maxStreamEventBytes: number;
}

/** Where a blank line (the end of an SSE event) last ends in `text`, or -1. */
const EVENT_END = /(?:\r\n|\r|\n)(?:\r\n|\r|\n)/g;

/**
 * REST calls of the SDK. Each rejects with a {@link MobileClawClientError}: the gateway's `code` and
 * HTTP `status` for a problem answer; `NETWORK_ERROR`, `TIMEOUT` (after `requestTimeoutMs`),
 * `BAD_RESPONSE` (not the gateway's JSON, or a body larger than `maxResponseBytes`: bodies are read
 * as a stream and counted, so a hostile answer never fills the memory) or `ABORTED` (the caller's
 * signal) otherwise.
 */
export class GatewayApi {
  private readonly baseUrl: string;

  constructor(private readonly options: GatewayApiOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** `POST /api/tasks` with `Idempotency-Key`. `replayed`: the gateway answered an earlier request with this key. */
  async createTask(body: CreateTaskBody, idempotencyKey: string, signal?: AbortSignal): Promise<{ accepted: TaskAcceptedResource; replayed: boolean }> {
    const { json, headers } = await this.request<TaskAcceptedResource>('POST', '/api/tasks', { body, headers: { 'idempotency-key': idempotencyKey }, signal });
    if (typeof json?.taskId !== 'string') throw new MobileClawClientError('BAD_RESPONSE', 'the gateway accepted the task without a taskId', { retryable: true });
    return { accepted: json, replayed: headers.get('idempotent-replayed') === 'true' };
  }

  async getTask(taskId: string, signal?: AbortSignal): Promise<TaskResource> {
    return (await this.request<TaskResource>('GET', `/api/tasks/${encodeURIComponent(taskId)}`, { signal })).json;
  }

  async approve(taskId: string, approve: boolean, signal?: AbortSignal): Promise<TaskResource> {
    return (await this.request<TaskResource>('POST', `/api/tasks/${encodeURIComponent(taskId)}/approval`, { body: { approve }, signal })).json;
  }

  async cancel(taskId: string, signal?: AbortSignal): Promise<TaskResource> {
    return (await this.request<TaskResource>('POST', `/api/tasks/${encodeURIComponent(taskId)}/cancel`, { signal })).json;
  }

  async submitToolResult(taskId: string, body: ToolResultBody, signal?: AbortSignal): Promise<TaskResource> {
    return (await this.request<TaskResource>('POST', `/api/tasks/${encodeURIComponent(taskId)}/tool-results`, { body, signal })).json;
  }

  /** `GET /api/devices` → the phones, online ones first. */
  async listDevices(signal?: AbortSignal): Promise<{ deviceId: string; status: string }[]> {
    return (await this.request<{ devices: { deviceId: string; status: string }[] }>('GET', '/api/devices', { signal })).json.devices;
  }

  /**
   * Opens `GET /api/tasks/:taskId/events` after `lastEventId` (0: from the start). Resolves once the
   * stream answered 200; the iterable yields the records until the gateway ends the stream (normally
   * after the terminal event) and throws `NETWORK_ERROR` when the connection breaks or stays silent
   * for `streamIdleTimeoutMs`, `BAD_RESPONSE` (retryable) when one event grows past `maxStreamEventBytes`.
   */
  async openEvents(taskId: string, lastEventId: number, signal?: AbortSignal): Promise<AsyncIterable<TaskEventRecord>> {
    const controller = new AbortController();
    const abort = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', abort, { once: true });
    const timer = setTimeout(() => controller.abort(new MobileClawClientError('TIMEOUT', `no answer within ${this.options.requestTimeoutMs} ms`, { retryable: true })), this.options.requestTimeoutMs);
    let response: Response;
    try {
      response = await this.options.fetch(`${this.baseUrl}/api/tasks/${encodeURIComponent(taskId)}/events`, {
        headers: { ...this.authHeaders(), accept: 'text/event-stream', 'last-event-id': String(lastEventId) },
        signal: controller.signal,
      });
    } catch (error) {
      signal?.removeEventListener('abort', abort);
      throw this.transportError(error, controller.signal, signal);
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok || !response.body) {
      signal?.removeEventListener('abort', abort);
      throw await this.problemError(response, controller);
    }
    return this.readEvents(response.body, controller, () => signal?.removeEventListener('abort', abort), signal);
  }

  private async *readEvents(body: ReadableStream<Uint8Array>, controller: AbortController, release: () => void, signal?: AbortSignal): AsyncGenerator<TaskEventRecord> {
    const parsed: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (message) => parsed.push(message) });
    const decoder = new TextDecoder();
    const reader = body.getReader();
    let idle: NodeJS.Timeout | undefined;
    const armIdle = (): void => {
      clearTimeout(idle);
      idle = setTimeout(() => controller.abort(new MobileClawClientError('NETWORK_ERROR', `the event stream was silent for ${this.options.streamIdleTimeoutMs} ms`, { retryable: true })), this.options.streamIdleTimeoutMs);
    };
    const max = this.options.maxStreamEventBytes;
    /** Bytes read since the last event ended (an upper bound): what the parser may hold. */
    let pendingBytes = 0;
    try {
      armIdle();
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          throw this.transportError(error, controller.signal, signal);
        }
        if (chunk.done) return;
        armIdle();
        const text = decoder.decode(chunk.value, { stream: true });
        pendingBytes += chunk.value.byteLength;
        parser.feed(text);
        if (parsed.length > 0) {
          // An event ended within this chunk: only what follows its last blank line may still be pending.
          let end = -1;
          for (const match of text.matchAll(EVENT_END)) end = match.index + match[0].length;
          pendingBytes = end < 0 ? chunk.value.byteLength : Buffer.byteLength(text.slice(end), 'utf8');
        }
        if (pendingBytes > max) {
          // A hostile or broken gateway: the event is not buffered further (the `finally` aborts the request).
          throw new MobileClawClientError('BAD_RESPONSE', `an event of the stream is larger than ${max} bytes; the stream was closed`, { retryable: true });
        }
        for (const message of parsed.splice(0)) {
          if (message.event === 'error') {
            const problem = safeJson(message.data) as { code?: string; message?: string } | undefined;
            throw new MobileClawClientError(problem?.code ?? 'INTERNAL_ERROR', problem?.message ?? 'the event stream failed', { retryable: true });
          }
          const record = safeJson(message.data) as TaskEventRecord | undefined;
          if (!record || typeof record.id !== 'number' || typeof record.type !== 'string') continue;
          yield { id: record.id, type: record.type, at: record.at, data: record.data ?? {} };
        }
      }
    } finally {
      clearTimeout(idle);
      release();
      controller.abort();
      // Also for a `fetch` that ignores the abort: the body is not read further.
      await reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
  }

  private authHeaders(): Record<string, string> {
    return this.options.apiToken ? { authorization: `Bearer ${this.options.apiToken}` } : {};
  }

  private async request<T>(method: string, path: string, init: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal }): Promise<{ json: T; headers: Headers }> {
    const controller = new AbortController();
    const abort = (): void => controller.abort(init.signal?.reason);
    init.signal?.addEventListener('abort', abort, { once: true });
    const timer = setTimeout(() => controller.abort(new MobileClawClientError('TIMEOUT', `no answer within ${this.options.requestTimeoutMs} ms`, { retryable: true })), this.options.requestTimeoutMs);
    try {
      const response = await this.options.fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { ...this.authHeaders(), accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: controller.signal,
      });
      if (!response.ok) throw await this.problemError(response, controller);
      const text = await this.readBody(response, controller, `${method} ${path}`);
      const json = safeJson(text);
      if (json === undefined) throw new MobileClawClientError('BAD_RESPONSE', `${method} ${path} answered ${response.status} without JSON`, { status: response.status, retryable: true });
      return { json: json as T, headers: response.headers };
    } catch (error) {
      if (error instanceof MobileClawClientError) throw error;
      throw this.transportError(error, controller.signal, init.signal);
    } finally {
      clearTimeout(timer);
      init.signal?.removeEventListener('abort', abort);
    }
  }

  /**
   * The answer's body as text, read as a stream up to `maxResponseBytes`.
   * @throws MobileClawClientError `BAD_RESPONSE` (retryable) past the bound, with the request aborted.
   */
  private async readBody(response: Response, controller: AbortController, what: string): Promise<string> {
    const max = this.options.maxResponseBytes;
    const tooLarge = (): MobileClawClientError => {
      controller.abort();
      return new MobileClawClientError('BAD_RESPONSE', `${what} answered ${response.status} with a body larger than ${max} bytes; it was not read`, { status: response.status, retryable: true });
    };
    if (Number(response.headers.get('content-length')) > max) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    if (!response.body) return '';
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        total += chunk.value.byteLength;
        if (total > max) {
          await reader.cancel().catch(() => undefined);
          throw tooLarge();
        }
        chunks.push(chunk.value);
      }
    } finally {
      reader.releaseLock();
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** A problem document (`{code, detail, errors?}`) as an error; 5xx and unreadable (or too large) answers are retryable. */
  private async problemError(response: Response, controller: AbortController): Promise<MobileClawClientError> {
    const problem = safeJson(await this.readBody(response, controller, 'the gateway').catch(() => '')) as { code?: string; detail?: string; title?: string; errors?: { field: string; message: string }[] } | undefined;
    const retryable = response.status >= 500 || response.status === 429 || problem?.code === 'IDEMPOTENCY_KEY_IN_PROGRESS';
    if (typeof problem?.code !== 'string') {
      return new MobileClawClientError(response.status >= 500 ? `HTTP_${response.status}` : 'BAD_RESPONSE', `the gateway answered ${response.status} ${response.statusText}`, { status: response.status, retryable: true });
    }
    return new MobileClawClientError(problem.code, problem.detail ?? problem.title ?? problem.code, { status: response.status, retryable, ...(problem.errors ? { fieldErrors: problem.errors } : {}) });
  }

  /** A failed `fetch` or body read: the caller's abort, our timeout, or the network. */
  private transportError(error: unknown, ours: AbortSignal, callers: AbortSignal | undefined): MobileClawClientError {
    if (error instanceof MobileClawClientError) return error;
    if (ours.reason instanceof MobileClawClientError) return ours.reason;
    if (callers?.aborted) return new MobileClawClientError('ABORTED', 'aborted by the caller', { cause: error });
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
    return new MobileClawClientError('NETWORK_ERROR', `the gateway could not be reached (${detail})`, { retryable: true, cause: error });
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
