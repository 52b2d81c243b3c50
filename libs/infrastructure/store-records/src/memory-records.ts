import {
  MobileClawError,
  parseMemoryScope,
  type MemoryEmbeddingState,
  type MemoryIndexQuery,
  type MemoryRecord,
  type MemoryScope,
  type StoredMemoryLayer,
} from '@mobileclaw/domain';

/** The record columns of a `memories` row (the same in the SQLite and PostgreSQL schemas). */
export interface MemoryRow {
  id: string;
  scope: string;
  layer: string;
  text: string;
  category: string;
  priority: number;
  created_iso: string;
  file: string;
  line: number;
  content_hash: string;
  embedding: string;
}

/** The columns of {@link MemoryRow}, on the table alias `m`. */
export const MEMORY_RECORD_COLUMNS = 'm.id, m.scope, m.layer, m.text, m.category, m.priority, m.created_iso, m.file, m.line, m.content_hash, m.embedding';

const LAYERS: readonly string[] = ['daily', 'curated'];
const EMBEDDING_STATES: readonly string[] = ['present', 'missing', 'none'];

/**
 * Checks a record before it is stored.
 * @returns its `createdAt` in ms since the epoch.
 * @throws MobileClawError `VALIDATION_FAILED` when its scope, layer (`daily`, `curated`), embedding
 *   state (`present`, `missing`, `none`) or `createdAt` is malformed.
 */
export function checkMemoryRecord(record: MemoryRecord): number {
  parseMemoryScope(record.scope);
  if (!LAYERS.includes(record.layer)) throw new MobileClawError('VALIDATION_FAILED', `memory ${record.id}: layer must be daily or curated, got ${JSON.stringify(record.layer)}`);
  if (!EMBEDDING_STATES.includes(record.embedding)) {
    throw new MobileClawError('VALIDATION_FAILED', `memory ${record.id}: embedding must be present, missing or none, got ${JSON.stringify(record.embedding)}`);
  }
  return instantMs(record.createdAt, `memory ${record.id}: createdAt`);
}

/**
 * Checks a search filter.
 * @returns `since` in ms since the epoch (`Number.MIN_SAFE_INTEGER` when absent) and `limit` per {@link pageCount}.
 * @throws MobileClawError `VALIDATION_FAILED` when its scope, layer or `since` is malformed.
 */
export function checkMemoryFilter(filter: MemoryIndexQuery): { sinceMs: number; limit: number } {
  parseMemoryScope(filter.scope);
  if (!LAYERS.includes(filter.layer)) throw new MobileClawError('VALIDATION_FAILED', `layer must be daily or curated, got ${JSON.stringify(filter.layer)}`);
  return { sinceMs: filter.since === undefined ? Number.MIN_SAFE_INTEGER : instantMs(filter.since, 'since'), limit: pageCount(filter.limit) };
}

/** A limit or offset as a non-negative integer (fractions rounded down; NaN and negatives: 0). */
export function pageCount(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

export function memoryFromRow(row: MemoryRow): MemoryRecord {
  return {
    id: row.id,
    scope: row.scope as MemoryScope,
    layer: row.layer as StoredMemoryLayer,
    text: row.text,
    category: row.category,
    priority: row.priority,
    createdAt: row.created_iso,
    source: { file: row.file, line: row.line },
    contentHash: row.content_hash,
    embedding: row.embedding as MemoryEmbeddingState,
  };
}

function instantMs(iso: string, what: string): number {
  const ms = typeof iso === 'string' ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(ms)) throw new MobileClawError('VALIDATION_FAILED', `${what} must be an ISO-8601 instant, got ${JSON.stringify(iso)}`);
  return ms;
}
