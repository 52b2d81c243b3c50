import type { Logger } from '@nestjs/common';
import type { EmbeddingProvider, MemoryIndex, MemoryRecord } from '@mobileclaw/domain';

/** Texts per embeddings request (new sections at start-up, retries). */
export const EMBEDDING_BATCH = 64;

/**
 * Stores records in the index with their embeddings: `none` without an endpoint; otherwise stored
 * `missing` first, then embedded and marked `present` ({@link MemoryIndex.setEmbedding}) — so a
 * failed endpoint, or a crash between the two, leaves them `missing` for a later retry, never
 * `present` without a vector.
 */
export class MemoryEmbedder {
  private retrying?: Promise<number>;

  constructor(
    private readonly index: MemoryIndex,
    private readonly provider: EmbeddingProvider | undefined,
    private readonly logger: Logger,
  ) {}

  /**
   * Upserts new records and embeds them (each distinct text once, {@link EMBEDDING_BATCH} per
   * request); an endpoint failure is logged, never thrown.
   * @returns the records with their final embedding state.
   * @throws MobileClawError `STORAGE_ERROR` from the index.
   */
  async store(records: readonly MemoryRecord[]): Promise<MemoryRecord[]> {
    if (records.length === 0) return [];
    if (!this.provider) {
      const plain = records.map((record) => ({ ...record, embedding: 'none' as const }));
      await this.index.upsert(plain);
      return plain;
    }
    const missing = records.map((record) => ({ ...record, embedding: 'missing' as const }));
    await this.index.upsert(missing);
    const embedded = await this.embedInto(missing);
    return missing.map((record) => (embedded.has(record.id) ? { ...record, embedding: 'present' as const } : record));
  }

  /**
   * Embeds records whose embedding is `missing` (any scope), batch by batch, until none is left or
   * the endpoint fails. One retry at a time: a call during another gets that one's answer.
   * @returns how many records were embedded.
   */
  retryMissing(): Promise<number> {
    if (!this.provider) return Promise.resolve(0);
    this.retrying ??= this.retryBatches().finally(() => (this.retrying = undefined));
    return this.retrying;
  }

  private async retryBatches(): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await this.index.missingEmbeddings(EMBEDDING_BATCH);
      if (batch.length === 0) return total;
      const embedded = await this.embedInto(batch);
      total += embedded.size;
      // A failed endpoint (nothing embedded) or a short batch ends this round.
      if (embedded.size === 0 || batch.length < EMBEDDING_BATCH) return total;
    }
  }

  /** Embeds the records' texts and stores the vectors; the ids embedded (none when the endpoint failed). */
  private async embedInto(records: readonly MemoryRecord[]): Promise<Set<string>> {
    const provider = this.provider;
    const done = new Set<string>();
    if (!provider) return done;
    const texts = [...new Set(records.map((record) => record.text))];
    for (let start = 0; start < texts.length; start += EMBEDDING_BATCH) {
      const chunk = texts.slice(start, start + EMBEDDING_BATCH);
      let vectors: Float32Array[];
      try {
        vectors = await provider.embed(chunk);
      } catch (err) {
        this.logger.warn(`embeddings failed for ${chunk.length} memor${chunk.length === 1 ? 'y' : 'ies'} (kept for lexical search, retried later): ${(err as Error).message}`);
        return done;
      }
      const byText = new Map(chunk.map((text, i) => [text, vectors[i]]));
      for (const record of records) {
        const vector = byText.get(record.text);
        if (vector) {
          await this.index.setEmbedding(record.id, vector);
          done.add(record.id);
        }
      }
    }
    return done;
  }
}
