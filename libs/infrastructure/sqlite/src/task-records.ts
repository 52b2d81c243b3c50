import {
  MobileClawError,
  TASK_STATUSES,
  type FieldError,
  type Task,
  type TaskEvent,
  type TaskEventType,
  type TaskStep,
} from '@mobileclaw/domain';
import { isSafeFileName } from './safe-file-name';

/**
 * Conversions between the domain's task records and the rows of the task database. A task row keeps
 * the whole {@link Task} as JSON in `data`; `device_id`, `status`, `created_at`, `ended_at`,
 * `owner_instance_id`, `lease_expires_at` and `context_id` (times in ms since the epoch) are copies of the queried
 * fields, written from the same object in one statement. `Task.tools` is not in `data`: it lives in
 * its own table (`task_tools`, one JSON array per task that has tools), written with the task.
 */

export interface TaskRow {
  task_id: string;
  device_id: string;
  status: string;
  created_at: number;
  ended_at: number | null;
  /** `owner.instanceId`; NULL when the task has no owner (always so in rows of schema version 1). */
  owner_instance_id: string | null;
  /** `owner.leaseExpiresAt` in ms since the epoch; NULL when the task has no owner. */
  lease_expires_at: number | null;
  /** `Task.contextId`; NULL when the task has none (always so in rows written before schema version 3). */
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
 * Validates a task before it is stored and returns its row.
 * @throws MobileClawError `VALIDATION_FAILED` listing each invalid field (`taskId` must be a safe
 *   file name since screenshots are stored under it; times must be parseable ISO-8601; an `owner`
 *   needs a non-empty `instanceId` and a `leaseExpiresAt` time).
 */
export function taskToRow(task: Task): TaskRow {
  const errors: FieldError[] = [];
  if (!isSafeFileName(task.taskId)) {
    errors.push({ field: 'taskId', message: 'taskId must be 1–128 characters of [A-Za-z0-9._-], starting with a letter or digit' });
  }
  if (typeof task.deviceId !== 'string' || task.deviceId.length === 0) errors.push({ field: 'deviceId', message: 'deviceId must be a non-empty string' });
  if (!STATUSES.has(task.status)) errors.push({ field: 'status', message: `status must be one of ${TASK_STATUSES.join(', ')}` });
  const createdAtMs = parseTime(task.createdAt);
  if (createdAtMs === undefined) errors.push({ field: 'createdAt', message: 'createdAt must be an ISO-8601 time' });
  const endedAtMs = task.endedAt === undefined ? null : parseTime(task.endedAt);
  if (endedAtMs === undefined) errors.push({ field: 'endedAt', message: 'endedAt must be an ISO-8601 time' });
  const owner = task.owner;
  const leaseExpiresAtMs = owner === undefined ? null : parseTime(owner?.leaseExpiresAt);
  if (owner !== undefined) {
    if (typeof owner?.instanceId !== 'string' || owner.instanceId.length === 0) {
      errors.push({ field: 'owner.instanceId', message: 'owner.instanceId must be a non-empty string' });
    }
    if (leaseExpiresAtMs === undefined) errors.push({ field: 'owner.leaseExpiresAt', message: 'owner.leaseExpiresAt must be an ISO-8601 time' });
  }
  if (errors.length > 0) {
    throw new MobileClawError('VALIDATION_FAILED', `invalid task: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, {
      fieldErrors: errors,
    });
  }
  return {
    task_id: task.taskId,
    device_id: task.deviceId,
    status: task.status,
    created_at: createdAtMs as number,
    ended_at: endedAtMs ?? null,
    owner_instance_id: owner?.instanceId ?? null,
    context_id: task.contextId ?? null,
    lease_expires_at: leaseExpiresAtMs ?? null,
    data: JSON.stringify(task, (key, value: unknown) => (key === 'tools' && value === task.tools ? undefined : value)),
  };
}

/** The `task_tools` row of a task, or undefined when it has no `tools`. */
export function taskToolsToRow(task: Task): TaskToolsRow | undefined {
  return task.tools === undefined ? undefined : { task_id: task.taskId, data: JSON.stringify(task.tools) };
}

/** @throws CorruptRecordError when `data` is not a JSON array. */
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

/** @throws CorruptRecordError when `data` is not a task object whose id and status match the row. */
export function taskFromRow(row: TaskRow): Task {
  const task = parseObject(row.data, 'tasks', row.task_id) as unknown as Task;
  if (task.taskId !== row.task_id) throw new CorruptRecordError({ table: 'tasks', key: row.task_id, reason: 'taskId does not match the row' });
  if (task.status !== row.status) throw new CorruptRecordError({ table: 'tasks', key: row.task_id, reason: 'status does not match the row' });
  return task;
}

/**
 * @throws MobileClawError `VALIDATION_FAILED` when `index` is not an integer ≥ 0.
 */
export function stepToRow(step: TaskStep): StepRow {
  if (!Number.isSafeInteger(step.index) || step.index < 0) {
    throw new MobileClawError('VALIDATION_FAILED', 'invalid step: index: index must be an integer ≥ 0', {
      fieldErrors: [{ field: 'index', message: 'index must be an integer ≥ 0' }],
    });
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
