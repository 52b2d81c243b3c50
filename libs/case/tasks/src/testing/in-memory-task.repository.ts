import {
  MobileClawError,
  TASK_STATUSES,
  TaskRepository,
  isTerminalTaskStatus,
  type FieldError,
  type RetentionPolicy,
  type StoredImage,
  type Task,
  type TaskEvent,
  type TaskEventType,
  type TaskPage,
  type TaskQuery,
  type TaskStep,
} from '@mobileclaw/domain';

/** Largest page of `listTasks`, as the port says. */
const MAX_PAGE_SIZE = 200;
/** The cursors this fake issues: the offset of the next page, ≥ 1, in canonical decimal. */
const CURSOR = /^[1-9][0-9]*$/;
const MEDIA_TYPE = /^[\w.+-]+\/[\w.+-]+$/;

/**
 * A {@link TaskRepository} in memory, for tests of the case layer (the product uses SQLite). Fails
 * as the port says, with the same codes and field names as the SQLite adapter; it never reports
 * `STORAGE_ERROR` and does not restrict task ids.
 */
export class InMemoryTaskRepository extends TaskRepository {
  readonly tasks = new Map<string, Task>();
  readonly steps = new Map<string, TaskStep[]>();
  readonly events = new Map<string, TaskEvent[]>();
  readonly screenshots = new Map<string, StoredImage>();

  override async createTask(task: Task): Promise<void> {
    if (this.tasks.has(task.taskId)) throw new MobileClawError('TASK_STATE_CONFLICT', `task ${task.taskId} already exists`);
    this.tasks.set(task.taskId, structuredClone(task));
  }
  override async updateTask(task: Task): Promise<void> {
    this.requireTask(task.taskId);
    this.tasks.set(task.taskId, structuredClone(task));
  }
  override async getTask(taskId: string): Promise<Task | undefined> {
    const task = this.tasks.get(taskId);
    return task && structuredClone(task);
  }
  override async listTasks(query: TaskQuery): Promise<TaskPage> {
    const errors: FieldError[] = [];
    if (!Number.isSafeInteger(query.limit) || query.limit < 1 || query.limit > MAX_PAGE_SIZE) {
      errors.push({ field: 'limit', message: `limit must be an integer from 1 to ${MAX_PAGE_SIZE}` });
    }
    if (query.status !== undefined && !TASK_STATUSES.includes(query.status)) {
      errors.push({ field: 'status', message: `status must be one of ${TASK_STATUSES.join(', ')}` });
    }
    if (query.cursor !== undefined && !CURSOR.test(query.cursor)) errors.push({ field: 'cursor', message: 'cursor must be the nextCursor of a previous page' });
    throwIfInvalid(errors, 'invalid request');
    const all = [...this.tasks.values()]
      .filter((t) => (!query.deviceId || t.deviceId === query.deviceId) && (!query.status || t.status === query.status))
      .reverse();
    const start = query.cursor === undefined ? 0 : Number(query.cursor);
    const tasks = all.slice(start, start + query.limit).map((t) => structuredClone(t));
    return start + query.limit < all.length ? { tasks, nextCursor: String(start + query.limit) } : { tasks };
  }
  override async saveStep(step: TaskStep): Promise<void> {
    throwIfInvalid(indexErrors(step.index, 'index'), 'invalid step');
    this.requireTask(step.taskId);
    const list = this.steps.get(step.taskId) ?? [];
    list[step.index] = structuredClone(step);
    this.steps.set(step.taskId, list);
  }
  override async listSteps(taskId: string): Promise<TaskStep[]> {
    return (this.steps.get(taskId) ?? []).filter(Boolean).map((s) => structuredClone(s));
  }
  override async appendEvent(taskId: string, type: TaskEventType, data: Record<string, unknown>, at = new Date().toISOString()): Promise<TaskEvent> {
    throwIfInvalid(timeErrors(at, 'at'), 'invalid request');
    this.requireTask(taskId);
    const list = this.events.get(taskId) ?? [];
    const event: TaskEvent = { taskId, id: list.length + 1, type, at, data: structuredClone(data) };
    list.push(event);
    this.events.set(taskId, list);
    return structuredClone(event);
  }
  override async listEvents(taskId: string, afterId = 0): Promise<TaskEvent[]> {
    return (this.events.get(taskId) ?? []).filter((e) => e.id > afterId).map((e) => structuredClone(e));
  }
  override async saveScreenshot(taskId: string, stepIndex: number, image: StoredImage): Promise<void> {
    const errors = indexErrors(stepIndex, 'stepIndex');
    if (typeof image?.mime !== 'string' || !MEDIA_TYPE.test(image.mime)) errors.push({ field: 'mime', message: 'mime must be a media type such as image/png' });
    if (!(image?.bytes instanceof Uint8Array)) errors.push({ field: 'bytes', message: 'bytes must be a Uint8Array' });
    throwIfInvalid(errors, 'invalid screenshot');
    this.requireTask(taskId);
    this.screenshots.set(`${taskId}/${stepIndex}`, image);
  }
  override async getScreenshot(taskId: string, stepIndex: number): Promise<StoredImage | undefined> {
    return this.screenshots.get(`${taskId}/${stepIndex}`);
  }
  override async interruptUnfinished(instanceId: string, reason: string, at = new Date().toISOString()): Promise<Task[]> {
    throwIfInvalid(timeErrors(at, 'at'), 'invalid request');
    const out: Task[] = [];
    for (const task of this.tasks.values()) {
      if (isTerminalTaskStatus(task.status)) continue;
      const held = task.owner !== undefined && task.owner.instanceId !== instanceId && Date.parse(task.owner.leaseExpiresAt) > Date.parse(at);
      if (held) continue;
      const updated: Task = { ...task, status: 'interrupted', endedAt: at, error: { code: 'INTERRUPTED', message: reason } };
      delete updated.queuePosition;
      delete updated.pendingAction;
      this.tasks.set(task.taskId, updated);
      await this.appendEvent(task.taskId, 'task.interrupted', { reason, status: 'interrupted' }, at);
      out.push(structuredClone(updated));
    }
    return out;
  }
  override async prune(policy: RetentionPolicy, now = new Date()): Promise<number> {
    const errors: FieldError[] = [];
    if (policy.maxAgeMs !== undefined && !(Number.isFinite(policy.maxAgeMs) && policy.maxAgeMs >= 0)) errors.push({ field: 'maxAgeMs', message: 'maxAgeMs must be a number of ms ≥ 0' });
    if (policy.maxTasks !== undefined && !(Number.isSafeInteger(policy.maxTasks) && policy.maxTasks >= 0)) errors.push({ field: 'maxTasks', message: 'maxTasks must be an integer ≥ 0' });
    throwIfInvalid(errors, 'invalid retention policy');
    const finished = [...this.tasks.values()].filter((t) => isTerminalTaskStatus(t.status)).reverse();
    const doomed = finished.filter(
      (t, i) =>
        (policy.maxTasks !== undefined && i >= policy.maxTasks) ||
        (policy.maxAgeMs !== undefined && now.getTime() - Date.parse(t.endedAt ?? t.createdAt) > policy.maxAgeMs),
    );
    for (const t of doomed) {
      this.tasks.delete(t.taskId);
      this.steps.delete(t.taskId);
      this.events.delete(t.taskId);
      for (const key of this.screenshots.keys()) if (key.startsWith(`${t.taskId}/`)) this.screenshots.delete(key);
    }
    return doomed.length;
  }
  override async close(): Promise<void> {}

  /** @throws MobileClawError `TASK_NOT_FOUND` when the task is not stored. */
  private requireTask(taskId: string): void {
    if (!this.tasks.has(taskId)) throw new MobileClawError('TASK_NOT_FOUND', `task ${taskId} is not stored`);
  }
}

function indexErrors(index: number, field: string): FieldError[] {
  return Number.isSafeInteger(index) && index >= 0 ? [] : [{ field, message: `${field} must be an integer ≥ 0` }];
}

function timeErrors(value: string, field: string): FieldError[] {
  return typeof value === 'string' && Number.isFinite(Date.parse(value)) ? [] : [{ field, message: `${field} must be an ISO-8601 time` }];
}

function throwIfInvalid(errors: FieldError[], what: string): void {
  if (errors.length === 0) return;
  throw new MobileClawError('VALIDATION_FAILED', `${what}: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, { fieldErrors: errors });
}
