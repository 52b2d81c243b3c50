import { memoryWords, type MemoryIndexHit, type MemoryRecord, type MemoryScoreParts } from '@mobileclaw/domain';

/**
 * How a stored memory's score is made for one query (all pure):
 * 1. lexical: BM25 divided by the best BM25 among the query's lexical candidates of the layer, times
 *    the share of the query's distinct words the memory contains (0–1) — dividing by the best alone
 *    would give a memory that shares one common word ("my", "是") with a long query the full 1 when
 *    nothing better matched, outranking a memory semantic search found by meaning;
 * 2. relevance (hybrid): `0.3 × lexical + 0.7 × semantic` (the weights that ranked best on the benchmark set: lexical matches words, semantic meaning and other languages), a part the hit lacks counting 0 — so a
 *    memory both searches found outranks one only one of them found with the same score; a memory
 *    without a vector (embedding `missing` or `none`), and every memory when semantic search is `off`
 *    or `degraded`, is ranked by lexical alone (relevance = lexical), as it cannot be compared;
 * 3. decay: `0.5 ** (ageDays / halfLifeDays)` for the daily layer, 1 for the curated one;
 * 4. score = relevance × decay; MMR then re-ranks by it ({@link mmrRerank}).
 */
export const HYBRID_LEXICAL_WEIGHT = 0.3;

const DAY_MS = 86_400_000;

/** A stored memory with its score for one query, before MMR. */
export interface ScoredMemory {
  record: MemoryRecord;
  /** The memory's embedding, when the index gave it. */
  vector?: Float32Array;
  parts: MemoryScoreParts;
  /** relevance × decay. */
  score: number;
  /** Age at the search, in days (fractional, ≥ 0). */
  ageDays: number;
}

/**
 * Each lexical candidate's BM25 divided by the best one's, times the share of `queryWords` (distinct,
 * as {@link memoryWords} gives them) its text contains (0–1); all 0 when the best is not positive.
 * Without `queryWords` the share is 1.
 */
export function normaliseLexicalScores(hits: readonly MemoryIndexHit[], queryWords?: readonly string[]): Map<string, number> {
  const best = hits.reduce((max, hit) => Math.max(max, hit.score), 0);
  const wanted = new Set(queryWords ?? []);
  const coverage = (text: string): number => {
    if (wanted.size === 0) return 1;
    const words = new Set(memoryWords(text));
    let found = 0;
    for (const word of wanted) if (words.has(word)) found++;
    return found / wanted.size;
  };
  return new Map(hits.map((hit) => [hit.record.id, best > 0 ? (Math.max(0, hit.score) / best) * coverage(hit.record.text) : 0]));
}

/**
 * The hybrid relevance of a memory. `compared` is false when the memory could not take part in
 * semantic search (no vector, or semantic search off or degraded): then relevance = lexical.
 */
export function hybridRelevance(lexical: number | null, semantic: number | null, compared: boolean): number {
  if (!compared) return lexical ?? 0;
  return HYBRID_LEXICAL_WEIGHT * (lexical ?? 0) + (1 - HYBRID_LEXICAL_WEIGHT) * (semantic ?? 0);
}

/** Exponential decay of a memory `ageDays` old (negative ages count 0): 1 now, 0.5 at one half-life, 0.25 at two. */
export function temporalDecay(ageDays: number, halfLifeDays: number): number {
  return 0.5 ** (Math.max(0, ageDays) / halfLifeDays);
}

/** Days from `createdAt` (ISO-8601) to `now`, fractional; 0 for a time in the future. */
export function ageInDays(createdAt: string, now: Date): number {
  return Math.max(0, (now.getTime() - Date.parse(createdAt)) / DAY_MS);
}

/** How {@link scoreCandidates} scores. */
export interface ScoringOptions {
  /** Whether semantic search took part in this query (`on`). */
  semantic: boolean;
  /** Half-life in days, or null for no decay (the curated layer). */
  halfLifeDays: number | null;
  now: Date;
  /** The query's words ({@link memoryWords}); absent: lexical scores are not weighed by coverage. */
  queryWords?: readonly string[];
}

/**
 * Merges a layer's lexical and semantic candidates (one entry per record, a record found by both
 * gets both parts) and scores them; best first (ties: newer first, then by id).
 */
export function scoreCandidates(lexical: readonly MemoryIndexHit[], semantic: readonly MemoryIndexHit[], options: ScoringOptions): ScoredMemory[] {
  const lexicalScores = normaliseLexicalScores(lexical, options.queryWords);
  const merged = new Map<string, { record: MemoryRecord; vector?: Float32Array; lexical: number | null; semantic: number | null }>();
  for (const hit of lexical) merged.set(hit.record.id, { record: hit.record, vector: hit.vector, lexical: lexicalScores.get(hit.record.id) ?? 0, semantic: null });
  for (const hit of semantic) {
    const known = merged.get(hit.record.id);
    if (known) {
      known.semantic = hit.score;
      known.vector ??= hit.vector;
    } else {
      merged.set(hit.record.id, { record: hit.record, vector: hit.vector, lexical: null, semantic: hit.score });
    }
  }
  const scored = [...merged.values()].map(({ record, vector, lexical: lex, semantic: sem }): ScoredMemory => {
    const compared = options.semantic && (record.embedding === 'present' || sem !== null);
    const relevance = hybridRelevance(lex, sem, compared);
    const ageDays = ageInDays(record.createdAt, options.now);
    const decay = options.halfLifeDays === null ? 1 : temporalDecay(ageDays, options.halfLifeDays);
    return { record, ...(vector ? { vector } : {}), parts: { lexical: lex, semantic: sem, relevance, decay }, score: relevance * decay, ageDays };
  });
  return scored.sort(byScore);
}

/** Best score first; ties: newer first, then by id (so the order is total and repeatable). */
export function byScore(a: { score: number; record: MemoryRecord }, b: { score: number; record: MemoryRecord }): number {
  return b.score - a.score || Date.parse(b.record.createdAt) - Date.parse(a.record.createdAt) || (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0);
}
