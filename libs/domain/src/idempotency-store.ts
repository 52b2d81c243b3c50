/**
 * Idempotent creation: a caller's `Idempotency-Key` remembered with a hash of the request content and,
 * once the creation has answered, the answer itself, so that a retried request gets the original
 * answer instead of creating a second resource.
 */

/** The answer a creation gave, replayed to a retry: an HTTP-style status and a JSON body. */
export interface IdempotentResponse {
  /** E.g. 202. */
  status: number;
  /** JSON-serialisable. */
  body: unknown;
}

/** What {@link IdempotencyStore.claim} is asked to reserve. */
export interface IdempotencyClaimRequest {
  /** Whose key it is (e.g. `rest:<caller>` or `a2a:<caller>`): keys of different scopes never meet. 1–512 chars. */
  scope: string;
  /** The caller's key, 1–256 chars. */
  key: string;
  /** A hash of the request content (e.g. hex SHA-256 of its canonical JSON). */
  requestHash: string;
  /** Now, in ms since the epoch. */
  nowMs: number;
  /** How long the key is remembered from now, in ms (> 0). */
  ttlMs: number;
}

/**
 * The outcome of a claim:
 * - `claimed`: the key was free (never used, or expired); it is now reserved, in progress, for this request;
 * - `replay`: the same key and content completed before; `response` is its answer;
 * - `in_progress`: the same key is reserved by a request that has not answered yet;
 * - `mismatch`: the key is held (in progress or completed) for other content.
 */
export type IdempotencyClaim =
  | { outcome: 'claimed' }
  | { outcome: 'replay'; response: IdempotentResponse }
  | { outcome: 'in_progress' }
  | { outcome: 'mismatch' };

/**
 * Where idempotency keys live. Abstract class so that it doubles as the Nest DI token. A claim is
 * atomic: of two concurrent claims of a free key exactly one gets `claimed`. A key whose `expiresAt`
 * is at or before `nowMs` counts as free. Every adapter passes `describeIdempotencyStoreContract`
 * (`@mobileclaw/domain/testing`).
 * Failures (as rejections): `MobileClawError` `STORAGE_ERROR` when the store fails, `SHUTTING_DOWN`
 * after the store was closed.
 */
export abstract class IdempotencyStore {
  /** Reserves `key` in `scope` for `requestHash`, or reports what holds it (see {@link IdempotencyClaim}). */
  abstract claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim>;
  /** Records the answer of a claimed key; later claims with the same content replay it. Unknown keys are ignored. */
  abstract complete(scope: string, key: string, response: IdempotentResponse): Promise<void>;
  /** Forgets a claimed key whose creation failed, so that a retry runs it anew. Unknown keys are ignored. */
  abstract release(scope: string, key: string): Promise<void>;
  /** Deletes the keys expired at `nowMs` (ms since the epoch); returns how many. */
  abstract prune(nowMs: number): Promise<number>;
}
