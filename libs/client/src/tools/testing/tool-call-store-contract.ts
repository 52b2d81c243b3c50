import { ToolCallStoreError } from '../tool-errors';
import type { ToolCallStore } from '../tool-call-store';

/** The fixed instant the stores under contract read from their clock. */
export const CONTRACT_NOW = new Date('2026-12-01T20:00:00.000Z');

/**
 * What every {@link ToolCallStore} promises; each implementation's spec runs it with a factory that
 * makes an empty store whose clock answers {@link CONTRACT_NOW}.
 */
export function describeToolCallStoreContract(storeName: string, makeStore: () => Promise<ToolCallStore> | ToolCallStore): void {
  describe(`${storeName} (ToolCallStore contract)`, () => {
    let store: ToolCallStore;

    beforeEach(async () => {
      store = await makeStore();
    });

    it('knows no call it never began', async () => {
      await expect(store.get('task-1:0')).resolves.toBeUndefined();
    });

    it('claims a new call once and keeps it running', async () => {
      await expect(store.begin('task-1:0', 'lookup_order')).resolves.toBe('started');
      await expect(store.get('task-1:0')).resolves.toEqual({ toolCallId: 'task-1:0', name: 'lookup_order', state: 'running', startedAt: CONTRACT_NOW.toISOString() });
    });

    it('answers the existing record to a second begin and changes nothing', async () => {
      await store.begin('task-1:0', 'lookup_order');
      const again = await store.begin('task-1:0', 'other_name');
      expect(again).toEqual({ toolCallId: 'task-1:0', name: 'lookup_order', state: 'running', startedAt: CONTRACT_NOW.toISOString() });
      await expect(store.get('task-1:0')).resolves.toEqual(again);
    });

    it('lets exactly one of many concurrent begins of one id start it', async () => {
      const claims = await Promise.all(Array.from({ length: 8 }, () => store.begin('task-1:0', 'lookup_order')));
      expect(claims.filter((claim) => claim === 'started')).toHaveLength(1);
      expect(claims.filter((claim) => claim !== 'started')).toEqual(Array(7).fill(expect.objectContaining({ toolCallId: 'task-1:0', state: 'running' })));
    });

    it('finishes a running call with its outcome and answers the done record', async () => {
      await store.begin('task-1:0', 'lookup_order');
      const done = await store.finish('task-1:0', { outcome: 'ok', result: { status: 'shipped', items: [1, 2] } });
      const expected = {
        toolCallId: 'task-1:0',
        name: 'lookup_order',
        state: 'done',
        outcome: { outcome: 'ok', result: { status: 'shipped', items: [1, 2] } },
        startedAt: CONTRACT_NOW.toISOString(),
        endedAt: CONTRACT_NOW.toISOString(),
      };
      expect(done).toEqual(expected);
      await expect(store.get('task-1:0')).resolves.toEqual(expected);
      await expect(store.begin('task-1:0', 'lookup_order')).resolves.toEqual(expected);
    });

    it('keeps a rejected outcome with its reason', async () => {
      await store.begin('task-1:1', 'refund');
      await store.finish('task-1:1', { outcome: 'rejected', reason: 'tool refund was not approved: over the limit' });
      await expect(store.get('task-1:1')).resolves.toMatchObject({ state: 'done', outcome: { outcome: 'rejected', reason: 'tool refund was not approved: over the limit' } });
    });

    it('refuses to finish a call never begun', async () => {
      const error = await store.finish('task-1:9', { outcome: 'ok', result: null }).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(ToolCallStoreError);
      expect(error).toMatchObject({ code: 'TOOL_CALL_NOT_STARTED', message: 'tool call task-1:9 was never begun' });
      await expect(store.get('task-1:9')).resolves.toBeUndefined();
    });

    it('refuses to finish a call twice and keeps the first outcome', async () => {
      await store.begin('task-1:0', 'lookup_order');
      await store.finish('task-1:0', { outcome: 'ok', result: 'first' });
      const error = await store.finish('task-1:0', { outcome: 'ok', result: 'second' }).catch((err: unknown) => err);
      expect(error).toMatchObject({ code: 'TOOL_CALL_ALREADY_FINISHED', message: 'tool call task-1:0 already has its outcome' });
      await expect(store.get('task-1:0')).resolves.toMatchObject({ outcome: { outcome: 'ok', result: 'first' } });
    });

    it('lets exactly one of two concurrent finishes store its outcome', async () => {
      await store.begin('task-1:0', 'lookup_order');
      const settled = await Promise.allSettled([store.finish('task-1:0', { outcome: 'ok', result: 'a' }), store.finish('task-1:0', { outcome: 'ok', result: 'b' })]);
      expect(settled.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
      const winner = settled.find((result) => result.status === 'fulfilled') as PromiseFulfilledResult<unknown>;
      await expect(store.get('task-1:0')).resolves.toEqual(winner.value);
    });

    it('keeps calls apart, whatever characters their ids hold', async () => {
      const ids = ['task-1:0', 'task-1:1', '../../etc/passwd', 'ça/va?*:<>|"'];
      for (const id of ids) expect(await store.begin(id, 'lookup_order')).toBe('started');
      await store.finish('task-1:1', { outcome: 'ok', result: 1 });
      expect(await Promise.all(ids.map(async (id) => (await store.get(id))?.state))).toEqual(['running', 'done', 'running', 'running']);
      expect((await store.get('../../etc/passwd'))?.toolCallId).toBe('../../etc/passwd');
    });

    it('answers copies: changing an answered record changes nothing stored', async () => {
      await store.begin('task-1:0', 'lookup_order');
      await store.finish('task-1:0', { outcome: 'ok', result: { n: 1 } });
      const record = await store.get('task-1:0');
      (record as { name: string }).name = 'tampered';
      await expect(store.get('task-1:0')).resolves.toMatchObject({ name: 'lookup_order' });
    });
  });
}
