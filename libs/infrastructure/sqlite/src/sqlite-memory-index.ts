import type { Statement } from 'better-sqlite3';
import { MemoryIndex, MobileClawError, type MemoryIndexHit, type MemoryIndexQuery, type MemoryRecord, type MemoryScope, type StoredMemoryLayer } from '@mobileclaw/domain';
import {
  MEMORY_RECORD_COLUMNS,
  checkMemoryFilter,
  checkMemoryRecord,
  decodeVector,
  encodeVector,
  memoryFromRow,
  pageCount,
  type MemoryRow,
} from '@mobileclaw/store-records';
import { ftsDocument, ftsMatchExpression, taggableDays } from './sqlite-memory-index-fts';
import { MemoryVectorCache, type CachedVector } from './sqlite-memory-index-vectors';
import { toStorageError } from './sqlite-task-repository';
import { openTaskDatabase, type TaskDatabase } from './task-database';

/**
 * The SQLite adapter of the {@link MemoryIndex} port, in the task database (schema version 8: table
 * `memories`, the contentless FTS5 table `memories_fts` of what {@link ftsDocument} gives),
 * on a connection of its own to the file. A record and its lexical entry are written in one
 * transaction. Lexical search is FTS5's BM25 over the query's words (each a quoted FTS5 string, so a
 * query is never FTS5 syntax); its `score` is `-bm25()`. Semantic search scans an in-memory copy of
 * the scope and layer's vectors ({@link MemoryVectorCache}), loaded on its first search and kept in
 * step by this index's writes: it assumes it is the only writer of the memories (one gateway per file).
 * Costs: a lexical search is linear in the rows matching any query word (over all scopes and
 * layers; with a `since` of up to 62 days, only those days' rows); a semantic
 * search is linear in the scope and layer's vectors (about 15 ms for 100k of 256 values), its first
 * one per scope and layer also reads them from the database (about 1.5 s for 100k).
 * Commits use `synchronous = NORMAL` (see {@link open}).
 * Failures: `VALIDATION_FAILED` for a record or filter whose scope, layer, embedding state or instant
 * is malformed (nothing written), `STORAGE_ERROR` when the database fails, `SHUTTING_DOWN` after {@link close}.
 */
export class SqliteMemoryIndex extends MemoryIndex {
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly vectorCache = new MemoryVectorCache();

  /**
   * Opens the task database at `path` (the `SqliteTaskRepository.path`; `:memory:` for a private
   * in-memory one, for tests), migrating it when needed.
   * @param options.busyTimeoutMs how long a write waits for another connection's lock before failing `STORAGE_ERROR`, in ms; default 5000.
   * @throws Error when the database cannot be opened or migrated.
   */
  static open(path: string, options: { busyTimeoutMs?: number } = {}): SqliteMemoryIndex {
    // `NORMAL`: the index is derived from the memory files (a re-index rebuilds it), so a power cut
    // may cost its last commits but never its consistency, and a write need not wait for an fsync.
    return new SqliteMemoryIndex(path, openTaskDatabase(path, { ...options, synchronous: 'NORMAL' }));
  }

  private constructor(
    readonly path: string,
    private readonly db: TaskDatabase,
  ) {
    super();
    this.statements = prepareStatements(db);
  }

  /** Closes its connection; later calls fail `SHUTTING_DOWN`. Calling it again does nothing. */
  close(): void {
    if (this.db.open) this.db.close();
    this.vectorCache.clear();
  }

  /**
   * Inserts or replaces the records by id in one transaction, each with its lexical entry. A stored
   * vector is kept while the record stays `present` (the same id is the same text) and dropped when
   * it is given as `missing` or `none`.
   * @throws MobileClawError `VALIDATION_FAILED` when a record's scope, layer, embedding state or `createdAt` is malformed (none is written).
   */
  override upsert(records: readonly MemoryRecord[]): Promise<void> {
    return this.run(() => {
      const rows = records.map(checkedRecord);
      const cached: { scope: string; layer: string; entry: CachedVector | string }[] = [];
      this.db.transaction(() => {
        for (const { record, createdAtMs } of rows) {
          const { seq, vector } = this.statements.upsert.get(
            record.id,
            record.scope,
            record.layer,
            record.text,
            record.category,
            record.priority,
            createdAtMs,
            record.createdAt,
            record.source.file,
            record.source.line,
            record.contentHash,
            record.embedding,
          ) as { seq: number; vector: Buffer | null };
          this.statements.deleteFts.run(seq);
          const document = ftsDocument(record.text, createdAtMs);
          this.statements.insertFts.run(seq, document.words, document.tags);
          const keep = vector !== null && this.vectorCache.isLoaded(record.scope, record.layer);
          cached.push({ scope: record.scope, layer: record.layer, entry: keep ? { id: record.id, createdAtMs, vector: decodeVector(vector) } : record.id });
        }
      })();
      // After the commit: a rolled-back write never reaches the cache.
      for (const { scope, layer, entry } of cached) {
        if (typeof entry === 'string') this.vectorCache.remove(entry);
        else this.vectorCache.set(scope, layer, entry);
      }
    });
  }

  override get(id: string): Promise<MemoryRecord | undefined> {
    return this.run(() => {
      const row = this.statements.get.get(id) as MemoryRow | undefined;
      return row && memoryFromRow(row);
    });
  }

  /** Oldest first. */
  override byHash(scope: MemoryScope, contentHash: string): Promise<MemoryRecord[]> {
    return this.run(() => (this.statements.byHash.all(scope, contentHash) as MemoryRow[]).map(memoryFromRow));
  }

  /** By line. */
  override byFile(file: string): Promise<MemoryRecord[]> {
    return this.run(() => (this.statements.byFile.all(file) as MemoryRow[]).map(memoryFromRow));
  }

  /** Newest first (then by id, descending), `limit` and `offset` taken as non-negative integers. */
  override list(scope: MemoryScope, layer: StoredMemoryLayer, page: { limit: number; offset: number }): Promise<{ records: MemoryRecord[]; total: number }> {
    return this.run(() =>
      this.db.transaction(() => ({
        records: (this.statements.list.all(scope, layer, pageCount(page.limit), pageCount(page.offset)) as MemoryRow[]).map(memoryFromRow),
        total: this.statements.total.get(scope, layer) as number,
      }))(),
    );
  }

  override delete(ids: readonly string[]): Promise<number> {
    return this.run(() => {
      const removed: string[] = [];
      this.db.transaction(() => {
        for (const id of new Set(ids)) {
          const row = this.statements.delete.get(id) as { seq: number } | undefined;
          if (row === undefined) continue;
          this.statements.deleteFts.run(row.seq);
          removed.push(id);
        }
      })();
      for (const id of removed) this.vectorCache.remove(id);
      return removed.length;
    });
  }

  /**
   * BM25 (FTS5 `bm25()`, negated so that higher is better) of the records matching any of the
   * query's words; ties newest first. `vector` is set for records whose embedding is present.
   * @throws MobileClawError `VALIDATION_FAILED` when the filter's scope, layer or `since` is malformed.
   */
  override lexical(query: string, filter: MemoryIndexQuery): Promise<MemoryIndexHit[]> {
    return this.run(() => {
      const { sinceMs, limit } = checkMemoryFilter(filter);
      let days: { fromMs: number; toMs: number } | undefined;
      if (filter.since !== undefined) {
        // The newest memory of the scope and layer bounds the days to name (index `memories_by_scope`).
        const newestMs = this.statements.newest.get(filter.scope, filter.layer) as number | null;
        if (newestMs === null || newestMs < sinceMs) return [];
        if (taggableDays(sinceMs, newestMs)) days = { fromMs: sinceMs, toMs: newestMs };
      }
      const match = ftsMatchExpression(query, days);
      if (match === undefined || limit === 0) return [];
      const rows = this.statements.lexical.all(match, filter.scope, filter.layer, sinceMs, limit) as (MemoryRow & { score: number })[];
      const vectors = this.storedVectors(rows.filter((row) => row.embedding === 'present').map((row) => row.id));
      return rows.map((row) => {
        const hit: MemoryIndexHit = { record: memoryFromRow(row), score: Math.max(0, row.score) };
        const vector = vectors.get(row.id);
        if (vector) hit.vector = vector;
        return hit;
      });
    });
  }

  /**
   * Brute-force cosine similarity over the scope and layer's present vectors of the query's length;
   * ties newest first. A zero vector (query or record) matches nothing.
   * @throws MobileClawError `VALIDATION_FAILED` when the filter's scope, layer or `since` is malformed.
   */
  override semantic(vector: Float32Array, filter: MemoryIndexQuery & { minScore: number }): Promise<MemoryIndexHit[]> {
    return this.run(() => {
      const { sinceMs, limit } = checkMemoryFilter(filter);
      if (limit === 0) return [];
      if (!this.vectorCache.isLoaded(filter.scope, filter.layer)) this.loadVectors(filter.scope, filter.layer);
      const matches = this.vectorCache.search(filter.scope, filter.layer, vector, { sinceMs, minScore: filter.minScore, limit });
      if (matches.length === 0) return [];
      const rows = new Map((this.statements.byIds.all(JSON.stringify(matches.map((match) => match.id))) as MemoryRow[]).map((row) => [row.id, row]));
      return matches.flatMap((match) => {
        const row = rows.get(match.id);
        return row ? [{ record: memoryFromRow(row), score: match.score, vector: match.vector }] : [];
      });
    });
  }

  override vectors(ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.run(() => this.storedVectors(ids));
  }

  override setEmbedding(id: string, vector: Float32Array): Promise<void> {
    return this.run(() => {
      const row = this.statements.setEmbedding.get(encodeVector(vector), vector.length, id) as { scope: string; layer: string; created_at: number } | undefined;
      if (row !== undefined) this.vectorCache.set(row.scope, row.layer, { id, createdAtMs: row.created_at, vector });
    });
  }

  /** Oldest first (then by id). */
  override missingEmbeddings(limit: number): Promise<MemoryRecord[]> {
    return this.run(() => (this.statements.missingEmbeddings.all(pageCount(limit)) as MemoryRow[]).map(memoryFromRow));
  }

  override stats(): Promise<{ records: number; missingEmbeddings: number }> {
    return this.run(() => {
      const row = this.statements.stats.get() as { records: number; missing: number | null };
      return { records: row.records, missingEmbeddings: row.missing ?? 0 };
    });
  }

  private storedVectors(ids: readonly string[]): Map<string, Float32Array> {
    if (ids.length === 0) return new Map();
    const rows = this.statements.vectors.all(JSON.stringify([...new Set(ids)])) as { id: string; vector: Buffer }[];
    return new Map(rows.map((row) => [row.id, decodeVector(row.vector)]));
  }

  private loadVectors(scope: string, layer: string): void {
    const rows = this.statements.groupVectors.iterate(scope, layer) as IterableIterator<{ id: string; created_at: number; vector: Buffer }>;
    const entries = function* (): Iterable<CachedVector> {
      for (const row of rows) yield { id: row.id, createdAtMs: row.created_at, vector: decodeVector(row.vector) };
    };
    this.vectorCache.load(scope, layer, entries());
  }

  private async run<T>(operation: () => T): Promise<T> {
    if (!this.db.open) throw new MobileClawError('SHUTTING_DOWN', 'the memory index is closed');
    try {
      return operation();
    } catch (err) {
      throw toStorageError(err);
    }
  }
}

function checkedRecord(record: MemoryRecord): { record: MemoryRecord; createdAtMs: number } {
  return { record, createdAtMs: checkMemoryRecord(record) };
}

type StatementName = 'upsert' | 'deleteFts' | 'insertFts' | 'newest' | 'get' | 'byHash' | 'byFile' | 'list' | 'total' | 'delete' | 'lexical' | 'byIds' | 'vectors' | 'setEmbedding' | 'missingEmbeddings' | 'stats' | 'groupVectors';

function prepareStatements(db: TaskDatabase): Record<StatementName, Statement> {
  return {
    upsert: db.prepare(`
      INSERT INTO memories (id, scope, layer, text, category, priority, created_at, created_iso, file, line, content_hash, embedding, vector, dims)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)
      ON CONFLICT (id) DO UPDATE SET
        scope = excluded.scope, layer = excluded.layer, text = excluded.text, category = excluded.category,
        priority = excluded.priority, created_at = excluded.created_at, created_iso = excluded.created_iso,
        file = excluded.file, line = excluded.line, content_hash = excluded.content_hash, embedding = excluded.embedding,
        vector = CASE WHEN excluded.embedding = 'present' THEN memories.vector END,
        dims = CASE WHEN excluded.embedding = 'present' THEN memories.dims END
      RETURNING seq, vector`),
    deleteFts: db.prepare('DELETE FROM memories_fts WHERE rowid = ?'),
    insertFts: db.prepare('INSERT INTO memories_fts (rowid, words, tags) VALUES (?, ?, ?)'),
    get: db.prepare(`SELECT ${MEMORY_RECORD_COLUMNS} FROM memories m WHERE m.id = ?`),
    byHash: db.prepare(`SELECT ${MEMORY_RECORD_COLUMNS} FROM memories m WHERE m.scope = ? AND m.content_hash = ? ORDER BY m.created_at, m.id`),
    byFile: db.prepare(`SELECT ${MEMORY_RECORD_COLUMNS} FROM memories m WHERE m.file = ? ORDER BY m.line, m.id`),
    list: db.prepare(`SELECT ${MEMORY_RECORD_COLUMNS} FROM memories m WHERE m.scope = ? AND m.layer = ? ORDER BY m.created_at DESC, m.id DESC LIMIT ? OFFSET ?`),
    total: db.prepare('SELECT COUNT(*) FROM memories WHERE scope = ? AND layer = ?').pluck(),
    delete: db.prepare('DELETE FROM memories WHERE id = ? RETURNING seq'),
    // CROSS JOIN: the FTS5 match drives the join (SQLite would otherwise walk the scope's rows and
    // run the whole match once per row), then the scope, layer and time filters apply to its hits.
    // Column weights 1 (`words`) and 0 (`tags`): the tags filter, they never score.
    lexical: db.prepare(`
      SELECT ${MEMORY_RECORD_COLUMNS}, -bm25(memories_fts, 1.0, 0.0) AS score
      FROM memories_fts CROSS JOIN memories m ON m.seq = memories_fts.rowid
      WHERE memories_fts MATCH ? AND m.scope = ? AND m.layer = ? AND m.created_at >= ?
      ORDER BY score DESC, m.created_at DESC, m.id
      LIMIT ?`),
    newest: db.prepare('SELECT MAX(created_at) FROM memories WHERE scope = ? AND layer = ?').pluck(),
    // Lookups of a few ids (a JSON array): the ids drive (unique index on `id`), never a scan of every present vector.
    byIds: db.prepare(`SELECT ${MEMORY_RECORD_COLUMNS} FROM json_each(?) j CROSS JOIN memories m ON m.id = j.value`),
    vectors: db.prepare("SELECT m.id, m.vector FROM json_each(?) j CROSS JOIN memories m ON m.id = j.value WHERE +m.embedding = 'present' AND m.vector IS NOT NULL"),
    setEmbedding: db.prepare("UPDATE memories SET embedding = 'present', vector = ?, dims = ? WHERE id = ? RETURNING scope, layer, created_at"),
    missingEmbeddings: db.prepare(`SELECT ${MEMORY_RECORD_COLUMNS} FROM memories m WHERE m.embedding = 'missing' ORDER BY m.created_at, m.id LIMIT ?`),
    stats: db.prepare("SELECT COUNT(*) AS records, SUM(embedding = 'missing') AS missing FROM memories"),
    // `+embedding`: read the scope and layer's rows (index `memories_by_scope`), not every present vector of every scope.
    groupVectors: db.prepare("SELECT id, created_at, vector FROM memories WHERE scope = ? AND layer = ? AND +embedding = 'present' AND vector IS NOT NULL"),
  };
}
