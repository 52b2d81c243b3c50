import { memoryContentHash } from '@mobileclaw/case-memory';
import type { EmbeddingProvider, MemoryIndex, MemoryIndexHit, MemoryRecord, MemoryScope } from '@mobileclaw/domain';
import type { BenchMemory } from './memory-set';

/** One way of searching: the ids of the memories found for `query` in `scope`, best first. */
export type RetrievalArm = (scope: MemoryScope, query: string) => Promise<string[]>;

/** The search limits the arms share with the memory service's defaults. */
export interface ArmLimits {
  dailyWindowDays: number;
  dailyResults: number;
  curatedResults: number;
  minSemanticScore: number;
}

const DAY_MS = 86_400_000;

/**
 * The index record of a benchmark memory: its id as the set gives it (so the questions' answers are
 * ids of the set), its content hash as the memory computes it, the file it would be a section of.
 */
export function memoryRecordOf(memory: BenchMemory, line: number): MemoryRecord {
  const [kind, id] = [memory.scope.slice(0, memory.scope.indexOf(':')), memory.scope.slice(memory.scope.indexOf(':') + 1)];
  return {
    id: memory.id,
    scope: memory.scope,
    layer: memory.layer,
    text: memory.text,
    category: memory.category,
    priority: memory.priority,
    createdAt: memory.createdAt,
    source: { file: `${kind}/${encodeURIComponent(id)}/${memory.layer === 'daily' ? `${memory.createdAt.slice(0, 10)}.md` : 'MEMORY.md'}`, line },
    contentHash: memoryContentHash(memory.text),
    embedding: 'none',
  };
}

/**
 * Indexes `memories` (no embeddings) in batches of `batch` records per `upsert`; the i-th memory is
 * given line `2 + 4 × (i mod 500)`, as sections of a file of 500 one-line memories would have.
 * @returns the time it took, in ms.
 */
export async function indexMemories(index: MemoryIndex, memories: readonly BenchMemory[], batch = 1000): Promise<number> {
  const records = memories.map((m, i) => memoryRecordOf(m, 2 + 4 * (i % 500)));
  const started = performance.now();
  for (let i = 0; i < records.length; i += batch) await index.upsert(records.slice(i, i + batch));
  return performance.now() - started;
}

/**
 * Embeds `memories` through `embeddings` (`batch` texts a call) and stores each vector in the index.
 * @returns the time it took, in ms.
 */
export async function embedMemories(index: MemoryIndex, memories: readonly BenchMemory[], embeddings: EmbeddingProvider, batch = 256): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < memories.length; i += batch) {
    const part = memories.slice(i, i + batch);
    const vectors = await embeddings.embed(part.map((m) => m.text));
    for (let j = 0; j < part.length; j++) await index.setEmbedding(part[j].id, vectors[j]);
  }
  return performance.now() - started;
}

/** The daily layer's candidates of the last `dailyWindowDays` days and the curated layer's of any age. */
function layerFilters(scope: MemoryScope, now: string, limits: ArmLimits) {
  const since = new Date(Date.parse(now) - limits.dailyWindowDays * DAY_MS).toISOString();
  return [
    { scope, layer: 'daily' as const, since, limit: limits.dailyResults },
    { scope, layer: 'curated' as const, limit: limits.curatedResults },
  ];
}

/** Both layers' hits merged by score, best first. */
function merged(hits: MemoryIndexHit[][]): string[] {
  return hits
    .flat()
    .sort((a, b) => b.score - a.score)
    .map((h) => h.record.id);
}

/**
 * Semantic only: the index's cosine search of the question's embedding per layer (≥ `minSemanticScore`,
 * per-layer limits), the two layers merged by similarity. The memory service has no such mode; this
 * is what its semantic half finds.
 */
export function semanticArm(index: MemoryIndex, embeddings: EmbeddingProvider, now: string, limits: ArmLimits): RetrievalArm {
  return async (scope, query) => {
    const [vector] = await embeddings.embed([query]);
    return merged(await Promise.all(layerFilters(scope, now, limits).map((filter) => index.semantic(vector, { ...filter, minScore: limits.minSemanticScore }))));
  };
}
