import { createHash } from 'node:crypto';
import { link, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PrivateDirectory, replaceFile, syncDirectory, writeTemporaryFile } from '../private-files';
import { ToolCallStore, finishedRecord } from './tool-call-store';
import { ToolCallStoreError } from './tool-errors';
import type { ToolCallOutcome, ToolCallRecord } from './tool-types';


/**
 * Records as files, one per call: `<dir>/<sha256 of the toolCallId>.json` (the id itself may hold any
 * character; the record inside names it). They survive a process restart, so a call delivered again
 * after a crash does not run twice.
 *
 * One file per call rather than an append-only journal: each record is replaced atomically on its
 * own, a claim is exclusive without a lock, a lookup reads one small file, and nothing grows that
 * must be compacted.
 *
 * - `begin` writes the `running` record to a temporary file, flushes it, and hard-links it to the
 *   record's name: the link fails when the name exists, so the claim is exclusive — across
 *   concurrent calls and processes — and a reader sees the whole record or none.
 * - `finish` writes the `done` record to a temporary file, flushes it and renames it over the old
 *   one: a reader or a crash sees the old record or the new one, never a torn one.
 * - Both flush the folder too, so a record survives an OS crash, not only a process kill.
 *
 * The folder is made mode 0700 (an existing one too) and the files 0600: arguments and results may be private. The
 * file system must support hard links (local disks on Linux, macOS and Windows do). Records are never
 * removed by the store.
 */
export class FileToolCallStore extends ToolCallStore {
  private readonly directory: PrivateDirectory;
  /** `finish` reads then replaces a record: one at a time per id within this process. */
  private readonly finishing = new Map<string, Promise<unknown>>();

  constructor(
    readonly dir: string,
    private readonly clock: () => Date = () => new Date(),
  ) {
    super();
    this.directory = new PrivateDirectory(dir);
  }

  async begin(toolCallId: string, name: string): Promise<'started' | ToolCallRecord> {
    await this.directory.prepare();
    const record: ToolCallRecord = { toolCallId, name, state: 'running', startedAt: this.clock().toISOString() };
    const temporary = await writeTemporaryFile(this.dir, fileKey(toolCallId), JSON.stringify(record));
    try {
      await link(temporary, this.pathOf(toolCallId));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const existing = await this.get(toolCallId);
      if (!existing) throw new ToolCallStoreError('TOOL_CALL_RECORD_UNREADABLE', `the record of tool call ${toolCallId} exists but cannot be read`);
      return existing;
    } finally {
      await rm(temporary, { force: true });
    }
    await syncDirectory(this.dir);
    return 'started';
  }

  finish(toolCallId: string, outcome: ToolCallOutcome): Promise<ToolCallRecord> {
    const previous = this.finishing.get(toolCallId) ?? Promise.resolve();
    const next = previous.then(
      () => this.replace(toolCallId, outcome),
      () => this.replace(toolCallId, outcome),
    );
    this.finishing.set(toolCallId, next);
    const forget = () => {
      if (this.finishing.get(toolCallId) === next) this.finishing.delete(toolCallId);
    };
    next.then(forget, forget);
    return next;
  }

  async get(toolCallId: string): Promise<ToolCallRecord | undefined> {
    let text: string;
    try {
      text = await readFile(this.pathOf(toolCallId), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    let record: ToolCallRecord;
    try {
      record = JSON.parse(text) as ToolCallRecord;
    } catch (err) {
      throw unreadable(toolCallId, err instanceof Error ? err.message : String(err));
    }
    if (record?.toolCallId !== toolCallId) throw unreadable(toolCallId, 'it names another tool call');
    if (record.state !== 'running' && record.state !== 'done') throw unreadable(toolCallId, `unknown state ${JSON.stringify(record.state)}`);
    if (record.state === 'done' && record.outcome?.outcome !== 'ok' && record.outcome?.outcome !== 'rejected') throw unreadable(toolCallId, 'a done record without its outcome');
    return record;
  }

  private async replace(toolCallId: string, outcome: ToolCallOutcome): Promise<ToolCallRecord> {
    const finished = finishedRecord(await this.get(toolCallId), toolCallId, outcome, this.clock());
    await replaceFile(this.dir, this.pathOf(toolCallId), fileKey(toolCallId), JSON.stringify(finished));
    return finished;
  }

  private pathOf(toolCallId: string): string {
    return join(this.dir, `${fileKey(toolCallId)}.json`);
  }
}

function fileKey(toolCallId: string): string {
  return createHash('sha256').update(toolCallId, 'utf8').digest('hex');
}

function unreadable(toolCallId: string, why: string): ToolCallStoreError {
  return new ToolCallStoreError('TOOL_CALL_RECORD_UNREADABLE', `the record of tool call ${toolCallId} cannot be read: ${why}`);
}
