import { memoryWords } from '@mobileclaw/domain';
import type { ScoredMemory } from './memory-ranking';

/** Cosine similarity of two vectors in [-1, 1]; 0 when their lengths differ or either is all zeros. */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    normA += a[i] * a[i];
    normB += b[i] * b[i];
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** Jaccard similarity of two word sets: |A ∩ B| / |A ∪ B|, 0 when both are empty. */
export function jaccardSimilarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * Maximal marginal relevance: picks `limit` memories one by one, each time the one maximising
 * `λ × score − (1 − λ) × (its highest similarity to those already picked)`, so near-duplicates of a
 * picked memory fall behind different ones. Similarity is the cosine of the two vectors when both
 * memories have one (of the same length), else the Jaccard similarity of their words
 * ({@link memoryWords}). `items` best first; ties go to the earlier item.
 * @param lambda 0–1: 1 ranks by score alone, 0 by diversity alone.
 */
export function mmrRerank<T extends Pick<ScoredMemory, 'record' | 'score' | 'vector'>>(items: readonly T[], limit: number, lambda: number): T[] {
  const words = new Map<T, Set<string>>();
  const wordsOf = (item: T): Set<string> => {
    let set = words.get(item);
    if (!set) {
      set = new Set(memoryWords(item.record.text));
      words.set(item, set);
    }
    return set;
  };
  const similarity = (a: T, b: T): number =>
    a.vector && b.vector && a.vector.length === b.vector.length ? cosineSimilarity(a.vector, b.vector) : jaccardSimilarity(wordsOf(a), wordsOf(b));

  const remaining = [...items];
  const picked: T[] = [];
  // Each remaining item's highest similarity to the picked ones, updated as items are picked.
  const closest = new Map<T, number>();
  while (picked.length < limit && remaining.length > 0) {
    let bestIndex = 0;
    let bestValue = -Infinity;
    remaining.forEach((item, i) => {
      const value = lambda * item.score - (1 - lambda) * (closest.get(item) ?? 0);
      if (value > bestValue) {
        bestValue = value;
        bestIndex = i;
      }
    });
    const [chosen] = remaining.splice(bestIndex, 1);
    picked.push(chosen);
    for (const item of remaining) closest.set(item, Math.max(closest.get(item) ?? -Infinity, similarity(item, chosen)));
  }
  return picked;
}
