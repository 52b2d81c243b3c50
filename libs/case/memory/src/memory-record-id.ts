import { createHash } from 'node:crypto';
import { normaliseMemoryText, type MemoryEmbeddingState, type MemoryRecord, type MemoryScope, type MemorySection, type StoredMemoryLayer } from '@mobileclaw/domain';

/**
 * The content hash of a memory text: SHA-256 (64 lower-case hex) of {@link normaliseMemoryText}, so
 * two texts that differ only in spacing, case or Unicode form are one memory.
 */
export function memoryContentHash(text: string): string {
  return createHash('sha256').update(normaliseMemoryText(text), 'utf8').digest('hex');
}

/**
 * The id of a stored memory: `mem_` + the first 24 hex characters of SHA-256 of
 * `${scope}\n${layer}\n${contentHash}`. Deterministic, so the same text in the same scope and layer is
 * one record whatever file or day it stands in, and re-indexing a file never makes a second record.
 */
export function memoryRecordId(scope: MemoryScope, layer: StoredMemoryLayer, contentHash: string): string {
  return `mem_${createHash('sha256').update(`${scope}\n${layer}\n${contentHash}`, 'utf8').digest('hex').slice(0, 24)}`;
}

/** The index record of a file's section, in the embedding state given. */
export function memoryRecordOf(section: MemorySection, embedding: MemoryEmbeddingState): MemoryRecord {
  return {
    id: memoryRecordId(section.scope, section.layer, section.contentHash),
    scope: section.scope,
    layer: section.layer,
    text: section.text,
    category: section.category,
    priority: section.priority,
    createdAt: section.createdAt,
    source: { file: section.file, line: section.line },
    contentHash: section.contentHash,
    embedding,
  };
}
