import type { PushDelivery, PushDeliveryDraft, PushDeliveryOutbox } from '../push-delivery-outbox';

/** How the contract suite gets the outbox under test. */
export interface PushDeliveryOutboxContractHooks {
  /** Opens a new, empty outbox; called before every test. */
  create(): Promise<PushDeliveryOutbox>;
  /** Opens the storage of the outbox `create` made once more (durable outboxes only); the restart test runs only then. */
  reopen?(): Promise<PushDeliveryOutbox>;
  /** Called after every test (closes the outboxes, removes temporary files). */
  dispose?(): Promise<void>;
}

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const LEASE_MS = 30_000;

const draft = (taskId: string, configId: string, eventId: number): PushDeliveryDraft => ({ taskId, configId, eventId, body: JSON.stringify({ taskId, configId, eventId }) });

const ids = (deliveries: PushDelivery[]): number[] => deliveries.map((d) => d.deliveryId);

/**
 * Registers the `describe`/`it` blocks every {@link PushDeliveryOutbox} adapter must pass: enqueue
 * order, one delivery per webhook queue at a time, due times, claims and their leases, reschedule,
 * release, and with `reopen`, durability. Call it at the top level of an adapter's spec file.
 */
export function describePushDeliveryOutboxContract(name: string, hooks: PushDeliveryOutboxContractHooks): void {
  describe(`${name} (PushDeliveryOutbox contract)`, () => {
    let outbox: PushDeliveryOutbox;
    beforeEach(async () => {
      outbox = await hooks.create();
    });
    afterEach(async () => {
      await hooks.dispose?.();
    });

    it('enqueues drafts in order with increasing ids, no attempts, due at the given time', async () => {
      const [a, b] = await outbox.enqueue([draft('t-1', 'crm', 3), draft('t-1', 'ops', 3)], T0);
      const [c] = await outbox.enqueue([draft('t-1', 'crm', 4)], T0 + 5);
      expect(a).toStrictEqual({ ...draft('t-1', 'crm', 3), deliveryId: a.deliveryId, attempts: 0, dueAt: T0 });
      expect(b).toStrictEqual({ ...draft('t-1', 'ops', 3), deliveryId: b.deliveryId, attempts: 0, dueAt: T0 });
      expect(c).toMatchObject({ ...draft('t-1', 'crm', 4), attempts: 0, dueAt: T0 + 5 });
      expect(a.deliveryId < b.deliveryId && b.deliveryId < c.deliveryId).toBe(true);
      expect(await outbox.enqueue([], T0)).toStrictEqual([]);
    });

    it('hands out only the first delivery of each webhook queue, when due, earliest due first, up to the limit', async () => {
      const [crm1, crm2] = await outbox.enqueue([draft('t-1', 'crm', 1), draft('t-1', 'crm', 2)], T0 + 10);
      const [ops1] = await outbox.enqueue([draft('t-1', 'ops', 1)], T0);
      const [other1] = await outbox.enqueue([draft('t-2', 'crm', 1)], T0 + 20);
      expect(await outbox.claimDue('gw-a', T0 - 1, LEASE_MS, 10)).toStrictEqual([]);
      expect(ids(await outbox.claimDue('gw-a', T0 + 10, LEASE_MS, 10))).toStrictEqual([ops1.deliveryId, crm1.deliveryId]);
      // Claimed: neither they nor the deliveries queued behind them go out until the claim ends.
      expect(ids(await outbox.claimDue('gw-b', T0 + 30, LEASE_MS, 10))).toStrictEqual([other1.deliveryId]);
      await outbox.remove(crm1.deliveryId);
      // The next of the queue keeps its own due time (already past).
      expect(await outbox.claimDue('gw-a', T0 + 40, LEASE_MS, 10)).toStrictEqual([{ ...crm2, dueAt: T0 + 10 }]);
    });

    it('claims at most `limit`, returning each delivery as it was before the claim', async () => {
      const queued = await outbox.enqueue([draft('t-1', 'a', 1), draft('t-1', 'b', 1), draft('t-1', 'c', 1)], T0);
      const first = await outbox.claimDue('gw-a', T0, LEASE_MS, 2);
      expect(first).toStrictEqual(queued.slice(0, 2));
      expect(await outbox.claimDue('gw-a', T0, LEASE_MS, 2)).toStrictEqual(queued.slice(2));
      expect(await outbox.claimDue('gw-a', T0, LEASE_MS, 2)).toStrictEqual([]);
    });

    it('gives a claimed delivery out again once the lease has lapsed (a claimant that died)', async () => {
      const [d] = await outbox.enqueue([draft('t-1', 'crm', 1)], T0);
      await outbox.claimDue('gw-a', T0, LEASE_MS, 10);
      expect(await outbox.claimDue('gw-b', T0 + LEASE_MS - 1, LEASE_MS, 10)).toStrictEqual([]);
      expect(ids(await outbox.claimDue('gw-b', T0 + LEASE_MS, LEASE_MS, 10))).toStrictEqual([d.deliveryId]);
    });

    it('reschedules a failed attempt: attempts and error kept, due again later, still first in its queue', async () => {
      const [d1, d2] = await outbox.enqueue([draft('t-1', 'crm', 1), draft('t-1', 'crm', 2)], T0);
      await outbox.claimDue('gw-a', T0, LEASE_MS, 10);
      await outbox.reschedule(d1.deliveryId, 1, T0 + 1000, 'HTTP 503');
      expect(await outbox.claimDue('gw-a', T0 + 999, LEASE_MS, 10)).toStrictEqual([]);
      expect(await outbox.claimDue('gw-a', T0 + 1000, LEASE_MS, 10)).toStrictEqual([{ ...d1, attempts: 1, dueAt: T0 + 1000, lastError: 'HTTP 503' }]);
      await outbox.remove(d1.deliveryId);
      expect(ids(await outbox.claimDue('gw-a', T0 + 1000, LEASE_MS, 10))).toStrictEqual([d2.deliveryId]);
    });

    it('releases the claims of one claimant only, due at the given time', async () => {
      const [a, b] = await outbox.enqueue([draft('t-1', 'a', 1), draft('t-1', 'b', 1)], T0);
      await outbox.claimDue('gw-a', T0, LEASE_MS, 1);
      await outbox.claimDue('gw-b', T0, LEASE_MS, 1);
      expect(await outbox.release('gw-a', T0 + 5)).toBe(1);
      expect(await outbox.release('gw-a', T0 + 5)).toBe(0);
      expect(await outbox.claimDue('gw-c', T0 + 5, LEASE_MS, 10)).toStrictEqual([{ ...a, dueAt: T0 + 5 }]);
      expect(await outbox.claimDue('gw-c', T0 + 5, LEASE_MS, 10)).toStrictEqual([]);
      expect(ids(await outbox.claimDue('gw-c', T0 + LEASE_MS, LEASE_MS, 10))).toStrictEqual([b.deliveryId]);
    });

    it('tells the earliest due time among the first deliveries of the queues', async () => {
      expect(await outbox.nextDueAt()).toBeUndefined();
      const [d1] = await outbox.enqueue([draft('t-1', 'crm', 1)], T0);
      await outbox.enqueue([draft('t-1', 'crm', 2)], T0 + 10);
      await outbox.claimDue('gw-a', T0, LEASE_MS, 10);
      await outbox.reschedule(d1.deliveryId, 1, T0 + 500, 'HTTP 500');
      // The second delivery is due earlier, but waits behind the first.
      expect(await outbox.nextDueAt()).toBe(T0 + 500);
      await outbox.enqueue([draft('t-2', 'crm', 1)], T0 + 200);
      expect(await outbox.nextDueAt()).toBe(T0 + 200);
      await outbox.claimDue('gw-a', T0 + 200, LEASE_MS, 10);
      expect(await outbox.nextDueAt()).toBe(T0 + 500);
    });

    it('ignores remove and reschedule of a delivery it does not hold', async () => {
      const [d] = await outbox.enqueue([draft('t-1', 'crm', 1)], T0);
      await outbox.remove(d.deliveryId + 100);
      await outbox.reschedule(d.deliveryId + 100, 3, T0 + 9, 'x');
      await outbox.remove(d.deliveryId);
      await outbox.remove(d.deliveryId);
      expect(await outbox.nextDueAt()).toBeUndefined();
    });

    it('hands out copies', async () => {
      const drafts = [draft('t-1', 'crm', 1)];
      const [stored] = await outbox.enqueue(drafts, T0);
      drafts[0].body = 'changed';
      stored.body = 'changed too';
      expect((await outbox.claimDue('gw-a', T0, LEASE_MS, 10))[0]?.body).toBe(draft('t-1', 'crm', 1).body);
    });

    if (hooks.reopen) {
      const reopen = hooks.reopen;
      it('keeps deliveries, attempts and claims across a restart, and never reuses an id', async () => {
        const [d1, d2] = await outbox.enqueue([draft('t-1', 'crm', 1), draft('t-1', 'ops', 1)], T0);
        await outbox.claimDue('gw-a', T0, LEASE_MS, 10);
        await outbox.reschedule(d1.deliveryId, 2, T0 + 100, 'connection refused');
        outbox = await reopen();
        expect(await outbox.release('gw-a', T0 + 100)).toBe(1);
        expect(await outbox.claimDue('gw-a', T0 + 100, LEASE_MS, 10)).toStrictEqual([
          { ...d1, attempts: 2, dueAt: T0 + 100, lastError: 'connection refused' },
          { ...d2, dueAt: T0 + 100 },
        ]);
        await outbox.remove(d1.deliveryId);
        await outbox.remove(d2.deliveryId);
        outbox = await reopen();
        const [d3] = await outbox.enqueue([draft('t-1', 'crm', 2)], T0 + 200);
        expect(d3.deliveryId).toBeGreaterThan(d2.deliveryId);
      });
    }
  });
}
