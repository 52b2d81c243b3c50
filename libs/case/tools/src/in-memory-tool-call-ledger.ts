import { ToolCallLedger, type ToolCallBegin, type ToolCallKey, type ToolCallOutcome, type ToolCallRecord } from '@mobileclaw/domain';

/**
 * The {@link ToolCallLedger} in memory: at most once within one process (a restart forgets every call).
 * For tests and hosts without a store; records are never dropped, so keep it to short-lived hosts.
 */
export class InMemoryToolCallLedger extends ToolCallLedger {
  private readonly records = new Map<string, ToolCallRecord>();

  override async begin(key: ToolCallKey, tool: string): Promise<ToolCallBegin> {
    const existing = this.records.get(mapKey(key));
    if (existing) return { begun: false, record: copy(existing) };
    this.records.set(mapKey(key), { caller: key.caller, toolCallId: key.toolCallId, tool });
    return { begun: true };
  }

  override async finish(key: ToolCallKey, outcome: ToolCallOutcome): Promise<void> {
    const record = this.records.get(mapKey(key));
    if (record && record.outcome === undefined) record.outcome = structuredClone(outcome);
  }

  override async get(key: ToolCallKey): Promise<ToolCallRecord | undefined> {
    const record = this.records.get(mapKey(key));
    return record && copy(record);
  }
}

function mapKey(key: ToolCallKey): string {
  return JSON.stringify([key.caller, key.toolCallId]);
}

function copy(record: ToolCallRecord): ToolCallRecord {
  return structuredClone(record);
}
