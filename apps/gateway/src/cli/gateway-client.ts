import { EventSource, type EventSourceFetchInit } from 'eventsource';
import { TASK_EVENT_TYPES, type Command, type CommandResult, type DeviceInfo, type TaskEvent } from '@mobileclaw/domain';
import type { TaskAccepted, TaskPageResource, TaskResource, TaskWithStepsResource } from '@mobileclaw/trigger-rest';
import { networkErrorDetail } from '../mcp-endpoint';
import type { GatewayTarget } from './gateway-target';

/** A field the gateway found invalid (`VALIDATION_FAILED`). */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * Why a request to the gateway failed. `unreachable`: no MobileClaw gateway answered (`detail` says
 * what happened instead: `connection refused`, `HTTP 502 Bad Gateway`, an answer that is not the
 * gateway's). `problem`: the gateway answered an error (RFC 9457 problem details), `code` from the
 * error catalog (README, "Errors"), `detail` its message.
 */
export class GatewayRequestError extends Error {
  override name = 'GatewayRequestError';
  constructor(
    readonly kind: 'unreachable' | 'problem',
    readonly detail: string,
    readonly status?: number,
    readonly code?: string,
    readonly fieldErrors?: FieldError[],
  ) {
    super(code ? `${code}: ${detail}` : detail);
  }
}

/** `POST /api/tasks` body. */
export interface StartTaskRequest {
  deviceId: string;
  goal: string;
  maxSteps?: number;
  onBusy?: 'queue' | 'reject';
}

/** `GET /api/tasks` filters. */
export interface ListTasksRequest {
  deviceId?: string;
  status?: string;
  limit?: number;
  cursor?: string;
}

/** A screenshot as `GET /api/devices/:deviceId/screenshot` answers it. */
export interface Screenshot {
  bytes: Uint8Array;
  /** `image/png` or `image/jpeg`. */
  mime: string;
  /** Image size in px. */
  width: number;
  height: number;
  frameId?: string;
}

/** What {@link GatewayClient.followTaskEvents} reports besides the events. */
export interface TaskEventHandlers {
  /** Each task event, in id order, once. */
  event(event: TaskEvent): void;
  /** The stream is open (again, after a reconnect). */
  connected?(): void;
  /** The connection was lost; the library reconnects after the gateway's `retry` delay, sending `Last-Event-ID`. */
  reconnecting?(detail: string): void;
  /** The stream cannot go on: the gateway refused it (token, unknown task) or sent an `error` event. */
  failed(error: GatewayRequestError): void;
}

/** An open task event stream. */
export interface TaskEventStream {
  close(): void;
}

/** An answer of `fetch` that is a problem document of the gateway (`application/problem+json` with a `code`). */
interface ProblemDocument {
  code: string;
  detail?: string;
  title?: string;
  errors?: FieldError[];
}

/**
 * The gateway's REST API (README, "REST API") over Node's fetch, and a task's event stream over the
 * `eventsource` library (WHATWG EventSource semantics: it reconnects after the gateway's `retry`
 * delay with `Last-Event-ID`, so the stream resumes exactly after the last event received). Every
 * method rejects with {@link GatewayRequestError}.
 */
export class GatewayClient {
  constructor(readonly target: GatewayTarget) {}

  /** `GET /api/devices`: every phone the gateway has seen, online ones first. */
  async listDevices(): Promise<DeviceInfo[]> {
    return (await this.json<{ devices: DeviceInfo[] }>('GET', '/api/devices')).devices;
  }

  /** `GET /api/devices/:deviceId`. @throws GatewayRequestError `DEVICE_NOT_FOUND` (404). */
  getDevice(deviceId: string): Promise<DeviceInfo> {
    return this.json('GET', `/api/devices/${encodeURIComponent(deviceId)}`);
  }

  /**
   * `POST /api/devices/:deviceId/commands`: one command, awaited until the phone answers.
   * @param options.timeoutMs the command's deadline in ms (queue time included); default the gateway's.
   */
  execute(deviceId: string, command: Command, options: { timeoutMs?: number; frameId?: string } = {}): Promise<CommandResult> {
    return this.json('POST', `/api/devices/${encodeURIComponent(deviceId)}/commands`, { ...command, ...options });
  }

  /** `GET /api/devices/:deviceId/screenshot`: the phone's screen as an image. */
  async screenshot(deviceId: string, options: { format?: 'png' | 'jpeg'; quality?: number; maxWidth?: number } = {}): Promise<Screenshot> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(options)) if (value !== undefined) query.set(name, String(value));
    const response = await this.send('GET', `/api/devices/${encodeURIComponent(deviceId)}/screenshot${query.size > 0 ? `?${query}` : ''}`);
    const mime = response.headers.get('content-type') ?? '';
    if (!mime.startsWith('image/')) throw this.notTheGateway(response);
    const frameId = response.headers.get('x-frame-id');
    return {
      bytes: new Uint8Array(await response.arrayBuffer()),
      mime,
      width: Number(response.headers.get('x-image-width')),
      height: Number(response.headers.get('x-image-height')),
      ...(frameId ? { frameId } : {}),
    };
  }

  /** `POST /api/tasks`: 202 with the task id and where to follow it. */
  startTask(request: StartTaskRequest): Promise<TaskAccepted> {
    return this.json('POST', '/api/tasks', request);
  }

  /** `GET /api/tasks`: a page of tasks, newest first. */
  listTasks(request: ListTasksRequest = {}): Promise<TaskPageResource> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(request)) if (value !== undefined) query.set(name, String(value));
    return this.json('GET', `/api/tasks${query.size > 0 ? `?${query}` : ''}`);
  }

  /** `GET /api/tasks/:taskId`: the task with its steps. @throws GatewayRequestError `TASK_NOT_FOUND` (404). */
  getTask(taskId: string): Promise<TaskWithStepsResource> {
    return this.json('GET', `/api/tasks/${encodeURIComponent(taskId)}`);
  }

  /** `POST /api/tasks/:taskId/cancel`. @throws GatewayRequestError `TASK_STATE_CONFLICT` (409) for a finished task. */
  cancelTask(taskId: string): Promise<TaskResource> {
    return this.json('POST', `/api/tasks/${encodeURIComponent(taskId)}/cancel`);
  }

  /** `POST /api/tasks/:taskId/approval`. @throws GatewayRequestError `TASK_STATE_CONFLICT` (409) when the task waits for no approval. */
  answerApproval(taskId: string, approve: boolean): Promise<TaskResource> {
    return this.json('POST', `/api/tasks/${encodeURIComponent(taskId)}/approval`, { approve });
  }

  /**
   * `GET /api/tasks/:taskId/events` from event `after + 1` on: the recorded events, then the live
   * ones. A connection lost once the stream was open is resumed by the library; a refused stream
   * or a first connection that fails is reported through `failed`. The caller closes the stream
   * (after the terminal event: the gateway ends the stream there, and EventSource would otherwise
   * reconnect).
   */
  followTaskEvents(taskId: string, handlers: TaskEventHandlers, after = 0): TaskEventStream {
    const url = this.url(`/api/tasks/${encodeURIComponent(taskId)}/events${after > 0 ? `?lastEventId=${after}` : ''}`);
    let refusal: GatewayRequestError | undefined;
    let connectionError = 'connection lost';
    const source = new EventSource(url, {
      // The token goes in a header (EventSource in a browser cannot set one; this library can).
      fetch: async (input: string | URL, init: EventSourceFetchInit) => {
        let response: Response;
        try {
          response = await fetch(input, { ...init, headers: { ...init.headers, ...this.authorization() } });
        } catch (error) {
          connectionError = networkErrorDetail(error);
          throw error;
        }
        // The library reports a refused stream by its status alone: keep the gateway's own reason.
        if (response.status !== 200) refusal = await this.failure(response);
        return response;
      },
    });
    let lastId = after;
    let opened = false;
    let closed = false;
    const close = () => {
      closed = true;
      source.close();
    };
    for (const type of TASK_EVENT_TYPES) {
      source.addEventListener(type, (message: MessageEvent) => {
        const event = JSON.parse(String(message.data)) as TaskEvent;
        if (closed || event.id <= lastId) return;
        lastId = event.id;
        handlers.event(event);
      });
    }
    source.addEventListener('open', () => {
      opened = true;
      handlers.connected?.();
    });
    source.addEventListener('error', (error: Event) => {
      if (closed) return;
      // The gateway's own `error` event (the journal failed): a message with a body, not a connection error.
      if (error instanceof MessageEvent) {
        const { code, message } = JSON.parse(String(error.data)) as { code: string; message: string };
        close();
        handlers.failed(new GatewayRequestError('problem', message, undefined, code));
        return;
      }
      // Refused (the library gives up), or no gateway at all yet: retrying would only wait forever.
      if (source.readyState === source.CLOSED || !opened) {
        close();
        handlers.failed(refusal ?? new GatewayRequestError('unreachable', connectionError));
        return;
      }
      handlers.reconnecting?.(connectionError);
    });
    return { close };
  }

  private url(path: string): string {
    return `${this.target.url.origin}${this.target.url.pathname.replace(/\/$/, '')}${path}`;
  }

  private authorization(): Record<string, string> {
    return this.target.token ? { Authorization: `Bearer ${this.target.token}` } : {};
  }

  private async json<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const response = await this.send(method, path, body);
    const text = await response.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      throw this.notTheGateway(response);
    }
  }

  /** One request; resolves with a 2xx response, rejects with the failure otherwise. */
  private async send(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.authorization() };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(this.url(path), { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' });
    } catch (error) {
      throw new GatewayRequestError('unreachable', networkErrorDetail(error));
    }
    if (response.status >= 200 && response.status < 300) return response;
    throw await this.failure(response);
  }

  /** The gateway's problem document of a failed answer, or `unreachable` when the answer is not the gateway's. */
  private async failure(response: Response): Promise<GatewayRequestError> {
    const text = await response.text().catch(() => '');
    let problem: Partial<ProblemDocument> = {};
    try {
      problem = JSON.parse(text) as Partial<ProblemDocument>;
    } catch {
      // not JSON: not the gateway's answer
    }
    if (typeof problem?.code !== 'string') return this.notTheGateway(response);
    return new GatewayRequestError('problem', problem.detail ?? problem.title ?? problem.code, response.status, problem.code, problem.errors);
  }

  private notTheGateway(response: Response): GatewayRequestError {
    return new GatewayRequestError('unreachable', `HTTP ${response.status} ${response.statusText} is not a MobileClaw gateway's answer`.replace('  ', ' '), response.status);
  }
}
