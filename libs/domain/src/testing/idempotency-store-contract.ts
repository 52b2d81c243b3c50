import type { IdempotencyClaimRequest, IdempotencyStore } from '../idempotency-store';

/** How the contract suite gets the store under test. */
export interface IdempotencyStoreContractHooks {
  /** Opens a new, empty store; called before every test. */
  create(): Promise<IdempotencyStore>;
  /** Opens the storage of the store `create` made once more (durable stores only); the restart test runs only then. */
  reopen?(): Promise<IdempotencyStore>;
  /** Called after every test (closes the stores, removes temporary files). */
  dispose?(): Promise<void>;
}

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;

function request(overrides: Partial<IdempotencyClaimRequest> = {}): IdempotencyClaimRequest {
  return { scope: 'rest:caller-a', key: 'order-4711', requestHash: 'hash-1', nowMs: T0, ttlMs: DAY_MS, ...overrides };
}

/**
 * Registers the `describe`/`it` blocks every {@link IdempotencyStore} adapter must pass: claim,
 * replay, in-progress and mismatch outcomes, scopes, release, expiry and pruning, and with `reopen`,
 * durability. Call it at the top level of an adapter's spec file.
 */
export function describeIdempotencyStoreContract(name: string, hooks: IdempotencyStoreContractHooks): void {
  describe(`${name} (IdempotencyStore contract)`, () => {
    let store: IdempotencyStore;

    beforeEach(async () => {
      store = await hooks.create();
    });

    afterEach(async () => {
      await hooks.dispose?.();
    });

    it('claims a free key once; the same content then waits (in_progress), other content is a mismatch', async () => {
      expect(await store.claim(request())).toStrictEqual({ outcome: 'claimed' });
      expect(await store.claim(request())).toStrictEqual({ outcome: 'in_progress' });
      expect(await store.claim(request({ requestHash: 'hash-2' }))).toStrictEqual({ outcome: 'mismatch' });
    });

    it('of concurrent claims of a free key exactly one is claimed', async () => {
      const outcomes = await Promise.all([store.claim(request()), store.claim(request()), store.claim(request())]);
      expect(outcomes.map((o) => o.outcome).sort()).toStrictEqual(['claimed', 'in_progress', 'in_progress']);
    });

    it('replays the completed answer to the same content, and refuses other content', async () => {
      await store.claim(request());
      await store.complete('rest:caller-a', 'order-4711', { status: 202, body: { taskId: 't-1', status: 'running' } });
      expect(await store.claim(request({ nowMs: T0 + 1000 }))).toStrictEqual({ outcome: 'replay', response: { status: 202, body: { taskId: 't-1', status: 'running' } } });
      expect(await store.claim(request({ nowMs: T0 + 1000, requestHash: 'hash-2' }))).toStrictEqual({ outcome: 'mismatch' });
    });

    it('keeps scopes apart: the same key of another caller is free', async () => {
      await store.claim(request());
      expect(await store.claim(request({ scope: 'rest:caller-b', requestHash: 'hash-2' }))).toStrictEqual({ outcome: 'claimed' });
    });

    it('forgets a released key, so a retry claims it anew; release and complete of unknown keys do nothing', async () => {
      await store.claim(request());
      await store.release('rest:caller-a', 'order-4711');
      expect(await store.claim(request({ requestHash: 'hash-2' }))).toStrictEqual({ outcome: 'claimed' });
      await store.release('rest:caller-a', 'unknown');
      await store.complete('rest:caller-a', 'unknown', { status: 202, body: {} });
      expect(await store.claim(request({ key: 'unknown' }))).toStrictEqual({ outcome: 'claimed' });
    });

    it('treats a key as free once its time to live has passed, and prunes expired keys only', async () => {
      await store.claim(request({ ttlMs: 1000 }));
      await store.complete('rest:caller-a', 'order-4711', { status: 202, body: { taskId: 't-1' } });
      await store.claim(request({ key: 'long-lived' }));
      expect(await store.claim(request({ nowMs: T0 + 999 }))).toMatchObject({ outcome: 'replay' });
      expect(await store.prune(T0 + 999)).toBe(0);
      expect(await store.prune(T0 + 1000)).toBe(1);
      expect(await store.claim(request({ key: 'long-lived', nowMs: T0 + 1000 }))).toStrictEqual({ outcome: 'in_progress' });
      expect(await store.claim(request({ nowMs: T0 + 1000, requestHash: 'hash-2' }))).toStrictEqual({ outcome: 'claimed' });
    });

    it('an expired key is claimed anew even before it is pruned', async () => {
      await store.claim(request({ ttlMs: 1000 }));
      expect(await store.claim(request({ nowMs: T0 + 1000, requestHash: 'hash-2' }))).toStrictEqual({ outcome: 'claimed' });
    });

    if (hooks.reopen) {
      const reopen = hooks.reopen;
      it('keeps completed keys across a restart', async () => {
        await store.claim(request());
        await store.complete('rest:caller-a', 'order-4711', { status: 202, body: { taskId: 't-1' } });
        store = await reopen();
        expect(await store.claim(request())).toStrictEqual({ outcome: 'replay', response: { status: 202, body: { taskId: 't-1' } } });
      });
    }
  });
}
