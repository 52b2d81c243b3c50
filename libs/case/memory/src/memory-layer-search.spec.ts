import type { MemoryHit } from '@mobileclaw/domain';
import { interleaveByScore, sessionHits } from './memory-layer-search';

const hit = (layer: 'daily' | 'curated', id: string, score: number) => ({ layer, id, score }) as MemoryHit;

describe('interleaveByScore', () => {
  it("takes the higher head of the two lists, each kept in its own order, up to k (daily first on ties)", () => {
    const daily = [hit('daily', 'd1', 0.9), hit('daily', 'd2', 0.4), hit('daily', 'd3', 0.5)];
    const curated = [hit('curated', 'c1', 0.9), hit('curated', 'c2', 0.45)];
    expect(interleaveByScore(daily, curated, 10).map((each) => each.id)).toEqual(['d1', 'c1', 'c2', 'd2', 'd3']);
    expect(interleaveByScore(daily, curated, 2).map((each) => each.id)).toEqual(['d1', 'c1']);
    expect(interleaveByScore([], [], 3)).toEqual([]);
  });
});

describe('sessionHits', () => {
  it('gives the newest turns, oldest first, scored 1.0', () => {
    const turns = ['a', 'b', 'c'].map((text) => ({ role: 'user' as const, text, at: '2026-12-01T00:00:00.000Z' }));
    expect(sessionHits(turns, 2, new Date('2026-12-02T12:00:00.000Z'))).toEqual(
      ['b', 'c'].map((text) => ({ layer: 'session', text, createdAt: '2026-12-01T00:00:00.000Z', ageDays: 1.5, score: 1, parts: { lexical: null, semantic: null, relevance: 1, decay: 1 } })),
    );
  });
});
