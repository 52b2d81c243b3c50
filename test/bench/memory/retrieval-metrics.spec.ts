import type { BenchQuery, QueryKind } from './memory-set';
import { firstRank, latencyPercentiles, scoreArm } from './retrieval-metrics';

const question = (id: string, kind: QueryKind, expected: string[], superseded: string[] = []): BenchQuery => ({ id, scope: 'device:d1', text: id, language: 'en', kind, fact: 'f', expected, superseded });

describe('retrieval metrics', () => {
  const queries = [question('q1', 'exact', ['a']), question('q2', 'exact', ['b', 'b2']), question('q3', 'paraphrase', ['c']), question('q4', 'cross-language', ['d']), question('q5', 'latest', ['new'], ['old'])];
  const results = new Map([
    ['q1', ['a', 'x', 'y']],
    ['q2', ['x', 'b2', 'b']],
    ['q3', ['x', 'y', 'z', 'c']],
    ['q4', []],
    ['q5', ['old', 'new']],
  ]);

  it('scores recall@3 and MRR over all questions and per kind, and how often a stale value comes first', () => {
    expect(scoreArm(queries, results, 3)).toEqual({
      k: 3,
      all: { queries: 5, recallAtK: 3 / 5, mrr: (1 + 0.5 + 0.25 + 0 + 0.5) / 5, staleFirst: 1 / 5 },
      byKind: {
        exact: { queries: 2, recallAtK: 1, mrr: 0.75, staleFirst: 0 },
        paraphrase: { queries: 1, recallAtK: 0, mrr: 0.25, staleFirst: 0 },
        'cross-language': { queries: 1, recallAtK: 0, mrr: 0, staleFirst: 0 },
        latest: { queries: 1, recallAtK: 1, mrr: 0.5, staleFirst: 1 },
      },
    });
  });

  it('counts a question without results as unanswered, a stale value alone as stale first, and k as the cut-off', () => {
    const score = scoreArm([queries[0], queries[4]], new Map([['q5', ['old', 'x']]]), 1);
    expect(score.all).toEqual({ queries: 2, recallAtK: 0, mrr: 0, staleFirst: 0.5 });
    expect(scoreArm(queries, results, 4).all.recallAtK).toBe(4 / 5);
  });

  it('ranks from 1 and gives 0 when nothing is right', () => {
    expect(firstRank(['x', 'b2', 'b'], ['b', 'b2'])).toBe(2);
    expect(firstRank(['x'], ['b'])).toBe(0);
  });

  it('takes p50 and p99 as the sorted samples at ⌊n/2⌋ and ⌊0.99 n⌋', () => {
    const samples = Array.from({ length: 200 }, (_, i) => 200 - i + 0.0004);
    expect(latencyPercentiles(samples)).toEqual({ p50Ms: 101, p99Ms: 199 });
    expect(() => latencyPercentiles([])).toThrow('no latency samples');
  });
});
