import type { Statement } from 'better-sqlite3';
import { IdempotencyStore, MobileClawError, type IdempotencyClaim, type IdempotencyClaimRequest, type IdempotentResponse } from '@mobileclaw/domain';
import { toStorageError } from './sqlite-task-repository';
import { openTaskDatabase, type TaskDatabase } from './task-database';

interface KeyRow {
  request_hash: string;
  expires_at: number;
  response: string | null;
}

/**
 * The SQLite adapter of the {@link IdempotencyStore} port: table `idempotency_keys` of the task
 * database (schema version 3), on a connection of its own to the same file, so keys survive a
 * restart. A claim is one immediate transaction: of concurrent claims (also from other processes on
 * the same file) one wins. Failures: `STORAGE_ERROR` when the database fails, `SHUTTING_DOWN` after
 * {@link close}.
 */
export class SqliteIdempotencyStore extends IdempotencyStore {
  private readonly statements: ReturnType<typeof prepareStatements>;

  /**
   * Opens the task database at `path` (the `SqliteTaskRepository.path`; `:memory:` for a private
   * in-memory one, for tests), migrating it when needed.
   * @throws Error when the database cannot be opened or migrated.
   */
  static open(path: string): SqliteIdempotencyStore {
    return new SqliteIdempotencyStore(openTaskDatabase(path));
  }

  private constructor(private readonly db: TaskDatabase) {
    super();
    this.statements = prepareStatements(db);
  }

  override claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
    return this.run(() =>
      this.db
        .transaction((): IdempotencyClaim => {
          const row = this.statements.get.get(request.scope, request.key) as KeyRow | undefined;
          if (row === undefined || row.expires_at <= request.nowMs) {
            this.statements.upsert.run({ scope: request.scope, key: request.key, request_hash: request.requestHash, expires_at: request.nowMs + request.ttlMs });
            return { outcome: 'claimed' };
          }
          if (row.request_hash !== request.requestHash) return { outcome: 'mismatch' };
          if (row.response === null) return { outcome: 'in_progress' };
          return { outcome: 'replay', response: JSON.parse(row.response) as IdempotentResponse };
        })
        .immediate(),
    );
  }

  override complete(scope: string, key: string, response: IdempotentResponse): Promise<void> {
    return this.run(() => {
      this.statements.complete.run(JSON.stringify(response), scope, key);
    });
  }

  override release(scope: string, key: string): Promise<void> {
    return this.run(() => {
      this.statements.release.run(scope, key);
    });
  }

  override prune(nowMs: number): Promise<number> {
    return this.run(() => this.statements.prune.run(nowMs).changes);
  }

  /** Closes the connection; calling it again does nothing. */
  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private async run<T>(operation: () => T): Promise<T> {
    if (!this.db.open) throw new MobileClawError('SHUTTING_DOWN', 'the idempotency store is closed');
    try {
      return operation();
    } catch (err) {
      throw toStorageError(err);
    }
  }
}

function prepareStatements(db: TaskDatabase): Record<'get' | 'upsert' | 'complete' | 'release' | 'prune', Statement> {
  return {
    get: db.prepare('SELECT request_hash, expires_at, response FROM idempotency_keys WHERE scope = ? AND key = ?'),
    upsert: db.prepare(
      `INSERT INTO idempotency_keys (scope, key, request_hash, expires_at, response) VALUES (@scope, @key, @request_hash, @expires_at, NULL)
       ON CONFLICT (scope, key) DO UPDATE SET request_hash = excluded.request_hash, expires_at = excluded.expires_at, response = NULL`,
    ),
    complete: db.prepare('UPDATE idempotency_keys SET response = ? WHERE scope = ? AND key = ?'),
    release: db.prepare('DELETE FROM idempotency_keys WHERE scope = ? AND key = ?'),
    prune: db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?'),
  };
}
