/**
 * The outbox of A2A push notifications: each status change of a task becomes one delivery per
 * webhook config of the task, kept until the webhook took it or the sender gave up, so that a restart
 * of the gateway loses none (at least once).
 */

/** A notification to send: one status change of a task, to one of the task's webhooks. */
export interface PushDeliveryDraft {
  taskId: string;
  /** The webhook config (`PushNotificationConfig.configId`); its URL and credentials are read when sending. */
  configId: string;
  /** The task event the notification reports; 0 for the status sent when the webhook was registered. */
  eventId: number;
  /** The request body, sent as stored (JSON text). */
  body: string;
}

/** A notification in the outbox. */
export interface PushDelivery extends PushDeliveryDraft {
  /** Given by the outbox: increasing in enqueue order, never reused. */
  deliveryId: number;
  /** Failed attempts so far. */
  attempts: number;
  /** When it may be attempted, in ms since the epoch; while claimed, when the claim lapses. */
  dueAt: number;
  /** Why the last attempt failed; absent before the first failure. */
  lastError?: string;
}

/**
 * Where pending push notifications wait. A webhook's queue is its `(taskId, configId)`: deliveries in
 * `deliveryId` order. Only the first delivery of a queue is ever handed out, and only while nobody
 * holds it, so one webhook gets its notifications one at a time and in order, while other webhooks'
 * queues go on. Abstract class so that it doubles as the Nest DI token. Values go in and come out as
 * copies. Every adapter passes `describePushDeliveryOutboxContract` (`@mobileclaw/domain/testing`).
 * Failures (as rejections): `STORAGE_ERROR` when the store fails, `SHUTTING_DOWN` after it closed.
 */
export abstract class PushDeliveryOutbox {
  /** Appends the drafts in the order given, each due at `at` (ms since the epoch) with 0 attempts; returns them as stored. */
  abstract enqueue(drafts: PushDeliveryDraft[], at: number): Promise<PushDelivery[]>;

  /**
   * Claims for `claimant` (a gateway instance id) at most `limit` (≥ 1) deliveries that are first in
   * their queue and due at `now`, earliest `dueAt` first (then `deliveryId`). Each claimed delivery is
   * returned as it was and stored due at `now + leaseMs`: nobody else gets it until {@link remove},
   * {@link reschedule} or {@link release} ends the claim, or the lease lapses (a claimant that died)
   * and it is due again. Atomic: two claimants never get the same delivery within a lease.
   */
  abstract claimDue(claimant: string, now: number, leaseMs: number, limit: number): Promise<PushDelivery[]>;

  /** Removes a delivery: the webhook took it, or the sender gave up. Nothing happens when it is absent. */
  abstract remove(deliveryId: number): Promise<void>;

  /**
   * Records a failed attempt (`attempts` made so far, `lastError`) and ends the claim: the delivery is
   * due again at `dueAt`, still first in its queue. Nothing happens when it is absent.
   */
  abstract reschedule(deliveryId: number, attempts: number, dueAt: number, lastError: string): Promise<void>;

  /**
   * Ends every claim `claimant` holds, making those deliveries due at `at`: at start-up, for the claims
   * a previous run of the same instance left (a crash), and at shutdown. Returns how many there were.
   */
  abstract release(claimant: string, at: number): Promise<number>;

  /** The earliest `dueAt` among the queues' first deliveries (claimed ones included); undefined when empty. */
  abstract nextDueAt(): Promise<number | undefined>;
}
