import { MobileClawError } from '../errors';
import type { ToolInvocationResult } from './tool-invocation';

/**
 * Which call a ledger entry is: the caller's id for the call, within that caller. Two callers may
 * pick the same `toolCallId` without meeting.
 */
export interface ToolCallKey {
  /** Who calls (a policy's caller id, e.g. `rest`). */
  caller: string;
  /** The caller's id for the call, stable across its retries. */
  toolCallId: string;
}

/** How a call ended: the result as the caller got it and how long the call took, in ms. */
export interface ToolCallOutcome {
  result: ToolInvocationResult;
  durationMs: number;
}

/** One call in the ledger: which tool it called and, once it ended, its outcome. Kept until pruned ({@link ToolCallLedger.prune}). */
export interface ToolCallRecord extends ToolCallKey {
  /** The tool's name as the caller called it (the registry's exposed name). */
  tool: string;
  /** Absent while the call runs — or when the process running it stopped before it ended. */
  outcome?: ToolCallOutcome;
}

/**
 * The answer of {@link ToolCallLedger.begin}: `begun` when this call is the first with its key (the
 * caller now runs it), else the record the key already has (running, interrupted or ended).
 */
export type ToolCallBegin = { begun: true } | { begun: false; record: ToolCallRecord };

/**
 * The record of tool calls that makes a `toolCallId` execute at most once: a call is begun before it
 * runs and finished with its outcome after; a key begun once is never begun again, so a retry gets the
 * recorded outcome instead of a second execution. An abstract class so that it doubles as a DI token.
 * Records are kept for a retention the host chooses, then pruned: a key pruned is new again.
 * Failures: `STORAGE_ERROR` when a durable store fails, `SHUTTING_DOWN` once closed.
 */
export abstract class ToolCallLedger {
  /**
   * Atomically records that the call `key` of `tool` begins, when the key is new: of concurrent
   * `begin`s of one key exactly one is `begun`.
   */
  abstract begin(key: ToolCallKey, tool: string): Promise<ToolCallBegin>;

  /** Records the outcome of a begun call. A key never begun is ignored; a second finish does not replace the first. */
  abstract finish(key: ToolCallKey, outcome: ToolCallOutcome): Promise<void>;

  /** The record of `key`, or undefined when it was never begun. */
  abstract get(key: ToolCallKey): Promise<ToolCallRecord | undefined>;

  /**
   * Removes every record of a call begun before `olderThanIso` (ISO-8601, e.g.
   * `2026-11-24T23:00:00.000Z`), ended or not, and resolves with how many were removed. A call begun at
   * that instant or later stays. The host picks the instant far enough back that no caller still retries those calls.
   * @throws MobileClawError `VALIDATION_FAILED` when `olderThanIso` is not an ISO-8601 date-time.
   */
  abstract prune(olderThanIso: string): Promise<number>;
}

/**
 * The instant of `iso` in ms since the epoch, for {@link ToolCallLedger.prune}.
 * @throws MobileClawError `VALIDATION_FAILED` when `iso` is not an ISO-8601 date-time with a time zone.
 */
export function pruneInstantMs(iso: string): number {
  const ms = ISO_DATE_TIME.test(iso) ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(ms)) throw new MobileClawError('VALIDATION_FAILED', `prune: ${JSON.stringify(iso)} is not an ISO-8601 date-time (e.g. 2026-11-24T23:00:00.000Z)`);
  return ms;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
