import type { Statement } from 'better-sqlite3';
import { MobileClawError, PushNotificationConfigStore, type PushNotificationConfig } from '@mobileclaw/domain';
import { toStorageError } from './sqlite-task-repository';
import { openTaskDatabase, type TaskDatabase } from './task-database';

/**
 * The SQLite adapter of the {@link PushNotificationConfigStore} port: table `push_configs` of the task
 * database (schema version 3; each config as JSON), on a connection of its own to the same file, so
 * configs survive a restart. Failures: `STORAGE_ERROR`, `SHUTTING_DOWN` after {@link close}.
 */
export class SqlitePushNotificationConfigStore extends PushNotificationConfigStore {
  private readonly statements: Record<'upsert' | 'get' | 'list' | 'remove', Statement>;

  /** Opens the task database at `path` (`:memory:` for a private one), migrating it when needed. @throws Error when it cannot be opened. */
  static open(path: string): SqlitePushNotificationConfigStore {
    return new SqlitePushNotificationConfigStore(openTaskDatabase(path));
  }

  private constructor(private readonly db: TaskDatabase) {
    super();
    this.statements = {
      upsert: db.prepare('INSERT INTO push_configs (task_id, config_id, data) VALUES (?, ?, ?) ON CONFLICT (task_id, config_id) DO UPDATE SET data = excluded.data'),
      get: db.prepare('SELECT data FROM push_configs WHERE task_id = ? AND config_id = ?'),
      list: db.prepare('SELECT data FROM push_configs WHERE task_id = ? ORDER BY config_id'),
      remove: db.prepare('DELETE FROM push_configs WHERE task_id = ? AND config_id = ?'),
    };
  }

  override save(config: PushNotificationConfig): Promise<void> {
    return this.run(() => {
      this.statements.upsert.run(config.taskId, config.configId, JSON.stringify(config));
    });
  }

  override get(taskId: string, configId: string): Promise<PushNotificationConfig | undefined> {
    return this.run(() => {
      const row = this.statements.get.get(taskId, configId) as { data: string } | undefined;
      return row && (JSON.parse(row.data) as PushNotificationConfig);
    });
  }

  override list(taskId: string): Promise<PushNotificationConfig[]> {
    return this.run(() => (this.statements.list.all(taskId) as { data: string }[]).map((row) => JSON.parse(row.data) as PushNotificationConfig));
  }

  override delete(taskId: string, configId: string): Promise<boolean> {
    return this.run(() => this.statements.remove.run(taskId, configId).changes > 0);
  }

  /** Closes the connection; calling it again does nothing. */
  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private async run<T>(operation: () => T): Promise<T> {
    if (!this.db.open) throw new MobileClawError('SHUTTING_DOWN', 'the push notification config store is closed');
    try {
      return operation();
    } catch (err) {
      throw toStorageError(err);
    }
  }
}
