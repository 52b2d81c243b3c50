import type { ToolCallKey, ToolCallLedger, ToolCallOutcome } from '../tool/tool-call-ledger';

/** How the contract suite gets the ledger under test. */
export interface ToolCallLedgerContractHooks {
  /**
   * Opens a new, empty ledger whose clock (of a call's begin, ms since the epoch) is `now`; called
   * before every test. `reopen` keeps the same clock.
   */
  create(now: () => number): Promise<ToolCallLedger>;
  /** Opens the storage of the ledger `create` made once more (durable ledgers only); the restart test runs only then. */
  reopen?(): Promise<ToolCallLedger>;
  /** Called after every test (closes the ledgers, removes temporary files). */
  dispose?(): Promise<void>;
}

const KEY: ToolCallKey = { caller: 'rest', toolCallId: 'call-1' };
const START_MS = Date.parse('2026-11-24T23:00:00.000Z');
const HOUR_MS = 3_600_000;
const OUTCOME: ToolCallOutcome = { result: { ok: true, content: { body: '# Steps', n: 2 }, text: '# Steps' }, durationMs: 12 };

/**
 * Registers the `describe`/`it` blocks every {@link ToolCallLedger} adapter must pass: begin once,
 * concurrent begins, finish once, callers kept apart, pruning by begin time, and with `reopen`,
 * durability (an interrupted call stays begun). Call it at the top level of an adapter's spec file.
 */
export function describeToolCallLedgerContract(name: string, hooks: ToolCallLedgerContractHooks): void {
  describe(`${name} (ToolCallLedger contract)`, () => {
    let ledger: ToolCallLedger;
    let nowMs: number;

    beforeEach(async () => {
      nowMs = START_MS;
      ledger = await hooks.create(() => nowMs);
    });

    afterEach(async () => {
      await hooks.dispose?.();
    });

    it('begins a new key once; the same key again answers its record, running then ended', async () => {
      expect(await ledger.get(KEY)).toBeUndefined();
      expect(await ledger.begin(KEY, 'book_table')).toStrictEqual({ begun: true });
      expect(await ledger.begin(KEY, 'book_table')).toStrictEqual({ begun: false, record: { caller: 'rest', toolCallId: 'call-1', tool: 'book_table' } });
      await ledger.finish(KEY, OUTCOME);
      const ended = { caller: 'rest', toolCallId: 'call-1', tool: 'book_table', outcome: OUTCOME };
      expect(await ledger.begin(KEY, 'book_table')).toStrictEqual({ begun: false, record: ended });
      expect(await ledger.get(KEY)).toStrictEqual(ended);
    });

    it('of concurrent begins of one key exactly one is begun', async () => {
      const answers = await Promise.all([ledger.begin(KEY, 'a'), ledger.begin(KEY, 'a'), ledger.begin(KEY, 'a')]);
      expect(answers.filter((answer) => answer.begun)).toHaveLength(1);
    });

    it('keeps the first outcome and ignores a finish of a key never begun', async () => {
      await ledger.begin(KEY, 'a');
      await ledger.finish(KEY, OUTCOME);
      await ledger.finish(KEY, { result: { ok: false, error: { code: 'TIMEOUT', message: 'late', retryable: true } }, durationMs: 99 });
      expect((await ledger.get(KEY))?.outcome).toStrictEqual(OUTCOME);
      await ledger.finish({ caller: 'rest', toolCallId: 'never' }, OUTCOME);
      expect(await ledger.get({ caller: 'rest', toolCallId: 'never' })).toBeUndefined();
    });

    it('keeps callers apart: the same id of another caller is new', async () => {
      await ledger.begin(KEY, 'a');
      expect(await ledger.begin({ caller: 'phone:sim-1', toolCallId: 'call-1' }, 'b')).toStrictEqual({ begun: true });
      expect((await ledger.get({ caller: 'phone:sim-1', toolCallId: 'call-1' }))?.tool).toBe('b');
    });

    it('stores a failure outcome as it was', async () => {
      const failure: ToolCallOutcome = { result: { ok: false, error: { code: 'TOOL_UNAVAILABLE', message: 'server down', retryable: true } }, durationMs: 0 };
      await ledger.begin(KEY, 'a');
      await ledger.finish(KEY, failure);
      expect((await ledger.get(KEY))?.outcome).toStrictEqual(failure);
    });

    it('prunes the calls begun before an instant, ended or running; a pruned key begins again', async () => {
      const running = { caller: 'rest', toolCallId: 'call-2' };
      const recent = { caller: 'planner', toolCallId: 'call-3' };
      await ledger.begin(KEY, 'a');
      await ledger.finish(KEY, OUTCOME);
      nowMs = START_MS + HOUR_MS;
      await ledger.begin(running, 'b');
      nowMs = START_MS + 2 * HOUR_MS;
      await ledger.begin(recent, 'c');
      expect(await ledger.prune('2026-11-24T23:00:00.000Z')).toBe(0);
      // Begun at exactly the cutoff: kept.
      expect(await ledger.prune('2026-11-25T01:00:00.000Z')).toBe(2);
      expect(await ledger.get(KEY)).toBeUndefined();
      expect(await ledger.get(running)).toBeUndefined();
      expect(await ledger.get(recent)).toStrictEqual({ ...recent, tool: 'c' });
      expect(await ledger.begin(KEY, 'a')).toStrictEqual({ begun: true });
      expect(await ledger.prune('2026-11-25T02:00:00.000+01:00')).toBe(0);
    });

    it('refuses a prune instant that is not an ISO-8601 date-time with VALIDATION_FAILED', async () => {
      await ledger.begin(KEY, 'a');
      for (const bad of ['yesterday', '2026-11-24', '', '2026-13-45T99:00:00Z']) {
        await expect(ledger.prune(bad)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      }
      expect(await ledger.get(KEY)).toStrictEqual({ ...KEY, tool: 'a' });
    });

    if (hooks.reopen) {
      const reopen = hooks.reopen;
      it('keeps ended and interrupted calls across a restart: neither begins again', async () => {
        await ledger.begin(KEY, 'a');
        await ledger.finish(KEY, OUTCOME);
        const interrupted = { caller: 'rest', toolCallId: 'call-2' };
        await ledger.begin(interrupted, 'b');
        const reopened = await reopen();
        expect(await reopened.begin(KEY, 'a')).toStrictEqual({ begun: false, record: { ...KEY, tool: 'a', outcome: OUTCOME } });
        expect(await reopened.begin(interrupted, 'b')).toStrictEqual({ begun: false, record: { ...interrupted, tool: 'b' } });
      });
    }
  });
}
