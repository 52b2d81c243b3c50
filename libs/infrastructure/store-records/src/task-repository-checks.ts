import { MobileClawError, isoTimeErrors, throwIfInvalid, type FieldError, type StoredImage } from '@mobileclaw/domain';
import { TASK_ID_RULE, isTaskId } from './task-rows';

/** Media types the stores accept for a screenshot: `type/subtype`, each 1–64 characters of RFC 6838's name characters. */
const MIME_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,63}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,63}$/;

/**
 * Field errors of a screenshot's key: `taskId` per {@link isTaskId}, `stepIndex` an integer from 0 to
 * `maxStepIndex` (the largest the store's column holds).
 */
export function screenshotKeyErrors(taskId: string, stepIndex: number, maxStepIndex = Number.MAX_SAFE_INTEGER): FieldError[] {
  const errors: FieldError[] = [];
  if (!isTaskId(taskId)) errors.push({ field: 'taskId', message: TASK_ID_RULE });
  if (!Number.isSafeInteger(stepIndex) || stepIndex < 0 || stepIndex > maxStepIndex) errors.push({ field: 'stepIndex', message: 'stepIndex must be an integer ≥ 0' });
  return errors;
}

/** Field errors of a screenshot: `mime` a media type (see {@link MIME_TYPE}), `bytes` a `Uint8Array`. */
export function storedImageErrors(image: StoredImage): FieldError[] {
  const errors: FieldError[] = [];
  if (typeof image?.mime !== 'string' || !MIME_TYPE.test(image.mime)) errors.push({ field: 'mime', message: 'mime must be a media type such as image/png' });
  if (!(image?.bytes instanceof Uint8Array)) errors.push({ field: 'bytes', message: 'bytes must be a Uint8Array' });
  return errors;
}

/** @returns ms since the epoch. @throws MobileClawError `VALIDATION_FAILED` (field `field`, "invalid request") when `value` is not an ISO-8601 time. */
export function requireTime(value: string, field: string): number {
  throwIfInvalid(isoTimeErrors(value, field), 'invalid request');
  return Date.parse(value);
}

/** `TASK_NOT_FOUND` for a task the store does not hold, with the store's error as `cause` when given. */
export function taskNotFound(taskId: string, cause?: unknown): MobileClawError {
  return new MobileClawError('TASK_NOT_FOUND', `task ${taskId} is not stored`, cause === undefined ? {} : { cause });
}
