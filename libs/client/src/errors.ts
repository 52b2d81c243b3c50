/**
 * Errors of `@mobileclaw/client`. Every failure the SDK reports is a {@link MobileClawClientError} with
 * a stable `code`: the gateway's catalog code when the gateway answered with a problem document, or one
 * of the client's own codes ({@link ClientErrorCode}) when it did not.
 */

/**
 * What the app may safely do after progress became uncertain:
 * - `QUERY_LATER_DO_NOT_REINVOKE`: the task exists on the gateway; ask for it later (`client.get`,
 *   `client.events`), do not invoke again (that would run the goal twice).
 * - `RESEND_WITH_SAME_IDEMPOTENCY_KEY`: creation was never acknowledged; invoke again with the same
 *   `idempotencyKey` and the same content (the gateway then creates the task once at most).
 */
export type RecoveryHint = 'QUERY_LATER_DO_NOT_REINVOKE' | 'RESEND_WITH_SAME_IDEMPOTENCY_KEY';

/**
 * Codes the client itself reports (the gateway's own codes, e.g. `IDEMPOTENCY_KEY_REUSED`,
 * `VALIDATION_FAILED`, `TASK_NOT_FOUND`, `TASK_STATE_CONFLICT`, pass through unchanged):
 * - `NETWORK_ERROR`: the gateway could not be reached or the connection broke (retryable);
 * - `TIMEOUT`: no answer within `requestTimeoutMs` (retryable);
 * - `BAD_RESPONSE`: the gateway answered something that is not its API (e.g. a proxy's HTML page);
 * - `UNKNOWN_INVOCATION`: no record of that `invocationRef` in the invocation store;
 * - `NOT_CREATED`: the invocation's task was never acknowledged, so there is nothing to ask the gateway;
 * - `INVOCATION_RECORD_UNREADABLE`: the invocation store holds a record that cannot be read (not
 *   JSON, or not a record: damaged or edited outside the store); the message names the file;
 * - `TOOL_RESULT_REFUSED`: the gateway refused (400) the answer to a tool call and then the short
 *   rejection sent instead too, so the task cannot be told; it waits until its tool-result timeout;
 * - `PROGRESS_UNCERTAIN`: creation was not acknowledged, or the task's state could not be established
 *   (see `hint`);
 * - `ABORTED`: the caller's `signal` fired.
 */
export type ClientErrorCode =
  | 'NETWORK_ERROR'
  | 'TIMEOUT'
  | 'BAD_RESPONSE'
  | 'UNKNOWN_INVOCATION'
  | 'NOT_CREATED'
  | 'INVOCATION_RECORD_UNREADABLE'
  | 'TOOL_RESULT_REFUSED'
  | 'PROGRESS_UNCERTAIN'
  | 'ABORTED';

/** Details of a {@link MobileClawClientError}. */
export interface MobileClawClientErrorDetails {
  /** HTTP status, when the gateway answered. */
  status?: number;
  /** Whether repeating the same request can succeed. */
  retryable?: boolean;
  /** With `PROGRESS_UNCERTAIN`: what to do next. */
  hint?: RecoveryHint;
  /** The invocation's idempotency key, when the error concerns its creation. */
  idempotencyKey?: string;
  /** With `PROGRESS_UNCERTAIN`: the invocation's conversation, part of the content a re-send must repeat (it was made for you when you gave none). */
  conversationId?: string;
  /** The gateway's field errors, for `VALIDATION_FAILED`: `[{field, message}]`. */
  fieldErrors?: { field: string; message: string }[];
  cause?: unknown;
}

/** A failure of a client call: `code` (stable), `status` (HTTP, when answered), `retryable`, `hint` and `idempotencyKey` where they apply. */
export class MobileClawClientError extends Error {
  override readonly name = 'MobileClawClientError';
  readonly status?: number;
  readonly retryable: boolean;
  readonly hint?: RecoveryHint;
  readonly idempotencyKey?: string;
  readonly conversationId?: string;
  readonly fieldErrors?: { field: string; message: string }[];

  constructor(
    readonly code: ClientErrorCode | (string & {}),
    message: string,
    details: MobileClawClientErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.retryable = details.retryable ?? false;
    if (details.hint !== undefined) this.hint = details.hint;
    if (details.idempotencyKey !== undefined) this.idempotencyKey = details.idempotencyKey;
    if (details.conversationId !== undefined) this.conversationId = details.conversationId;
    if (details.fieldErrors !== undefined) this.fieldErrors = details.fieldErrors;
  }
}

/**
 * Whether the gateway may not have acted on a request: no answer (network, timeout) or a 5xx. A
 * creation in that state is re-sent with the same idempotency key.
 */
export function isUnacknowledged(error: unknown): boolean {
  if (!(error instanceof MobileClawClientError)) return false;
  if (error.code === 'NETWORK_ERROR' || error.code === 'TIMEOUT' || error.code === 'BAD_RESPONSE') return true;
  return error.status !== undefined && error.status >= 500;
}
