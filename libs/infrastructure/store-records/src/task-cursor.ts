import { MobileClawError } from '@mobileclaw/domain';

/** The position after which the next page of `listTasks` starts (ordering: `createdAtMs` desc, `taskId` desc). */
export interface TaskCursor {
  /** `createdAt` of the last task of the previous page, ms since the epoch. */
  createdAtMs: number;
  taskId: string;
}

const VERSION = 1;

/** Encodes a cursor as base64url of the JSON `[1, createdAtMs, taskId]`; opaque to callers. */
export function encodeTaskCursor(cursor: TaskCursor): string {
  return Buffer.from(JSON.stringify([VERSION, cursor.createdAtMs, cursor.taskId]), 'utf8').toString('base64url');
}

/**
 * Decodes a cursor made by {@link encodeTaskCursor}. Only the exact canonical encoding is accepted.
 * @throws MobileClawError `VALIDATION_FAILED` with a field error on `cursor` for anything else.
 */
export function decodeTaskCursor(text: string): TaskCursor {
  const invalid = (): MobileClawError =>
    new MobileClawError('VALIDATION_FAILED', 'invalid request: cursor: not a cursor issued by this task list', {
      fieldErrors: [{ field: 'cursor', message: 'cursor must be the nextCursor of a previous page' }],
    });
  if (typeof text !== 'string' || text.length === 0 || text.length > 1024 || !/^[A-Za-z0-9_-]+$/.test(text)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== 3) throw invalid();
  const [version, createdAtMs, taskId] = value as unknown[];
  if (version !== VERSION || !Number.isSafeInteger(createdAtMs) || typeof taskId !== 'string' || taskId.length === 0) throw invalid();
  const cursor = { createdAtMs: createdAtMs as number, taskId };
  if (encodeTaskCursor(cursor) !== text) throw invalid();
  return cursor;
}
