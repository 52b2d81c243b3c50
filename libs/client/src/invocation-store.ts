import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MobileClawClientError } from './errors';
import { PrivateDirectory, replaceFile } from './private-files';
import type { CreateTaskBody } from './gateway-api';
import type { InvocationStatus, PendingGatewayToolCall, PendingPhoneAction } from './events';
import type { ToolPolicy } from './tools/tool-types';

/** The creation request of an invocation; `deviceId` is absent until the only online phone was looked up. */
export type InvocationRequest = Omit<CreateTaskBody, 'deviceId'> & { deviceId?: string };

/**
 * What the SDK remembers of one invocation, so that it can re-send an unacknowledged creation with the
 * same key and content, and follow the task again after a restart. Times are ISO-8601.
 */
export interface InvocationRecord {
  invocationRef: string;
  conversationId: string;
  idempotencyKey: string;
  /** The exact creation request (its `deviceId` once resolved); a re-send uses it unchanged. */
  request: InvocationRequest;
  /** The invocation's own tool policy (narrows the conversation's). */
  toolPolicy?: ToolPolicy;
  /** The gateway's task id once creation was acknowledged. */
  taskRef?: string;
  /** Last status the SDK saw. */
  status?: InvocationStatus;
  /** With `input_required` for an approval: the action waiting. */
  pendingAction?: PendingPhoneAction;
  /** With `input_required` for an approval of a gateway tool's call: the call waiting. */
  pendingToolApproval?: PendingGatewayToolCall;
  /** The id of the last event delivered to the app (0: none). */
  lastEventId: number;
  /** True once the app got the task's terminal event: there is nothing more to follow. */
  ended?: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * Where invocation records live. Pluggable (e.g. a database in an app running several processes);
 * `put` replaces the whole record.
 */
export interface InvocationStore {
  /** The record, or undefined when there is none. */
  get(invocationRef: string): Promise<InvocationRecord | undefined>;
  put(record: InvocationRecord): Promise<void>;
  delete(invocationRef: string): Promise<void>;
}

/** Records in memory: they go with the process. */
export class MemoryInvocationStore implements InvocationStore {
  private readonly records = new Map<string, InvocationRecord>();

  async get(invocationRef: string): Promise<InvocationRecord | undefined> {
    const record = this.records.get(invocationRef);
    return record === undefined ? undefined : structuredClone(record);
  }

  async put(record: InvocationRecord): Promise<void> {
    this.records.set(record.invocationRef, structuredClone(record));
  }

  async delete(invocationRef: string): Promise<void> {
    this.records.delete(invocationRef);
  }
}

/** invocationRefs are the SDK's UUIDs; anything else is never a file name. */
const REF_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Records as JSON files `<dir>/<invocationRef>.json` that survive a restart: the directory is made
 * owner-only (0700), each file is owner-only (0600) and replaced atomically (written to a temporary
 * file, flushed to disk, renamed over the old one, the folder flushed), so a crash leaves the old record
 * or the new one.
 * Writes of one record are applied in call order.
 * @throws on I/O failures (the `fs` error, e.g. `EACCES`); `get` throws {@link MobileClawClientError}
 *   `INVOCATION_RECORD_UNREADABLE` for a file that is not a record (damaged or edited outside the store).
 */
export class FileInvocationStore implements InvocationStore {
  private readonly directory: PrivateDirectory;
  private readonly writes = new Map<string, Promise<void>>();

  constructor(readonly dir: string) {
    this.directory = new PrivateDirectory(dir);
  }

  async get(invocationRef: string): Promise<InvocationRecord | undefined> {
    if (!REF_PATTERN.test(invocationRef)) return undefined;
    await this.writes.get(invocationRef);
    let text: string;
    try {
      text = await readFile(this.file(invocationRef), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    let record: Partial<InvocationRecord> | null;
    try {
      record = JSON.parse(text) as Partial<InvocationRecord> | null;
    } catch (error) {
      throw this.unreadable(invocationRef, `it is not JSON (${(error as Error).message})`, error);
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) throw this.unreadable(invocationRef, 'it is not a JSON object');
    if (record.invocationRef !== invocationRef) throw this.unreadable(invocationRef, 'it names another invocation');
    if (typeof record.idempotencyKey !== 'string' || typeof record.conversationId !== 'string' || typeof record.lastEventId !== 'number' || typeof record.request !== 'object' || record.request === null) {
      throw this.unreadable(invocationRef, 'it lacks idempotencyKey, conversationId, request or lastEventId');
    }
    return record as InvocationRecord;
  }

  private unreadable(invocationRef: string, why: string, cause?: unknown): MobileClawClientError {
    return new MobileClawClientError('INVOCATION_RECORD_UNREADABLE', `the record of invocation ${invocationRef} (${this.file(invocationRef)}) cannot be read: ${why}`, { cause });
  }

  put(record: InvocationRecord): Promise<void> {
    if (!REF_PATTERN.test(record.invocationRef)) return Promise.reject(new Error(`invocationRef "${record.invocationRef}" is not 1–128 of A-Z a-z 0-9 _ -`));
    return this.serial(record.invocationRef, () => this.write(record));
  }

  delete(invocationRef: string): Promise<void> {
    if (!REF_PATTERN.test(invocationRef)) return Promise.resolve();
    return this.serial(invocationRef, () => rm(this.file(invocationRef), { force: true }));
  }

  private serial(invocationRef: string, work: () => Promise<void>): Promise<void> {
    const next = (this.writes.get(invocationRef) ?? Promise.resolve()).then(work, work);
    const settled = next.catch(() => undefined);
    this.writes.set(invocationRef, settled);
    void settled.then(() => {
      if (this.writes.get(invocationRef) === settled) this.writes.delete(invocationRef);
    });
    return next;
  }

  private async write(record: InvocationRecord): Promise<void> {
    await this.directory.prepare();
    await replaceFile(this.dir, this.file(record.invocationRef), record.invocationRef, JSON.stringify(record));
  }

  private file(invocationRef: string): string {
    return join(this.dir, `${invocationRef}.json`);
  }
}
