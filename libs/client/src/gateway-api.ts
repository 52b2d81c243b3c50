import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { MobileClawClientError } from './errors';
import type { InvocationStatus, PhoneCommand } from './events';
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
}

/**
 * REST calls of the SDK. Each rejects with a {@link MobileClawClientError}: the gateway's `code` and
 * HTTP `status` for a problem answer; `NETWORK_ERROR`, `TIMEOUT` (after `requestTimeoutMs`),
 * `BAD_RESPONSE` (not the gateway's JSON) or `ABORTED` (the caller's signal) otherwise.
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
   * for `streamIdleTimeoutMs`.
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
      throw await this.problemError(response);
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
        parser.feed(decoder.decode(chunk.value, { stream: true }));
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
      if (!response.ok) throw await this.problemError(response);
      const text = await response.text();
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

  /** A problem document (`{code, detail, errors?}`) as an error; 5xx and unreadable answers are retryable. */
  private async problemError(response: Response): Promise<MobileClawClientError> {
    const problem = safeJson(await response.text().catch(() => '')) as { code?: string; detail?: string; title?: string; errors?: { field: string; message: string }[] } | undefined;
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
