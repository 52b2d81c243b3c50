import type { MemoryRecord } from '@mobileclaw/domain';
import { cosineSimilarity, jaccardSimilarity, mmrRerank } from './memory-mmr';

function item(id: string, text: string, score: number, vector?: number[]) {
  const record = { id, text } as MemoryRecord;
  return { record, score, ...(vector ? { vector: Float32Array.from(vector) } : {}) };
}

const ids = (items: { record: MemoryRecord }[]) => items.map((each) => each.record.id);

describe('cosineSimilarity', () => {
  it('is the cosine of the angle, 0 for different lengths or a zero vector', () => {
    expect(cosineSimilarity(Float32Array.from([1, 0]), Float32Array.from([2, 0]))).toBe(1);
    expect(cosineSimilarity(Float32Array.from([1, 0]), Float32Array.from([0, 3]))).toBe(0);
    expect(cosineSimilarity(Float32Array.from([1, 1]), Float32Array.from([-1, -1]))).toBeCloseTo(-1, 6);
    expect(cosineSimilarity(Float32Array.from([1, 0]), Float32Array.from([1, 0, 0]))).toBe(0);
    expect(cosineSimilarity(Float32Array.from([0, 0]), Float32Array.from([1, 0]))).toBe(0);
  });
});

describe('jaccardSimilarity', () => {
  it('is shared words over all words', () => {
    expect(jaccardSimilarity(new Set(['a', 'b', 'c']), new Set(['b', 'c', 'd']))).toBe(0.5);
    expect(jaccardSimilarity(new Set(), new Set())).toBe(0);
  });
});

describe('mmrRerank', () => {
  // Three near-duplicates (high scores) and one different memory (lower score).
  const dupA = item('dupA', 'the office wifi password is tiger', 0.9);
  const dupB = item('dupB', 'the office wifi password is tiger now', 0.88);
  const dupC = item('dupC', 'office wifi password is tiger', 0.86);
  const other = item('other', 'mom is alice', 0.6);

  it('puts the different memory second (λ 0.7, words compared by Jaccard)', () => {
    // After dupA: dupB = 0.7·0.88 − 0.3·(6/7) = 0.359, other = 0.7·0.6 − 0 = 0.42.
    expect(ids(mmrRerank([dupA, dupB, dupC, other], 4, 0.7))).toEqual(['dupA', 'other', 'dupB', 'dupC']);
    expect(ids(mmrRerank([dupA, dupB, dupC, other], 3, 0.7))).toEqual(['dupA', 'other', 'dupB']);
  });

  it('ranks by score alone at λ 1', () => {
    expect(ids(mmrRerank([dupA, dupB, dupC, other], 4, 1))).toEqual(['dupA', 'dupB', 'dupC', 'other']);
  });

  it('compares vectors by cosine when both memories have one', () => {
    // Different words but the same direction: duplicates by vector.
    const a = item('a', 'alpha', 0.9, [1, 0]);
    const b = item('b', 'beta', 0.85, [1, 0.01]);
    const c = item('c', 'gamma', 0.7, [0, 1]);
    expect(ids(mmrRerank([a, b, c], 3, 0.7))).toEqual(['a', 'c', 'b']);
    // Without vectors the words share nothing: score order.
    expect(ids(mmrRerank([item('a', 'alpha', 0.9), item('b', 'beta', 0.85), item('c', 'gamma', 0.7)], 3, 0.7))).toEqual(['a', 'b', 'c']);
  });

  it('returns at most limit, none for none', () => {
    expect(mmrRerank([dupA, other], 5, 0.7)).toHaveLength(2);
    expect(mmrRerank([], 3, 0.7)).toEqual([]);
    expect(mmrRerank([dupA], 0, 0.7)).toEqual([]);
  });
});
