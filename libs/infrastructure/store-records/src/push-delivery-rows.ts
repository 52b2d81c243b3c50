import type { PushDelivery } from '@mobileclaw/domain';

/** A row of the `push_deliveries` table, the same columns in the SQLite and PostgreSQL schemas. */
export interface PushDeliveryRow {
  delivery_id: number;
  task_id: string;
  config_id: string;
  event_id: number;
  body: string;
  attempts: number;
  due_at: number;
  last_error: string | null;
}

/** `SELECT` of the first delivery of each webhook queue (`task_id`, `config_id`), as `d`; standard SQL both stores run. */
export const PUSH_DELIVERY_HEADS = `SELECT * FROM push_deliveries AS d
  WHERE d.delivery_id = (SELECT MIN(q.delivery_id) FROM push_deliveries AS q WHERE q.task_id = d.task_id AND q.config_id = d.config_id)`;

export function pushDeliveryFromRow(row: PushDeliveryRow): PushDelivery {
  return {
    taskId: row.task_id,
    configId: row.config_id,
    eventId: row.event_id,
    body: row.body,
    deliveryId: row.delivery_id,
    attempts: row.attempts,
    dueAt: row.due_at,
    ...(row.last_error === null ? {} : { lastError: row.last_error }),
  };
}
