import { PostgresDatabase } from '../postgres-database';
import { startPostgresServer, type PostgresServer } from './postgres-server';

/** The tables the stores write, emptied between tests (identities restarted). */
const STORE_TABLES = ['tasks', 'task_tools', 'steps', 'events', 'screenshots', 'idempotency_keys', 'push_configs', 'push_deliveries', 'tool_calls', 'memories', 'memory_files'];

/** A spec file's server and migrated database; read its fields inside tests and hooks (they are set by `beforeAll`). */
export interface SpecDatabase {
  readonly server: PostgresServer;
  /** URL of the spec file's own database. */
  readonly url: string;
  /** Empties every store table (identities restarted): each test starts from an empty, migrated schema. */
  reset(): Promise<void>;
}

/**
 * Registers `beforeAll`/`afterAll` hooks of the calling spec file: one PostgreSQL server
 * ({@link startPostgresServer}) and one database `name` on it, migrated, for the whole file; stopped
 * and removed after it. Call at the top level of a spec file.
 */
export function useSpecDatabase(name: string): SpecDatabase {
  let server: PostgresServer | undefined;
  let url: string | undefined;
  const required = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useSpecDatabase: read it inside a test or hook');
    return value;
  };
  beforeAll(async () => {
    server = await startPostgresServer();
    url = await server.createDatabase(name);
    const database = PostgresDatabase.open({ url });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  return {
    get server() {
      return required(server);
    },
    get url() {
      return required(url);
    },
    async reset() {
      const database = PostgresDatabase.open({ url: required(url) });
      try {
        await database.query(`TRUNCATE ${STORE_TABLES.join(', ')} RESTART IDENTITY CASCADE`);
      } finally {
        await database.close();
      }
    },
  };
}

/** A store on a {@link PostgresDatabase} that it does not own. */
export interface ClosableStore {
  close(): Promise<void>;
}

/**
 * The `create` / `reopen` / `dispose` hooks a domain contract suite takes, for a PostgreSQL adapter
 * made by `openOn(database)`: `create` empties the spec database and opens a store on a new pool,
 * `reopen` closes every store and pool and opens a new one on the same database (what a restart
 * does), `dispose` closes them all. `open()` opens another store, on a pool of its own (another instance).
 */
export function postgresStoreLifecycle<T extends ClosableStore>(spec: SpecDatabase, openOn: (database: PostgresDatabase) => T) {
  const opened: { store: T; database: PostgresDatabase }[] = [];
  const open = (): T => {
    const database = PostgresDatabase.open({ url: spec.url });
    const store = openOn(database);
    opened.push({ store, database });
    return store;
  };
  const closeAll = async (): Promise<void> => {
    for (const { store, database } of opened.splice(0)) {
      await store.close();
      await database.close();
    }
  };
  return {
    open,
    create: async (): Promise<T> => {
      await spec.reset();
      return open();
    },
    reopen: async (): Promise<T> => {
      await closeAll();
      return open();
    },
    dispose: closeAll,
  };
}
