import { memoryWords, type MemoryHit, type MemoryIndex, type MemoryScope, type SessionTurn, type StoredMemoryLayer } from '@mobileclaw/domain';
import { mmrRerank } from './memory-mmr';
import { ageInDays, scoreCandidates } from './memory-ranking';

/** Candidates each search (lexical, semantic) gives per layer before merging and MMR. */
export const MEMORY_CANDIDATE_POOL = 50;

/** One stored layer's search. */
export interface LayerSearch {
  scope: MemoryScope;
  layer: StoredMemoryLayer;
  query: string;
  /** The query's embedding; absent when semantic search is off or degraded. */
  vector?: Float32Array;
  /** ISO-8601: only memories created at or after it (the daily window). */
  since?: string;
  /** Hits to return. */
  limit: number;
  minSemanticScore: number;
  /** Half-life of the decay in days; null for none (the curated layer). */
  halfLifeDays: number | null;
  mmrLambda: number;
  now: Date;
}

/**
 * Searches one stored layer: BM25 and (with a vector) cosine candidates, merged and scored
 * ({@link scoreCandidates}), then the best `limit` picked by MMR, in MMR order.
 * @throws MobileClawError `STORAGE_ERROR` from the index.
 */
export async function searchStoredLayer(index: MemoryIndex, search: LayerSearch): Promise<MemoryHit[]> {
  const filter = { scope: search.scope, layer: search.layer, limit: Math.max(MEMORY_CANDIDATE_POOL, search.limit), ...(search.since !== undefined ? { since: search.since } : {}) };
  const [lexical, semantic] = await Promise.all([
    index.lexical(search.query, filter),
    search.vector ? index.semantic(search.vector, { ...filter, minScore: search.minSemanticScore }) : Promise.resolve([]),
  ]);
  const scored = scoreCandidates(lexical, semantic, { semantic: search.vector !== undefined, halfLifeDays: search.halfLifeDays, now: search.now, queryWords: memoryWords(search.query) });
  // MMR compares vectors where both memories have one: fetch those the lexical search did not give.
  const lacking = scored.filter((memory) => !memory.vector && memory.record.embedding === 'present').map((memory) => memory.record.id);
  if (lacking.length > 0) {
    const vectors = await index.vectors(lacking);
    for (const memory of scored) memory.vector ??= vectors.get(memory.record.id);
  }
  return mmrRerank(scored, search.limit, search.mmrLambda).map(({ record, parts, score, ageDays }) => ({
    layer: record.layer,
    id: record.id,
    text: record.text,
    category: record.category,
    priority: record.priority,
    source: record.source,
    createdAt: record.createdAt,
    ageDays,
    score,
    parts,
  }));
}

/** The session layer's hits: the newest `count` turns, oldest first, each scored 1.0. */
export function sessionHits(turns: readonly SessionTurn[], count: number, now: Date): MemoryHit[] {
  return turns.slice(Math.max(0, turns.length - count)).map((turn) => ({
    layer: 'session',
    text: turn.text,
    createdAt: turn.at,
    ageDays: ageInDays(turn.at, now),
    score: 1,
    parts: { lexical: null, semantic: null, relevance: 1, decay: 1 },
  }));
}

/**
 * Interleaves two layers' hits by score (each list kept in its own MMR order: the head with the
 * higher score goes first, daily on ties), then keeps the first `k`.
 */
export function interleaveByScore(daily: readonly MemoryHit[], curated: readonly MemoryHit[], k: number): MemoryHit[] {
  const hits: MemoryHit[] = [];
  let d = 0;
  let c = 0;
  while (hits.length < k && (d < daily.length || c < curated.length)) {
    if (c >= curated.length || (d < daily.length && daily[d].score >= curated[c].score)) hits.push(daily[d++]);
    else hits.push(curated[c++]);
  }
  return hits;
}
