import type { Statement } from 'better-sqlite3';
import { MobileClawError, PushDeliveryOutbox, type PushDelivery, type PushDeliveryDraft } from '@mobileclaw/domain';
import { PUSH_DELIVERY_HEADS, pushDeliveryFromRow, type PushDeliveryRow } from '@mobileclaw/store-records';
import { toStorageError } from './sqlite-task-repository';
import { openTaskDatabase, type TaskDatabase } from './task-database';

/**
 * The SQLite adapter of the {@link PushDeliveryOutbox} port: table `push_deliveries` of the task
 * database (schema version 5), on a connection of its own to the same file, so that pending
 * notifications survive a restart. A claim is one immediate transaction (read the due queue heads,
 * move their `due_at` to the lease's end): claimants on other connections to the file never get the
 * same delivery within a lease. Failures: `STORAGE_ERROR`, `SHUTTING_DOWN` after {@link close}.
 */
export class SqlitePushDeliveryOutbox extends PushDeliveryOutbox {
  private readonly statements: Record<'insert' | 'due' | 'claim' | 'remove' | 'reschedule' | 'release' | 'nextDueAt', Statement>;

  /** Opens the task database at `path` (`:memory:` for a private one), migrating it when needed. @throws Error when it cannot be opened. */
  static open(path: string): SqlitePushDeliveryOutbox {
    return new SqlitePushDeliveryOutbox(openTaskDatabase(path));
  }

  private constructor(private readonly db: TaskDatabase) {
    super();
    this.statements = {
      insert: db.prepare('INSERT INTO push_deliveries (task_id, config_id, event_id, body, attempts, due_at) VALUES (?, ?, ?, ?, 0, ?) RETURNING delivery_id'),
      due: db.prepare(`${PUSH_DELIVERY_HEADS} AND d.due_at <= ? ORDER BY d.due_at, d.delivery_id LIMIT ?`),
      claim: db.prepare('UPDATE push_deliveries SET claimant = ?, due_at = ? WHERE delivery_id = ?'),
      remove: db.prepare('DELETE FROM push_deliveries WHERE delivery_id = ?'),
      reschedule: db.prepare('UPDATE push_deliveries SET attempts = ?, due_at = ?, last_error = ?, claimant = NULL WHERE delivery_id = ?'),
      release: db.prepare('UPDATE push_deliveries SET due_at = ?, claimant = NULL WHERE claimant = ?'),
      nextDueAt: db.prepare(`SELECT MIN(due_at) FROM (${PUSH_DELIVERY_HEADS})`).pluck(),
    };
  }

  override enqueue(drafts: PushDeliveryDraft[], at: number): Promise<PushDelivery[]> {
    return this.run(() =>
      this.db.transaction(() =>
        drafts.map((draft): PushDelivery => {
          const deliveryId = (this.statements.insert.get(draft.taskId, draft.configId, draft.eventId, draft.body, at) as { delivery_id: number }).delivery_id;
          return { taskId: draft.taskId, configId: draft.configId, eventId: draft.eventId, body: draft.body, deliveryId, attempts: 0, dueAt: at };
        }),
      )(),
    );
  }

  override claimDue(claimant: string, now: number, leaseMs: number, limit: number): Promise<PushDelivery[]> {
    return this.run(() =>
      this.db
        .transaction(() => {
          const rows = this.statements.due.all(now, limit) as PushDeliveryRow[];
          for (const row of rows) this.statements.claim.run(claimant, now + leaseMs, row.delivery_id);
          return rows.map(pushDeliveryFromRow);
        })
        .immediate(),
    );
  }

  override remove(deliveryId: number): Promise<void> {
    return this.run(() => {
      this.statements.remove.run(deliveryId);
    });
  }

  override reschedule(deliveryId: number, attempts: number, dueAt: number, lastError: string): Promise<void> {
    return this.run(() => {
      this.statements.reschedule.run(attempts, dueAt, lastError, deliveryId);
    });
  }

  override release(claimant: string, at: number): Promise<number> {
    return this.run(() => this.statements.release.run(at, claimant).changes);
  }

  override nextDueAt(): Promise<number | undefined> {
    return this.run(() => (this.statements.nextDueAt.get() as number | null) ?? undefined);
  }

  /** Closes the connection; calling it again does nothing. */
  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private async run<T>(operation: () => T): Promise<T> {
    if (!this.db.open) throw new MobileClawError('SHUTTING_DOWN', 'the push delivery outbox is closed');
    try {
      return operation();
    } catch (err) {
      throw toStorageError(err);
    }
  }
}
