import { MemoryIndex, memoryWords, type MemoryIndexHit, type MemoryIndexQuery, type MemoryRecord, type MemoryScope, type StoredMemoryLayer } from '@mobileclaw/domain';
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
import type { PostgresDatabase } from './postgres-database';
import { StoreOperations } from './store-operations';

const UPSERT_COLUMNS = ['id', 'scope', 'layer', 'text', 'category', 'priority', 'created_at', 'created_iso', 'file', 'line', 'content_hash', 'embedding', 'words', 'word_count'] as const;

/**
 * BM25 as SQLite's FTS5 computes it (k1 = 1.2, b = 0.75; `idf = ln((N − n + 0.5) / (n + 0.5))`, at least
 * 1e-6; N and the average document length over the whole table, documents being `words`), of the
 * rows of one scope and layer from `$4` (ms) that hold any of the query's words `$1`; best first,
 * ties newest first. `$5` = limit. The vector comes along for rows whose embedding is present.
 */
const LEXICAL = `
  WITH q AS (SELECT DISTINCT unnest($1::text[]) AS word),
  corpus AS (SELECT count(*)::float8 AS n, COALESCE(avg(word_count), 0)::float8 AS avgdl FROM memories),
  idf AS (
    SELECT q.word, GREATEST(ln((corpus.n - d.n + 0.5) / (d.n + 0.5)), 1e-6) AS idf
    FROM q CROSS JOIN corpus CROSS JOIN LATERAL (SELECT count(*)::float8 AS n FROM memories WHERE words @> ARRAY[q.word]) d
  ),
  hits AS (
    SELECT m.*, (
      SELECT COALESCE(sum(idf.idf * tf.f * 2.2 / (tf.f + 1.2 * (0.25 + 0.75 * m.word_count / NULLIF(corpus.avgdl, 0)))), 0)
      FROM idf CROSS JOIN LATERAL (SELECT count(*)::float8 AS f FROM unnest(m.words) AS w WHERE w = idf.word) tf
      WHERE tf.f > 0
    ) AS score
    FROM memories m CROSS JOIN corpus
    WHERE m.words && $1::text[] AND m.scope = $2 AND m.layer = $3 AND m.created_at >= $4
  )
  SELECT ${MEMORY_RECORD_COLUMNS}, m.score, CASE WHEN m.embedding = 'present' THEN m.vector END AS vector
  FROM hits m ORDER BY m.score DESC, m.created_at DESC, m.id LIMIT $5`;

/**
 * The PostgreSQL adapter of the {@link MemoryIndex} port: table `memories` (see `POSTGRES_MIGRATIONS`),
 * shared by every instance on the database, with no state of its own in the process (so that each
 * instance sees the others' writes at once). Lexical search is BM25 ({@link LEXICAL}) over the words
 * `memoryWords` gives (the query's taken only as words, never as syntax); semantic search reads the
 * scope and layer's vectors of the query's length and ranks them by cosine similarity here. Costs: a
 * lexical search counts the table's rows once and reads the rows holding any query word (GIN index
 * `memories_by_word`); a semantic search is linear in the scope and layer's present vectors, read
 * from the server on every search (about 1 KiB per 256-value vector).
 * The gateway uses it with `PostgresMemoryFiles` (the documents it mirrors, in the same
 * database) when its task store is PostgreSQL.
 * Runs on a migrated {@link PostgresDatabase} it does not own. Failures: `VALIDATION_FAILED` for a
 * record or filter whose scope, layer, embedding state or instant is malformed (nothing written),
 * `STORAGE_ERROR` (retryable) when the database fails, `SHUTTING_DOWN` after {@link close}.
 */
export class PostgresMemoryIndex extends MemoryIndex {
  private readonly operations = new StoreOperations('the memory index');

  constructor(private readonly database: PostgresDatabase) {
    super();
  }

  /**
   * Inserts or replaces the records by id in one transaction. A stored vector is kept while the
   * record stays `present` (the same id is the same text) and dropped when it is given as `missing` or `none`.
   * @throws MobileClawError `VALIDATION_FAILED` when a record's scope, layer, embedding state or `createdAt` is malformed (none is written).
   */
  override upsert(records: readonly MemoryRecord[]): Promise<void> {
    return this.operations.run(async () => {
      const rows = records.map(checkedRecord);
      if (rows.length === 0) return;
      const updates = UPSERT_COLUMNS.slice(1).map((column) => `${column} = excluded.${column}`);
      await this.database.transaction(async (tx) => {
        for (const row of rows) {
          await tx.query(
            `INSERT INTO memories (${UPSERT_COLUMNS.join(', ')}) VALUES (${UPSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
             ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')},
               vector = CASE WHEN excluded.embedding = 'present' THEN memories.vector END,
               dims = CASE WHEN excluded.embedding = 'present' THEN memories.dims END`,
            row,
          );
        }
      });
    });
  }

  override get(id: string): Promise<MemoryRecord | undefined> {
    return this.operations.run(async () => {
      const [row] = await this.database.query<MemoryRow>(`SELECT ${MEMORY_RECORD_COLUMNS} FROM memories m WHERE m.id = $1`, [id]);
      return row && memoryFromRow(row);
    });
  }

  /** Oldest first. */
  override byHash(scope: MemoryScope, contentHash: string): Promise<MemoryRecord[]> {
    return this.operations.run(async () =>
      (await this.database.query<MemoryRow>(`SELECT ${MEMORY_RECORD_COLUMNS} FROM memories m WHERE m.scope = $1 AND m.content_hash = $2 ORDER BY m.created_at, m.id`, [scope, contentHash])).map(memoryFromRow),
    );
  }

  /** By line. */
  override byFile(file: string): Promise<MemoryRecord[]> {
    return this.operations.run(async () => (await this.database.query<MemoryRow>(`SELECT ${MEMORY_RECORD_COLUMNS} FROM memories m WHERE m.file = $1 ORDER BY m.line, m.id`, [file])).map(memoryFromRow));
  }

  /** Newest first (then by id, descending), `limit` and `offset` taken as non-negative integers; records and total read in one statement. */
  override list(scope: MemoryScope, layer: StoredMemoryLayer, page: { limit: number; offset: number }): Promise<{ records: MemoryRecord[]; total: number }> {
    return this.operations.run(async () => {
      const rows = await this.database.query<MemoryRow & { total: number }>(
        `SELECT ${MEMORY_RECORD_COLUMNS}, t.total FROM (SELECT count(*) AS total FROM memories WHERE scope = $1 AND layer = $2) t
         LEFT JOIN LATERAL (SELECT * FROM memories WHERE scope = $1 AND layer = $2 ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4) m ON true`,
        [scope, layer, pageCount(page.limit), pageCount(page.offset)],
      );
      return { records: rows.filter((row) => row.id !== null).map(memoryFromRow), total: rows[0]?.total ?? 0 };
    });
  }

  override delete(ids: readonly string[]): Promise<number> {
    return this.operations.run(async () => (await this.database.query('DELETE FROM memories WHERE id = ANY($1::text[]) RETURNING 1', [[...new Set(ids)]])).length);
  }

  /**
   * BM25 of the records matching any of the query's words ({@link LEXICAL}); `vector` is set for
   * records whose embedding is present.
   * @throws MobileClawError `VALIDATION_FAILED` when the filter's scope, layer or `since` is malformed.
   */
  override lexical(query: string, filter: MemoryIndexQuery): Promise<MemoryIndexHit[]> {
    return this.operations.run(async () => {
      const { sinceMs, limit } = checkMemoryFilter(filter);
      const words = [...new Set(memoryWords(query))];
      if (words.length === 0 || limit === 0) return [];
      const rows = await this.database.query<MemoryRow & { score: number; vector: Buffer | null }>(LEXICAL, [words, filter.scope, filter.layer, sinceMs, limit]);
      return rows.map((row) => {
        const hit: MemoryIndexHit = { record: memoryFromRow(row), score: Math.max(0, row.score) };
        if (row.vector !== null) hit.vector = decodeVector(row.vector);
        return hit;
      });
    });
  }

  /**
   * Cosine similarity over the scope and layer's present vectors of the query's length, from `since`;
   * best first, ties newest first. A zero vector (query or record) matches nothing.
   * @throws MobileClawError `VALIDATION_FAILED` when the filter's scope, layer or `since` is malformed.
   */
  override semantic(vector: Float32Array, filter: MemoryIndexQuery & { minScore: number }): Promise<MemoryIndexHit[]> {
    return this.operations.run(async () => {
      const { sinceMs, limit } = checkMemoryFilter(filter);
      const queryNorm = norm(vector);
      if (limit === 0 || queryNorm === 0) return [];
      const rows = await this.database.query<MemoryRow & { created_at: number; vector: Buffer }>(
        `SELECT ${MEMORY_RECORD_COLUMNS}, m.created_at, m.vector FROM memories m
         WHERE m.scope = $1 AND m.layer = $2 AND m.embedding = 'present' AND m.dims = $3 AND m.vector IS NOT NULL AND m.created_at >= $4`,
        [filter.scope, filter.layer, vector.length, sinceMs],
      );
      const scored: (MemoryIndexHit & { createdAtMs: number })[] = [];
      for (const row of rows) {
        const stored = decodeVector(row.vector);
        const storedNorm = norm(stored);
        if (storedNorm === 0) continue;
        const score = dot(vector, stored) / (queryNorm * storedNorm);
        if (score >= filter.minScore) scored.push({ record: memoryFromRow(row), score, vector: stored, createdAtMs: row.created_at });
      }
      scored.sort((a, b) => b.score - a.score || b.createdAtMs - a.createdAtMs || (a.record.id < b.record.id ? -1 : 1));
      return scored.slice(0, limit).map(({ createdAtMs: _createdAtMs, ...hit }) => hit);
    });
  }

  override vectors(ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.operations.run(async () => {
      if (ids.length === 0) return new Map();
      const rows = await this.database.query<{ id: string; vector: Buffer }>(
        "SELECT id, vector FROM memories WHERE id = ANY($1::text[]) AND embedding = 'present' AND vector IS NOT NULL",
        [[...new Set(ids)]],
      );
      return new Map(rows.map((row) => [row.id, decodeVector(row.vector)]));
    });
  }

  override setEmbedding(id: string, vector: Float32Array): Promise<void> {
    return this.operations.run(async () => {
      await this.database.query("UPDATE memories SET embedding = 'present', vector = $2, dims = $3 WHERE id = $1", [id, encodeVector(vector), vector.length]);
    });
  }

  /** Oldest first (then by id). */
  override missingEmbeddings(limit: number): Promise<MemoryRecord[]> {
    return this.operations.run(async () =>
      (await this.database.query<MemoryRow>(`SELECT ${MEMORY_RECORD_COLUMNS} FROM memories m WHERE m.embedding = 'missing' ORDER BY m.created_at, m.id LIMIT $1`, [pageCount(limit)])).map(memoryFromRow),
    );
  }

  override stats(): Promise<{ records: number; missingEmbeddings: number }> {
    return this.operations.run(async () => {
      const [row] = await this.database.query<{ records: number; missing: number }>("SELECT count(*) AS records, count(*) FILTER (WHERE embedding = 'missing') AS missing FROM memories");
      return { records: row?.records ?? 0, missingEmbeddings: row?.missing ?? 0 };
    });
  }

  /** Waits for the operations in progress, then refuses every call with `SHUTTING_DOWN`. Leaves the database open. Idempotent. */
  close(): Promise<void> {
    return this.operations.close();
  }
}

/** The row values of {@link UPSERT_COLUMNS}. @throws MobileClawError `VALIDATION_FAILED` for a malformed scope, layer, embedding state or `createdAt`. */
function checkedRecord(record: MemoryRecord): unknown[] {
  const createdAtMs = checkMemoryRecord(record);
  const words = memoryWords(record.text);
  return [record.id, record.scope, record.layer, record.text, record.category, record.priority, createdAtMs, record.createdAt, record.source.file, record.source.line, record.contentHash, record.embedding, words, words.length];
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

function norm(vector: Float32Array): number {
  return Math.sqrt(dot(vector, vector));
}
