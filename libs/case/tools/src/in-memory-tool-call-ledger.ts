import { ToolCallLedger, pruneInstantMs, type ToolCallBegin, type ToolCallKey, type ToolCallOutcome, type ToolCallRecord } from '@mobileclaw/domain';

/**
 * The {@link ToolCallLedger} in memory: at most once within one process (a restart forgets every call).
 * For tests and hosts without a store; records stay until {@link prune}d.
 */
export class InMemoryToolCallLedger extends ToolCallLedger {
  private readonly records = new Map<string, { record: ToolCallRecord; begunAtMs: number }>();

  /** @param now the clock of a call's begin, in ms since the epoch; default `Date.now`. */
  constructor(private readonly now: () => number = Date.now) {
    super();
  }

  override async begin(key: ToolCallKey, tool: string): Promise<ToolCallBegin> {
    const existing = this.records.get(mapKey(key));
    if (existing) return { begun: false, record: copy(existing.record) };
    this.records.set(mapKey(key), { record: { caller: key.caller, toolCallId: key.toolCallId, tool }, begunAtMs: this.now() });
    return { begun: true };
  }

  override async finish(key: ToolCallKey, outcome: ToolCallOutcome): Promise<void> {
    const record = this.records.get(mapKey(key))?.record;
    if (record && record.outcome === undefined) record.outcome = structuredClone(outcome);
  }

  override async get(key: ToolCallKey): Promise<ToolCallRecord | undefined> {
    const record = this.records.get(mapKey(key))?.record;
    return record && copy(record);
  }

  override async prune(olderThanIso: string): Promise<number> {
    const cutoffMs = pruneInstantMs(olderThanIso);
    let removed = 0;
    for (const [mapped, { begunAtMs }] of this.records) {
      if (begunAtMs < cutoffMs) {
        this.records.delete(mapped);
        removed++;
      }
    }
    return removed;
  }
}

function mapKey(key: ToolCallKey): string {
  return JSON.stringify([key.caller, key.toolCallId]);
}

function copy(record: ToolCallRecord): ToolCallRecord {
  return structuredClone(record);
}
