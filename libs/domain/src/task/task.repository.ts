import type { Task, TaskEvent, TaskEventType, TaskStatus, TaskStep } from './task';

export interface TaskQuery {
  deviceId?: string;
  status?: TaskStatus;
  /** Page size, 1–200. */
  limit: number;
  /** Opaque cursor from a previous page's `nextCursor`. */
  cursor?: string;
}

export interface TaskPage {
  /** Newest first. */
  tasks: Task[];
  nextCursor?: string;
}

/** A stored screenshot. */
export interface StoredImage {
  mime: string;
  bytes: Uint8Array;
}

/** How much history to keep; either bound may be absent. */
export interface RetentionPolicy {
  /** Delete finished tasks that ended more than this many ms ago. */
  maxAgeMs?: number;
  /** Keep at most this many finished tasks (newest kept). */
  maxTasks?: number;
}

/**
 * Where tasks, steps, events and step screenshots live. The embedded adapter is SQLite
 * (`@mobileclaw/infrastructure`); the port keeps other databases possible. Abstract class so that it
 * doubles as the Nest DI token. Writes are durable when the returned promise resolves.
 */
export abstract class TaskRepository {
  /** @throws Error when `task.taskId` already exists. */
  abstract createTask(task: Task): Promise<void>;
  /** Replaces the stored task (matched by `taskId`). */
  abstract updateTask(task: Task): Promise<void>;
  abstract getTask(taskId: string): Promise<Task | undefined>;
  /** @throws MobileClawError `VALIDATION_FAILED` for a cursor this store did not issue. */
  abstract listTasks(query: TaskQuery): Promise<TaskPage>;

  /** Inserts or replaces the step `(step.taskId, step.index)`. */
  abstract saveStep(step: TaskStep): Promise<void>;
  /** Steps in index order. */
  abstract listSteps(taskId: string): Promise<TaskStep[]>;

  /** Appends an event with the next id of that task (1, 2, 3, …) and returns it. */
  abstract appendEvent(taskId: string, type: TaskEventType, data: Record<string, unknown>, at?: string): Promise<TaskEvent>;
  /** Events with `id > afterId` (all when absent), in id order. */
  abstract listEvents(taskId: string, afterId?: number): Promise<TaskEvent[]>;

  /** Stores the full-resolution screenshot of a step. */
  abstract saveScreenshot(taskId: string, stepIndex: number, image: StoredImage): Promise<void>;
  abstract getScreenshot(taskId: string, stepIndex: number): Promise<StoredImage | undefined>;

  /**
   * Marks every task that is not finished (`queued`, `running`, `input_required`) as `interrupted`
   * with `error {code: 'INTERRUPTED', message: reason}`, appends a `task.interrupted` event to each,
   * and returns them. Called once at start-up, after a crash or kill.
   */
  abstract interruptUnfinished(reason: string, at?: string): Promise<Task[]>;

  /** Deletes finished tasks (with steps, events, screenshots) beyond the policy; returns how many. */
  abstract prune(policy: RetentionPolicy, now?: Date): Promise<number>;

  /** Releases the database. */
  abstract close(): Promise<void>;
}
