import type {
  DeviceController,
  DeviceInfo,
  MemoryFlushResult,
  MemoryOrganizeResult,
  MemoryRecord,
  MemoryRecordPage,
  MemorySearchResult,
  MemoryStatus,
  PairingInfo,
  Problem,
  SavedSkill,
  StoredMemoryLayer,
  TaskAccepted,
  Task,
  TaskPage,
  TaskStatus,
  TaskWithSteps,
  ToolList,
} from './api-types.js';

/** The page's hold on a phone (`POST /api/devices/:id/takeover` answer). */
export interface Takeover extends DeviceController {
  deviceId: string;
  /** How long the hold lasts from each renewal, ms. */
  leaseMs: number;
  /** The task the takeover paused, if one runs on the phone. */
  taskId?: string;
}

/** One action of a phone's holder; points in device px. */
export type TakeoverAction =
  | { type: 'tap'; x: number; y: number }
  | { type: 'swipe'; from: { x: number; y: number }; to: { x: number; y: number }; durationMs?: number }
  | { type: 'type'; text: string }
  | { type: 'back' }
  | { type: 'home' };

/** localStorage key of the API token the user typed (only needed when the gateway has one). */
const TOKEN_KEY = 'mobileclaw.apiToken';

/** A failed API call: `detail` is the problem's human-readable text, `code` its stable code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }

  get code(): string | undefined {
    return this.problem.code;
  }
}

/** A failed request as text: the problem's stable code when it has one, then its detail, e.g. `SKILL_EXISTS: …`. */
export function describeFailure(err: unknown): string {
  if (err instanceof ApiError) return err.code ? `${err.code}: ${err.message}` : err.message;
  return err instanceof Error ? err.message : String(err);
}

/** Body of `POST /api/tasks`. */
export interface StartTaskRequest {
  deviceId: string;
  goal: string;
  /** 1–200; the gateway's default when absent. */
  maxSteps?: number;
  /** `reject`: answer 409 DEVICE_BUSY instead of queueing behind a running task. */
  onBusy?: 'queue' | 'reject';
}

/** Filters and paging of `GET /api/tasks`. */
export interface ListTasksQuery {
  deviceId?: string;
  status?: TaskStatus;
  limit?: number;
  cursor?: string;
}

/**
 * The gateway's REST API on the page's own origin. Sends `Authorization: Bearer <token>` when the user
 * saved a token; {@link withToken} adds it as `?access_token=` to URLs the browser loads itself
 * (EventSource, images), which cannot carry headers.
 */
export class ApiClient {
  constructor(private readonly storage: Storage = window.localStorage) {}

  get token(): string {
    return this.storage.getItem(TOKEN_KEY) ?? '';
  }

  set token(value: string) {
    if (value.trim()) this.storage.setItem(TOKEN_KEY, value.trim());
    else this.storage.removeItem(TOKEN_KEY);
  }

  /** `path` (e.g. `/api/tasks/x/events?lastEventId=3`) with `access_token` added when a token is saved. */
  withToken(path: string): string {
    if (!this.token) return path;
    const url = new URL(path, window.location.origin);
    url.searchParams.set('access_token', this.token);
    return url.pathname + url.search;
  }

  listDevices(): Promise<{ devices: DeviceInfo[] }> {
    return this.request('GET', '/api/devices');
  }

  listTasks(query: ListTasksQuery = {}): Promise<TaskPage> {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
    const search = params.toString();
    return this.request('GET', `/api/tasks${search ? `?${search}` : ''}`);
  }

  getTask(taskId: string): Promise<TaskWithSteps> {
    return this.request('GET', `/api/tasks/${encodeURIComponent(taskId)}`);
  }

  startTask(body: StartTaskRequest): Promise<TaskAccepted> {
    return this.request('POST', '/api/tasks', body);
  }

  cancelTask(taskId: string): Promise<Task> {
    return this.request('POST', `/api/tasks/${encodeURIComponent(taskId)}/cancel`);
  }

  /** The pairing link and QR code for a new phone (it holds the device token). */
  getPairing(): Promise<PairingInfo> {
    return this.request('GET', '/api/pairing');
  }

  /** Answers a task waiting in `input_required`. */
  approve(taskId: string, approve: boolean): Promise<Task> {
    return this.request('POST', `/api/tasks/${encodeURIComponent(taskId)}/approval`, { approve });
  }

  /** Takes the phone over for this page's holder, or renews its hold (`POST /api/devices/:id/takeover`). */
  takeOver(deviceId: string, holder: { holderId: string; holder: string }): Promise<Takeover> {
    return this.request('POST', `/api/devices/${encodeURIComponent(deviceId)}/takeover`, holder);
  }

  /** Hands the phone back (`DELETE /api/devices/:id/takeover`). */
  handBack(deviceId: string, holderId: string): Promise<DeviceController> {
    return this.request('DELETE', `/api/devices/${encodeURIComponent(deviceId)}/takeover?holderId=${encodeURIComponent(holderId)}`);
  }

  /** One action of the phone's holder (`POST /api/devices/:id/takeover/actions`); points in device px. */
  takeoverAction(deviceId: string, action: TakeoverAction & { holderId: string }): Promise<{ taskId?: string; stepIndex?: number }> {
    return this.request('POST', `/api/devices/${encodeURIComponent(deviceId)}/takeover/actions`, action);
  }

  /** Every tool of the registry, with the merge's decisions, and what its sources could not load (`GET /api/tools`). */
  listTools(): Promise<ToolList> {
    return this.request('GET', '/api/tools');
  }

  /**
   * Saves a completed task as a skill (`POST /api/tasks/:taskId/skill`).
   * @throws ApiError `SKILL_EXISTS` (409, the name is taken), `TASK_STATE_CONFLICT` (409, the task is not
   *   completed), `VALIDATION_FAILED` (a bad name), `TASK_NOT_FOUND` (404).
   */
  async saveTaskAsSkill(taskId: string, name: string): Promise<SavedSkill> {
    const answer = await this.request<{ skill: SavedSkill }>('POST', `/api/tasks/${encodeURIComponent(taskId)}/skill`, { name });
    return answer.skill;
  }

  /**
   * Replays a learned skill on a phone, without a model (`POST /api/skills/:name/replay`): the task it created.
   * @throws ApiError `TOOL_NOT_FOUND` (404, no learned skill of that name), `DEVICE_NOT_FOUND` (404).
   */
  replaySkill(name: string, deviceId: string): Promise<Task> {
    return this.request('POST', `/api/skills/${encodeURIComponent(name)}/replay`, { deviceId });
  }

  /** What the memory runs with: semantic search on or off, the summariser, how many memories (`GET /api/memory/status`). */
  memoryStatus(): Promise<MemoryStatus> {
    return this.request('GET', '/api/memory/status');
  }

  /**
   * Searches a scope's memory (`GET /api/memory?scope=&q=`): hits with layer, source, score parts and age.
   * @throws ApiError `VALIDATION_FAILED` (400: a bad scope, an empty or over-long query).
   */
  searchMemory(scope: string, query: string): Promise<MemorySearchResult> {
    return this.request('GET', `/api/memory?${new URLSearchParams({ scope, q: query }).toString()}`);
  }

  /** A page of a scope's stored memories of one layer, newest first (`GET /api/memory/records`). */
  memoryRecords(scope: string, layer: StoredMemoryLayer, limit = 50): Promise<MemoryRecordPage> {
    return this.request('GET', `/api/memory/records?${new URLSearchParams({ scope, layer, limit: String(limit) }).toString()}`);
  }

  /** Remembers a text in a scope (`POST /api/memory`): the stored records (daily, and curated when it is one). */
  async remember(scope: string, text: string): Promise<MemoryRecord[]> {
    return (await this.request<{ records: MemoryRecord[] }>('POST', '/api/memory', { scope, text })).records;
  }

  /** Forgets a memory for good (`DELETE /api/memory/:id`): the records removed. @throws ApiError `MEMORY_NOT_FOUND` (404). */
  async forget(id: string): Promise<MemoryRecord[]> {
    return (await this.request<{ deleted: MemoryRecord[] }>('DELETE', `/api/memory/${encodeURIComponent(id)}`)).deleted;
  }

  /** Flushes a scope's session into its daily memory (`POST /api/memory/flush`). */
  flushMemory(scope: string): Promise<MemoryFlushResult> {
    return this.request('POST', '/api/memory/flush', { scope });
  }

  /** Organizes a scope's long-term memory (`POST /api/memory/organize`). */
  organizeMemory(scope: string): Promise<MemoryOrganizeResult> {
    return this.request('POST', '/api/memory/organize', { scope });
  }

  /** @throws ApiError with the problem details on a non-2xx answer (or a synthetic one when the body is not JSON). */
  private async request<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let response: Response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (err) {
      throw new ApiError(0, { title: 'Network error', detail: `the gateway cannot be reached (${err instanceof Error ? err.message : String(err)})`, code: 'NETWORK_ERROR' });
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const problem = json && typeof json === 'object' ? (json as Problem) : { status: response.status, detail: `${response.status} ${response.statusText}` };
      throw new ApiError(response.status, problem);
    }
    return json as T;
  }
}
