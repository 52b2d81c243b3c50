import type { Task, TaskEvent, TaskEventType, TaskStatus, TaskStep } from './task';

/** Which tasks a listing or a count selects: each field given must match (none given = all tasks). */
export interface TaskFilter {
  deviceId?: string;
  status?: TaskStatus;
  /** Only the tasks of this conversation ({@link Task.contextId}). */
  contextId?: string;
}

export interface TaskQuery extends TaskFilter {
  /** Page size, 1–200. */
  limit: number;
  /** Opaque cursor from a previous page's `nextCursor`. */
  cursor?: string;
}

export interface TaskPage {
  /** Newest first. */
  tasks: Task[];
  /** Present when more tasks follow; pass it as the next query's `cursor`. */
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
 * (`@mobileclaw/store-sqlite`); the port keeps other databases possible. Abstract class so that it
 * doubles as the Nest DI token. Writes are durable when the returned promise resolves. Values go in
 * and come out as copies: changing an object after saving it, or one that was read, changes nothing
 * stored. Every adapter passes the contract suite `describeTaskRepositoryContract`
 * (`@mobileclaw/domain/testing`).
 *
 * Failures, the same in every adapter (and in the case layer's in-memory fake); every method
 * reports them by rejecting, never by throwing synchronously:
 * - `MobileClawError` `STORAGE_ERROR` (retryable; the original failure as `cause`) when the store
 *   itself fails — disk full, I/O error, database locked — from any method;
 * - `MobileClawError` `VALIDATION_FAILED`, with a field error per bad argument (field names as
 *   below), for arguments no store could act on; an adapter may refuse more (its own doc says what,
 *   e.g. task ids that cannot name a file);
 * - `MobileClawError` `TASK_NOT_FOUND` for a write to a task that is not stored, and
 *   `TASK_STATE_CONFLICT` for creating one that is; reads of an absent task find nothing instead;
 * - `MobileClawError` `SHUTTING_DOWN` from any method after {@link close} (the store is closed only
 *   when the gateway stops, so the caller meets a stopping gateway, not a broken store).
 */
export abstract class TaskRepository {
  /** @throws MobileClawError `TASK_STATE_CONFLICT` when `task.taskId` is already stored (it stays as it was). */
  abstract createTask(task: Task): Promise<void>;
  /**
   * Replaces the stored task (matched by `taskId`), with one exception: when the stored task and
   * `task` have the same owner instance, the later of the two `owner.leaseExpiresAt` is kept, so that
   * a write of a task copy taken before {@link renewLeases} ran never shortens the lease it renewed.
   * @throws MobileClawError `TASK_NOT_FOUND` when no task has that id (nothing is inserted).
   */
  abstract updateTask(task: Task): Promise<void>;
  /** The stored task, or undefined when there is none with that id. */
  abstract getTask(taskId: string): Promise<Task | undefined>;
  /**
   * A page of tasks, newest first: `createdAt` descending, then `taskId` descending. The next page
   * continues after the last task of this one, so tasks created in between neither repeat nor skip
   * any task on later pages.
   * @throws MobileClawError `VALIDATION_FAILED` with field `limit` (not an integer from 1 to 200),
   *   `status` (not a {@link TaskStatus}) or `cursor` (not a `nextCursor` this store issued).
   */
  abstract listTasks(query: TaskQuery): Promise<TaskPage>;
  /**
   * How many stored tasks match `filter`: as many as all pages of {@link listTasks} with that filter
   * hold together, at the moment of the call.
   * @throws MobileClawError `VALIDATION_FAILED` with field `status` (not a {@link TaskStatus}).
   */
  abstract countTasks(filter: TaskFilter): Promise<number>;

  /**
   * Inserts or replaces the step `(step.taskId, step.index)`.
   * @throws MobileClawError `TASK_NOT_FOUND` for a task that is not stored, `VALIDATION_FAILED`
   *   (field `index`) for an index that is not an integer ≥ 0.
   */
  abstract saveStep(step: TaskStep): Promise<void>;
  /** Steps in index order; empty for an absent task. */
  abstract listSteps(taskId: string): Promise<TaskStep[]>;

  /**
   * Appends an event with the next id of that task (1, 2, 3, …, no gaps, also when appends run
   * concurrently) and returns it. `at` defaults to now (ISO-8601).
   * @throws MobileClawError `TASK_NOT_FOUND` for a task that is not stored, `VALIDATION_FAILED`
   *   (field `at`) for an `at` that is not an ISO-8601 time.
   */
  abstract appendEvent(taskId: string, type: TaskEventType, data: Record<string, unknown>, at?: string): Promise<TaskEvent>;
  /** Events with `id > afterId` (all when absent), in id order; empty for an absent task. */
  abstract listEvents(taskId: string, afterId?: number): Promise<TaskEvent[]>;

  /**
   * Stores the full-resolution screenshot of a step (exact bytes and mime type), replacing an
   * earlier one of the same step.
   * @throws MobileClawError `TASK_NOT_FOUND` for a task that is not stored, `VALIDATION_FAILED`
   *   (fields `stepIndex`, `mime`, `bytes`) for an index that is not an integer ≥ 0, a `mime` that is
   *   not a media type such as `image/png`, or `bytes` that are not a Uint8Array.
   */
  abstract saveScreenshot(taskId: string, stepIndex: number, image: StoredImage): Promise<void>;
  /** The screenshot of a step, or undefined when none is stored. */
  abstract getScreenshot(taskId: string, stepIndex: number): Promise<StoredImage | undefined>;

  /**
   * Marks the unfinished tasks (`queued`, `running`, `input_required`) that no live instance holds as
   * `interrupted` with `endedAt = at` (ISO-8601, default now), `error {code: 'INTERRUPTED', message:
   * reason}`, without `queuePosition`/`pendingAction`, appends a `task.interrupted` event
   * `{reason, status: 'interrupted'}` to each, and returns them, oldest first (`createdAt`, then
   * `taskId`). Finished tasks are untouched. Called once at start-up of instance `instanceId`, after
   * a crash or kill. A task is interrupted when it has no `owner` (stored before ownership was
   * recorded), its owner is `instanceId` (the previous run of this instance), or its lease expired
   * (`owner.leaseExpiresAt <= at`); a task another instance holds is left alone.
   * @throws MobileClawError `VALIDATION_FAILED` (field `at`) for an `at` that is not an ISO-8601 time.
   */
  abstract interruptUnfinished(instanceId: string, reason: string, at?: string): Promise<Task[]>;

  /**
   * Extends to `leaseExpiresAt` (ISO-8601) the lease of every unfinished task (`queued`, `running`,
   * `input_required`) whose owner is `instanceId`, never shortening one that already ends later, and
   * returns how many tasks it extended. With `taskIds`, only those of them are extended: the tasks the
   * instance really holds, so that one it stopped holding without storing its end (a runner that
   * crashed during a store outage) expires and is swept instead of living on. A live instance calls
   * it periodically, so that the tasks it holds stay its own while they wait or run a long step,
   * whatever the step rate.
   * @throws MobileClawError `VALIDATION_FAILED` (field `leaseExpiresAt`) for a time that is not ISO-8601.
   */
  abstract renewLeases(instanceId: string, leaseExpiresAt: string, taskIds?: readonly string[]): Promise<number>;

  /**
   * Marks `interrupted`, exactly as {@link interruptUnfinished} does (same fields, same
   * `task.interrupted` event), the unfinished tasks that have an owner whose lease expired
   * (`owner.leaseExpiresAt <= at`, `at` ISO-8601, default now), and returns them oldest first. Every
   * live instance calls it periodically, so that the tasks of an instance that died end with a reason
   * instead of staying `running` forever. Tasks without an owner and tasks under an unexpired lease are
   * untouched. Atomic per task: when several instances sweep at once, each task is interrupted, and
   * its event appended, by exactly one of them.
   * @throws MobileClawError `VALIDATION_FAILED` (field `at`) for an `at` that is not an ISO-8601 time.
   */
  abstract interruptExpired(reason: string, at?: string): Promise<Task[]>;

  /**
   * Deletes finished tasks (with steps, events, screenshots) beyond the policy: those that ended
   * (their `createdAt` when they have no `endedAt`) more than `maxAgeMs` before `now`, and those
   * beyond the newest `maxTasks` finished ones (by `createdAt`, then `taskId`). Unfinished tasks are
   * never deleted. Returns how many were deleted.
   * @throws MobileClawError `VALIDATION_FAILED` with field `maxAgeMs` (not a number ≥ 0) or
   *   `maxTasks` (not an integer ≥ 0).
   */
  abstract prune(policy: RetentionPolicy, now?: Date): Promise<number>;

  /**
   * Resolves when the store can take writes now (readiness probes call it): nothing is written or
   * changed. An adapter checks what its writes need — e.g. the database's write lock and the
   * screenshot folder's permissions.
   * @throws MobileClawError `STORAGE_ERROR` naming what cannot be written, `SHUTTING_DOWN` after {@link close}.
   */
  abstract checkWritable(): Promise<void>;

  /**
   * Waits for writes in progress, then releases the store; calling it again does nothing. Every
   * other method rejects with `SHUTTING_DOWN` once it has resolved.
   */
  abstract close(): Promise<void>;
}
