import type { Statement } from 'better-sqlite3';
import { MobileClawError, ToolCallLedger, pruneInstantMs, type ToolCallBegin, type ToolCallKey, type ToolCallOutcome, type ToolCallRecord } from '@mobileclaw/domain';
import { toStorageError } from './sqlite-task-repository';
import { openTaskDatabase, type TaskDatabase } from './task-database';

interface CallRow {
  tool: string;
  outcome: string | null;
}

/**
 * The SQLite adapter of the {@link ToolCallLedger} port: table `tool_calls` of the task database
 * (schema version 6; indexed by `begun_at` for pruning since version 7), on a connection of its own to the same file, so that a call id executed before
 * a restart is not executed again after it. A begin is one `INSERT … ON CONFLICT DO NOTHING`: of
 * concurrent begins (also from other processes on the same file) one inserts. Failures:
 * `STORAGE_ERROR` when the database fails, `SHUTTING_DOWN` after {@link close}.
 */
export class SqliteToolCallLedger extends ToolCallLedger {
  private readonly statements: ReturnType<typeof prepareStatements>;

  /**
   * Opens the task database at `path` (the `SqliteTaskRepository.path`; `:memory:` for a private
   * in-memory one, for tests), migrating it when needed.
   * @param now the clock of `begun_at`, in ms since the epoch; default `Date.now`.
   * @throws Error when the database cannot be opened or migrated.
   */
  static open(path: string, now: () => number = Date.now): SqliteToolCallLedger {
    return new SqliteToolCallLedger(openTaskDatabase(path), now);
  }

  private constructor(
    private readonly db: TaskDatabase,
    private readonly now: () => number,
  ) {
    super();
    this.statements = prepareStatements(db);
  }

  override begin(key: ToolCallKey, tool: string): Promise<ToolCallBegin> {
    return this.run((): ToolCallBegin => {
      const inserted = this.statements.insert.run(key.caller, key.toolCallId, tool, this.now()).changes === 1;
      if (inserted) return { begun: true };
      return { begun: false, record: this.record(key) as ToolCallRecord };
    });
  }

  override finish(key: ToolCallKey, outcome: ToolCallOutcome): Promise<void> {
    return this.run(() => {
      this.statements.finish.run(JSON.stringify(outcome), key.caller, key.toolCallId);
    });
  }

  override get(key: ToolCallKey): Promise<ToolCallRecord | undefined> {
    return this.run(() => this.record(key));
  }

  /** One `DELETE` of the rows whose `begun_at` is before the instant (index `tool_calls_by_begun`). */
  override async prune(olderThanIso: string): Promise<number> {
    const cutoffMs = pruneInstantMs(olderThanIso);
    return this.run(() => this.statements.prune.run(cutoffMs).changes);
  }

  /** Closes the connection; calling it again does nothing. */
  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private record(key: ToolCallKey): ToolCallRecord | undefined {
    const row = this.statements.get.get(key.caller, key.toolCallId) as CallRow | undefined;
    if (row === undefined) return undefined;
    const record: ToolCallRecord = { caller: key.caller, toolCallId: key.toolCallId, tool: row.tool };
    if (row.outcome !== null) record.outcome = JSON.parse(row.outcome) as ToolCallOutcome;
    return record;
  }

  private async run<T>(operation: () => T): Promise<T> {
    if (!this.db.open) throw new MobileClawError('SHUTTING_DOWN', 'the tool call ledger is closed');
    try {
      return operation();
    } catch (err) {
      throw toStorageError(err);
    }
  }
}

function prepareStatements(db: TaskDatabase): Record<'insert' | 'finish' | 'get' | 'prune', Statement> {
  return {
    insert: db.prepare('INSERT INTO tool_calls (caller, tool_call_id, tool, begun_at, outcome) VALUES (?, ?, ?, ?, NULL) ON CONFLICT (caller, tool_call_id) DO NOTHING'),
    finish: db.prepare('UPDATE tool_calls SET outcome = ? WHERE caller = ? AND tool_call_id = ? AND outcome IS NULL'),
    get: db.prepare('SELECT tool, outcome FROM tool_calls WHERE caller = ? AND tool_call_id = ?'),
    prune: db.prepare('DELETE FROM tool_calls WHERE begun_at < ?'),
  };
}
