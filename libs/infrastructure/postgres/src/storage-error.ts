import { MobileClawError } from '@mobileclaw/domain';

/**
 * SQLSTATE classes and codes that mean the database itself failed or is unreachable, not that the
 * request was wrong: 08 connection exception, 25006 read-only transaction, 40 transaction rollback
 * (serialization failure, deadlock), 53 insufficient resources (disk full, out of memory, too many
 * connections), 55 object not in prerequisite state (lock not available), 57 operator intervention
 * (admin shutdown, crash shutdown, cannot connect now while starting, statement timeout), 58 system
 * error (I/O), XX internal error.
 */
const STORE_FAILURE_SQLSTATE = /^(08|40|53|55|57|58|XX)|^25006$/;

/** The five-character SQLSTATE of a server error, or undefined for errors of the driver or the network. */
export function sqlState(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/**
 * Translates a failure met while talking to PostgreSQL into the domain's `STORAGE_ERROR` (retryable),
 * keeping the original as `cause`: every error without a SQLSTATE (connection refused or reset, a
 * connection ended by the server, the pool's connect timeout) and the SQLSTATEs of
 * {@link STORE_FAILURE_SQLSTATE}. Domain errors and other server errors (a constraint, a bad
 * statement: the caller's or this code's mistake) pass unchanged.
 */
export function toStorageError(err: unknown): unknown {
  if (err instanceof MobileClawError) return err;
  const state = sqlState(err);
  if (state !== undefined && !STORE_FAILURE_SQLSTATE.test(state)) return err;
  const message = err instanceof Error ? err.message : String(err);
  const code = state ?? (typeof (err as { code?: unknown })?.code === 'string' ? (err as { code: string }).code : 'connection');
  return new MobileClawError('STORAGE_ERROR', `the PostgreSQL store failed (${code}): ${message}`, { cause: err });
}
