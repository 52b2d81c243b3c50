import { PushDeliveryOutbox, type PushDelivery, type PushDeliveryDraft } from '@mobileclaw/domain';
import { PUSH_DELIVERY_HEADS, pushDeliveryFromRow, type PushDeliveryRow } from '@mobileclaw/store-records';
import type { PostgresDatabase } from './postgres-database';
import { StoreOperations } from './store-operations';

/**
 * The PostgreSQL adapter of the {@link PushDeliveryOutbox} port: table `push_deliveries`
 * (`delivery_id` an identity: increasing, never reused), shared by every instance on the database. A
 * claim is one transaction that locks the due queue heads (`FOR UPDATE SKIP LOCKED`: heads another
 * claimant is taking are skipped, and a head whose claim committed meanwhile is re-checked and
 * dropped) and moves their `due_at` to the lease's end, so no two claimants get one delivery within a
 * lease. Runs on a migrated {@link PostgresDatabase} it does not own. Failures: `STORAGE_ERROR`
 * (retryable), `SHUTTING_DOWN` after {@link close}.
 */
export class PostgresPushDeliveryOutbox extends PushDeliveryOutbox {
  private readonly operations = new StoreOperations('the push delivery outbox');

  constructor(private readonly database: PostgresDatabase) {
    super();
  }

  override enqueue(drafts: PushDeliveryDraft[], at: number): Promise<PushDelivery[]> {
    return this.operations.run(() =>
      this.database.transaction(async (tx) => {
        const queued: PushDelivery[] = [];
        for (const draft of drafts) {
          const [{ delivery_id: deliveryId }] = await tx.query<{ delivery_id: number }>(
            'INSERT INTO push_deliveries (task_id, config_id, event_id, body, attempts, due_at) VALUES ($1, $2, $3, $4, 0, $5) RETURNING delivery_id',
            [draft.taskId, draft.configId, draft.eventId, draft.body, at],
          );
          queued.push({ taskId: draft.taskId, configId: draft.configId, eventId: draft.eventId, body: draft.body, deliveryId, attempts: 0, dueAt: at });
        }
        return queued;
      }),
    );
  }

  override claimDue(claimant: string, now: number, leaseMs: number, limit: number): Promise<PushDelivery[]> {
    return this.operations.run(() =>
      this.database.transaction(async (tx) => {
        const rows = await tx.query<PushDeliveryRow>(`${PUSH_DELIVERY_HEADS} AND d.due_at <= $1 ORDER BY d.due_at, d.delivery_id LIMIT $2 FOR UPDATE SKIP LOCKED`, [now, limit]);
        if (rows.length > 0) {
          await tx.query('UPDATE push_deliveries SET claimant = $1, due_at = $2 WHERE delivery_id = ANY($3::bigint[])', [claimant, now + leaseMs, rows.map((row) => row.delivery_id)]);
        }
        return rows.map(pushDeliveryFromRow);
      }),
    );
  }

  override remove(deliveryId: number): Promise<void> {
    return this.operations.run(async () => {
      await this.database.query('DELETE FROM push_deliveries WHERE delivery_id = $1', [deliveryId]);
    });
  }

  override reschedule(deliveryId: number, attempts: number, dueAt: number, lastError: string): Promise<void> {
    return this.operations.run(async () => {
      await this.database.query('UPDATE push_deliveries SET attempts = $2, due_at = $3, last_error = $4, claimant = NULL WHERE delivery_id = $1', [deliveryId, attempts, dueAt, lastError]);
    });
  }

  override release(claimant: string, at: number): Promise<number> {
    return this.operations.run(async () => (await this.database.query('UPDATE push_deliveries SET due_at = $2, claimant = NULL WHERE claimant = $1 RETURNING 1', [claimant, at])).length);
  }

  override nextDueAt(): Promise<number | undefined> {
    return this.operations.run(async () => {
      const [row] = await this.database.query<{ due_at: number | null }>(`SELECT MIN(h.due_at) AS due_at FROM (${PUSH_DELIVERY_HEADS}) AS h`);
      return row?.due_at ?? undefined;
    });
  }

  /** Waits for the operations in progress, then refuses every call with `SHUTTING_DOWN`. Leaves the database open. Idempotent. */
  close(): Promise<void> {
    return this.operations.close();
  }
}
