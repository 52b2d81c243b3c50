import { Logger } from '@nestjs/common';
import { MobileClawError } from '@mobileclaw/domain';
import { Pool, types, type PoolClient, type QueryResultRow } from 'pg';
import { POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION } from './migrations';
import { toStorageError } from './storage-error';

export interface PostgresDatabaseOptions {
  /** `postgres://user:password@host:port/database` (or `postgresql://`), as `pg` reads it (query parameters such as `sslmode` included). */
  url: string;
  /** Most connections the pool holds open at once. Default 10. */
  maxConnections?: number;
  /** Longest a statement may run on the server before it is canceled (`statement_timeout`), in ms. Default 30000. */
  statementTimeoutMs?: number;
  /** Longest to wait for a connection (to open one, or for a free one of the pool), in ms. Default 5000. */
  connectionTimeoutMs?: number;
  /** `application_name` the server shows for these connections. Default `mobileclaw`. */
  applicationName?: string;
}

/** What a store runs statements on: the pool, or one transaction's connection. */
export interface PostgresQueryable {
  /**
   * Runs one statement with `$1…` parameters and returns its rows (`bigint` columns as numbers, `bytea`
   * as Buffers).
   * @throws MobileClawError `STORAGE_ERROR` when the server is unreachable or fails (see `toStorageError`);
   *   other server errors (a constraint, a bad statement) as `pg` raises them.
   */
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: readonly unknown[]): Promise<R[]>;
}

/** `int8` (`bigint`, `count(*)`) as a JavaScript number: the values here are ms, ids and counts, far below 2^53. */
const INT8_OID = 20;
const TYPES = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID && format !== 'binary' ? (value: string) => Number(value) : types.getTypeParser(oid, format as 'text')) as typeof types.getTypeParser,
};

/** Key of the session-level advisory lock that serializes migrations across instances (`'mclw'` in ASCII). */
export const MIGRATION_LOCK_KEY = 0x6d636c77;

/**
 * A PostgreSQL database that the stores of this package share: one `pg.Pool` per process. Statements
 * that fail because the server is down, restarting or unreachable reject with `STORAGE_ERROR`
 * (retryable); the pool drops broken connections (an `error` handler logs those that break while
 * idle, so the process never crashes on them) and opens new ones once the server is back, with no
 * action by the caller. Create it with {@link PostgresDatabase.open}, then {@link migrate} once.
 */
export class PostgresDatabase implements PostgresQueryable {
  private readonly logger = new Logger('PostgresDatabase');
  private ended = false;

  /**
   * Creates the pool; connects lazily (the first statement, e.g. {@link migrate}, opens the first connection).
   * @throws MobileClawError `VALIDATION_FAILED` (field `url`) when `url` is not a `postgres://` or
   *   `postgresql://` URL, (fields `maxConnections`, `statementTimeoutMs`, `connectionTimeoutMs`) for
   *   a value that is not an integer ≥ 1.
   */
  static open(options: PostgresDatabaseOptions): PostgresDatabase {
    const errors = [
      ...(isPostgresUrl(options.url) ? [] : [{ field: 'url', message: 'url must be a postgres:// or postgresql:// URL' }]),
      ...(['maxConnections', 'statementTimeoutMs', 'connectionTimeoutMs'] as const)
        .filter((field) => options[field] !== undefined && !(Number.isSafeInteger(options[field]) && (options[field] as number) >= 1))
        .map((field) => ({ field, message: `${field} must be an integer ≥ 1` })),
    ];
    if (errors.length > 0) {
      throw new MobileClawError('VALIDATION_FAILED', `invalid database options: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, { fieldErrors: errors });
    }
    return new PostgresDatabase(
      new Pool({
        connectionString: options.url,
        max: options.maxConnections ?? 10,
        statement_timeout: options.statementTimeoutMs ?? 30_000,
        connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
        application_name: options.applicationName ?? 'mobileclaw',
        keepAlive: true,
        types: TYPES,
      }),
    );
  }

  private constructor(private readonly pool: Pool) {
    // An idle connection that breaks (server restarted, network cut) is removed by the pool; without
    // this handler its error would be an uncaught 'error' event and end the process.
    // After close, connections still ending may meet the server's own shutdown: nothing to report then.
    pool.on('error', (err) => {
      if (!this.ended) this.logger.warn(`an idle PostgreSQL connection failed and was dropped: ${err.message}`);
    });
  }

  /** Whether {@link close} was called. */
  get closed(): boolean {
    return this.ended;
  }

  async query<R extends QueryResultRow = QueryResultRow>(text: string, values?: readonly unknown[]): Promise<R[]> {
    try {
      return (await this.pool.query<R>(text, values as unknown[])).rows;
    } catch (err) {
      throw toStorageError(err);
    }
  }

  /**
   * Runs `work` in one transaction (`BEGIN` … `COMMIT`, read committed) on one connection and returns
   * its result; rolls back when `work` rejects and rejects with that reason. A connection whose
   * rollback fails is discarded, not returned to the pool.
   * @throws MobileClawError `STORAGE_ERROR` when no connection can be had or `BEGIN`/`COMMIT` fail; what `work` throws, unchanged.
   */
  async transaction<T>(work: (tx: PostgresQueryable) => Promise<T>): Promise<T> {
    const client = await this.connect();
    const tx: PostgresQueryable = { query: (text, values) => runOn(client, text, values) };
    try {
      await tx.query('BEGIN');
      const result = await work(tx);
      await tx.query('COMMIT');
      client.release();
      return result;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
        client.release();
      } catch (rollbackError) {
        client.release(rollbackError as Error);
      }
      throw err;
    }
  }

  /**
   * Brings the schema to {@link POSTGRES_SCHEMA_VERSION}: under a session advisory lock
   * ({@link MIGRATION_LOCK_KEY}), so that instances starting together migrate once, each missing
   * version in a transaction of its own that also records it in `schema_migrations` (a crash leaves
   * the database at a version, never between two).
   * @returns the version before migrating (0 for an empty database).
   * @throws Error when the database is at a newer version than this code knows;
   *   MobileClawError `STORAGE_ERROR` when the server is unreachable.
   */
  async migrate(): Promise<number> {
    const client = await this.connect();
    let broken: Error | undefined;
    try {
      await runOn(client, 'SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      try {
        await runOn(client, 'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
        const [{ version: from }] = await runOn<{ version: number }>(client, 'SELECT COALESCE(MAX(version), 0)::integer AS version FROM schema_migrations');
        if (from > POSTGRES_SCHEMA_VERSION) throw new Error(`database schema version ${from} is newer than this gateway supports (${POSTGRES_SCHEMA_VERSION})`);
        for (let version = from + 1; version <= POSTGRES_SCHEMA_VERSION; version++) {
          await runOn(client, 'BEGIN');
          try {
            await runOn(client, POSTGRES_MIGRATIONS[version - 1] as string);
            await runOn(client, 'INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
            await runOn(client, 'COMMIT');
          } catch (err) {
            await client.query('ROLLBACK').catch(() => undefined);
            throw err;
          }
          this.logger.log(`migrated the database to schema version ${version}`);
        }
        return from;
      } finally {
        await runOn(client, 'SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch((err: Error) => (broken = err));
      }
    } finally {
      client.release(broken);
    }
  }

  /** Closes every connection once the statements in progress end. Idempotent. */
  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.pool.end();
  }

  /**
   * A connection of the pool for several statements. While it is checked out, an error event of its
   * own (the server ends it between two statements) is logged here; the pool only listens while it is idle.
   * Give its `release` an error to discard it instead of returning it.
   */
  private async connect(): Promise<PoolClient> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw toStorageError(err);
    }
    const onError = (err: Error): void => this.logger.warn(`a PostgreSQL connection in use failed: ${err.message}`);
    client.on('error', onError);
    const release = client.release.bind(client);
    client.release = (err?: Error | boolean) => {
      client.off('error', onError);
      release(err);
    };
    return client;
  }
}

/** Whether `value` parses as a URL of scheme `postgres:` or `postgresql:` with a host. */
export function isPostgresUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

async function runOn<R extends QueryResultRow = QueryResultRow>(client: PoolClient, text: string, values?: readonly unknown[]): Promise<R[]> {
  try {
    return (await client.query<R>(text, values as unknown[])).rows;
  } catch (err) {
    throw toStorageError(err);
  }
}
