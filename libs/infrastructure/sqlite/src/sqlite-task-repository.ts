/*
 * Durability design of the embedded task store.
 *
 * - One SQLite file (`<dataDir>/mobileclaw.db`) in WAL mode, one connection per process, every write
 *   a single transaction that has committed before the returned promise resolves. A commit appends
 *   to the `-wal` file; readers never block it and a crash at any point leaves the last committed
 *   state (the WAL is replayed on the next open).
 * - `synchronous=FULL` (default): each commit is fsynced, so committed rows survive a SIGKILL, an OS
 *   crash and a power cut, which is what the port's "durable when the promise resolves" promises.
 *   `synchronous=NORMAL` (option) skips that fsync: committed rows still survive a process crash or
 *   SIGKILL (the data is in the OS page cache), only an OS crash or power cut can lose the last
 *   transactions. The write rate here is a few rows per agent step, so FULL costs little.
 * - Event ids are `max(id) + 1` of the task, read and written inside one IMMEDIATE transaction (the
 *   write lock is taken before the read): no gaps, no duplicates, also across restarts and processes.
 * - Screenshots are files beside the database, written to a temporary name and renamed (atomic); the
 *   `screenshots` table row that points at a file is committed after the rename, so a row never points
 *   at a half-written file. A crash between the two leaves at most an orphan file, which `prune` sweeps.
 * - A record that cannot be decoded is reported (`onCorruptRecord`) and skipped by reads; it never
 *   fails reads of other records.
 * - Task ownership (`owner_instance_id`, `lease_expires_at`; schema version 2) is copied from
 *   `Task.owner` on every write, so start-up picks the tasks it may interrupt in SQL, also for rows
 *   whose JSON is corrupt. Rows written by version 1 have NULL there: no owner.
 * - A task's caller tools (`Task.tools`; schema version 4) are a row of `task_tools`, written in the
 *   task's own transaction and rewritten only when they change, so that the (possibly large) specs are
 *   not rewritten with the task row at every step.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { Statement } from 'better-sqlite3';
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
import { ensurePrivateDirectory, ensurePrivateFile, narrowFileIfPresent } from './private-files';
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
  type TaskToolsRow,
  type EventRow,
  type StepRow,
  type TaskRow,
} from '@mobileclaw/store-records';
import { isSafeFileName } from './safe-file-name';
import { FileScreenshotStore, MemoryScreenshotStore, type ScreenshotStore } from './screenshot-store';
import { openTaskDatabase, type TaskDatabase, type TaskDatabaseSynchronous } from './task-database';

/** Default file name of the database inside the data directory. */
export const TASK_DATABASE_FILE_NAME = 'mobileclaw.db';
/** Folder of the screenshot files inside the data directory: `screenshots/<taskId>/<index>.<png|jpg|bin>`. */
export const SCREENSHOTS_DIR_NAME = 'screenshots';
/** Largest page of {@link SqliteTaskRepository.listTasks} (the port's). */
export { MAX_TASK_PAGE_SIZE };

interface CommonOptions {
  /** Called once per stored record that cannot be decoded (skipped by reads). Default: logs an error. */
  onCorruptRecord?: (record: CorruptRecord) => void;
}

/** A database file in `dataDir` (created with its parents when absent), screenshots beside it. */
export interface SqliteTaskRepositoryFileOptions extends CommonOptions {
  dataDir: string;
  /** A plain file name inside `dataDir`. Default {@link TASK_DATABASE_FILE_NAME}. */
  fileName?: string;
  /** Default `FULL`; see {@link TaskDatabaseSynchronous}. */
  synchronous?: TaskDatabaseSynchronous;
  /** Wait for another connection's write lock, in ms. Default 5000. */
  busyTimeoutMs?: number;
}

/** A private in-memory database and in-memory screenshots, gone on `close()` (tests). */
export interface SqliteTaskRepositoryMemoryOptions extends CommonOptions {
  memory: true;
}

export type SqliteTaskRepositoryOptions = SqliteTaskRepositoryFileOptions | SqliteTaskRepositoryMemoryOptions;

interface ScreenshotRow {
  mime: string;
  file_name: string;
}

const UNFINISHED_STATUSES = TASK_STATUSES.filter((status) => !TERMINAL_TASK_STATUSES.includes(status));

/**
 * The SQLite adapter of the {@link TaskRepository} port (`better-sqlite3`). Create it with
 * {@link SqliteTaskRepository.open}. Errors thrown (as rejections) by writes and queries:
 * - `VALIDATION_FAILED` (with `fieldErrors`) for an unsafe `taskId` (not 1–128 chars of
 *   `[A-Za-z0-9._-]`, e.g. `../x`; such ids are never stored, so reads just find nothing), unparseable times, a bad step index, mime type, page size,
 *   status filter, retention policy or cursor;
 * - `TASK_NOT_FOUND` when updating, adding steps, events or screenshots to a task that is not stored;
 * - `TASK_STATE_CONFLICT` when creating a task whose id exists;
 * - `STORAGE_ERROR` (the original as `cause`) when the database or the disk fails: disk full,
 *   read-only, I/O error, locked beyond `busyTimeoutMs`… (see {@link toStorageError}).
 */
export class SqliteTaskRepository extends TaskRepository {
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly listStatements = new Map<string, Statement>();
  private readonly countStatements = new Map<string, Statement>();
  private readonly pendingWrites = new Set<Promise<unknown>>();

  /**
   * Opens (creating when absent) the store. File mode: `<dataDir>/<fileName>` plus
   * `<dataDir>/screenshots/`. Synchronous; the database is migrated when it returns. The data is
   * private: both directories are made mode 0700 (an existing wider one is narrowed, with a warning),
   * the database and its `-wal`/`-shm` files 0600, screenshot folders 0700 and files 0600.
   * @throws MobileClawError `VALIDATION_FAILED` when `fileName` is not a plain file name.
   * @throws Error when the directory cannot be created or the database cannot be opened or migrated.
   */
  static open(options: SqliteTaskRepositoryOptions): SqliteTaskRepository {
    const logger = new Logger('SqliteTaskRepository');
    const report = options.onCorruptRecord ?? ((record: CorruptRecord) => logger.error(new CorruptRecordError(record).message));
    if ('memory' in options && options.memory) {
      return new SqliteTaskRepository(openTaskDatabase(':memory:'), new MemoryScreenshotStore(), ':memory:', report);
    }
    const fileOptions = options as SqliteTaskRepositoryFileOptions;
    const fileName = fileOptions.fileName ?? TASK_DATABASE_FILE_NAME;
    if (!isSafeFileName(fileName)) {
      throw new MobileClawError('VALIDATION_FAILED', 'invalid options: fileName: must be a plain file name', {
        fieldErrors: [{ field: 'fileName', message: 'fileName must be a plain file name such as mobileclaw.db' }],
      });
    }
    const path = join(fileOptions.dataDir, fileName);
    const screenshotsDir = join(fileOptions.dataDir, SCREENSHOTS_DIR_NAME);
    // The screenshots folder is created by the first screenshot; one left by an earlier version is narrowed.
    for (const dir of existsSync(screenshotsDir) ? [fileOptions.dataDir, screenshotsDir] : [fileOptions.dataDir]) {
      const previous = ensurePrivateDirectory(dir);
      if (previous !== undefined) logger.warn(`${dir} was readable by others (mode ${previous.toString(8)}): narrowed to 700, it holds private task data`);
    }
    // SQLite creates the -wal and -shm files with the database file's mode; files left by a version
    // that did not narrow them are narrowed here.
    ensurePrivateFile(path);
    for (const suffix of ['-wal', '-shm', '-journal']) narrowFileIfPresent(path + suffix);
    const synchronous = fileOptions.synchronous ?? 'FULL';
    const db = openTaskDatabase(path, { synchronous, busyTimeoutMs: fileOptions.busyTimeoutMs });
    const screenshots = new FileScreenshotStore(screenshotsDir, { fsync: synchronous === 'FULL' });
    return new SqliteTaskRepository(db, screenshots, path, report);
  }

  private constructor(
    private readonly db: TaskDatabase,
    private readonly screenshots: ScreenshotStore,
    /** Path of the database file, or `:memory:`. */
    readonly path: string,
    private readonly report: (record: CorruptRecord) => void,
  ) {
    super();
    this.statements = prepareStatements(db);
  }

  // ---- tasks ----------------------------------------------------------------------------------

  /**
   * @throws MobileClawError `VALIDATION_FAILED` for an invalid task, `TASK_STATE_CONFLICT` when
   *   `task.taskId` already exists.
   */
  createTask(task: Task): Promise<void> {
    return this.withStorageErrors(async () => {
      const row = taskToRow(task);
      const tools = taskToolsToRow(task);
      try {
        this.db.transaction(() => {
          this.statements.insertTask.run(row);
          if (tools) this.statements.upsertTools.run(tools);
        })();
      } catch (err) {
        if (sqliteCode(err) === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
          throw new MobileClawError('TASK_STATE_CONFLICT', `task ${task.taskId} already exists`, { cause: err });
        }
        throw err;
      }
    });
  }

  /** @throws MobileClawError `VALIDATION_FAILED` for an invalid task, `TASK_NOT_FOUND` when it is not stored. */
  updateTask(task: Task): Promise<void> {
    return this.withStorageErrors(async () => {
      const row = taskToRow(task);
      const tools = taskToolsToRow(task);
      this.db.transaction(() => {
        if (this.statements.updateTask.run(row).changes === 0) throw taskNotFound(task.taskId);
        if (tools) this.statements.upsertTools.run(tools);
        else this.statements.deleteTools.run(task.taskId);
      })();
    });
  }

  /** The stored task, or undefined when absent (or corrupt, which is reported). */
  getTask(taskId: string): Promise<Task | undefined> {
    return this.withStorageErrors(async () => {
      const row = this.statements.getTask.get(taskId) as TaskRow | undefined;
      return row && this.decodeAll([row], (each) => this.withTools(taskFromRow(each)))[0];
    });
  }

  /**
   * A page of tasks, newest first (`createdAt` desc, then `taskId` desc), optionally of one phone,
   * one status and/or one conversation (`contextId`). `nextCursor` is present when more tasks follow.
   * @throws MobileClawError `VALIDATION_FAILED` for `limit` outside 1–200 (integers), an unknown
   *   `status`, or a `cursor` this store did not issue.
   */
  listTasks(query: TaskQuery): Promise<TaskPage> {
    return this.withStorageErrors(async () => {
      throwIfInvalid([...taskPageLimitErrors(query.limit), ...taskStatusErrors(query.status)], 'invalid request');
      const cursor = query.cursor === undefined ? undefined : decodeTaskCursor(query.cursor);
      const statement = this.listStatement(query.deviceId !== undefined, query.status !== undefined, cursor !== undefined, query.contextId !== undefined);
      const rows = statement.all({
        deviceId: query.deviceId,
        status: query.status,
        contextId: query.contextId,
        createdAtMs: cursor?.createdAtMs,
        taskId: cursor?.taskId,
        limit: query.limit + 1,
      }) as TaskRow[];
      const pageRows = rows.slice(0, query.limit);
      const last = pageRows[pageRows.length - 1];
      return {
        tasks: this.decodeAll(pageRows, (row) => this.withTools(taskFromRow(row))),
        ...(rows.length > query.limit ? { nextCursor: encodeTaskCursor({ createdAtMs: last.created_at, taskId: last.task_id }) } : {}),
      };
    });
  }

  /**
   * How many tasks match the filter (one phone, one status and/or one conversation).
   * @throws MobileClawError `VALIDATION_FAILED` for an unknown `status`.
   */
  countTasks(filter: TaskFilter): Promise<number> {
    return this.withStorageErrors(async () => {
      throwIfInvalid(taskStatusErrors(filter.status), 'invalid request');
      const statement = this.countStatement(filter.deviceId !== undefined, filter.status !== undefined, filter.contextId !== undefined);
      return statement.get({ deviceId: filter.deviceId, status: filter.status, contextId: filter.contextId }) as number;
    });
  }

  // ---- steps ----------------------------------------------------------------------------------

  /** @throws MobileClawError `VALIDATION_FAILED` for a bad index, `TASK_NOT_FOUND` for an unknown task. */
  saveStep(step: TaskStep): Promise<void> {
    return this.withStorageErrors(async () => {
      const row = stepToRow(step);
      try {
        this.statements.upsertStep.run(row);
      } catch (err) {
        if (sqliteCode(err) === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw taskNotFound(step.taskId, err);
        throw err;
      }
    });
  }

  /** Steps in index order; empty for an unknown task. Corrupt steps are reported and skipped. */
  listSteps(taskId: string): Promise<TaskStep[]> {
    return this.withStorageErrors(async () => this.decodeAll(this.statements.listSteps.all(taskId) as StepRow[], stepFromRow));
  }

  // ---- events ---------------------------------------------------------------------------------

  /**
   * Appends `{type, at, data}` with id `max(id) + 1` of the task (1 for the first) in one immediate
   * transaction. `at` defaults to now (ISO-8601).
   * @throws MobileClawError `TASK_NOT_FOUND` for an unknown task, `VALIDATION_FAILED` for an
   *   unparseable `at`.
   */
  appendEvent(taskId: string, type: TaskEventType, data: Record<string, unknown>, at: string = new Date().toISOString()): Promise<TaskEvent> {
    return this.withStorageErrors(async () => {
      requireTime(at, 'at');
      const id = this.db.transaction(() => this.insertNextEvent(taskId, type, at, data)).immediate();
      return { taskId, id, type, at, data };
    });
  }

  /** Events with `id > afterId` (all when absent), in id order. Corrupt events are reported and skipped. */
  listEvents(taskId: string, afterId?: number): Promise<TaskEvent[]> {
    return this.withStorageErrors(async () => this.decodeAll(this.statements.listEvents.all(taskId, afterId ?? 0) as EventRow[], eventFromRow));
  }

  // ---- screenshots ----------------------------------------------------------------------------

  /**
   * Stores the bytes as `screenshots/<taskId>/<stepIndex>.<png|jpg|bin>` (extension from the mime
   * type; the exact mime type is kept in the database), replacing an earlier screenshot of the step.
   * @throws MobileClawError `VALIDATION_FAILED` for an unsafe task id, a bad step index or mime type,
   *   `TASK_NOT_FOUND` for an unknown task.
   */
  saveScreenshot(taskId: string, stepIndex: number, image: StoredImage): Promise<void> {
    return this.withStorageErrors(async () => {
      throwIfInvalid([...screenshotKeyErrors(taskId, stepIndex), ...storedImageErrors(image)], 'invalid screenshot');
      if (!this.statements.taskExists.get(taskId)) throw taskNotFound(taskId);
      await this.track(this.writeScreenshot(taskId, stepIndex, image));
    });
  }

  /**
   * The screenshot of a step, or undefined when none is stored (or its file is missing). An unsafe
   * task id or a bad step index cannot have one: undefined, without touching the file system.
   */
  getScreenshot(taskId: string, stepIndex: number): Promise<StoredImage | undefined> {
    return this.withStorageErrors(async () => {
      if (screenshotKeyErrors(taskId, stepIndex).length > 0) return undefined;
      const row = this.statements.getScreenshot.get(taskId, stepIndex) as ScreenshotRow | undefined;
      if (!row) return undefined;
      const bytes = await this.screenshots.read(taskId, row.file_name);
      return bytes && { mime: row.mime, bytes };
    });
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  /**
   * In one transaction, every `queued`, `running` or `input_required` task that no other live instance
   * holds — no owner (`owner_instance_id` NULL, e.g. rows of schema version 1), owned by `instanceId`,
   * or a lease that expired (`lease_expires_at <= at`) — becomes `interrupted` with `error {code:
   * 'INTERRUPTED', message: reason}` and `endedAt = at` (default now), loses `queuePosition`,
   * `pendingAction` and `pendingToolCall` (keeps `owner` and `tools`), and gets a `task.interrupted` event `{reason, status}`. A corrupt
   * unfinished task is reported; its status columns are still set to `interrupted`.
   * @returns the updated tasks, oldest first.
   * @throws MobileClawError `VALIDATION_FAILED` for an unparseable `at`.
   */
  interruptUnfinished(instanceId: string, reason: string, at: string = new Date().toISOString()): Promise<Task[]> {
    return this.withStorageErrors(async () => {
      const atMs = requireTime(at, 'at');
      return this.interrupt(() => this.statements.listInterruptible.all({ instanceId, atMs }) as TaskRow[], reason, at);
    });
  }

  /**
   * Like {@link interruptUnfinished}, for the unfinished tasks with an owner whose lease ended
   * (`lease_expires_at <= at`). One write transaction, so that concurrent sweeps (of this process or
   * of another sharing the file) interrupt each task once.
   * @returns the updated tasks, oldest first.
   * @throws MobileClawError `VALIDATION_FAILED` for an unparseable `at`.
   */
  interruptExpired(reason: string, at: string = new Date().toISOString()): Promise<Task[]> {
    return this.withStorageErrors(async () => {
      const atMs = requireTime(at, 'at');
      return this.interrupt(() => this.statements.listExpired.all({ atMs }) as TaskRow[], reason, at);
    });
  }

  /**
   * Extends the lease of `instanceId`'s unfinished tasks (only those in `taskIds` when given) to
   * `leaseExpiresAt`, never shortening one.
   * @returns how many tasks it extended.
   * @throws MobileClawError `VALIDATION_FAILED` (field `leaseExpiresAt`) for an unparseable time.
   */
  renewLeases(instanceId: string, leaseExpiresAt: string, taskIds?: readonly string[]): Promise<number> {
    return this.withStorageErrors(async () => {
      const leaseMs = requireTime(leaseExpiresAt, 'leaseExpiresAt');
      const taskIdsJson = taskIds === undefined ? null : JSON.stringify(taskIds);
      return this.statements.renewLeases.run({ instanceId, leaseMs, leaseExpiresAt, taskIds: taskIdsJson }).changes;
    });
  }

  /** Interrupts the rows `select` reads, inside one write transaction (see {@link interruptUnfinished}). */
  private interrupt(select: () => TaskRow[], reason: string, at: string): Task[] {
    const atMs = Date.parse(at);
    const corrupt: CorruptRecord[] = [];
    const interrupted = this.db
      .transaction(() => {
        const updated: Task[] = [];
        for (const row of select()) {
          try {
            const task = transitionTask(taskFromRow(row), 'interrupted', at, { error: { code: 'INTERRUPTED', message: reason } });
            this.statements.updateTask.run(taskToRow(task));
            updated.push(this.withTools(task));
          } catch (err) {
            if (!(err instanceof CorruptRecordError) && !(err instanceof MobileClawError)) throw err;
            corrupt.push(err instanceof CorruptRecordError ? err.record : { table: 'tasks', key: row.task_id, reason: err.message });
            this.statements.setStatus.run({ task_id: row.task_id, status: 'interrupted', ended_at: atMs });
          }
          this.insertNextEvent(row.task_id, 'task.interrupted', at, { reason, status: 'interrupted' });
        }
        return updated;
      })
      .immediate();
    corrupt.forEach((record) => this.report(record));
    return interrupted;
  }

  /**
   * Deletes finished tasks (`completed`, `failed`, `canceled`, `interrupted`) that ended more than
   * `maxAgeMs` before `now` (their `createdAt` when they have no `endedAt`), and those beyond the
   * newest `maxTasks` finished ones (by `createdAt`), with their steps, events and screenshot files.
   * Unfinished tasks are never touched. Also removes screenshot folders of tasks that are not stored
   * (left by a crash).
   * @returns how many tasks were deleted.
   * @throws MobileClawError `VALIDATION_FAILED` when `maxAgeMs` is not a number ≥ 0 or `maxTasks`
   *   not an integer ≥ 0.
   */
  prune(policy: RetentionPolicy, now: Date = new Date()): Promise<number> {
    return this.withStorageErrors(async () => {
      throwIfInvalid(retentionPolicyErrors(policy), 'invalid retention policy');
      const deleted = this.db
        .transaction(() => {
          const ids = new Set<string>();
          if (policy.maxAgeMs !== undefined) {
            for (const row of this.statements.listEndedBefore.all(now.getTime() - policy.maxAgeMs) as { task_id: string }[]) ids.add(row.task_id);
          }
          if (policy.maxTasks !== undefined) {
            for (const row of this.statements.listFinishedBeyond.all(policy.maxTasks) as { task_id: string }[]) ids.add(row.task_id);
          }
          for (const id of ids) this.statements.deleteTask.run(id);
          return [...ids];
        })
        .immediate();
      for (const taskId of deleted) await this.screenshots.removeTask(taskId);
      for (const taskId of await this.screenshots.listTasks()) {
        if (!this.statements.taskExists.get(taskId)) await this.screenshots.removeTask(taskId);
      }
      return deleted.length;
    });
  }

  /**
   * Takes the database's write lock (`BEGIN IMMEDIATE`) and releases it at once (`ROLLBACK`), then
   * checks that the screenshot folder takes new files: a read-only database, one locked by another
   * connection beyond `busyTimeoutMs`, or a folder without write permission fail it. Writes nothing.
   * @throws MobileClawError `STORAGE_ERROR` naming the failure, `SHUTTING_DOWN` once closed.
   */
  checkWritable(): Promise<void> {
    return this.withStorageErrors(async () => {
      this.db.exec('BEGIN IMMEDIATE');
      this.db.exec('ROLLBACK');
      await this.screenshots.checkWritable();
    });
  }

  /** Waits for screenshot writes in progress, then closes the database. Further calls reject with `SHUTTING_DOWN`. Idempotent. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.pendingWrites]);
    if (this.db.open) this.db.close();
  }

  // ---- internals ------------------------------------------------------------------------------

  /** Inserts the next event of a task; must run inside a transaction. */
  private insertNextEvent(taskId: string, type: TaskEventType, at: string, data: Record<string, unknown>): number {
    if (!this.statements.taskExists.get(taskId)) throw taskNotFound(taskId);
    const { id } = this.statements.nextEventId.get(taskId) as { id: number };
    this.statements.insertEvent.run({ task_id: taskId, id, type, at, data: JSON.stringify(data ?? {}) });
    return id;
  }

  private async writeScreenshot(taskId: string, stepIndex: number, image: StoredImage): Promise<void> {
    const fileName = `${stepIndex}.${fileExtension(image.mime)}`;
    const previous = this.statements.getScreenshot.get(taskId, stepIndex) as ScreenshotRow | undefined;
    await this.screenshots.write(taskId, fileName, image.bytes);
    try {
      this.statements.upsertScreenshot.run({ task_id: taskId, step_index: stepIndex, mime: image.mime, file_name: fileName, byte_size: image.bytes.byteLength });
    } catch (err) {
      if (sqliteCode(err) !== 'SQLITE_CONSTRAINT_FOREIGNKEY') throw err;
      await this.screenshots.removeTask(taskId);
      throw taskNotFound(taskId, err);
    }
    if (previous && previous.file_name !== fileName) await this.screenshots.remove(taskId, previous.file_name);
  }

  /**
   * Runs one port operation. A closed store rejects with `SHUTTING_DOWN`; a failure of the database
   * or the disk rejects as `STORAGE_ERROR` (see {@link toStorageError}); every other rejection, the
   * domain's own errors first, passes unchanged.
   * Each public method runs inside it, so that callers only ever see the domain's errors.
   */
  private async withStorageErrors<T>(operation: () => Promise<T>): Promise<T> {
    if (!this.db.open) throw new MobileClawError('SHUTTING_DOWN', 'the task store is closed');
    try {
      return await operation();
    } catch (err) {
      throw toStorageError(err);
    }
  }

  private async track<T>(promise: Promise<T>): Promise<T> {
    this.pendingWrites.add(promise);
    try {
      return await promise;
    } finally {
      this.pendingWrites.delete(promise);
    }
  }

  /**
   * The task with its stored caller tools, when it has any; a corrupt tools row is reported and the
   * task read without them.
   */
  private withTools(task: Task): Task {
    const row = this.statements.getTools.get(task.taskId) as TaskToolsRow | undefined;
    if (!row) return task;
    try {
      return { ...task, tools: taskToolsFromRow(row) };
    } catch (err) {
      if (!(err instanceof CorruptRecordError)) throw err;
      this.report(err.record);
      return task;
    }
  }

  /** Decodes rows, reporting and skipping corrupt ones. */
  private decodeAll<R, T>(rows: R[], decode: (row: R) => T): T[] {
    return decodeRows(rows, decode, this.report);
  }

  /** The listing statement for one combination of filters, prepared once. */
  private listStatement(byDevice: boolean, byStatus: boolean, afterCursor: boolean, byContext: boolean): Statement {
    const key = `${+byDevice}${+byStatus}${+afterCursor}${+byContext}`;
    let statement = this.listStatements.get(key);
    if (!statement) {
      const conditions = [...filterConditions(byDevice, byStatus, byContext), ...(afterCursor ? ['(created_at, task_id) < (@createdAtMs, @taskId)'] : [])];
      const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
      statement = this.db.prepare(`SELECT * FROM tasks ${where} ORDER BY created_at DESC, task_id DESC LIMIT @limit`);
      this.listStatements.set(key, statement);
    }
    return statement;
  }

  /** `SELECT COUNT(*)` over the filter's conditions, plucked to the number. */
  private countStatement(byDevice: boolean, byStatus: boolean, byContext: boolean): Statement {
    const key = `${+byDevice}${+byStatus}${+byContext}`;
    let statement = this.countStatements.get(key);
    if (!statement) {
      const conditions = filterConditions(byDevice, byStatus, byContext);
      const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
      statement = this.db.prepare(`SELECT COUNT(*) FROM tasks ${where}`).pluck();
      this.countStatements.set(key, statement);
    }
    return statement;
  }
}

/** The `WHERE` conditions of a {@link TaskFilter} (named parameters `@deviceId`, `@status`, `@contextId`). */
function filterConditions(byDevice: boolean, byStatus: boolean, byContext: boolean): string[] {
  return [...(byDevice ? ['device_id = @deviceId'] : []), ...(byStatus ? ['status = @status'] : []), ...(byContext ? ['context_id = @contextId'] : [])];
}


/** An update keeps the stored lease: the owner stays the same and its stored lease ends later. */
const KEEPS_LEASE = 'owner_instance_id IS NOT NULL AND owner_instance_id = @owner_instance_id AND lease_expires_at > @lease_expires_at';

function prepareStatements(db: TaskDatabase) {
  const finished = TERMINAL_TASK_STATUSES.map((status) => `'${status}'`).join(', ');
  const unfinished = UNFINISHED_STATUSES.map((status) => `'${status}'`).join(', ');
  return {
    insertTask: db.prepare(
      `INSERT INTO tasks (task_id, device_id, status, created_at, ended_at, owner_instance_id, lease_expires_at, context_id, data)
       VALUES (@task_id, @device_id, @status, @created_at, @ended_at, @owner_instance_id, @lease_expires_at, @context_id, @data)`,
    ),
    // The same owner never shortens its lease (see TaskRepository.updateTask); the right-hand sides
    // read the row as it was before this update.
    updateTask: db.prepare(
      `UPDATE tasks SET device_id = @device_id, status = @status, created_at = @created_at, ended_at = @ended_at,
       owner_instance_id = @owner_instance_id, context_id = @context_id,
       lease_expires_at = CASE WHEN ${KEEPS_LEASE} THEN lease_expires_at ELSE @lease_expires_at END,
       data = CASE WHEN ${KEEPS_LEASE} THEN json_set(@data, '$.owner.leaseExpiresAt', json_extract(data, '$.owner.leaseExpiresAt')) ELSE @data END
       WHERE task_id = @task_id`,
    ),
    renewLeases: db.prepare(
      `UPDATE tasks SET lease_expires_at = @leaseMs, data = json_set(data, '$.owner.leaseExpiresAt', @leaseExpiresAt)
       WHERE owner_instance_id = @instanceId AND status IN (${unfinished}) AND lease_expires_at < @leaseMs
         AND (@taskIds IS NULL OR task_id IN (SELECT value FROM json_each(@taskIds)))`,
    ),
    // Unfinished tasks whose owner's lease ran out (see interruptExpired).
    listExpired: db.prepare(
      `SELECT * FROM tasks WHERE status IN (${unfinished}) AND owner_instance_id IS NOT NULL AND lease_expires_at <= @atMs
       ORDER BY created_at, task_id`,
    ),
    setStatus: db.prepare('UPDATE tasks SET status = @status, ended_at = @ended_at WHERE task_id = @task_id'),
    getTask: db.prepare('SELECT * FROM tasks WHERE task_id = ?'),
    taskExists: db.prepare('SELECT 1 FROM tasks WHERE task_id = ?').pluck(),
    // Unfinished tasks that no other live instance holds (see interruptUnfinished).
    listInterruptible: db.prepare(
      `SELECT * FROM tasks WHERE status IN (${unfinished})
       AND (owner_instance_id IS NULL OR owner_instance_id = @instanceId OR lease_expires_at IS NULL OR lease_expires_at <= @atMs)
       ORDER BY created_at, task_id`,
    ),
    listEndedBefore: db.prepare(`SELECT task_id FROM tasks WHERE status IN (${finished}) AND COALESCE(ended_at, created_at) < ?`),
    listFinishedBeyond: db.prepare(
      `SELECT task_id FROM tasks WHERE status IN (${finished}) ORDER BY created_at DESC, task_id DESC LIMIT -1 OFFSET ?`,
    ),
    deleteTask: db.prepare('DELETE FROM tasks WHERE task_id = ?'),
    getTools: db.prepare('SELECT * FROM task_tools WHERE task_id = ?'),
    // Rewritten only when the tools changed (they are fixed at creation, and may be large).
    upsertTools: db.prepare(
      'INSERT INTO task_tools (task_id, data) VALUES (@task_id, @data) ON CONFLICT (task_id) DO UPDATE SET data = excluded.data WHERE task_tools.data <> excluded.data',
    ),
    deleteTools: db.prepare('DELETE FROM task_tools WHERE task_id = ?'),
    upsertStep: db.prepare('INSERT INTO steps (task_id, idx, data) VALUES (@task_id, @idx, @data) ON CONFLICT (task_id, idx) DO UPDATE SET data = excluded.data'),
    listSteps: db.prepare('SELECT * FROM steps WHERE task_id = ? ORDER BY idx'),
    nextEventId: db.prepare('SELECT COALESCE(MAX(id), 0) + 1 AS id FROM events WHERE task_id = ?'),
    insertEvent: db.prepare('INSERT INTO events (task_id, id, type, at, data) VALUES (@task_id, @id, @type, @at, @data)'),
    listEvents: db.prepare('SELECT * FROM events WHERE task_id = ? AND id > ? ORDER BY id'),
    getScreenshot: db.prepare('SELECT mime, file_name FROM screenshots WHERE task_id = ? AND step_index = ?'),
    upsertScreenshot: db.prepare(
      `INSERT INTO screenshots (task_id, step_index, mime, file_name, byte_size) VALUES (@task_id, @step_index, @mime, @file_name, @byte_size)
       ON CONFLICT (task_id, step_index) DO UPDATE SET mime = excluded.mime, file_name = excluded.file_name, byte_size = excluded.byte_size`,
    ),
  };
}

function fileExtension(mime: string): 'png' | 'jpg' | 'bin' {
  const type = mime.toLowerCase();
  if (type === 'image/png') return 'png';
  if (type === 'image/jpeg' || type === 'image/jpg') return 'jpg';
  return 'bin';
}


/**
 * The `code` of a better-sqlite3 error. Not `instanceof Error`: the native addon is loaded once per
 * process and keeps the `SqliteError` class of the first module registry that loaded it, which under
 * Jest (one registry per test file) belongs to another realm.
 */
function sqliteCode(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** SQLite result codes and file-system errno codes that mean the store itself failed (not the request). */
const STORAGE_FAILURE = /^(SQLITE_(FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB|BUSY|LOCKED|PROTOCOL|NOMEM)|ENOSPC|EDQUOT|EROFS|EIO|EACCES|EPERM|EMFILE|ENFILE)/;

/**
 * Translates a failure of the database or the disk (disk full, read-only, I/O error…) into the
 * domain's `STORAGE_ERROR`, keeping the original as `cause`; other errors pass unchanged.
 */
export function toStorageError(err: unknown): unknown {
  if (err instanceof MobileClawError) return err;
  const code = sqliteCode(err);
  if (code === undefined || !STORAGE_FAILURE.test(code)) return err;
  const message = typeof err === 'object' && err !== null && 'message' in err ? String((err as { message: unknown }).message) : code;
  return new MobileClawError('STORAGE_ERROR', `the task store failed (${code}): ${message}`, { cause: err });
}
