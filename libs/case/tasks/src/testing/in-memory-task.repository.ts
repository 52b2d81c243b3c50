import {
  MobileClawError,
  TaskRepository,
  isTerminalTaskStatus,
  type RetentionPolicy,
  type StoredImage,
  type Task,
  type TaskEvent,
  type TaskEventType,
  type TaskPage,
  type TaskQuery,
  type TaskStep,
} from '@mobileclaw/domain';

/** A {@link TaskRepository} in memory, for tests of the case layer (the product uses SQLite). */
export class InMemoryTaskRepository extends TaskRepository {
  readonly tasks = new Map<string, Task>();
  readonly steps = new Map<string, TaskStep[]>();
  readonly events = new Map<string, TaskEvent[]>();
  readonly screenshots = new Map<string, StoredImage>();

  override async createTask(task: Task): Promise<void> {
    if (this.tasks.has(task.taskId)) throw new Error(`task ${task.taskId} exists`);
    this.tasks.set(task.taskId, structuredClone(task));
  }
  override async updateTask(task: Task): Promise<void> {
    this.tasks.set(task.taskId, structuredClone(task));
  }
  override async getTask(taskId: string): Promise<Task | undefined> {
    const task = this.tasks.get(taskId);
    return task && structuredClone(task);
  }
  override async listTasks(query: TaskQuery): Promise<TaskPage> {
    const all = [...this.tasks.values()]
      .filter((t) => (!query.deviceId || t.deviceId === query.deviceId) && (!query.status || t.status === query.status))
      .reverse();
    const start = query.cursor ? Number(query.cursor) : 0;
    if (!Number.isInteger(start) || start < 0) {
      throw new MobileClawError('VALIDATION_FAILED', 'bad cursor', { fieldErrors: [{ field: 'cursor', message: 'unknown cursor' }] });
    }
    const tasks = all.slice(start, start + query.limit).map((t) => structuredClone(t));
    return start + query.limit < all.length ? { tasks, nextCursor: String(start + query.limit) } : { tasks };
  }
  override async saveStep(step: TaskStep): Promise<void> {
    const list = this.steps.get(step.taskId) ?? [];
    list[step.index] = structuredClone(step);
    this.steps.set(step.taskId, list);
  }
  override async listSteps(taskId: string): Promise<TaskStep[]> {
    return (this.steps.get(taskId) ?? []).filter(Boolean).map((s) => structuredClone(s));
  }
  override async appendEvent(taskId: string, type: TaskEventType, data: Record<string, unknown>, at = new Date().toISOString()): Promise<TaskEvent> {
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
    this.screenshots.set(`${taskId}/${stepIndex}`, image);
  }
  override async getScreenshot(taskId: string, stepIndex: number): Promise<StoredImage | undefined> {
    return this.screenshots.get(`${taskId}/${stepIndex}`);
  }
  override async interruptUnfinished(reason: string, at = new Date().toISOString()): Promise<Task[]> {
    const out: Task[] = [];
    for (const task of this.tasks.values()) {
      if (isTerminalTaskStatus(task.status)) continue;
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
    }
    return doomed.length;
  }
  override async close(): Promise<void> {}
}
