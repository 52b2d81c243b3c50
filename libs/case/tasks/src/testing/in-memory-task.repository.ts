import {
  MobileClawError,
  TaskRepository,
  isTerminalTaskStatus,
  isoTimeErrors,
  retentionPolicyErrors,
  taskPageLimitErrors,
  taskStatusErrors,
  throwIfInvalid,
  transitionTask,
  type FieldError,
  type RetentionPolicy,
  type StoredImage,
  type Task,
  type TaskEvent,
  type TaskEventType,
  type TaskFilter,
  type TaskPage,
  type TaskQuery,
  type TaskStep,
} from '@mobileclaw/domain';

const MEDIA_TYPE = /^[\w.+-]+\/[\w.+-]+$/;

/** Newest first: `createdAt` descending, then `taskId` descending (the port's listing order). */
function newestFirst(a: Task, b: Task): number {
  const byTime = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  return byTime !== 0 ? byTime : a.taskId < b.taskId ? 1 : a.taskId > b.taskId ? -1 : 0;
}

/**
 * Whether another live instance holds the task at `atMs`: it has an owner other than `instanceId`
 * whose lease has not expired. Such a task is not interrupted at start-up.
 */
function heldByAnother(task: Task, instanceId: string, atMs: number): boolean {
  return task.owner !== undefined && task.owner.instanceId !== instanceId && Date.parse(task.owner.leaseExpiresAt) > atMs;
}

function indexErrors(index: number, field: string): FieldError[] {
  return Number.isSafeInteger(index) && index >= 0 ? [] : [{ field, message: `${field} must be an integer ≥ 0` }];
}


/**
 * A {@link TaskRepository} in memory, for tests of the case layer (the product uses SQLite). It
 * passes the port's contract suite and fails as the port says, with the same codes and field names
 * as the SQLite adapter; it never reports `STORAGE_ERROR` and does not restrict task ids. Values are
 * stored and handed out as copies.
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

  /** @throws MobileClawError `TASK_STATE_CONFLICT` when `task.taskId` is already stored (it stays as it was). */
  override async createTask(task: Task): Promise<void> {
    this.requireOpen();
    if (this.tasks.has(task.taskId)) throw new MobileClawError('TASK_STATE_CONFLICT', `task ${task.taskId} already exists`);
    this.tasks.set(task.taskId, structuredClone(task));
  }

  /** @throws MobileClawError `TASK_NOT_FOUND` when the task is not stored (nothing is inserted). */
  override async updateTask(task: Task): Promise<void> {
    this.requireTask(task.taskId);
    const stored = this.tasks.get(task.taskId) as Task;
    const copy = structuredClone(task);
    // The same owner never shortens its lease by writing an older copy (see TaskRepository.updateTask).
    if (copy.owner && stored.owner?.instanceId === copy.owner.instanceId && Date.parse(stored.owner.leaseExpiresAt) > Date.parse(copy.owner.leaseExpiresAt)) {
      copy.owner.leaseExpiresAt = stored.owner.leaseExpiresAt;
    }
    this.tasks.set(task.taskId, copy);
  }

  override async getTask(taskId: string): Promise<Task | undefined> {
    this.requireOpen();
    const task = this.tasks.get(taskId);
    return task && structuredClone(task);
  }

  /** @throws MobileClawError `VALIDATION_FAILED` (fields `limit`, `status`, `cursor`) for a bad limit or status, or a cursor it did not issue. */
  override async listTasks(query: TaskQuery): Promise<TaskPage> {
    this.requireOpen();
    const errors = [...taskPageLimitErrors(query.limit), ...taskStatusErrors(query.status)];
    const after = query.cursor === undefined ? undefined : this.cursors.get(query.cursor);
    if (query.cursor !== undefined && after === undefined) errors.push({ field: 'cursor', message: 'cursor must be the nextCursor of a previous page' });
    throwIfInvalid(errors, 'invalid request');
    const matching = this.matching(query)
      .filter((t) => after === undefined || newestFirst(after, t) < 0)
      .sort(newestFirst);
    const tasks = matching.slice(0, query.limit).map((t) => structuredClone(t));
    if (matching.length <= query.limit) return { tasks };
    const nextCursor = `cursor-${this.cursors.size + 1}`;
    this.cursors.set(nextCursor, structuredClone(tasks[tasks.length - 1] as Task));
    return { tasks, nextCursor };
  }

  /** @throws MobileClawError `VALIDATION_FAILED` (field `status`) for an unknown status. */
  override async countTasks(filter: TaskFilter): Promise<number> {
    this.requireOpen();
    throwIfInvalid(taskStatusErrors(filter.status), 'invalid request');
    return this.matching(filter).length;
  }

  /** @throws MobileClawError `VALIDATION_FAILED` (field `index`) for a bad index, `TASK_NOT_FOUND` when the task is not stored. */
  override async saveStep(step: TaskStep): Promise<void> {
    this.requireOpen();
    throwIfInvalid(indexErrors(step.index, 'index'), 'invalid step');
    this.requireTask(step.taskId);
    const steps = this.steps.get(step.taskId) ?? new Map<number, TaskStep>();
    steps.set(step.index, structuredClone(step));
    this.steps.set(step.taskId, steps);
  }

  override async listSteps(taskId: string): Promise<TaskStep[]> {
    this.requireOpen();
    return [...(this.steps.get(taskId)?.values() ?? [])].sort((a, b) => a.index - b.index).map((s) => structuredClone(s));
  }

  /** @throws MobileClawError `VALIDATION_FAILED` (field `at`) for a bad time, `TASK_NOT_FOUND` when the task is not stored. */
  override async appendEvent(taskId: string, type: TaskEventType, data: Record<string, unknown>, at = new Date().toISOString()): Promise<TaskEvent> {
    this.requireOpen();
    throwIfInvalid(isoTimeErrors(at, 'at'), 'invalid request');
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

  /**
   * @throws MobileClawError `VALIDATION_FAILED` (fields `stepIndex`, `mime`, `bytes`) for a bad index,
   *   mime type or bytes, `TASK_NOT_FOUND` when the task is not stored.
   */
  override async saveScreenshot(taskId: string, stepIndex: number, image: StoredImage): Promise<void> {
    this.requireOpen();
    const errors = indexErrors(stepIndex, 'stepIndex');
    if (typeof image?.mime !== 'string' || !MEDIA_TYPE.test(image.mime)) errors.push({ field: 'mime', message: 'mime must be a media type such as image/png' });
    if (!(image?.bytes instanceof Uint8Array)) errors.push({ field: 'bytes', message: 'bytes must be a Uint8Array' });
    throwIfInvalid(errors, 'invalid screenshot');
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

  /**
   * Interrupts the unfinished tasks that no other live instance holds (no owner, owned by
   * `instanceId`, or an expired lease), oldest first.
   * @throws MobileClawError `VALIDATION_FAILED` (field `at`) for a bad time.
   */
  override async interruptUnfinished(instanceId: string, reason: string, at = new Date().toISOString()): Promise<Task[]> {
    this.requireOpen();
    throwIfInvalid(isoTimeErrors(at, 'at'), 'invalid request');
    const atMs = Date.parse(at);
    const interruptible = [...this.tasks.values()]
      .filter((t) => !isTerminalTaskStatus(t.status) && !heldByAnother(t, instanceId, atMs))
      .sort((a, b) => newestFirst(b, a));
    const out: Task[] = [];
    for (const task of interruptible) {
      const updated = transitionTask(task, 'interrupted', at, { error: { code: 'INTERRUPTED', message: reason } });
      this.tasks.set(task.taskId, updated);
      await this.appendEvent(task.taskId, 'task.interrupted', { reason, status: 'interrupted' }, at);
      out.push(structuredClone(updated));
    }
    return out;
  }

  /** @throws MobileClawError `VALIDATION_FAILED` (field `leaseExpiresAt`) when it is not an ISO-8601 time. */
  override async renewLeases(instanceId: string, leaseExpiresAt: string, taskIds?: readonly string[]): Promise<number> {
    this.requireOpen();
    throwIfInvalid(isoTimeErrors(leaseExpiresAt, 'leaseExpiresAt'), 'invalid lease');
    const only = taskIds && new Set(taskIds);
    let renewed = 0;
    for (const task of this.tasks.values()) {
      if (isTerminalTaskStatus(task.status) || task.owner?.instanceId !== instanceId || (only && !only.has(task.taskId))) continue;
      if (Date.parse(task.owner.leaseExpiresAt) >= Date.parse(leaseExpiresAt)) continue;
      task.owner = { instanceId, leaseExpiresAt };
      renewed += 1;
    }
    return renewed;
  }

  /** @throws MobileClawError `VALIDATION_FAILED` (field `at`) when `at` is not an ISO-8601 time. */
  override async interruptExpired(reason: string, at = new Date().toISOString()): Promise<Task[]> {
    this.requireOpen();
    throwIfInvalid(isoTimeErrors(at, 'at'), 'invalid request');
    const atMs = Date.parse(at);
    const expired = [...this.tasks.values()]
      .filter((t) => !isTerminalTaskStatus(t.status) && t.owner !== undefined && Date.parse(t.owner.leaseExpiresAt) <= atMs)
      .sort((a, b) => newestFirst(b, a));
    const out: Task[] = [];
    for (const task of expired) {
      // A sweep running at the same time may have interrupted it since the filter above.
      if (isTerminalTaskStatus((this.tasks.get(task.taskId) as Task).status)) continue;
      const updated = transitionTask(task, 'interrupted', at, { error: { code: 'INTERRUPTED', message: reason } });
      this.tasks.set(task.taskId, updated);
      await this.appendEvent(task.taskId, 'task.interrupted', { reason, status: 'interrupted' }, at);
      out.push(structuredClone(updated));
    }
    return out;
  }

  /** @throws MobileClawError `VALIDATION_FAILED` (fields `maxAgeMs`, `maxTasks`) when `maxAgeMs` is not a number ≥ 0 or `maxTasks` not an integer ≥ 0. */
  override async prune(policy: RetentionPolicy, now = new Date()): Promise<number> {
    this.requireOpen();
    throwIfInvalid(retentionPolicyErrors(policy), 'invalid retention policy');
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
  /** Memory always takes writes; only a closed store refuses them (`SHUTTING_DOWN`). */
  override async checkWritable(): Promise<void> {
    this.requireOpen();
  }

  override async close(): Promise<void> {
    this.closed = true;
  }

  /** The stored tasks `filter` selects, in no particular order. */
  private matching(filter: TaskFilter): Task[] {
    return [...this.tasks.values()].filter(
      (t) => (filter.deviceId === undefined || t.deviceId === filter.deviceId) && (filter.status === undefined || t.status === filter.status) && (filter.contextId === undefined || t.contextId === filter.contextId),
    );
  }

  private requireOpen(): void {
    if (this.closed) throw new MobileClawError('SHUTTING_DOWN', 'the task store is closed');
  }

  /** @throws MobileClawError `TASK_NOT_FOUND` when the task is not stored. */
  private requireTask(taskId: string): void {
    this.requireOpen();
    if (!this.tasks.has(taskId)) throw new MobileClawError('TASK_NOT_FOUND', `task ${taskId} is not stored`);
  }
}
