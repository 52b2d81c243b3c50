import type { Logger } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { MEMORY_TEXT_MAX_CHARS, type MemoryFileChange, type MemoryFiles, type MemoryIndex, type MemoryRecord, type MemoryScope, type StoredMemoryLayer } from '@mobileclaw/domain';
import type { KeyedSerialQueue } from './keyed-serial-queue';
import type { MemoryEmbedder } from './memory-embedder';
import { memoryRecordId, memoryRecordOf } from './memory-record-id';

/** A memory file to index. */
export interface MemoryFileRef {
  scope: MemoryScope;
  layer: StoredMemoryLayer;
  file: string;
}

/**
 * Keeps the index following the memory files (the truth): re-reads a file and indexes (and embeds)
 * only sections whose record id is new, refreshes the line, category and priority of its sections
 * that moved or were re-labelled, and deletes the rows of its sections that are gone. Every file of a
 * scope is handled in that scope's turn of the queue, after or before — never during — a `remember`.
 *
 * A section whose text another file of the layer already holds is indexed once (the record keeps the
 * first file it was seen in); deleting it by hand from that file drops the row until the other file
 * is next re-read (at start-up at the latest).
 */
export class MemoryFileSync {
  private subscription?: Subscription;

  constructor(
    private readonly index: MemoryIndex,
    private readonly files: MemoryFiles,
    private readonly embedder: MemoryEmbedder,
    private readonly queue: KeyedSerialQueue,
    private readonly logger: Logger,
  ) {}

  /** Re-indexes every memory file there is, one by one; a file that fails is logged and skipped. */
  async reindexAll(): Promise<void> {
    for (const ref of await this.files.allFiles()) {
      await this.reindex(ref).catch((err: unknown) => this.logger.warn(`could not index memory file ${ref.file}: ${(err as Error).message}`));
    }
  }

  /** Follows {@link MemoryFiles.changes$} until {@link stop}. */
  watch(): void {
    this.subscription ??= this.files.changes$.subscribe((change) => {
      this.apply(change).catch((err: unknown) => this.logger.warn(`could not re-index memory file ${change.file}: ${(err as Error).message}`));
    });
  }

  stop(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
  }

  /** Re-indexes a changed file, or drops every row of a removed one. */
  apply(change: MemoryFileChange): Promise<void> {
    if (!change.removed) return this.reindex(change);
    return this.queue.run(change.scope, async () => {
      const rows = await this.index.byFile(change.file);
      if (rows.length > 0) await this.index.delete(rows.map((row) => row.id));
    });
  }

  /** Brings the index in line with one file (see the class). */
  reindex(ref: MemoryFileRef): Promise<void> {
    return this.queue.run(ref.scope, async () => {
      // The index first, then the file: with memory shared by several instances, a section another
      // instance appends and indexes meanwhile is then either in neither read or in the file read —
      // indexed again (same id) at worst, never dropped as gone from the file.
      const indexed = new Map((await this.index.byFile(ref.file)).map((row) => [row.id, row]));
      const sections = await this.files.read(ref.file);
      const seen = new Set<string>();
      const fresh: MemoryRecord[] = [];
      const changed: MemoryRecord[] = [];
      for (const section of sections) {
        if (section.text.length > MEMORY_TEXT_MAX_CHARS) {
          this.logger.warn(`memory file ${ref.file} line ${section.line}: a section of ${section.text.length} characters is not indexed (at most ${MEMORY_TEXT_MAX_CHARS})`);
          continue;
        }
        const id = memoryRecordId(section.scope, section.layer, section.contentHash);
        if (seen.has(id)) continue;
        seen.add(id);
        const own = indexed.get(id);
        if (own) {
          if (own.source.line !== section.line || own.category !== section.category || own.priority !== section.priority) {
            changed.push({ ...own, category: section.category, priority: section.priority, source: { file: ref.file, line: section.line } });
          }
        } else if (!(await this.index.get(id))) {
          fresh.push(memoryRecordOf(section, 'missing'));
        }
      }
      await this.refresh(changed);
      await this.embedder.store(fresh);
      const gone = [...indexed.keys()].filter((id) => !seen.has(id));
      if (gone.length > 0) await this.index.delete(gone);
    });
  }

  /** Upserts records whose place or labels changed, keeping their vectors (an upsert may replace the row). */
  private async refresh(records: readonly MemoryRecord[]): Promise<void> {
    if (records.length === 0) return;
    const vectors = await this.index.vectors(records.filter((record) => record.embedding === 'present').map((record) => record.id));
    await this.index.upsert(records);
    for (const [id, vector] of vectors) await this.index.setEmbedding(id, vector);
  }
}
