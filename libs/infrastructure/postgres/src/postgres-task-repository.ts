import { Logger } from '@nestjs/common';
import {
  MAX_TASK_PAGE_SIZE,
  MobileClawError,
  TASK_STATUSES,
  TERMINAL_TASK_STATUSES,
  TaskRepository,
  retentionPolicyErrors,
  taskPageLimitErrors,
  taskStatusErrors,
  throwIfInvalid,
  transitionTask,
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
import {
  CorruptRecordError,
  decodeRows,
  decodeTaskCursor,
  encodeTaskCursor,
  eventFromRow,
  requireTime,
  screenshotKeyErrors,
  stepFromRow,
  stepToRow,
  storedImageErrors,
  taskFromRow,
  taskNotFound,
  taskToRow,
  taskToolsFromRow,
  taskToolsToRow,
  type CorruptRecord,
  type EventRow,
  type StepRow,
  type TaskRow,
} from '@mobileclaw/store-records';
import type { PostgresDatabase, PostgresQueryable } from './postgres-database';
import { sqlState } from './storage-error';
import { StoreOperations } from './store-operations';

/** Largest page of {@link PostgresTaskRepository.listTasks} (the port's). */
export { MAX_TASK_PAGE_SIZE };

export interface PostgresTaskRepositoryOptions {
  /** Called once per stored record that cannot be decoded (skipped by reads). Default: logs an error. */
  onCorruptRecord?: (record: CorruptRecord) => void;
}

/** A task row with its caller tools (`task_tools.data`, NULL when it has none). */
type TaskWithToolsRow = TaskRow & { tools: string | null };

const UNFINISHED = TASK_STATUSES.filter((status) => !TERMINAL_TASK_STATUSES.includes(status));
/** The largest value of an `integer` column (steps' `idx`, screenshots' `step_index`). */
const MAX_INT4 = 2_147_483_647;
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

const SELECT_TASKS = 'SELECT t.*, tt.data AS tools FROM tasks t LEFT JOIN task_tools tt ON tt.task_id = t.task_id';
const TASK_COLUMNS = ['task_id', 'device_id', 'status', 'created_at', 'ended_at', 'owner_instance_id', 'lease_expires_at', 'context_id', 'data'] as const;
/**
 * Appends the next event of a task in one statement: the task's counter row is incremented (its row
 * lock orders concurrent appends, on any instance) and the event inserted with the new value. No
 * row when the task is not stored.
 */
const APPEND_EVENT = `WITH next AS (UPDATE tasks SET last_event_id = last_event_id + 1 WHERE task_id = $1 RETURNING last_event_id)
  INSERT INTO events (task_id, id, type, at, data) SELECT $1, last_event_id, $2, $3, $4 FROM next RETURNING id`;

/**
 * The PostgreSQL adapter of the {@link TaskRepository} port, for several gateway instances sharing one
 * database: tasks, steps, events (gap-free per task under concurrency, see {@link APPEND_EVENT}) and
 * screenshots (`bytea`) in the tables of `POSTGRES_MIGRATIONS`. It runs on a migrated
 * {@link PostgresDatabase} it does not own: {@link close} stops this store, the database's owner
 * closes the pool. Rejections:
 * - `VALIDATION_FAILED` (with `fieldErrors`) for a task id that is not 1–128 chars of `[A-Za-z0-9._-]`
 *   (the SQLite store's rule, so ids move between stores; such ids are never stored, so reads find
 *   nothing), unparseable times, a bad step index, mime type, page size, status filter, retention
 *   policy or cursor;
 * - `TASK_NOT_FOUND` when updating, adding steps, events or screenshots to a task that is not stored;
 * - `TASK_STATE_CONFLICT` when creating a task whose id exists;
 * - `STORAGE_ERROR` (retryable, the original as `cause`) when the server is unreachable, restarting or
 *   fails (see `toStorageError`);
 * - `SHUTTING_DOWN` once closed.
 */
export class PostgresTaskRepository extends TaskRepository {
  private readonly operations = new StoreOperations('the task store');
  private readonly report: (record: CorruptRecord) => void;

  /** @param database a database {@link PostgresDatabase.migrate} has brought to the current schema. */
  constructor(
    readonly database: PostgresDatabase,
    options: PostgresTaskRepositoryOptions = {},
  ) {
    super();
    const logger = new Logger('PostgresTaskRepository');
    this.report = options.onCorruptRecord ?? ((record) => logger.error(new CorruptRecordError(record).message));
  }

  // ---- tasks ----------------------------------------------------------------------------------

  /** @throws MobileClawError `VALIDATION_FAILED` for an invalid task, `TASK_STATE_CONFLICT` when `task.taskId` already exists. */
  createTask(task: Task): Promise<void> {
    return this.operations.run(async () => {
      const row = taskToRow(task);
      try {
        await this.database.transaction(async (tx) => {
          await tx.query(`INSERT INTO tasks (${TASK_COLUMNS.join(', ')}) VALUES (${TASK_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`, taskValues(row));
          const tools = taskToolsToRow(task);
          if (tools) await tx.query('INSERT INTO task_tools (task_id, data) VALUES ($1, $2)', [tools.task_id, tools.data]);
        });
      } catch (err) {
        if (sqlState(err) === UNIQUE_VIOLATION) throw new MobileClawError('TASK_STATE_CONFLICT', `task ${task.taskId} already exists`, { cause: err });
        throw err;
      }
    });
  }

  /**
   * Replaces the stored task, in one transaction that locks its row; when the stored task has the same
   * owner and a later lease, that lease (column and JSON) is kept.
   * @throws MobileClawError `VALIDATION_FAILED` for an invalid task, `TASK_NOT_FOUND` when it is not stored.
   */
  updateTask(task: Task): Promise<void> {
    return this.operations.run(async () => {
      taskToRow(task);
      await this.database.transaction(async (tx) => {
        const [stored] = await tx.query<Pick<TaskRow, 'owner_instance_id' | 'lease_expires_at' | 'data'>>(
          'SELECT owner_instance_id, lease_expires_at, data FROM tasks WHERE task_id = $1 FOR UPDATE',
          [task.taskId],
        );
        if (!stored) throw taskNotFound(task.taskId);
        await writeTask(tx, keepLongerLease(task, stored));
        await writeTools(tx, task);
      });
    });
  }

  /** The stored task, or undefined when absent (or corrupt, which is reported). */
  getTask(taskId: string): Promise<Task | undefined> {
    return this.operations.run(async () => {
      const rows = await this.database.query<TaskWithToolsRow>(`${SELECT_TASKS} WHERE t.task_id = $1`, [taskId]);
      return this.decodeTasks(rows)[0];
    });
  }

  /**
   * A page of tasks, newest first (`createdAt` desc, then `taskId` desc), optionally of one phone,
   * one status and/or one conversation. `nextCursor` is present when more tasks follow.
   * @throws MobileClawError `VALIDATION_FAILED` for `limit` outside 1–200 (integers), an unknown
   *   `status`, or a `cursor` this store did not issue.
   */
  listTasks(query: TaskQuery): Promise<TaskPage> {
    return this.operations.run(async () => {
      throwIfInvalid([...taskPageLimitErrors(query.limit), ...taskStatusErrors(query.status)], 'invalid request');
      const cursor = query.cursor === undefined ? undefined : decodeTaskCursor(query.cursor);
      const { conditions, values } = filterConditions(query);
      if (cursor) {
        values.push(cursor.createdAtMs, cursor.taskId);
        conditions.push(`(t.created_at, t.task_id) < ($${values.length - 1}, $${values.length})`);
      }
      values.push(query.limit + 1);
      const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
      const rows = await this.database.query<TaskWithToolsRow>(`${SELECT_TASKS} ${where} ORDER BY t.created_at DESC, t.task_id DESC LIMIT $${values.length}`, values);
      const pageRows = rows.slice(0, query.limit);
      const last = pageRows[pageRows.length - 1];
      return {
        tasks: this.decodeTasks(pageRows),
        ...(rows.length > query.limit && last ? { nextCursor: encodeTaskCursor({ createdAtMs: last.created_at, taskId: last.task_id }) } : {}),
      };
    });
  }

  /** How many tasks match the filter. @throws MobileClawError `VALIDATION_FAILED` for an unknown `status`. */
  countTasks(filter: TaskFilter): Promise<number> {
    return this.operations.run(async () => {
      throwIfInvalid(taskStatusErrors(filter.status), 'invalid request');
      const { conditions, values } = filterConditions(filter);
      const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
      const [{ count }] = await this.database.query<{ count: number }>(`SELECT count(*) AS count FROM tasks t ${where}`, values);
      return count;
    });
  }

  // ---- steps ----------------------------------------------------------------------------------

  /** @throws MobileClawError `VALIDATION_FAILED` for a bad index, `TASK_NOT_FOUND` for an unknown task. */
  saveStep(step: TaskStep): Promise<void> {
    return this.operations.run(async () => {
      const row = stepToRow(step, MAX_INT4);
      try {
        await this.database.query('INSERT INTO steps (task_id, idx, data) VALUES ($1, $2, $3) ON CONFLICT (task_id, idx) DO UPDATE SET data = excluded.data', [
          row.task_id,
          row.idx,
          row.data,
        ]);
      } catch (err) {
        if (sqlState(err) === FOREIGN_KEY_VIOLATION) throw taskNotFound(step.taskId, err);
        throw err;
      }
    });
  }

  /** Steps in index order; empty for an unknown task. Corrupt steps are reported and skipped. */
  listSteps(taskId: string): Promise<TaskStep[]> {
    return this.operations.run(async () => this.decodeAll(await this.database.query<StepRow>('SELECT * FROM steps WHERE task_id = $1 ORDER BY idx', [taskId]), stepFromRow));
  }

  // ---- events ---------------------------------------------------------------------------------

  /**
   * Appends `{type, at, data}` with the task's next id (1 for the first; see {@link APPEND_EVENT}).
   * `at` defaults to now (ISO-8601).
   * @throws MobileClawError `TASK_NOT_FOUND` for an unknown task, `VALIDATION_FAILED` for an unparseable `at`.
   */
  appendEvent(taskId: string, type: TaskEventType, data: Record<string, unknown>, at: string = new Date().toISOString()): Promise<TaskEvent> {
    return this.operations.run(async () => {
      requireTime(at, 'at');
      const id = await appendEventTo(this.database, taskId, type, at, data);
      return { taskId, id, type, at, data: structuredClone(data ?? {}) };
    });
  }

  /** Events with `id > afterId` (all when absent), in id order. Corrupt events are reported and skipped. */
  listEvents(taskId: string, afterId?: number): Promise<TaskEvent[]> {
    return this.operations.run(async () =>
      this.decodeAll(await this.database.query<EventRow>('SELECT * FROM events WHERE task_id = $1 AND id > $2 ORDER BY id', [taskId, afterId ?? 0]), eventFromRow),
    );
  }

  // ---- screenshots ----------------------------------------------------------------------------

  /**
   * Stores the exact bytes and mime type of a step's screenshot (a `bytea` row), replacing an earlier one.
   * @throws MobileClawError `VALIDATION_FAILED` for a task id this store refuses, a bad step index,
   *   mime type or bytes; `TASK_NOT_FOUND` for an unknown task.
   */
  saveScreenshot(taskId: string, stepIndex: number, image: StoredImage): Promise<void> {
    return this.operations.run(async () => {
      throwIfInvalid([...screenshotKeyErrors(taskId, stepIndex, MAX_INT4), ...storedImageErrors(image)], 'invalid screenshot');
      try {
        await this.database.query(
          `INSERT INTO screenshots (task_id, step_index, mime, bytes) VALUES ($1, $2, $3, $4)
           ON CONFLICT (task_id, step_index) DO UPDATE SET mime = excluded.mime, bytes = excluded.bytes`,
          [taskId, stepIndex, image.mime, Buffer.from(image.bytes)],
        );
      } catch (err) {
        if (sqlState(err) === FOREIGN_KEY_VIOLATION) throw taskNotFound(taskId, err);
        throw err;
      }
    });
  }

  /** The screenshot of a step, or undefined when none is stored (always so for an invalid task id or step index). */
  getScreenshot(taskId: string, stepIndex: number): Promise<StoredImage | undefined> {
    return this.operations.run(async () => {
      if (screenshotKeyErrors(taskId, stepIndex, MAX_INT4).length > 0) return undefined;
      const [row] = await this.database.query<{ mime: string; bytes: Buffer }>('SELECT mime, bytes FROM screenshots WHERE task_id = $1 AND step_index = $2', [taskId, stepIndex]);
      return row && { mime: row.mime, bytes: Uint8Array.from(row.bytes) };
    });
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  /**
   * In one transaction, every unfinished task that no other live instance holds (no owner, owned by
   * `instanceId`, or a lease that ended at or before `at`) becomes `interrupted` (see the port), with a
   * `task.interrupted` event. A corrupt task is reported; its status columns still become `interrupted`.
   * @returns the updated tasks, oldest first. @throws MobileClawError `VALIDATION_FAILED` for an unparseable `at`.
   */
  interruptUnfinished(instanceId: string, reason: string, at: string = new Date().toISOString()): Promise<Task[]> {
    return this.operations.run(async () => {
      const atMs = requireTime(at, 'at');
      return this.interrupt('(t.owner_instance_id IS NULL OR t.owner_instance_id = $2 OR t.lease_expires_at IS NULL OR t.lease_expires_at <= $1)', [atMs, instanceId], reason, at);
    });
  }

  /**
   * Like {@link interruptUnfinished}, for the unfinished tasks with an owner whose lease ended at or
   * before `at`. The rows are locked (`FOR UPDATE`) and re-checked after a concurrent sweep's commit,
   * so that each task is interrupted, and its event appended, by one sweep only, on any instance.
   * @returns the updated tasks, oldest first. @throws MobileClawError `VALIDATION_FAILED` for an unparseable `at`.
   */
  interruptExpired(reason: string, at: string = new Date().toISOString()): Promise<Task[]> {
    return this.operations.run(async () => {
      const atMs = requireTime(at, 'at');
      return this.interrupt('t.owner_instance_id IS NOT NULL AND t.lease_expires_at <= $1', [atMs], reason, at);
    });
  }

  /**
   * Extends the lease of `instanceId`'s unfinished tasks (only those in `taskIds` when given) whose
   * lease ends before `leaseExpiresAt`, in
   * one transaction (column and JSON).
   * @returns how many tasks it extended. @throws MobileClawError `VALIDATION_FAILED` (field `leaseExpiresAt`) for an unparseable time.
   */
  renewLeases(instanceId: string, leaseExpiresAt: string, taskIds?: readonly string[]): Promise<number> {
    return this.operations.run(async () => {
      const leaseMs = requireTime(leaseExpiresAt, 'leaseExpiresAt');
      return this.database.transaction(async (tx) => {
        const rows = await tx.query<Pick<TaskRow, 'task_id' | 'status' | 'data'>>(
          `SELECT task_id, status, data FROM tasks WHERE owner_instance_id = $1 AND status = ANY($2::text[]) AND lease_expires_at < $3 AND ($4::text[] IS NULL OR task_id = ANY($4::text[])) ORDER BY task_id FOR UPDATE`,
          [instanceId, UNFINISHED, leaseMs, taskIds === undefined ? null : [...taskIds]],
        );
        const data = rows.map((row) => {
          try {
            const task = taskFromRow(row);
            return JSON.stringify({ ...task, owner: { ...task.owner, leaseExpiresAt } });
          } catch (err) {
            if (!(err instanceof CorruptRecordError)) throw err;
            // The column still moves: the lease is the owner's, whatever the document holds.
            return row.data;
          }
        });
        if (rows.length > 0) {
          await tx.query('UPDATE tasks SET lease_expires_at = $1, data = v.data FROM unnest($2::text[], $3::text[]) AS v (task_id, data) WHERE tasks.task_id = v.task_id', [
            leaseMs,
            rows.map((row) => row.task_id),
            data,
          ]);
        }
        return rows.length;
      });
    });
  }

  /**
   * Deletes finished tasks beyond the policy (see the port) with their steps, events, tools and
   * screenshots (cascading deletes), in one transaction.
   * @returns how many tasks were deleted.
   * @throws MobileClawError `VALIDATION_FAILED` when `maxAgeMs` is not a number ≥ 0 or `maxTasks` not an integer ≥ 0.
   */
  prune(policy: RetentionPolicy, now: Date = new Date()): Promise<number> {
    return this.operations.run(async () => {
      throwIfInvalid(retentionPolicyErrors(policy), 'invalid retention policy');
      const finished = [...TERMINAL_TASK_STATUSES];
      return this.database.transaction(async (tx) => {
        const ids = new Set<string>();
        if (policy.maxAgeMs !== undefined) {
          const rows = await tx.query<{ task_id: string }>('SELECT task_id FROM tasks WHERE status = ANY($1::text[]) AND COALESCE(ended_at, created_at) < $2', [
            finished,
            Math.floor(now.getTime() - policy.maxAgeMs),
          ]);
          for (const row of rows) ids.add(row.task_id);
        }
        if (policy.maxTasks !== undefined) {
          const rows = await tx.query<{ task_id: string }>('SELECT task_id FROM tasks WHERE status = ANY($1::text[]) ORDER BY created_at DESC, task_id DESC OFFSET $2', [
            finished,
            policy.maxTasks,
          ]);
          for (const row of rows) ids.add(row.task_id);
        }
        if (ids.size > 0) await tx.query('DELETE FROM tasks WHERE task_id = ANY($1::text[])', [[...ids]]);
        return ids.size;
      });
    });
  }

  /**
   * A round trip that needs what writes need, writing nothing: in a transaction, takes the `ROW
   * EXCLUSIVE` lock on `tasks` (refused on a read-only server or standby, or without write privileges).
   * @throws MobileClawError `STORAGE_ERROR` naming the failure, `SHUTTING_DOWN` once closed.
   */
  checkWritable(): Promise<void> {
    return this.operations.run(async () => {
      try {
        await this.database.transaction(async (tx) => {
          await tx.query('LOCK TABLE tasks IN ROW EXCLUSIVE MODE');
        });
      } catch (err) {
        if (err instanceof MobileClawError) throw err;
        throw new MobileClawError('STORAGE_ERROR', `the task store cannot take writes: ${(err as Error).message}`, { cause: err });
      }
    });
  }

  /** Waits for the operations in progress, then refuses every call with `SHUTTING_DOWN`. Leaves the database open. Idempotent. */
  close(): Promise<void> {
    return this.operations.close();
  }

  // ---- internals ------------------------------------------------------------------------------

  /** Interrupts the unfinished tasks `condition` selects (`$1` = `at` in ms), locking them, in one transaction. */
  private async interrupt(condition: string, values: unknown[], reason: string, at: string): Promise<Task[]> {
    const corrupt: CorruptRecord[] = [];
    const interrupted = await this.database.transaction(async (tx) => {
      const rows = await tx.query<TaskWithToolsRow>(
        `${SELECT_TASKS} WHERE t.status = ANY($${values.length + 1}::text[]) AND ${condition} ORDER BY t.created_at, t.task_id FOR UPDATE OF t`,
        [...values, UNFINISHED],
      );
      const updated: Task[] = [];
      for (const row of rows) {
        try {
          const task = transitionTask(taskFromRow(row), 'interrupted', at, { error: { code: 'INTERRUPTED', message: reason } });
          await writeTask(tx, task);
          updated.push(this.withTools(task, row.tools));
        } catch (err) {
          if (!(err instanceof CorruptRecordError) && !(err instanceof MobileClawError)) throw err;
          corrupt.push(err instanceof CorruptRecordError ? err.record : { table: 'tasks', key: row.task_id, reason: err.message });
          await tx.query("UPDATE tasks SET status = 'interrupted', ended_at = $2 WHERE task_id = $1", [row.task_id, Date.parse(at)]);
        }
        await appendEventTo(tx, row.task_id, 'task.interrupted', at, { reason, status: 'interrupted' });
      }
      return updated;
    });
    corrupt.forEach((record) => this.report(record));
    return interrupted;
  }

  /** Decodes task rows with their tools, reporting and skipping corrupt tasks. */
  private decodeTasks(rows: TaskWithToolsRow[]): Task[] {
    return this.decodeAll(rows, (row) => this.withTools(taskFromRow(row), row.tools));
  }

  /** The task with its caller tools, when it has any; corrupt tools are reported and the task read without them. */
  private withTools(task: Task, tools: string | null): Task {
    const { tools: _stale, ...rest } = task;
    if (tools === null) return rest;
    try {
      return { ...rest, tools: taskToolsFromRow({ task_id: task.taskId, data: tools }) };
    } catch (err) {
      if (!(err instanceof CorruptRecordError)) throw err;
      this.report(err.record);
      return rest;
    }
  }

  /** Decodes rows, reporting and skipping corrupt ones. */
  private decodeAll<R, T>(rows: R[], decode: (row: R) => T): T[] {
    return decodeRows(rows, decode, this.report);
  }
}

function taskValues(row: TaskRow): unknown[] {
  return TASK_COLUMNS.map((column) => row[column]);
}

/** Rewrites every column of a stored task from `task` (its `last_event_id` stays). */
async function writeTask(tx: PostgresQueryable, task: Task): Promise<void> {
  const row = taskToRow(task);
  const assignments = TASK_COLUMNS.slice(1).map((column, i) => `${column} = $${i + 2}`);
  await tx.query(`UPDATE tasks SET ${assignments.join(', ')} WHERE task_id = $1`, taskValues(row));
}

/** Stores `task.tools` (rewritten only when they changed; they may be large), or removes them when absent. */
async function writeTools(tx: PostgresQueryable, task: Task): Promise<void> {
  const tools = taskToolsToRow(task);
  if (!tools) {
    await tx.query('DELETE FROM task_tools WHERE task_id = $1', [task.taskId]);
    return;
  }
  await tx.query('INSERT INTO task_tools (task_id, data) VALUES ($1, $2) ON CONFLICT (task_id) DO UPDATE SET data = excluded.data WHERE task_tools.data <> excluded.data', [
    tools.task_id,
    tools.data,
  ]);
}

/**
 * `task` with the stored lease when the stored task has the same owner and a later lease (the port's
 * rule: a write of a copy taken before a renewal never shortens it). The stored ISO string is kept
 * exactly when the stored document is readable.
 */
function keepLongerLease(task: Task, stored: Pick<TaskRow, 'owner_instance_id' | 'lease_expires_at' | 'data'>): Task {
  const owner = task.owner;
  if (!owner || stored.owner_instance_id === null || stored.owner_instance_id !== owner.instanceId) return task;
  if (stored.lease_expires_at === null || stored.lease_expires_at <= Date.parse(owner.leaseExpiresAt)) return task;
  let leaseExpiresAt = new Date(stored.lease_expires_at).toISOString();
  try {
    const storedLease = (JSON.parse(stored.data) as Task).owner?.leaseExpiresAt;
    if (typeof storedLease === 'string' && Date.parse(storedLease) === stored.lease_expires_at) leaseExpiresAt = storedLease;
  } catch {
    // A corrupt stored document: the column's instant, as ISO-8601.
  }
  return { ...task, owner: { ...owner, leaseExpiresAt } };
}

/** @returns the new event's id. @throws MobileClawError `TASK_NOT_FOUND` when the task is not stored. */
async function appendEventTo(db: PostgresQueryable, taskId: string, type: TaskEventType, at: string, data: Record<string, unknown>): Promise<number> {
  const [row] = await db.query<{ id: number }>(APPEND_EVENT, [taskId, type, at, JSON.stringify(data ?? {})]);
  if (!row) throw taskNotFound(taskId);
  return row.id;
}

/** The `WHERE` conditions of a {@link TaskFilter} on alias `t`, with their values as `$1…`. */
function filterConditions(filter: TaskFilter): { conditions: string[]; values: unknown[] } {
  const conditions: string[] = [];
  const values: unknown[] = [];
  for (const [column, value] of [['device_id', filter.deviceId], ['status', filter.status], ['context_id', filter.contextId]] as const) {
    if (value === undefined) continue;
    values.push(value);
    conditions.push(`t.${column} = $${values.length}`);
  }
  return { conditions, values };
}

