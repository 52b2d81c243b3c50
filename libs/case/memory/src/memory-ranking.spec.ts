import type { MemoryIndexHit, MemoryRecord } from '@mobileclaw/domain';
import { ageInDays, hybridRelevance, normaliseLexicalScores, scoreCandidates, temporalDecay } from './memory-ranking';

const NOW = new Date('2026-12-02T00:00:00.000Z');

function record(id: string, text: string, daysOld: number, embedding: MemoryRecord['embedding'] = 'present'): MemoryRecord {
  return {
    id,
    scope: 'device:sim-1',
    layer: 'daily',
    text,
    category: 'fact',
    priority: 5,
    createdAt: new Date(NOW.getTime() - daysOld * 86_400_000).toISOString(),
    source: { file: 'device/sim-1/x.md', line: 3 },
    contentHash: id,
    embedding,
  };
}

function hit(rec: MemoryRecord, score: number): MemoryIndexHit {
  return { record: rec, score };
}

describe('normaliseLexicalScores', () => {
  it('weighs each by the share of the query’s distinct words its text has, so one common word shared with a long query stays weak', () => {
    const scores = normaliseLexicalScores(
      [hit(record('chatter', 'Saved 98 news articles for later', 0), 3), hit(record('fact', 'The wireless key for my house is tiger', 0), 2)],
      ['wireless', 'key', 'for', 'my', 'house', 'for'],
    );
    // chatter: the best BM25 (3 / 3) but 1 of 5 distinct words; fact: 2 / 3 with all 5.
    expect(scores).toEqual(new Map([['chatter', 0.2], ['fact', 2 / 3]]));
    expect(normaliseLexicalScores([hit(record('a', '妈妈是Alice', 0), 4)], ['妈妈', '电话'])).toEqual(new Map([['a', 0.5]]));
  });

  it('divides each BM25 score by the best of the query', () => {
    const scores = normaliseLexicalScores([hit(record('a', 'a', 0), 8), hit(record('b', 'b', 0), 2), hit(record('c', 'c', 0), 6)]);
    expect([...scores]).toEqual([
      ['a', 1],
      ['b', 0.25],
      ['c', 0.75],
    ]);
  });

  it('gives 0 to all when no score is positive, and nothing for no candidates', () => {
    expect([...normaliseLexicalScores([hit(record('a', 'a', 0), 0)])]).toEqual([['a', 0]]);
    expect(normaliseLexicalScores([]).size).toBe(0);
  });
});

describe('hybridRelevance', () => {
  it('weighs lexical 0.3 and semantic 0.7, a missing part counting 0', () => {
    expect(hybridRelevance(0.8, 0.6, true)).toBeCloseTo(0.66, 12);
    expect(hybridRelevance(1, null, true)).toBeCloseTo(0.3, 12);
    expect(hybridRelevance(null, 0.9, true)).toBeCloseTo(0.63, 12);
  });

  it('is the lexical part alone when the memory could not be compared semantically', () => {
    expect(hybridRelevance(0.8, null, false)).toBe(0.8);
    expect(hybridRelevance(null, null, false)).toBe(0);
  });
});

describe('temporalDecay', () => {
  it('halves every half-life', () => {
    expect(temporalDecay(0, 30)).toBe(1);
    expect(temporalDecay(30, 30)).toBe(0.5);
    expect(temporalDecay(60, 30)).toBe(0.25);
    expect(temporalDecay(15, 30)).toBeCloseTo(Math.SQRT1_2, 12);
    expect(temporalDecay(-3, 30)).toBe(1);
  });

  it('takes ages in fractional days, never negative', () => {
    expect(ageInDays('2026-12-01T12:00:00.000Z', NOW)).toBe(0.5);
    expect(ageInDays('2026-12-03T00:00:00.000Z', NOW)).toBe(0);
  });
});

describe('scoreCandidates', () => {
  // An old memory matching the query exactly, a new one matching part of it.
  const oldExact = record('old', 'office wifi password is tiger', 60);
  const newPartial = record('new', 'office wifi changed', 1);

  it('with decay, puts the new partial match above the old exact one', () => {
    const scored = scoreCandidates([hit(oldExact, 10), hit(newPartial, 6)], [], { semantic: false, halfLifeDays: 30, now: NOW });
    expect(scored.map((memory) => memory.record.id)).toEqual(['new', 'old']);
    expect(scored[0].parts).toEqual({ lexical: 0.6, semantic: null, relevance: 0.6, decay: 0.5 ** (1 / 30) });
    expect(scored[0].score).toBeCloseTo(0.6 * 0.5 ** (1 / 30), 12);
    expect(scored[1].parts).toEqual({ lexical: 1, semantic: null, relevance: 1, decay: 0.25 });
    expect(scored[1].score).toBe(0.25);
    expect(scored[1].ageDays).toBe(60);
  });

  it('without decay (curated), keeps the exact match first', () => {
    const scored = scoreCandidates([hit(oldExact, 10), hit(newPartial, 6)], [], { semantic: false, halfLifeDays: null, now: NOW });
    expect(scored.map((memory) => [memory.record.id, memory.score, memory.parts.decay])).toEqual([
      ['old', 1, 1],
      ['new', 0.6, 1],
    ]);
  });

  it('gives a memory found by both searches both parts, one entry', () => {
    const both = record('both', 'b', 0);
    const lexicalOnly = record('lex', 'l', 0);
    const semanticOnly = record('sem', 's', 0);
    const unembedded = record('raw', 'r', 0, 'missing');
    const scored = scoreCandidates([hit(both, 4), hit(lexicalOnly, 8), hit(unembedded, 6)], [hit(both, 0.9), hit(semanticOnly, 0.8)], { semantic: true, halfLifeDays: null, now: NOW });
    expect(scored.map((memory) => [memory.record.id, memory.parts.lexical, memory.parts.semantic, memory.parts.relevance.toFixed(12)])).toEqual([
      ['both', 0.5, 0.9, (0.3 * 0.5 + 0.7 * 0.9).toFixed(12)],
      // a memory without a vector is ranked by lexical alone: 6 / 8
      ['raw', 0.75, null, (0.75).toFixed(12)],
      ['sem', null, 0.8, (0.7 * 0.8).toFixed(12)],
      ['lex', 1, null, (0.3).toFixed(12)],
    ]);
  });

  it('breaks ties by age (newer first), then by id', () => {
    const scored = scoreCandidates([hit(record('b', 'x', 2), 5), hit(record('a', 'x', 2), 5), hit(record('c', 'x', 1), 5)], [], { semantic: false, halfLifeDays: null, now: NOW });
    expect(scored.map((memory) => memory.record.id)).toEqual(['c', 'a', 'b']);
  });
});
