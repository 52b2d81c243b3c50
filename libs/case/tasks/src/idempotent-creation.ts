import { createHash } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { Clock, IdempotencyStore, MobileClawError, type IdempotentResponse } from '@mobileclaw/domain';
import { InMemoryIdempotencyStore } from './in-memory-idempotency-store';
import { SystemClock } from './system-clock';
import { TASK_CASE_OPTIONS, type TaskCaseOptions } from './task-case.options';

/** Longest `Idempotency-Key`, in characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 256;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]+$/;

/** The answer of {@link IdempotentCreation.run}. */
export interface IdempotentOutcome {
  response: IdempotentResponse;
  /** True when `response` is the stored answer of an earlier request with the same key and content. */
  replayed: boolean;
}

/**
 * JSON with object keys sorted at every level and no whitespace, so that two bodies with the same
 * content hash alike whatever their key order. `undefined` members are left out, as `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Hex SHA-256 of {@link canonicalJson}. */
export function requestHash(content: unknown): string {
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}

/**
 * Idempotent creation for every face (REST `POST /api/tasks`, A2A `SendMessage`): a caller's key is
 * stored with the hash of the request content for `idempotencyTtlMs` (TaskCaseOptions). The same key
 * and content gets the first answer again, not a second resource; a creation that fails forgets its
 * key, so that a retry runs anew. Without a host `IdempotencyStore`, keys live in memory.
 */
@Injectable()
export class IdempotentCreation {
  constructor(
    @Inject(TASK_CASE_OPTIONS) private readonly options: TaskCaseOptions,
    @Optional() private readonly store: IdempotencyStore = new InMemoryIdempotencyStore(),
    @Optional() private readonly clock: Clock = new SystemClock(),
  ) {}

  /**
   * Runs `create` once per `(scope, key)`: the first time, or once the key expired.
   * @param scope whose key it is (e.g. `rest:<caller>`); keys of other scopes never meet.
   * @param key the caller's key: 1–256 printable ASCII characters.
   * @param content the request content (hashed as {@link canonicalJson}).
   * @throws MobileClawError `VALIDATION_FAILED` (field `Idempotency-Key`) for a malformed key,
   *   `IDEMPOTENCY_KEY_REUSED` when the key was used with other content, `IDEMPOTENCY_KEY_IN_PROGRESS`
   *   while the first request with it has not answered, `STORAGE_ERROR`; and whatever `create` throws.
   */
  async run(scope: string, key: string, content: unknown, create: () => Promise<IdempotentResponse>): Promise<IdempotentOutcome> {
    if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !IDEMPOTENCY_KEY.test(key)) {
      const message = `Idempotency-Key must be 1–${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters without spaces`;
      throw new MobileClawError('VALIDATION_FAILED', message, { fieldErrors: [{ field: 'Idempotency-Key', message }] });
    }
    const claim = await this.store.claim({ scope, key, requestHash: requestHash(content), nowMs: this.clock.now().getTime(), ttlMs: this.options.idempotencyTtlMs });
    switch (claim.outcome) {
      case 'replay':
        return { response: claim.response, replayed: true };
      case 'mismatch':
        throw new MobileClawError('IDEMPOTENCY_KEY_REUSED', `Idempotency-Key "${key}" was already used with different request content`);
      case 'in_progress':
        throw new MobileClawError('IDEMPOTENCY_KEY_IN_PROGRESS', `a request with Idempotency-Key "${key}" is still in progress`);
      case 'claimed':
        break;
    }
    let response: IdempotentResponse;
    try {
      response = await create();
    } catch (err) {
      await this.store.release(scope, key);
      throw err;
    }
    await this.store.complete(scope, key, response);
    return { response, replayed: false };
  }

  /** Deletes expired keys; returns how many. */
  prune(): Promise<number> {
    return this.store.prune(this.clock.now().getTime());
  }
}
