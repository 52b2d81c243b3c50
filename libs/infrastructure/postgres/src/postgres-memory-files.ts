import { Subject, type Observable } from 'rxjs';
import {
  MemoryFiles,
  MobileClawError,
  type MemoryCandidate,
  type MemoryFileChange,
  type MemoryScope,
  type MemorySection,
  type StoredMemoryLayer,
} from '@mobileclaw/domain';
import {
  checkedInstant,
  formatFileTitle,
  formatMemorySection,
  isCalendarDay,
  lineEndingOf,
  memoryFilePath,
  memorySectionAt,
  parseMemoryFilePath,
  parseMemorySections,
  withoutMemorySections,
  scopeFolder,
  type MemoryFileLocation,
} from '@mobileclaw/memory-files';
import type { PostgresDatabase } from './postgres-database';
import { StoreOperations } from './store-operations';

const CONTENT_HASH = /^[0-9a-f]{64}$/;

interface ContentRow {
  content: Buffer;
  updated_at: number;
}

/**
 * The PostgreSQL adapter of the {@link MemoryFiles} port: the memory documents as rows of table
 * `memory_files` (see `POSTGRES_MIGRATIONS`), shared by every instance on the database. A document
 * is exactly what `MarkdownMemoryFiles` keeps as a file — same path (`device/sim-1/2026-12-02.md`,
 * `context/ctx-7/MEMORY.md`, the scope's folder encoded as `memory-file-path.ts` does), same Markdown
 * (`memory-section-format.ts`), byte for byte — so the case logic, line numbers and content hashes
 * are the same on either store.
 *
 * Concurrency: an append and a removal each run in one transaction that locks the document's row
 * (`SELECT … FOR UPDATE`, the row created first when missing) before reading and rewriting it, so
 * writes from any number of instances to one document are serialised by the database and none is
 * lost; a {@link read} sees the last committed write.
 *
 * {@link changes$} never emits (it completes on {@link close}): every write goes through this adapter,
 * called by the memory service, which indexes what it writes itself; the rows are not meant to be
 * edited by hand (editing memory files is a feature of the file store, on a single instance).
 *
 * An appended section is returned as a later {@link read} gives it: its `createdAt` is the heading's
 * minute. Runs on a migrated {@link PostgresDatabase} it does not own. Failures: `VALIDATION_FAILED`
 * for a bad scope, day, document path, memory or content hash (nothing written), `STORAGE_ERROR`
 * (retryable) when the database fails, `SHUTTING_DOWN` after {@link close}.
 */
export class PostgresMemoryFiles extends MemoryFiles {
  private readonly operations = new StoreOperations('the memory documents');
  private readonly changes = new Subject<MemoryFileChange>();
  override readonly changes$: Observable<MemoryFileChange> = this.changes.asObservable();

  constructor(private readonly database: PostgresDatabase) {
    super();
  }

  override append(scope: MemoryScope, layer: StoredMemoryLayer, memory: Required<MemoryCandidate>, at: string): Promise<MemorySection> {
    return this.operations.run(async () => {
      const day = checkedInstant(at).toISOString().slice(0, 10);
      const file = memoryFilePath(scope, layer, day);
      formatMemorySection(layer, memory, at); // checks the memory before anything is touched
      return this.database.transaction(async (tx) => {
        const now = Date.now();
        await tx.query(
          `INSERT INTO memory_files (path, scope, layer, day, content, updated_at) VALUES ($1, $2, $3, $4, '\\x'::bytea, $5) ON CONFLICT (path) DO NOTHING`,
          [file, scope, layer, layer === 'daily' ? day : null, now],
        );
        const [row] = await tx.query<ContentRow>('SELECT content, updated_at FROM memory_files WHERE path = $1 FOR UPDATE', [file]);
        const existing = row?.content ?? Buffer.alloc(0);
        const eol = existing.length > 0 ? lineEndingOf(existing) : '\n';
        let prefix = '';
        if (existing.length === 0) prefix = formatFileTitle(layer, day, eol);
        else if (existing[existing.length - 1] !== 0x0a) prefix = eol;
        const text = formatMemorySection(layer, memory, at, eol);
        await tx.query('UPDATE memory_files SET content = content || $2, updated_at = $3 WHERE path = $1', [file, Buffer.from(prefix + text, 'utf8'), now]);
        const [parsed] = parseMemorySections(Buffer.from(text, 'utf8'), { layer, day, modifiedAt: new Date(now).toISOString() });
        const line = newlines(existing) + newlines(Buffer.from(prefix, 'utf8')) + 1;
        return memorySectionAt({ scope, layer, day }, file, { ...parsed, line });
      });
    });
  }

  override read(file: string): Promise<MemorySection[]> {
    return this.operations.run(async () => {
      const location = locationOf(file);
      const [row] = await this.database.query<ContentRow>('SELECT content, updated_at FROM memory_files WHERE path = $1', [file]);
      if (!row) return [];
      return parseMemorySections(row.content, { layer: location.layer, day: location.day, modifiedAt: new Date(row.updated_at).toISOString() }).map((parsed) =>
        memorySectionAt(location, file, parsed),
      );
    });
  }

  /** Oldest first. */
  override dailyFiles(scope: MemoryScope, sinceDay: string): Promise<{ day: string; file: string }[]> {
    return this.operations.run(async () => {
      if (!isCalendarDay(sinceDay)) throw new MobileClawError('VALIDATION_FAILED', `sinceDay must be a day YYYY-MM-DD, got ${JSON.stringify(sinceDay.slice(0, 40))}`);
      scopeFolder(scope); // checks the scope
      const rows = await this.database.query<{ path: string; day: string }>(
        `SELECT path, day FROM memory_files WHERE scope = $1 AND layer = 'daily' AND day >= $2`,
        [scope, sinceDay],
      );
      return rows.map((row) => ({ day: row.day, file: row.path })).sort((a, b) => compare(a.day, b.day));
    });
  }

  /** Locks the document's row, parses it, and writes back the rest (byte for byte) in one transaction. */
  override removeSection(file: string, contentHash: string): Promise<number> {
    return this.operations.run(async () => {
      const location = locationOf(file);
      if (!CONTENT_HASH.test(contentHash)) throw new MobileClawError('VALIDATION_FAILED', `contentHash must be 64 lower-case hex digits, got ${JSON.stringify(contentHash.slice(0, 80))}`);
      return this.database.transaction(async (tx) => {
        const [row] = await tx.query<ContentRow>('SELECT content, updated_at FROM memory_files WHERE path = $1 FOR UPDATE', [file]);
        if (!row) return 0;
        const { content, removed } = withoutMemorySections(row.content, { layer: location.layer, day: location.day, modifiedAt: new Date(row.updated_at).toISOString() }, contentHash);
        if (removed === 0) return 0;
        await tx.query('UPDATE memory_files SET content = $2, updated_at = $3 WHERE path = $1', [file, content, Date.now()]);
        return removed;
      });
    });
  }

  /** By path (in code-unit order, as the file store gives them). */
  override allFiles(): Promise<{ scope: MemoryScope; layer: StoredMemoryLayer; file: string }[]> {
    return this.operations.run(async () => {
      const rows = await this.database.query<{ path: string }>('SELECT path FROM memory_files');
      const files: { scope: MemoryScope; layer: StoredMemoryLayer; file: string }[] = [];
      for (const { path } of rows) {
        const location = parseMemoryFilePath(path);
        if (location) files.push({ scope: location.scope, layer: location.layer, file: path });
      }
      return files.sort((a, b) => compare(a.file, b.file));
    });
  }

  /**
   * Merges a memory document written elsewhere (e.g. a file of `MarkdownMemoryFiles`, when an instance
   * moves its memory into the database) into this store, in one transaction that locks the row: a
   * document not here yet is taken byte for byte; else each of its sections whose content hash the
   * stored document lacks is appended, its bytes as they are (heading to the next heading), after a
   * line end. Importing the same document again adds nothing.
   * @param content the document's bytes (UTF-8 Markdown).
   * @returns how many sections were added.
   * @throws MobileClawError `VALIDATION_FAILED` when `file` is not a memory document's path, `STORAGE_ERROR`, `SHUTTING_DOWN`.
   */
  importDocument(file: string, content: Buffer): Promise<number> {
    return this.operations.run(async () => {
      const location = locationOf(file);
      const facts = { layer: location.layer, day: location.day, modifiedAt: new Date().toISOString() };
      const incoming = parseMemorySections(content, facts);
      return this.database.transaction(async (tx) => {
        const now = Date.now();
        const inserted = await tx.query(
          `INSERT INTO memory_files (path, scope, layer, day, content, updated_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (path) DO NOTHING RETURNING path`,
          [file, location.scope, location.layer, location.day ?? null, content, now],
        );
        if (inserted.length > 0) return incoming.length;
        const [row] = await tx.query<ContentRow>('SELECT content, updated_at FROM memory_files WHERE path = $1 FOR UPDATE', [file]);
        const existing = row?.content ?? Buffer.alloc(0);
        const known = new Set(parseMemorySections(existing, facts).map((section) => section.contentHash));
        const added: Buffer[] = [];
        for (const section of incoming) {
          if (known.has(section.contentHash)) continue;
          known.add(section.contentHash);
          const bytes = content.subarray(section.start, section.end);
          added.push(bytes[bytes.length - 1] === 0x0a ? bytes : Buffer.concat([bytes, Buffer.from(lineEndingOf(content))]));
        }
        if (added.length === 0) return 0;
        const separator = existing.length > 0 && existing[existing.length - 1] !== 0x0a ? Buffer.from(lineEndingOf(existing)) : Buffer.alloc(0);
        await tx.query('UPDATE memory_files SET content = content || $2, updated_at = $3 WHERE path = $1', [file, Buffer.concat([separator, ...added]), now]);
        return added.length;
      });
    });
  }

  /** Refuses new operations with `SHUTTING_DOWN`, waits for those in progress, completes {@link changes$}. Leaves the database open. Idempotent. */
  async close(): Promise<void> {
    await this.operations.close();
    this.changes.complete();
  }
}

/**
 * What a `file` argument is.
 * @throws MobileClawError `VALIDATION_FAILED` when it is not a memory document's path.
 */
function locationOf(file: string): MemoryFileLocation {
  const location = parseMemoryFilePath(file);
  if (!location) throw new MobileClawError('VALIDATION_FAILED', `not a memory file: ${JSON.stringify(file.slice(0, 200))}`);
  return location;
}


function newlines(content: Buffer): number {
  let count = 0;
  for (let at = content.indexOf(0x0a); at >= 0; at = content.indexOf(0x0a, at + 1)) count++;
  return count;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
