import { TASK_STATUSES, throwIfInvalid, type FieldError, type Task, type TaskEvent, type TaskEventType, type TaskStep } from '@mobileclaw/domain';

/**
 * Conversions between the domain's task records and the rows of the SQLite and PostgreSQL task
 * schemas, which hold the same columns. A task row keeps the whole {@link Task} as JSON in `data`
 * (without `tools`, which live in `task_tools`, one JSON array per task that has tools); the other
 * columns are copies of the queried fields, times in ms since the epoch, written from the same object
 * in one statement.
 */

export interface TaskRow {
  task_id: string;
  device_id: string;
  status: string;
  created_at: number;
  ended_at: number | null;
  /** `owner.instanceId`; NULL when the task has no owner (always so in SQLite rows of schema version 1). */
  owner_instance_id: string | null;
  /** `owner.leaseExpiresAt` in ms since the epoch; NULL when the task has no owner. */
  lease_expires_at: number | null;
  /** `Task.contextId`; NULL when the task has none (always so in SQLite rows written before schema version 3). */
  context_id: string | null;
  data: string;
}

export interface TaskToolsRow {
  task_id: string;
  /** `Task.tools` as a JSON array. */
  data: string;
}

export interface StepRow {
  task_id: string;
  idx: number;
  data: string;
}

export interface EventRow {
  task_id: string;
  id: number;
  type: string;
  at: string;
  data: string;
}

/** A stored record that cannot be read back (bad JSON, wrong shape). */
export interface CorruptRecord {
  table: 'tasks' | 'task_tools' | 'steps' | 'events';
  /** The record's key, e.g. `3f2a…` or `3f2a…#7`. */
  key: string;
  reason: string;
}

/** Thrown by the `*FromRow` decoders; the repository reports and skips such records. */
export class CorruptRecordError extends Error {
  constructor(readonly record: CorruptRecord) {
    super(`corrupt ${record.table} record ${record.key}: ${record.reason}`);
    this.name = 'CorruptRecordError';
  }
}

const STATUSES = new Set<string>(TASK_STATUSES);

/**
 * Task ids the stores accept: 1–128 characters of `[A-Za-z0-9._-]`, starting with a letter or digit.
 * The SQLite store names screenshot folders by it (so never `.`, `..`, hidden or a path), and the
 * PostgreSQL store takes the same rule so that a task id moves between the stores unchanged. UUIDs qualify.
 */
export function isTaskId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(value);
}

export const TASK_ID_RULE = 'taskId must be 1–128 characters of [A-Za-z0-9._-], starting with a letter or digit';

/**
 * Validates a task before it is stored and returns its row.
 * @throws MobileClawError `VALIDATION_FAILED` listing each invalid field (`taskId` per {@link isTaskId},
 *   `deviceId` non-empty, a known `status`, ISO-8601 `createdAt`/`endedAt`, an `owner` with a
 *   non-empty `instanceId` and an ISO-8601 `leaseExpiresAt`).
 */
export function taskToRow(task: Task): TaskRow {
  const errors: FieldError[] = [];
  if (!isTaskId(task.taskId)) errors.push({ field: 'taskId', message: TASK_ID_RULE });
  if (typeof task.deviceId !== 'string' || task.deviceId.length === 0) errors.push({ field: 'deviceId', message: 'deviceId must be a non-empty string' });
  if (!STATUSES.has(task.status)) errors.push({ field: 'status', message: `status must be one of ${TASK_STATUSES.join(', ')}` });
  const createdAtMs = parseTime(task.createdAt);
  if (createdAtMs === undefined) errors.push({ field: 'createdAt', message: 'createdAt must be an ISO-8601 time' });
  const endedAtMs = task.endedAt === undefined ? null : parseTime(task.endedAt);
  if (endedAtMs === undefined) errors.push({ field: 'endedAt', message: 'endedAt must be an ISO-8601 time' });
  const owner = task.owner;
  const leaseExpiresAtMs = owner === undefined ? null : parseTime(owner?.leaseExpiresAt);
  if (owner !== undefined) {
    if (typeof owner?.instanceId !== 'string' || owner.instanceId.length === 0) errors.push({ field: 'owner.instanceId', message: 'owner.instanceId must be a non-empty string' });
    if (leaseExpiresAtMs === undefined) errors.push({ field: 'owner.leaseExpiresAt', message: 'owner.leaseExpiresAt must be an ISO-8601 time' });
  }
  throwIfInvalid(errors, 'invalid task');
  return {
    task_id: task.taskId,
    device_id: task.deviceId,
    status: task.status,
    created_at: createdAtMs as number,
    ended_at: endedAtMs ?? null,
    owner_instance_id: owner?.instanceId ?? null,
    lease_expires_at: leaseExpiresAtMs ?? null,
    context_id: task.contextId ?? null,
    data: JSON.stringify(task, (key, value: unknown) => (key === 'tools' && value === task.tools ? undefined : value)),
  };
}

/** @throws CorruptRecordError when `data` is not a task object whose id and status match the row. */
export function taskFromRow(row: Pick<TaskRow, 'task_id' | 'status' | 'data'>): Task {
  const task = parseObject(row.data, 'tasks', row.task_id) as unknown as Task;
  if (task.taskId !== row.task_id) throw new CorruptRecordError({ table: 'tasks', key: row.task_id, reason: 'taskId does not match the row' });
  if (task.status !== row.status) throw new CorruptRecordError({ table: 'tasks', key: row.task_id, reason: 'status does not match the row' });
  return task;
}

/** The `task_tools` row of a task, or undefined when it has no `tools`. */
export function taskToolsToRow(task: Task): TaskToolsRow | undefined {
  return task.tools === undefined ? undefined : { task_id: task.taskId, data: JSON.stringify(task.tools) };
}

/** @throws CorruptRecordError when `row.data` is not a JSON array. */
export function taskToolsFromRow(row: TaskToolsRow): NonNullable<Task['tools']> {
  let value: unknown;
  try {
    value = JSON.parse(row.data);
  } catch (err) {
    throw new CorruptRecordError({ table: 'task_tools', key: row.task_id, reason: `invalid JSON (${(err as Error).message})` });
  }
  if (!Array.isArray(value)) throw new CorruptRecordError({ table: 'task_tools', key: row.task_id, reason: 'not a JSON array' });
  return value as NonNullable<Task['tools']>;
}

/**
 * @param maxIndex the largest index the store's column holds (PostgreSQL: `integer`, 2 147 483 647).
 * @throws MobileClawError `VALIDATION_FAILED` (field `index`) when `index` is not an integer from 0 to `maxIndex`.
 */
export function stepToRow(step: TaskStep, maxIndex = Number.MAX_SAFE_INTEGER): StepRow {
  if (!Number.isSafeInteger(step.index) || step.index < 0 || step.index > maxIndex) {
    throwIfInvalid([{ field: 'index', message: 'index must be an integer ≥ 0' }], 'invalid step');
  }
  return { task_id: step.taskId, idx: step.index, data: JSON.stringify(step) };
}

/** @throws CorruptRecordError when `data` is not a step object of that task and index. */
export function stepFromRow(row: StepRow): TaskStep {
  const key = `${row.task_id}#${row.idx}`;
  const step = parseObject(row.data, 'steps', key) as unknown as TaskStep;
  if (step.taskId !== row.task_id || step.index !== row.idx) throw new CorruptRecordError({ table: 'steps', key, reason: 'taskId or index does not match the row' });
  return step;
}

/** @throws CorruptRecordError when `data` is not a JSON object. */
export function eventFromRow(row: EventRow): TaskEvent {
  const data = parseObject(row.data, 'events', `${row.task_id}#${row.id}`);
  return { taskId: row.task_id, id: row.id, type: row.type as TaskEventType, at: row.at, data };
}

/**
 * Decodes rows with `decode`, skipping each one it rejects with {@link CorruptRecordError} after
 * passing its record to `report`; other errors propagate.
 */
export function decodeRows<R, T>(rows: readonly R[], decode: (row: R) => T, report: (record: CorruptRecord) => void): T[] {
  const decoded: T[] = [];
  for (const row of rows) {
    try {
      decoded.push(decode(row));
    } catch (err) {
      if (!(err instanceof CorruptRecordError)) throw err;
      report(err.record);
    }
  }
  return decoded;
}

/** ms since the epoch of an ISO-8601 time, or undefined when it is not one. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

function parseObject(text: string, table: CorruptRecord['table'], key: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CorruptRecordError({ table, key, reason: `invalid JSON (${(err as Error).message})` });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new CorruptRecordError({ table, key, reason: 'not a JSON object' });
  return value as Record<string, unknown>;
}
