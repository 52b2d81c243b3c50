import type { MemorySummarizer } from '@mobileclaw/domain';
import { MemoryService } from '../memory.service';
import type { MemoryOptions } from '../memory-options';
import { RuleBasedMemorySummarizer } from '../rule-based-memory-summarizer';
import { FakeEmbeddingProvider } from './fake-embedding-provider';
import { InMemoryMemoryFiles } from './in-memory-memory-files';
import { InMemoryMemoryIndex } from './in-memory-memory-index';
import { SettableClock } from '@mobileclaw/domain/testing';

/** What {@link memoryHarness} builds. */
export interface MemoryHarness {
  service: MemoryService;
  index: InMemoryMemoryIndex;
  files: InMemoryMemoryFiles;
  /** Absent when built with `embeddings: false`. */
  embeddings?: FakeEmbeddingProvider;
  clock: SettableClock;
}

/**
 * A {@link MemoryService} over the in-memory fakes: a clock at `now` (default 2026-12-02T10:00:00Z),
 * a {@link FakeEmbeddingProvider} (or the one given, or none with `embeddings: false`), the
 * rule-based summariser unless another is given. Not started: call `service.onModuleInit()`.
 */
export function memoryHarness(setup: { now?: string; embeddings?: boolean | FakeEmbeddingProvider; summarizer?: MemorySummarizer; options?: Partial<MemoryOptions> } = {}): MemoryHarness {
  const clock = new SettableClock(setup.now ?? '2026-12-02T10:00:00.000Z');
  const index = new InMemoryMemoryIndex();
  const files = new InMemoryMemoryFiles(clock);
  const embeddings = setup.embeddings === false ? undefined : setup.embeddings instanceof FakeEmbeddingProvider ? setup.embeddings : new FakeEmbeddingProvider();
  const service = new MemoryService(index, files, setup.summarizer ?? new RuleBasedMemorySummarizer(), clock, embeddings, setup.options ?? {});
  return { service, index, files, clock, ...(embeddings ? { embeddings } : {}) };
}
