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

/** Largest page of {@link InMemoryTaskRepository.listTasks}, as the port documents. */
const MAX_TASK_PAGE_SIZE = 200;

/** Newest first: `createdAt` descending, then `taskId` descending (the port's listing order). */
function newestFirst(a: Task, b: Task): number {
  const byTime = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  return byTime !== 0 ? byTime : a.taskId < b.taskId ? 1 : a.taskId > b.taskId ? -1 : 0;
}

function validationFailed(errors: FieldError[]): MobileClawError {
  return new MobileClawError('VALIDATION_FAILED', `invalid request: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, { fieldErrors: errors });
}

function taskNotFound(taskId: string): MobileClawError {
  return new MobileClawError('TASK_NOT_FOUND', `task ${taskId} is not stored`);
}

/**
 * A {@link TaskRepository} in memory, for tests of the case layer (the product uses SQLite). It
 * passes the port's contract suite; values are stored and handed out as copies.
 */
export class InMemoryTaskRepository extends TaskRepository {
  private readonly tasks = new Map<string, Task>();
  private readonly steps = new Map<string, Map<number, TaskStep>>();
  private readonly events = new Map<string, TaskEvent[]>();
  /** Screenshots by task id, then step index. */
  private readonly screenshots = new Map<string, Map<number, StoredImage>>();
  /** Cursors this store issued: the last task of the page each one follows. */
  private readonly cursors = new Map<string, Task>();
  private closed = false;

  override async createTask(task: Task): Promise<void> {
    this.requireOpen();
    if (this.tasks.has(task.taskId)) throw new Error(`task ${task.taskId} exists`);
    this.tasks.set(task.taskId, structuredClone(task));
  }

  /** @throws MobileClawError `TASK_NOT_FOUND` when the task is not stored. */
  override async updateTask(task: Task): Promise<void> {
    this.requireTask(task.taskId);
    this.tasks.set(task.taskId, structuredClone(task));
  }

  override async getTask(taskId: string): Promise<Task | undefined> {
    this.requireOpen();
    const task = this.tasks.get(taskId);
    return task && structuredClone(task);
  }

  /** @throws MobileClawError `VALIDATION_FAILED` for a bad limit or status, or a cursor it did not issue. */
  override async listTasks(query: TaskQuery): Promise<TaskPage> {
    this.requireOpen();
    const errors: FieldError[] = [];
    if (!Number.isSafeInteger(query.limit) || query.limit < 1 || query.limit > MAX_TASK_PAGE_SIZE) {
      errors.push({ field: 'limit', message: `limit must be an integer from 1 to ${MAX_TASK_PAGE_SIZE}` });
    }
    if (query.status !== undefined && !TASK_STATUSES.includes(query.status)) errors.push({ field: 'status', message: `status must be one of ${TASK_STATUSES.join(', ')}` });
    const after = query.cursor === undefined ? undefined : this.cursors.get(query.cursor);
    if (query.cursor !== undefined && after === undefined) errors.push({ field: 'cursor', message: 'cursor must be the nextCursor of a previous page' });
    if (errors.length > 0) throw validationFailed(errors);
    const matching = [...this.tasks.values()]
      .filter((t) => (query.deviceId === undefined || t.deviceId === query.deviceId) && (query.status === undefined || t.status === query.status))
      .filter((t) => after === undefined || newestFirst(after, t) < 0)
      .sort(newestFirst);
    const tasks = matching.slice(0, query.limit).map((t) => structuredClone(t));
    if (matching.length <= query.limit) return { tasks };
    const nextCursor = `cursor-${this.cursors.size + 1}`;
    this.cursors.set(nextCursor, structuredClone(tasks[tasks.length - 1] as Task));
    return { tasks, nextCursor };
  }

  /** @throws MobileClawError `TASK_NOT_FOUND` when the task is not stored. */
  override async saveStep(step: TaskStep): Promise<void> {
    this.requireTask(step.taskId);
    const steps = this.steps.get(step.taskId) ?? new Map<number, TaskStep>();
    steps.set(step.index, structuredClone(step));
    this.steps.set(step.taskId, steps);
  }

  override async listSteps(taskId: string): Promise<TaskStep[]> {
    this.requireOpen();
    return [...(this.steps.get(taskId)?.values() ?? [])].sort((a, b) => a.index - b.index).map((s) => structuredClone(s));
  }

  /** @throws MobileClawError `TASK_NOT_FOUND` when the task is not stored. */
  override async appendEvent(taskId: string, type: TaskEventType, data: Record<string, unknown>, at = new Date().toISOString()): Promise<TaskEvent> {
    this.requireTask(taskId);
    const list = this.events.get(taskId) ?? [];
    const event: TaskEvent = { taskId, id: list.length + 1, type, at, data: structuredClone(data) };
    list.push(event);
    this.events.set(taskId, list);
    return structuredClone(event);
  }

  override async listEvents(taskId: string, afterId = 0): Promise<TaskEvent[]> {
    this.requireOpen();
    return (this.events.get(taskId) ?? []).filter((e) => e.id > afterId).map((e) => structuredClone(e));
  }

  /** @throws MobileClawError `TASK_NOT_FOUND` when the task is not stored. */
  override async saveScreenshot(taskId: string, stepIndex: number, image: StoredImage): Promise<void> {
    this.requireTask(taskId);
    const images = this.screenshots.get(taskId) ?? new Map<number, StoredImage>();
    images.set(stepIndex, { mime: image.mime, bytes: new Uint8Array(image.bytes) });
    this.screenshots.set(taskId, images);
  }

  override async getScreenshot(taskId: string, stepIndex: number): Promise<StoredImage | undefined> {
    this.requireOpen();
    const image = this.screenshots.get(taskId)?.get(stepIndex);
    return image && { mime: image.mime, bytes: new Uint8Array(image.bytes) };
  }

  override async interruptUnfinished(reason: string, at = new Date().toISOString()): Promise<Task[]> {
    this.requireOpen();
    const unfinished = [...this.tasks.values()].filter((t) => !isTerminalTaskStatus(t.status)).sort((a, b) => newestFirst(b, a));
    const out: Task[] = [];
    for (const task of unfinished) {
      const updated: Task = { ...task, status: 'interrupted', endedAt: at, error: { code: 'INTERRUPTED', message: reason } };
      delete updated.queuePosition;
      delete updated.pendingAction;
      this.tasks.set(task.taskId, updated);
      await this.appendEvent(task.taskId, 'task.interrupted', { reason, status: 'interrupted' }, at);
      out.push(structuredClone(updated));
    }
    return out;
  }

  /** @throws MobileClawError `VALIDATION_FAILED` when `maxAgeMs` is not a number ≥ 0 or `maxTasks` not an integer ≥ 0. */
  override async prune(policy: RetentionPolicy, now = new Date()): Promise<number> {
    this.requireOpen();
    const errors: FieldError[] = [];
    if (policy.maxAgeMs !== undefined && !(Number.isFinite(policy.maxAgeMs) && policy.maxAgeMs >= 0)) errors.push({ field: 'maxAgeMs', message: 'maxAgeMs must be a number of ms ≥ 0' });
    if (policy.maxTasks !== undefined && !(Number.isSafeInteger(policy.maxTasks) && policy.maxTasks >= 0)) errors.push({ field: 'maxTasks', message: 'maxTasks must be an integer ≥ 0' });
    if (errors.length > 0) throw validationFailed(errors);
    const finished = [...this.tasks.values()].filter((t) => isTerminalTaskStatus(t.status)).sort(newestFirst);
    const doomed = finished.filter(
      (t, i) =>
        (policy.maxTasks !== undefined && i >= policy.maxTasks) ||
        (policy.maxAgeMs !== undefined && now.getTime() - Date.parse(t.endedAt ?? t.createdAt) > policy.maxAgeMs),
    );
    for (const t of doomed) {
      this.tasks.delete(t.taskId);
      this.steps.delete(t.taskId);
      this.events.delete(t.taskId);
      this.screenshots.delete(t.taskId);
    }
    return doomed.length;
  }

  /** Every other method rejects afterwards. */
  override async close(): Promise<void> {
    this.closed = true;
  }

  private requireOpen(): void {
    if (this.closed) throw new Error('the task store is closed');
  }

  private requireTask(taskId: string): void {
    this.requireOpen();
    if (!this.tasks.has(taskId)) throw taskNotFound(taskId);
  }
}
