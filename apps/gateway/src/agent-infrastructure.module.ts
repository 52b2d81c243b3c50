import { Inject, Injectable, Logger, Module, Optional, type DynamicModule, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { IdempotencyStore, Planner, PlannerMetrics, PushDeliveryOutbox, PushNotificationConfigStore, ScreenImageEncoder, TaskRepository } from '@mobileclaw/domain';
import { LlmPlanner, type LlmPlannerOptions } from '@mobileclaw/planner-llm';
import { RuleBasedPlanner } from '@mobileclaw/planner-rules';
import { SharpScreenImageEncoder } from '@mobileclaw/screen-image';
import { PostgresDatabase, PostgresIdempotencyStore, PostgresPushDeliveryOutbox, PostgresPushNotificationConfigStore, PostgresTaskRepository } from '@mobileclaw/store-postgres';
import { SqliteIdempotencyStore, SqlitePushDeliveryOutbox, SqlitePushNotificationConfigStore, SqliteTaskRepository } from '@mobileclaw/store-sqlite';
import { GatewayStartError } from './gateway-start-error';

export interface AgentInfrastructureOptions {
  /** Directory of the SQLite database and the step screenshots (created when absent); unused by the stores with `databaseUrl`. */
  dataDir: string;
  /**
   * PostgreSQL (`postgres://…`) for the task store and its siblings (idempotency keys, push
   * notification configs and outbox), shared by several gateway instances; undefined = SQLite in `dataDir`.
   */
  databaseUrl?: string;
  /** An OpenAI-compatible model; when absent the rule-based planner runs. */
  llm?: LlmPlannerOptions;
  /** Register the ports globally (the gateway does). */
  isGlobal?: boolean;
}

/** A store adapter of this module: each has `close()` (the ports leave it out, the adapters have it). */
interface ClosableStore {
  close(): Promise<void>;
}

/** Closes the stores after every `beforeApplicationShutdown` hook (tasks record their end first), then the PostgreSQL pool when there is one. */
@Injectable()
class TaskRepositoryLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(TaskRepository) private readonly repository: TaskRepository,
    @Inject(IdempotencyStore) private readonly idempotency: ClosableStore,
    @Inject(PushNotificationConfigStore) private readonly pushConfigs: ClosableStore,
    @Inject(PushDeliveryOutbox) private readonly pushOutbox: ClosableStore,
    @Optional() @Inject(PostgresDatabase) private readonly database?: PostgresDatabase,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.idempotency.close();
    await this.pushConfigs.close();
    await this.pushOutbox.close();
    await this.repository.close();
    await this.database?.close();
  }
}

/** The store providers over SQLite in `dataDir`: one file, a connection per store. */
function sqliteStores(dataDir: string): Provider[] {
  return [
    { provide: TaskRepository, useFactory: () => SqliteTaskRepository.open({ dataDir }) },
    // Its own connection to the task database (table `idempotency_keys`), opened once the store has migrated it.
    { provide: IdempotencyStore, inject: [TaskRepository], useFactory: (repository: SqliteTaskRepository) => SqliteIdempotencyStore.open(repository.path) },
    { provide: PushNotificationConfigStore, inject: [TaskRepository], useFactory: (repository: SqliteTaskRepository) => SqlitePushNotificationConfigStore.open(repository.path) },
    { provide: PushDeliveryOutbox, inject: [TaskRepository], useFactory: (repository: SqliteTaskRepository) => SqlitePushDeliveryOutbox.open(repository.path) },
  ];
}

/** `host:port/database` of a PostgreSQL URL, without its credentials or parameters (they may hold secrets). */
function databaseAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'an unparsable URL';
  }
}

/**
 * The store providers over PostgreSQL at `url`: one pool (`PostgresDatabase`, migrated before any
 * store uses it; a database that cannot be reached or migrated fails the start) shared by every store.
 */
function postgresStores(url: string): Provider[] {
  return [
    {
      provide: PostgresDatabase,
      useFactory: async () => {
        const database = PostgresDatabase.open({ url });
        try {
          await database.migrate();
        } catch (err) {
          await database.close();
          throw new GatewayStartError(
            `cannot reach or migrate the PostgreSQL database of MOBILECLAW_DATABASE_URL (${databaseAddress(url)}): ${err instanceof Error ? err.message : String(err)} — is the server running and the database created?`,
            { cause: err },
          );
        }
        return database;
      },
    },
    { provide: TaskRepository, inject: [PostgresDatabase], useFactory: (database: PostgresDatabase) => new PostgresTaskRepository(database) },
    { provide: IdempotencyStore, inject: [PostgresDatabase], useFactory: (database: PostgresDatabase) => new PostgresIdempotencyStore(database) },
    { provide: PushNotificationConfigStore, inject: [PostgresDatabase], useFactory: (database: PostgresDatabase) => new PostgresPushNotificationConfigStore(database) },
    { provide: PushDeliveryOutbox, inject: [PostgresDatabase], useFactory: (database: PostgresDatabase) => new PostgresPushDeliveryOutbox(database) },
  ];
}

/**
 * The agent workflow's adapters as a Nest module: the `TaskRepository` port backed by SQLite in
 * `dataDir`, or by PostgreSQL at `databaseUrl` when given (and the `IdempotencyStore`,
 * `PushNotificationConfigStore` and `PushDeliveryOutbox` ports in the same database), the `Planner` port — the LLM planner when `llm` is given (reporting its retries to the
 * `PlannerMetrics` port when one is provided), else the rule-based one — and
 * the `ScreenImageEncoder` port (sharp) that bounds the screen images outside agents receive.
 */
@Module({})
export class AgentInfrastructureModule {
  static forRoot(options: AgentInfrastructureOptions): DynamicModule {
    return {
      module: AgentInfrastructureModule,
      global: options.isGlobal ?? false,
      providers: [
        ...(options.databaseUrl === undefined ? sqliteStores(options.dataDir) : postgresStores(options.databaseUrl)),
        {
          provide: Planner,
          inject: [{ token: PlannerMetrics, optional: true }],
          useFactory: (metrics: PlannerMetrics | undefined) => {
            const planner = options.llm ? new LlmPlanner(options.llm, metrics ? { metrics } : {}) : new RuleBasedPlanner();
            new Logger('Planner').log(`tasks are planned by ${planner.name}`);
            return planner;
          },
        },
        { provide: ScreenImageEncoder, useClass: SharpScreenImageEncoder },
        TaskRepositoryLifecycle,
      ],
      exports: [TaskRepository, IdempotencyStore, PushNotificationConfigStore, PushDeliveryOutbox, Planner, ScreenImageEncoder],
    };
  }
}
