import { Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { IdempotencyStore, Planner, PlannerMetrics, PushDeliveryOutbox, PushNotificationConfigStore, ScreenImageEncoder, TaskRepository } from '@mobileclaw/domain';
import { LlmPlanner, type LlmPlannerOptions } from '@mobileclaw/planner-llm';
import { RuleBasedPlanner } from '@mobileclaw/planner-rules';
import { SharpScreenImageEncoder } from '@mobileclaw/screen-image';
import { SqliteIdempotencyStore, SqlitePushDeliveryOutbox, SqlitePushNotificationConfigStore, SqliteTaskRepository } from '@mobileclaw/store-sqlite';

export interface AgentInfrastructureOptions {
  /** Directory of the SQLite database and the step screenshots (created when absent). */
  dataDir: string;
  /** An OpenAI-compatible model; when absent the rule-based planner runs. */
  llm?: LlmPlannerOptions;
  /** Register the ports globally (the gateway does). */
  isGlobal?: boolean;
}

/** Closes the database after every `beforeApplicationShutdown` hook (tasks record their end first). */
@Injectable()
class TaskRepositoryLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(TaskRepository) private readonly repository: TaskRepository,
    @Inject(IdempotencyStore) private readonly idempotency: SqliteIdempotencyStore,
    @Inject(PushNotificationConfigStore) private readonly pushConfigs: SqlitePushNotificationConfigStore,
    @Inject(PushDeliveryOutbox) private readonly pushOutbox: SqlitePushDeliveryOutbox,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.idempotency.close();
    await this.pushConfigs.close();
    await this.pushOutbox.close();
    await this.repository.close();
  }
}

/**
 * The agent workflow's adapters as a Nest module: the `TaskRepository` port backed by SQLite in
 * `dataDir` (and the `IdempotencyStore`, `PushNotificationConfigStore` and `PushDeliveryOutbox` ports in the same database), the `Planner` port — the LLM planner when `llm` is given (reporting its retries to the
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
        { provide: TaskRepository, useFactory: () => SqliteTaskRepository.open({ dataDir: options.dataDir }) },
        // Its own connection to the task database (table `idempotency_keys`), opened once the store has migrated it.
        { provide: IdempotencyStore, inject: [TaskRepository], useFactory: (repository: SqliteTaskRepository) => SqliteIdempotencyStore.open(repository.path) },
        { provide: PushNotificationConfigStore, inject: [TaskRepository], useFactory: (repository: SqliteTaskRepository) => SqlitePushNotificationConfigStore.open(repository.path) },
        { provide: PushDeliveryOutbox, inject: [TaskRepository], useFactory: (repository: SqliteTaskRepository) => SqlitePushDeliveryOutbox.open(repository.path) },
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
