import { ToolCallLedger, pruneInstantMs, type ToolCallBegin, type ToolCallKey, type ToolCallOutcome, type ToolCallRecord } from '@mobileclaw/domain';
import type { PostgresDatabase } from './postgres-database';
import { StoreOperations } from './store-operations';

/**
 * The PostgreSQL adapter of the {@link ToolCallLedger} port: table `tool_calls` (indexed by `begun_at`
 * for pruning), shared by every instance on the database, so that a call id runs at most once across
 * restarts and instances. A begin is one `INSERT … ON CONFLICT DO NOTHING`: of concurrent begins (on
 * any instance) one inserts. Runs on a migrated {@link PostgresDatabase} it does not own. Failures:
 * `STORAGE_ERROR` (retryable), `SHUTTING_DOWN` after {@link close}.
 */
export class PostgresToolCallLedger extends ToolCallLedger {
  private readonly operations = new StoreOperations('the tool call ledger');

  /** @param now the clock of `begun_at`, in ms since the epoch; default `Date.now`. */
  constructor(
    private readonly database: PostgresDatabase,
    private readonly now: () => number = Date.now,
  ) {
    super();
  }

  override begin(key: ToolCallKey, tool: string): Promise<ToolCallBegin> {
    return this.operations.run(async (): Promise<ToolCallBegin> => {
      const inserted = await this.database.query(
        'INSERT INTO tool_calls (caller, tool_call_id, tool, begun_at, outcome) VALUES ($1, $2, $3, $4, NULL) ON CONFLICT (caller, tool_call_id) DO NOTHING RETURNING 1',
        [key.caller, key.toolCallId, tool, this.now()],
      );
      if (inserted.length > 0) return { begun: true };
      // Pruned between the two statements: the record of the call that held the id is gone; report it as begun by that tool.
      return { begun: false, record: (await this.record(key)) ?? { caller: key.caller, toolCallId: key.toolCallId, tool } };
    });
  }

  /** Records the outcome of a begun call; a call that already has one keeps it, an unknown key is ignored. */
  override finish(key: ToolCallKey, outcome: ToolCallOutcome): Promise<void> {
    return this.operations.run(async () => {
      await this.database.query('UPDATE tool_calls SET outcome = $3 WHERE caller = $1 AND tool_call_id = $2 AND outcome IS NULL', [key.caller, key.toolCallId, JSON.stringify(outcome)]);
    });
  }

  override get(key: ToolCallKey): Promise<ToolCallRecord | undefined> {
    return this.operations.run(() => this.record(key));
  }

  /**
   * Deletes the calls begun before the instant, in one `DELETE` (index `tool_calls_by_begun`); returns how many.
   * @throws MobileClawError `VALIDATION_FAILED` when `olderThanIso` is not an ISO-8601 date-time.
   */
  override prune(olderThanIso: string): Promise<number> {
    return this.operations.run(async () => {
      const cutoffMs = pruneInstantMs(olderThanIso);
      return (await this.database.query('DELETE FROM tool_calls WHERE begun_at < $1 RETURNING 1', [cutoffMs])).length;
    });
  }

  /** Waits for the operations in progress, then refuses every call with `SHUTTING_DOWN`. Leaves the database open. Idempotent. */
  close(): Promise<void> {
    return this.operations.close();
  }

  private async record(key: ToolCallKey): Promise<ToolCallRecord | undefined> {
    const [row] = await this.database.query<{ tool: string; outcome: string | null }>('SELECT tool, outcome FROM tool_calls WHERE caller = $1 AND tool_call_id = $2', [
      key.caller,
      key.toolCallId,
    ]);
    if (!row) return undefined;
    const record: ToolCallRecord = { caller: key.caller, toolCallId: key.toolCallId, tool: row.tool };
    if (row.outcome !== null) record.outcome = JSON.parse(row.outcome) as ToolCallOutcome;
    return record;
  }
}
