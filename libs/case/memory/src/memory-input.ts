import {
  MEMORY_CATEGORY_PATTERN,
  MEMORY_PRIORITY_MAX,
  MEMORY_PRIORITY_MIN,
  MEMORY_TEXT_MAX_CHARS,
  MobileClawError,
  parseMemoryScope,
  type MemoryCandidate,
  type MemoryLayer,
  type MemoryScope,
} from '@mobileclaw/domain';
import { isMemoryHeading } from './memory-markdown';

/** The longest search query accepted, in characters. */
export const MEMORY_QUERY_MAX_CHARS = 1000;
/** The largest `k` of a search (daily + curated hits). */
export const MEMORY_SEARCH_K_MAX = 50;
/** The largest page of {@link MemoryService.list}. */
export const MEMORY_PAGE_MAX = 500;
/** A candidate's category when it gives none. */
export const DEFAULT_MEMORY_CATEGORY = 'fact';
/** A candidate's priority when it gives none. */
export const DEFAULT_MEMORY_PRIORITY = 5;

const LAYERS: readonly MemoryLayer[] = ['session', 'daily', 'curated'];

function invalid(field: string, message: string): MobileClawError {
  return new MobileClawError('VALIDATION_FAILED', `${field} ${message}`, { fieldErrors: [{ field, message }] });
}

/** A scope given by a caller. @throws MobileClawError `VALIDATION_FAILED`. */
export function validMemoryScope(scope: string): MemoryScope {
  return parseMemoryScope(scope).scope;
}

/**
 * A memory to store, with its defaults (`fact`, priority 5) and its text as it will be written:
 * line breaks as `\n`, trimmed.
 * @throws MobileClawError `VALIDATION_FAILED`: text not a string, blank, over {@link MEMORY_TEXT_MAX_CHARS}
 * characters, with a control character other than a line break or tab (U+0000–U+001F but `\t`,
 * U+007F), or with a line starting `## ` (it would split the file's section); category not
 * {@link MEMORY_CATEGORY_PATTERN}; priority not an integer 1–10.
 */
export function validMemoryCandidate(candidate: MemoryCandidate): Required<MemoryCandidate> {
  if (typeof candidate?.text !== 'string') throw invalid('text', 'must be a string');
  const text = candidate.text.replace(/\r\n?/gu, '\n').trim();
  if (text === '') throw invalid('text', 'must not be blank');
  if (text.length > MEMORY_TEXT_MAX_CHARS) throw invalid('text', `must be at most ${MEMORY_TEXT_MAX_CHARS} characters, got ${text.length}`);
  // A memory file is text people read and edit: no NUL, escape sequences or other control characters.
  const control = /[\u0000-\u0008\u000b-\u001f\u007f]/u.exec(text);
  if (control) throw invalid('text', `must not contain control characters other than line breaks and tabs, got U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  if (text.split('\n').some(isMemoryHeading)) throw invalid('text', 'must not contain a line starting with "## " (it would start another section of the memory file)');
  const category = candidate.category ?? DEFAULT_MEMORY_CATEGORY;
  if (typeof category !== 'string' || !MEMORY_CATEGORY_PATTERN.test(category)) {
    throw invalid('category', `must be 1–40 lower-case letters, digits or "_", got ${JSON.stringify(category).slice(0, 60)}`);
  }
  const priority = candidate.priority ?? DEFAULT_MEMORY_PRIORITY;
  if (!Number.isInteger(priority) || priority < MEMORY_PRIORITY_MIN || priority > MEMORY_PRIORITY_MAX) {
    throw invalid('priority', `must be an integer ${MEMORY_PRIORITY_MIN}–${MEMORY_PRIORITY_MAX}, got ${String(priority)}`);
  }
  return { text, category, priority };
}

/** A search query, trimmed. @throws MobileClawError `VALIDATION_FAILED` when blank or over {@link MEMORY_QUERY_MAX_CHARS} characters. */
export function validMemoryQuery(query: string): string {
  if (typeof query !== 'string') throw invalid('query', 'must be a string');
  const trimmed = query.trim();
  if (trimmed === '') throw invalid('query', 'must not be blank');
  if (trimmed.length > MEMORY_QUERY_MAX_CHARS) throw invalid('query', `must be at most ${MEMORY_QUERY_MAX_CHARS} characters, got ${trimmed.length}`);
  return trimmed;
}

/** A search's `k`. @throws MobileClawError `VALIDATION_FAILED` unless an integer 1–{@link MEMORY_SEARCH_K_MAX}. */
export function validSearchK(k: number): number {
  if (!Number.isInteger(k) || k < 1 || k > MEMORY_SEARCH_K_MAX) throw invalid('k', `must be an integer 1–${MEMORY_SEARCH_K_MAX}, got ${String(k)}`);
  return k;
}

/** A search's layers, without repeats. @throws MobileClawError `VALIDATION_FAILED` on an unknown layer. */
export function validLayers(layers: readonly MemoryLayer[]): Set<MemoryLayer> {
  for (const layer of layers) {
    if (!LAYERS.includes(layer)) throw invalid('layers', `must each be session, daily or curated, got ${JSON.stringify(layer)}`);
  }
  return new Set(layers);
}

/** A page of a listing. @throws MobileClawError `VALIDATION_FAILED` unless limit is an integer 1–{@link MEMORY_PAGE_MAX} and offset an integer ≥ 0. */
export function validPage(page: { limit: number; offset: number }): { limit: number; offset: number } {
  if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > MEMORY_PAGE_MAX) throw invalid('limit', `must be an integer 1–${MEMORY_PAGE_MAX}, got ${String(page.limit)}`);
  if (!Number.isInteger(page.offset) || page.offset < 0) throw invalid('offset', `must be an integer ≥ 0, got ${String(page.offset)}`);
  return page;
}
