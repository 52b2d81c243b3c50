import { MemoryService, RuleBasedMemorySummarizer, type MemoryOptions } from '@mobileclaw/case-memory';
import { InMemoryMemoryFiles, SettableClock } from '@mobileclaw/case-memory/testing';
import type { EmbeddingProvider, MemoryIndex } from '@mobileclaw/domain';
import type { RetrievalArm } from './retrieval-arms';

/**
 * Settings that turn temporal decay and MMR off: MMR by relevance alone (λ = 1), and a half-life so
 * long that the decay factor is exactly 1 (`0.5 ** (days / Number.MAX_VALUE)` is 1 in doubles; the
 * options take finite half-lives only).
 */
export const NO_DECAY_NO_MMR: Partial<MemoryOptions> = { halfLifeDays: Number.MAX_VALUE, mmrLambda: 1 };

/**
 * `MemoryService.search` over `index` (daily and curated layers; no session turns), its clock standing
 * at `now`, with `embeddings` (hybrid) or without (lexical) and `options` over the defaults. Only the
 * search is used: the files are an in-memory fake, the summariser the rule-based one.
 * @throws Error when a search that should be semantic is not (`off` or `degraded`), so no figure is silently lexical.
 */
export function memoryServiceArm(index: MemoryIndex, now: string, embeddings: EmbeddingProvider | undefined, options: Partial<MemoryOptions> = {}): RetrievalArm {
  const clock = new SettableClock(now);
  const service = new MemoryService(index, new InMemoryMemoryFiles(clock), new RuleBasedMemorySummarizer(), clock, embeddings, options);
  const want = embeddings ? 'on' : 'off';
  return async (scope, query) => {
    const result = await service.search(scope, query, { layers: ['daily', 'curated'] });
    if (result.semantic !== want) throw new Error(`memory search of ${JSON.stringify(query)} was semantic ${result.semantic}, not ${want}: ${result.notice ?? ''}`);
    return result.hits.map((hit) => hit.id as string);
  };
}
