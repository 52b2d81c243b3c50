import { QUERY_KINDS, type BenchQuery, type QueryKind } from './memory-set';

/** How one arm did on a group of questions. */
export interface RetrievalScore {
  queries: number;
  /** Share of questions with a right memory among the first `k` results (0–1). */
  recallAtK: number;
  /** Mean of 1 / rank of the first right memory in the whole result list (0 when none is right). */
  mrr: number;
  /** `latest` questions: share where a superseded (older) value ranks above every right one, or appears while no right one does. */
  staleFirst: number;
}

/** An arm's scores over all questions and per kind (a kind without questions is left out). */
export interface ArmScore {
  k: number;
  all: RetrievalScore;
  byKind: Partial<Record<QueryKind, RetrievalScore>>;
}

/** 1-based rank of the first id of `wanted` in `ranked`, or 0 when none is there. */
export function firstRank(ranked: readonly string[], wanted: readonly string[]): number {
  const index = ranked.findIndex((id) => wanted.includes(id));
  return index + 1;
}

/**
 * Scores ranked results against the questions' answers.
 * @param results question id → ranked memory ids, best first (a question without an entry counts as answered with nothing).
 * @param k the cut-off of recall (e.g. 3).
 */
export function scoreArm(queries: readonly BenchQuery[], results: ReadonlyMap<string, readonly string[]>, k: number): ArmScore {
  const byKind: Partial<Record<QueryKind, RetrievalScore>> = {};
  for (const kind of QUERY_KINDS) {
    const group = queries.filter((q) => q.kind === kind);
    if (group.length > 0) byKind[kind] = scoreGroup(group, results, k);
  }
  return { k, all: scoreGroup(queries, results, k), byKind };
}

function scoreGroup(queries: readonly BenchQuery[], results: ReadonlyMap<string, readonly string[]>, k: number): RetrievalScore {
  let hits = 0;
  let reciprocal = 0;
  let stale = 0;
  for (const query of queries) {
    const ranked = results.get(query.id) ?? [];
    const rank = firstRank(ranked, query.expected);
    if (rank > 0 && rank <= k) hits++;
    if (rank > 0) reciprocal += 1 / rank;
    const staleRank = firstRank(ranked, query.superseded);
    if (staleRank > 0 && (rank === 0 || staleRank < rank)) stale++;
  }
  const n = queries.length;
  return { queries: n, recallAtK: n === 0 ? 0 : hits / n, mrr: n === 0 ? 0 : reciprocal / n, staleFirst: n === 0 ? 0 : stale / n };
}

/** p50 and p99 of latencies in ms (the sorted sample at ⌊n/2⌋ and ⌊0.99 n⌋, as test/bench/bench-run.mjs takes them), rounded to µs. */
export function latencyPercentiles(samples: readonly number[]): { p50Ms: number; p99Ms: number } {
  if (samples.length === 0) throw new Error('no latency samples');
  const sorted = Float64Array.from(samples).sort();
  const round = (ms: number) => Math.round(ms * 1000) / 1000;
  return { p50Ms: round(sorted[Math.floor(sorted.length / 2)]), p99Ms: round(sorted[Math.floor(sorted.length * 0.99)]) };
}
