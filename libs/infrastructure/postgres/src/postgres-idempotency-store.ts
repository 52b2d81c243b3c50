import { IdempotencyStore, type IdempotencyClaim, type IdempotencyClaimRequest, type IdempotentResponse } from '@mobileclaw/domain';
import type { PostgresDatabase } from './postgres-database';
import { StoreOperations } from './store-operations';

/**
 * Claims a free or expired key in one statement: an insert, or the replacement of an expired row
 * (`expires_at <= now`). Concurrent claims of one key (on any instance) meet on its unique index: one
 * inserts, the others see the committed row and update nothing. A row when claimed.
 */
const CLAIM = `INSERT INTO idempotency_keys (scope, key, request_hash, expires_at, response) VALUES ($1, $2, $3, $4, NULL)
  ON CONFLICT (scope, key) DO UPDATE SET request_hash = excluded.request_hash, expires_at = excluded.expires_at, response = NULL
  WHERE idempotency_keys.expires_at <= $5
  RETURNING 1`;

/** How often a claim reads again when the key it collided with vanished meanwhile (released or pruned). */
const CLAIM_ATTEMPTS = 3;

/**
 * The PostgreSQL adapter of the {@link IdempotencyStore} port: table `idempotency_keys` (see
 * `POSTGRES_MIGRATIONS`), shared by every instance on the database. Runs on a migrated
 * {@link PostgresDatabase} it does not own. Failures: `STORAGE_ERROR` (retryable) when the database
 * is unreachable or fails, `SHUTTING_DOWN` after {@link close}.
 */
export class PostgresIdempotencyStore extends IdempotencyStore {
  private readonly operations = new StoreOperations('the idempotency store');

  constructor(private readonly database: PostgresDatabase) {
    super();
  }

  override claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
    return this.operations.run(async () => {
      for (let attempt = 1; ; attempt++) {
        const claimed = await this.database.query(CLAIM, [request.scope, request.key, request.requestHash, request.nowMs + request.ttlMs, request.nowMs]);
        if (claimed.length > 0) return { outcome: 'claimed' };
        const [row] = await this.database.query<{ request_hash: string; response: string | null }>(
          'SELECT request_hash, response FROM idempotency_keys WHERE scope = $1 AND key = $2',
          [request.scope, request.key],
        );
        if (!row) {
          if (attempt < CLAIM_ATTEMPTS) continue;
          return { outcome: 'in_progress' };
        }
        if (row.request_hash !== request.requestHash) return { outcome: 'mismatch' };
        if (row.response === null) return { outcome: 'in_progress' };
        return { outcome: 'replay', response: JSON.parse(row.response) as IdempotentResponse };
      }
    });
  }

  override complete(scope: string, key: string, response: IdempotentResponse): Promise<void> {
    return this.operations.run(async () => {
      await this.database.query('UPDATE idempotency_keys SET response = $3 WHERE scope = $1 AND key = $2', [scope, key, JSON.stringify(response)]);
    });
  }

  override release(scope: string, key: string): Promise<void> {
    return this.operations.run(async () => {
      await this.database.query('DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2', [scope, key]);
    });
  }

  /** Deletes the keys expired at `nowMs` (ms since the epoch); returns how many. */
  override prune(nowMs: number): Promise<number> {
    return this.operations.run(async () => (await this.database.query('DELETE FROM idempotency_keys WHERE expires_at <= $1 RETURNING 1', [nowMs])).length);
  }

  /** Waits for the operations in progress, then refuses every call with `SHUTTING_DOWN`. Leaves the database open. Idempotent. */
  close(): Promise<void> {
    return this.operations.close();
  }
}
