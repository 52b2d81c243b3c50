import { MobileClawError, type FieldError } from '../errors';
import type { RetentionPolicy, TaskFilter } from './task.repository';
import { TASK_STATUSES } from './task';

/**
 * Argument checks every `TaskRepository` adapter makes the same way, so that each rejects a bad
 * argument with the same `VALIDATION_FAILED` field errors (the port's contract asserts field names).
 * Pure: no I/O.
 */

/** Largest page of `TaskRepository.listTasks`, as the port documents. */
export const MAX_TASK_PAGE_SIZE = 200;

/** @throws MobileClawError `VALIDATION_FAILED` (message `<what>: <field>: <message>; …`, `fieldErrors` = `errors`) when there are any. */
export function throwIfInvalid(errors: FieldError[], what: string): void {
  if (errors.length === 0) return;
  throw new MobileClawError('VALIDATION_FAILED', `${what}: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, { fieldErrors: errors });
}

/** A field error on `status` unless it is absent or one of {@link TASK_STATUSES}. */
export function taskStatusErrors(status: TaskFilter['status']): FieldError[] {
  return status === undefined || TASK_STATUSES.includes(status) ? [] : [{ field: 'status', message: `status must be one of ${TASK_STATUSES.join(', ')}` }];
}

/** A field error on `limit` unless it is an integer from 1 to {@link MAX_TASK_PAGE_SIZE}. */
export function taskPageLimitErrors(limit: number): FieldError[] {
  return Number.isSafeInteger(limit) && limit >= 1 && limit <= MAX_TASK_PAGE_SIZE ? [] : [{ field: 'limit', message: `limit must be an integer from 1 to ${MAX_TASK_PAGE_SIZE}` }];
}

/** Field errors on `maxAgeMs` (when given, a number of ms ≥ 0) and `maxTasks` (when given, an integer ≥ 0). */
export function retentionPolicyErrors(policy: RetentionPolicy): FieldError[] {
  const errors: FieldError[] = [];
  if (policy.maxAgeMs !== undefined && !(Number.isFinite(policy.maxAgeMs) && policy.maxAgeMs >= 0)) errors.push({ field: 'maxAgeMs', message: 'maxAgeMs must be a number of ms ≥ 0' });
  if (policy.maxTasks !== undefined && !(Number.isSafeInteger(policy.maxTasks) && policy.maxTasks >= 0)) errors.push({ field: 'maxTasks', message: 'maxTasks must be an integer ≥ 0' });
  return errors;
}

/** A field error on `field` unless `value` is a string `Date.parse` reads (ISO-8601). */
export function isoTimeErrors(value: unknown, field: string): FieldError[] {
  return typeof value === 'string' && Number.isFinite(Date.parse(value)) ? [] : [{ field, message: `${field} must be an ISO-8601 time` }];
}
