import { PushDeliveryOutbox, type PushDelivery, type PushDeliveryDraft } from '@mobileclaw/domain';

interface Held extends PushDelivery {
  /** Who holds the current claim; absent when unclaimed. */
  claimant?: string;
}

/**
 * A {@link PushDeliveryOutbox} in this process's memory (lost on restart, so delivery is at least
 * once only while the process runs): the default without a durable one, and the tests' fake.
 */
export class InMemoryPushDeliveryOutbox extends PushDeliveryOutbox {
  /** By `deliveryId`; a Map keeps insertion order, which is id order. */
  private readonly deliveries = new Map<number, Held>();
  private lastId = 0;

  override async enqueue(drafts: PushDeliveryDraft[], at: number): Promise<PushDelivery[]> {
    return drafts.map((draft) => {
      const delivery: Held = { taskId: draft.taskId, configId: draft.configId, eventId: draft.eventId, body: draft.body, deliveryId: ++this.lastId, attempts: 0, dueAt: at };
      this.deliveries.set(delivery.deliveryId, delivery);
      return copy(delivery);
    });
  }

  override async claimDue(claimant: string, now: number, leaseMs: number, limit: number): Promise<PushDelivery[]> {
    const due = this.heads()
      .filter((d) => d.dueAt <= now)
      .sort((a, b) => a.dueAt - b.dueAt || a.deliveryId - b.deliveryId)
      .slice(0, limit);
    return due.map((delivery) => {
      const before = copy(delivery);
      delivery.claimant = claimant;
      delivery.dueAt = now + leaseMs;
      return before;
    });
  }

  override async remove(deliveryId: number): Promise<void> {
    this.deliveries.delete(deliveryId);
  }

  override async reschedule(deliveryId: number, attempts: number, dueAt: number, lastError: string): Promise<void> {
    const delivery = this.deliveries.get(deliveryId);
    if (!delivery) return;
    Object.assign(delivery, { attempts, dueAt, lastError, claimant: undefined });
  }

  override async release(claimant: string, at: number): Promise<number> {
    const held = [...this.deliveries.values()].filter((d) => d.claimant === claimant);
    for (const delivery of held) Object.assign(delivery, { dueAt: at, claimant: undefined });
    return held.length;
  }

  override async nextDueAt(): Promise<number | undefined> {
    let next: number | undefined;
    for (const head of this.heads()) if (next === undefined || head.dueAt < next) next = head.dueAt;
    return next;
  }

  /** The first delivery of each webhook queue. */
  private heads(): Held[] {
    const first = new Map<string, Held>();
    for (const delivery of this.deliveries.values()) {
      const queue = `${delivery.taskId}\u0000${delivery.configId}`;
      if (!first.has(queue)) first.set(queue, delivery);
    }
    return [...first.values()];
  }
}

function copy(delivery: Held): PushDelivery {
  const { claimant: _claimant, lastError, ...rest } = delivery;
  return { ...rest, ...(lastError === undefined ? {} : { lastError }) };
}
