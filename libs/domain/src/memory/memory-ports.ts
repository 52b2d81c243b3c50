import type { Observable } from 'rxjs';
import type { MemoryCandidate, MemoryRecord, MemoryScope, SessionTurn, StoredMemoryLayer } from './memory';

/** One `##` section of a memory file, as the files adapter parses it. */
export interface MemorySection {
  scope: MemoryScope;
  layer: StoredMemoryLayer;
  /** Relative to the memory directory, `/`-separated, e.g. `device/sim-1/2026-12-02.md`. */
  file: string;
  /** 1-based line of the `##` heading. */
  line: number;
  /** The section's memory text (its body; the heading's title when the body is empty). */
  text: string;
  /** From the heading's metadata, else `note`. */
  category: string;
  /** From the heading's metadata, else 5 (daily) or 9 (curated). */
  priority: number;
  /** ISO-8601: the heading's time, else the daily file's day at 00:00 UTC, else the file's modification time. */
  createdAt: string;
  /** SHA-256 (hex) of `normaliseMemoryText(text)`. */
  contentHash: string;
}

/** A memory file changed on disk (written by the gateway or edited by a person): re-read it. */
export interface MemoryFileChange {
  scope: MemoryScope;
  layer: StoredMemoryLayer;
  file: string;
  /** True when the file is gone: every memory indexed from it goes too. */
  removed: boolean;
}

/**
 * The memory files, the truth of the daily and curated layers: per scope, `YYYY-MM-DD.md` per day
 * (UTC) and `MEMORY.md`, sections `## …`. People may edit them; {@link changes$} reports every change
 * once it is on disk. An abstract class so that it doubles as a DI token.
 * Failures: `STORAGE_ERROR` when the disk fails.
 */
export abstract class MemoryFiles {
  /**
   * Appends a memory as a new section of the scope's daily file for the day of `at` (UTC), or of its
   * `MEMORY.md`, creating the file (and its title line) when needed.
   * @param at ISO-8601: the heading's time (and the daily file's day).
   * @returns the section as written, with its line and content hash.
   */
  abstract append(scope: MemoryScope, layer: StoredMemoryLayer, memory: Required<MemoryCandidate>, at: string): Promise<MemorySection>;

  /** Every section of one file (a file that does not exist has none). `file` as in {@link MemorySection.file}. */
  abstract read(file: string): Promise<MemorySection[]>;

  /** The scope's daily files from `sinceDay` (`YYYY-MM-DD`, inclusive), oldest first, as `{day, file}`. */
  abstract dailyFiles(scope: MemoryScope, sinceDay: string): Promise<{ day: string; file: string }[]>;

  /**
   * Removes every section of `file` whose content hash is `contentHash` (heading and body), leaving
   * the rest of the file byte for byte. Resolves with how many were removed (0 when none or no file).
   */
  abstract removeSection(file: string, contentHash: string): Promise<number>;

  /** Every memory file there is now, for a full re-index at start-up. */
  abstract allFiles(): Promise<{ scope: MemoryScope; layer: StoredMemoryLayer; file: string }[]>;

  /** Hot stream of file changes (debounced). Never errors; completes on close. */
  abstract readonly changes$: Observable<MemoryFileChange>;
}

/** Filters of {@link MemoryIndex.lexical} and {@link MemoryIndex.semantic}. */
export interface MemoryIndexQuery {
  scope: MemoryScope;
  layer: StoredMemoryLayer;
  /** Only memories created at or after this instant (ISO-8601), e.g. the last 7 days of the daily layer. */
  since?: string;
  /** At most this many candidates, best first. */
  limit: number;
}

/** A candidate of an index search: the record, its raw score, and its vector when the index has one. */
export interface MemoryIndexHit {
  record: MemoryRecord;
  /** `lexical`: BM25 relevance, higher is better (≥ 0, not normalised); `semantic`: cosine similarity in [-1, 1]. */
  score: number;
  vector?: Float32Array;
}

/**
 * The search index of the stored layers: records, a lexical (BM25) index over their words (Chinese
 * and other unspaced scripts segmented into words), and their embeddings. An abstract class so that
 * it doubles as a DI token. Failures: `STORAGE_ERROR` when the database fails, `SHUTTING_DOWN` once closed.
 */
export abstract class MemoryIndex {
  /**
   * Inserts or replaces records by id (with their lexical entries); a record's embedding state is kept
   * as given. A stored vector stays while its record is upserted as `present` (the same id is the same
   * text), and goes when it is upserted as `missing` or `none`.
   */
  abstract upsert(records: readonly MemoryRecord[]): Promise<void>;

  /** The record with this id, or undefined. */
  abstract get(id: string): Promise<MemoryRecord | undefined>;

  /** The scope's records with this content hash, in any layer. */
  abstract byHash(scope: MemoryScope, contentHash: string): Promise<MemoryRecord[]>;

  /** The records indexed from one file. */
  abstract byFile(file: string): Promise<MemoryRecord[]>;

  /** A page of the scope's records of a layer, newest first. */
  abstract list(scope: MemoryScope, layer: StoredMemoryLayer, page: { limit: number; offset: number }): Promise<{ records: MemoryRecord[]; total: number }>;

  /** Removes records (row, lexical entry, vector) by id; unknown ids are ignored. Resolves with how many were removed. */
  abstract delete(ids: readonly string[]): Promise<number>;

  /** BM25 search of the query's words (segmented as the index segments text); best first. A query without words finds nothing. */
  abstract lexical(query: string, filter: MemoryIndexQuery): Promise<MemoryIndexHit[]>;

  /** Cosine similarity search against `vector` over records whose embedding is present (and of the same length); best first, `score` ≥ `minScore`. */
  abstract semantic(vector: Float32Array, filter: MemoryIndexQuery & { minScore: number }): Promise<MemoryIndexHit[]>;

  /** The vectors of these records (absent ones left out), e.g. for MMR between lexical-only hits. */
  abstract vectors(ids: readonly string[]): Promise<Map<string, Float32Array>>;

  /** Stores a record's embedding and marks it `present`. An unknown id is ignored. */
  abstract setEmbedding(id: string, vector: Float32Array): Promise<void>;

  /** Up to `limit` records whose embedding is `missing` (any scope), oldest first, for a retry. */
  abstract missingEmbeddings(limit: number): Promise<MemoryRecord[]>;

  /** How many records there are (all scopes), and how many lack an embedding. */
  abstract stats(): Promise<{ records: number; missingEmbeddings: number }>;
}

/**
 * An OpenAI-compatible embeddings endpoint (`POST /v1/embeddings`). An abstract class so that it
 * doubles as a DI token; a gateway without one configured provides none.
 */
export abstract class EmbeddingProvider {
  /** The model name, e.g. `text-embedding-3-small`. */
  abstract readonly model: string;

  /**
   * One vector per text, in order, all of one length.
   * @throws MobileClawError `TIMEOUT`, `ABORTED`, or `PLANNER_ERROR` (the endpoint failed or answered something else); never with the API key in the message.
   */
  abstract embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/**
 * The model side of memory: what of a session is worth keeping, and what of the recent daily files
 * is lasting. An abstract class so that it doubles as a DI token; the gateway provides one built on
 * its planner's model, or a rule-based one when it has no model.
 */
export abstract class MemorySummarizer {
  /** Shown in answers, e.g. `llm:gpt-4o` or `rule-based`. */
  abstract readonly name: string;

  /**
   * The memories worth keeping from a session's turns (oldest first), priorities 1–{@link FLUSH_PRIORITY_MAX}.
   * Typed secrets never reach it (the session layer drops them).
   * @throws MobileClawError `PLANNER_ERROR`, `TIMEOUT`, `ABORTED`.
   */
  abstract summarize(turns: readonly SessionTurn[], signal?: AbortSignal): Promise<MemoryCandidate[]>;

  /**
   * The lasting memories (stable preferences, personal facts, lasting decisions) in recent daily
   * files (`text` each at most 3,000 characters), priority ≥ 9 each; one-off chatter and temporary
   * tasks left out.
   * @throws MobileClawError `PLANNER_ERROR`, `TIMEOUT`, `ABORTED`.
   */
  abstract organize(days: readonly { day: string; text: string }[], signal?: AbortSignal): Promise<MemoryCandidate[]>;
}
