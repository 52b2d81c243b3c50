import { MobileClawError } from '../errors';

/**
 * The agent's memory in three layers:
 * - `session`: the current conversation's (or device's) recent turns, in the gateway's memory only;
 * - `daily`: one human-readable Markdown file per day and scope, plus its search index;
 * - `curated`: the scope's `MEMORY.md` (stable preferences, personal facts, lasting decisions), plus its index.
 * The files are the truth: people may edit them and the index follows.
 */
export type MemoryLayer = 'session' | 'daily' | 'curated';

/** The layers kept in files and the index (the session layer is in memory only). */
export type StoredMemoryLayer = Exclude<MemoryLayer, 'session'>;

/** Priorities run from 1 (trivia) to 10 (must never be forgotten). */
export const MEMORY_PRIORITY_MIN = 1;
export const MEMORY_PRIORITY_MAX = 10;
/** A memory of this priority or more is written to the curated layer as well as the daily one. */
export const CURATED_PRIORITY = 8;
/** The highest priority an automatic flush of a session may give (so a flush alone never curates). */
export const FLUSH_PRIORITY_MAX = 7;
/** The lowest priority "organize long-term memory" keeps. */
export const ORGANIZE_PRIORITY_MIN = 9;
/** Categories that always go to the curated layer too, whatever the priority. */
export const CURATED_CATEGORIES: readonly string[] = Object.freeze(['curated', 'permanent', 'preference', 'user_preference', 'long_term']);
/** The longest memory text accepted, in characters (a memory is a fact, not a document). */
export const MEMORY_TEXT_MAX_CHARS = 4000;
/** Category names: 1–40 of lower-case letters, digits and `_`. */
export const MEMORY_CATEGORY_PATTERN = /^[a-z0-9_]{1,40}$/;

/**
 * True when a memory of this category and priority belongs in the curated layer as well as the
 * daily one: priority ≥ {@link CURATED_PRIORITY}, or a category of {@link CURATED_CATEGORIES}.
 */
export function isCuratedMemory(category: string, priority: number): boolean {
  return priority >= CURATED_PRIORITY || CURATED_CATEGORIES.includes(category);
}

/**
 * Whose memory it is. A scope is `context:<contextId>` (a conversation of the API or A2A) or
 * `device:<deviceId>` (a task without a conversation). The id is 1–256 characters (as a task's `contextId`) without control
 * characters. A scope's memory is never returned to a search of another scope.
 */
export type MemoryScope = `context:${string}` | `device:${string}`;

/** The longest scope, in characters: `context:` and an id of 256. */
export const MEMORY_SCOPE_MAX_CHARS = 'context:'.length + 256;

const SCOPE_PATTERN = /^(context|device):([^\u0000-\u001f\u007f]{1,256})$/u;

/** The scope of a task: its conversation when it has one, else its device. */
export function memoryScopeOf(task: { contextId?: string; deviceId: string }): MemoryScope {
  return task.contextId !== undefined ? `context:${task.contextId}` : `device:${task.deviceId}`;
}

/**
 * Checks a scope given by a caller.
 * @throws MobileClawError `VALIDATION_FAILED` when it is not `context:<id>` or `device:<id>` (id 1–256 characters, no control characters, no white space at either end).
 */
export function parseMemoryScope(value: string): { kind: 'context' | 'device'; id: string; scope: MemoryScope } {
  const match = SCOPE_PATTERN.exec(value);
  // An id with spaces around it is a typo that would quietly start a second memory.
  if (!match || match[2].trim() !== match[2]) {
    throw new MobileClawError('VALIDATION_FAILED', `memory scope must be context:<id> or device:<id> (id 1–256 characters, no control characters, no spaces around it), got ${JSON.stringify(value.slice(0, 80))}`);
  }
  return { kind: match[1] as 'context' | 'device', id: match[2], scope: value as MemoryScope };
}

/**
 * The text a memory's content hash is taken of: Unicode NFKC, whitespace runs collapsed to one space,
 * trimmed, lower-cased. Two sections that differ only in spacing or case are one memory.
 */
export function normaliseMemoryText(text: string): string {
  return text.normalize('NFKC').replace(/\s+/gu, ' ').trim().toLowerCase();
}

/** Where a stored memory is written: its file (relative to the memory directory, `/`-separated) and the 1-based line of its `##` heading. */
export interface MemorySource {
  file: string;
  line: number;
}

/** Whether a stored memory has its embedding: `present`; `missing` (the endpoint failed: lexical until a retry succeeds); `none` (no endpoint configured). */
export type MemoryEmbeddingState = 'present' | 'missing' | 'none';

/** One stored memory (a section of a daily file or of `MEMORY.md`), as the index keeps it. */
export interface MemoryRecord {
  /** Stable id: the same scope, layer and content hash always give the same id (`mem_` + 24 hex). */
  id: string;
  scope: MemoryScope;
  layer: StoredMemoryLayer;
  /** The section's text as written (not normalised). */
  text: string;
  /** e.g. `fact`, `preference`, `contact`, `note` (sections people write without one). */
  category: string;
  /** 1–10. */
  priority: number;
  /** When it was remembered (ISO-8601); a daily section without a time is taken at its day's 00:00 UTC. */
  createdAt: string;
  source: MemorySource;
  /** SHA-256 (hex) of {@link normaliseMemoryText} of the text. */
  contentHash: string;
  embedding: MemoryEmbeddingState;
}

/** One turn of the session layer: a goal, a planner's decision, an action's result, a tool's answer. */
export interface SessionTurn {
  role: 'user' | 'assistant' | 'tool';
  text: string;
  /** ISO-8601. */
  at: string;
  /** The task the turn belongs to, when it came from one. */
  taskId?: string;
}

/** What a memory to remember looks like before it is stored (a caller's, a tool call's, a summariser's). */
export interface MemoryCandidate {
  /** 1–{@link MEMORY_TEXT_MAX_CHARS} characters, not blank. */
  text: string;
  /** {@link MEMORY_CATEGORY_PATTERN}; default `fact`. */
  category?: string;
  /** 1–10; default 5. */
  priority?: number;
}

/**
 * How a hit's score was made. `lexical`: BM25 normalised to 0–1 within the query's candidates (null
 * when the text did not match the query's words); `semantic`: cosine similarity (null when not
 * compared: no embedding, or below the minimum); `relevance`: the hybrid merge of the two; `decay`:
 * the temporal decay factor (1 for the session and curated layers); `score` = relevance × decay, the
 * value MMR then re-ranks by.
 */
export interface MemoryScoreParts {
  lexical: number | null;
  semantic: number | null;
  relevance: number;
  decay: number;
}

/** One search result. */
export interface MemoryHit {
  layer: MemoryLayer;
  /** Absent for session turns. */
  id?: string;
  text: string;
  category?: string;
  priority?: number;
  /** Absent for session turns. */
  source?: MemorySource;
  /** ISO-8601. */
  createdAt: string;
  /** Age at the search, in days (fractional). */
  ageDays: number;
  /** Final score (session turns: 1.0). */
  score: number;
  parts: MemoryScoreParts;
}

/**
 * How semantic search took part: `on` (embeddings used), `off` (no endpoint configured: lexical
 * only), `degraded` (the endpoint failed for this query: lexical only this time).
 */
export type SemanticSearchState = 'on' | 'off' | 'degraded';

/** The answer of a memory search. */
export interface MemorySearchResult {
  scope: MemoryScope;
  query: string;
  /** Session turns first (newest last), then daily and curated hits by score. */
  hits: MemoryHit[];
  semantic: SemanticSearchState;
  /** Why semantic search was `off` or `degraded`, for people. */
  notice?: string;
}
