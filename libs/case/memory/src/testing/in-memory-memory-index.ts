import { MemoryIndex, memoryWords, type MemoryIndexHit, type MemoryIndexQuery, type MemoryRecord, type MemoryScope, type StoredMemoryLayer } from '@mobileclaw/domain';
import { cosineSimilarity } from '../memory-mmr';

/** BM25's term-frequency saturation and length normalisation (the usual defaults). */
const K1 = 1.2;
const B = 0.75;

/**
 * A {@link MemoryIndex} in memory for tests and benchmarks' baselines: records in a Map, lexical search
 * a plain BM25 over {@link memoryWords} (statistics over the records the filter selects; hits
 * without vectors, as a full-text engine gives them), semantic search brute-force cosine (hits with vectors). A record's vector is kept while its embedding is `present`.
 */
export class InMemoryMemoryIndex extends MemoryIndex {
  private readonly records = new Map<string, MemoryRecord>();
  private readonly vectorsById = new Map<string, Float32Array>();

  override async upsert(records: readonly MemoryRecord[]): Promise<void> {
    for (const record of records) {
      this.records.set(record.id, structuredClone(record));
      if (record.embedding !== 'present') this.vectorsById.delete(record.id);
    }
  }

  override async get(id: string): Promise<MemoryRecord | undefined> {
    return this.copy(this.records.get(id));
  }

  override async byHash(scope: MemoryScope, contentHash: string): Promise<MemoryRecord[]> {
    return this.all().filter((record) => record.scope === scope && record.contentHash === contentHash);
  }

  override async byFile(file: string): Promise<MemoryRecord[]> {
    return this.all().filter((record) => record.source.file === file);
  }

  override async list(scope: MemoryScope, layer: StoredMemoryLayer, page: { limit: number; offset: number }): Promise<{ records: MemoryRecord[]; total: number }> {
    const selected = this.all()
      .filter((record) => record.scope === scope && record.layer === layer)
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? -1 : 1));
    return { records: selected.slice(page.offset, page.offset + page.limit), total: selected.length };
  }

  override async delete(ids: readonly string[]): Promise<number> {
    let removed = 0;
    for (const id of new Set(ids)) {
      if (this.records.delete(id)) removed++;
      this.vectorsById.delete(id);
    }
    return removed;
  }

  override async lexical(query: string, filter: MemoryIndexQuery): Promise<MemoryIndexHit[]> {
    const terms = [...new Set(memoryWords(query))];
    if (terms.length === 0) return [];
    const documents = this.selected(filter).map((record) => ({ record, words: memoryWords(record.text) }));
    if (documents.length === 0) return [];
    const averageLength = documents.reduce((sum, doc) => sum + doc.words.length, 0) / documents.length;
    const frequency = new Map(terms.map((term) => [term, documents.filter((doc) => doc.words.includes(term)).length]));
    const hits: MemoryIndexHit[] = [];
    for (const { record, words } of documents) {
      let score = 0;
      for (const term of terms) {
        const tf = words.filter((word) => word === term).length;
        if (tf === 0) continue;
        const n = frequency.get(term) ?? 0;
        const idf = Math.log(1 + (documents.length - n + 0.5) / (n + 0.5));
        score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * words.length) / (averageLength || 1)));
      }
      if (score > 0) hits.push({ record, score });
    }
    return best(hits, filter.limit);
  }

  override async semantic(vector: Float32Array, filter: MemoryIndexQuery & { minScore: number }): Promise<MemoryIndexHit[]> {
    const hits: MemoryIndexHit[] = [];
    for (const record of this.selected(filter)) {
      const stored = this.vectorsById.get(record.id);
      if (record.embedding !== 'present' || !stored || stored.length !== vector.length) continue;
      const score = cosineSimilarity(vector, stored);
      if (score >= filter.minScore) hits.push({ record, score, vector: new Float32Array(stored) });
    }
    return best(hits, filter.limit);
  }

  override async vectors(ids: readonly string[]): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    for (const id of ids) {
      const vector = this.vectorsById.get(id);
      if (vector) found.set(id, new Float32Array(vector));
    }
    return found;
  }

  override async setEmbedding(id: string, vector: Float32Array): Promise<void> {
    const record = this.records.get(id);
    if (!record) return;
    record.embedding = 'present';
    this.vectorsById.set(id, new Float32Array(vector));
  }

  override async missingEmbeddings(limit: number): Promise<MemoryRecord[]> {
    return this.all()
      .filter((record) => record.embedding === 'missing')
      .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : 1))
      .slice(0, limit);
  }

  override async stats(): Promise<{ records: number; missingEmbeddings: number }> {
    return { records: this.records.size, missingEmbeddings: this.all().filter((record) => record.embedding === 'missing').length };
  }

  /** Every record (copies), for assertions. */
  all(): MemoryRecord[] {
    return [...this.records.values()].map((record) => structuredClone(record));
  }

  /** Whether a record has a vector stored, for assertions. */
  hasVector(id: string): boolean {
    return this.vectorsById.has(id);
  }

  private selected(filter: MemoryIndexQuery): MemoryRecord[] {
    const since = filter.since === undefined ? -Infinity : Date.parse(filter.since);
    return this.all().filter((record) => record.scope === filter.scope && record.layer === filter.layer && Date.parse(record.createdAt) >= since);
  }

  private copy(record: MemoryRecord | undefined): MemoryRecord | undefined {
    return record && structuredClone(record);
  }
}

/** Best score first (ties by id), at most `limit`. */
function best(hits: MemoryIndexHit[], limit: number): MemoryIndexHit[] {
  return hits.sort((a, b) => b.score - a.score || (a.record.id < b.record.id ? -1 : 1)).slice(0, limit);
}
