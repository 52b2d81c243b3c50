import { PushNotificationConfigStore, type PushNotificationConfig } from '@mobileclaw/domain';
import type { PostgresDatabase } from './postgres-database';
import { StoreOperations } from './store-operations';

/**
 * The PostgreSQL adapter of the {@link PushNotificationConfigStore} port: table `push_configs` (each
 * config as JSON), shared by every instance on the database. Runs on a migrated
 * {@link PostgresDatabase} it does not own. Failures: `STORAGE_ERROR` (retryable), `SHUTTING_DOWN`
 * after {@link close}.
 */
export class PostgresPushNotificationConfigStore extends PushNotificationConfigStore {
  private readonly operations = new StoreOperations('the push notification config store');

  constructor(private readonly database: PostgresDatabase) {
    super();
  }

  override save(config: PushNotificationConfig): Promise<void> {
    return this.operations.run(async () => {
      await this.database.query('INSERT INTO push_configs (task_id, config_id, data) VALUES ($1, $2, $3) ON CONFLICT (task_id, config_id) DO UPDATE SET data = excluded.data', [
        config.taskId,
        config.configId,
        JSON.stringify(config),
      ]);
    });
  }

  override get(taskId: string, configId: string): Promise<PushNotificationConfig | undefined> {
    return this.operations.run(async () => {
      const [row] = await this.database.query<{ data: string }>('SELECT data FROM push_configs WHERE task_id = $1 AND config_id = $2', [taskId, configId]);
      return row && (JSON.parse(row.data) as PushNotificationConfig);
    });
  }

  /** The task's configs ordered by `configId` (byte order, as the SQLite store orders them). */
  override list(taskId: string): Promise<PushNotificationConfig[]> {
    return this.operations.run(async () =>
      (await this.database.query<{ data: string }>('SELECT data FROM push_configs WHERE task_id = $1 ORDER BY config_id COLLATE "C"', [taskId])).map(
        (row) => JSON.parse(row.data) as PushNotificationConfig,
      ),
    );
  }

  override delete(taskId: string, configId: string): Promise<boolean> {
    return this.operations.run(async () => (await this.database.query('DELETE FROM push_configs WHERE task_id = $1 AND config_id = $2 RETURNING 1', [taskId, configId])).length > 0);
  }

  /** Waits for the operations in progress, then refuses every call with `SHUTTING_DOWN`. Leaves the database open. Idempotent. */
  close(): Promise<void> {
    return this.operations.close();
  }
}
