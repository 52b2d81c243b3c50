import { ToolCallStoreError } from './tool-errors';
import type { ToolCallOutcome, ToolCallRecord } from './tool-types';

/**
 * Where the pipeline records each `toolCallId` it answered, so that a call delivered twice (a
 * redelivered event, a resumed stream, a process restart) runs at most once. A record is `running`
 * from {@link begin} until {@link finish} stores its outcome; a record is never removed by the
 * pipeline.
 */
export abstract class ToolCallStore {
  /**
   * Claims `toolCallId`: stores a `running` record and answers `'started'`, or — when a record of that
   * id already exists, whatever its state — changes nothing and answers that record. Atomic: of any
   * number of concurrent `begin`s of one id, exactly one answers `'started'`, ever.
   */
  abstract begin(toolCallId: string, name: string): Promise<'started' | ToolCallRecord>;

  /**
   * Stores the outcome of a `running` call; the record becomes `done`, and is answered.
   * @throws ToolCallStoreError `TOOL_CALL_NOT_STARTED` (no record) or `TOOL_CALL_ALREADY_FINISHED` (already `done`; unchanged).
   */
  abstract finish(toolCallId: string, outcome: ToolCallOutcome): Promise<ToolCallRecord>;

  /** The record of `toolCallId`, or undefined when it was never begun. @throws ToolCallStoreError `TOOL_CALL_RECORD_UNREADABLE` when the stored record is damaged. */
  abstract get(toolCallId: string): Promise<ToolCallRecord | undefined>;
}

/** Records in process memory: at most once within one process (lost on restart; for tests and short-lived scripts). */
export class InMemoryToolCallStore extends ToolCallStore {
  private readonly records = new Map<string, ToolCallRecord>();

  constructor(private readonly clock: () => Date = () => new Date()) {
    super();
  }

  async begin(toolCallId: string, name: string): Promise<'started' | ToolCallRecord> {
    const existing = this.records.get(toolCallId);
    if (existing) return structuredClone(existing);
    this.records.set(toolCallId, { toolCallId, name, state: 'running', startedAt: this.clock().toISOString() });
    return 'started';
  }

  async finish(toolCallId: string, outcome: ToolCallOutcome): Promise<ToolCallRecord> {
    const finished = finishedRecord(this.records.get(toolCallId), toolCallId, outcome, this.clock());
    this.records.set(toolCallId, finished);
    return structuredClone(finished);
  }

  async get(toolCallId: string): Promise<ToolCallRecord | undefined> {
    const record = this.records.get(toolCallId);
    return record && structuredClone(record);
  }
}

/**
 * The `done` record `finish` stores: the running one with its outcome and end time.
 * @throws ToolCallStoreError when there is no running record.
 */
export function finishedRecord(record: ToolCallRecord | undefined, toolCallId: string, outcome: ToolCallOutcome, now: Date): ToolCallRecord {
  if (!record) throw new ToolCallStoreError('TOOL_CALL_NOT_STARTED', `tool call ${toolCallId} was never begun`);
  if (record.state === 'done') throw new ToolCallStoreError('TOOL_CALL_ALREADY_FINISHED', `tool call ${toolCallId} already has its outcome`);
  return { ...record, state: 'done', outcome: structuredClone(outcome), endedAt: now.toISOString() };
}
