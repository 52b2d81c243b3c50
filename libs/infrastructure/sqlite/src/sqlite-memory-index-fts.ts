import { memoryWords } from '@mobileclaw/domain';

const DAY_MS = 86_400_000;

/**
 * The longest `since` window, in days, that the match expression narrows to the days' tags. Past it
 * the expression grows long while the days' rows approach the whole table: the SQL filter alone applies.
 */
export const MAX_TAGGED_DAYS = 62;

/** The FTS5 columns of one memory: `words` (searched, BM25 weight 1) and `tags` (filters only, weight 0). */
export interface FtsDocument {
  /**
   * The memory's words as {@link memoryWords} segments them (NFKC, lower-cased, Chinese split into
   * words), joined by single spaces: FTS5's `unicode61` tokenizer splits at those spaces, so a
   * Chinese word is one token as it is for the query.
   */
  words: string;
  /**
   * `d<YYYYMMDD>`, the UTC day the memory was created, so that a `since` filter narrows the match
   * itself. (No tag of the scope and layer: ANDing a tag that most rows carry costs more than it
   * saves; the SQL filters them after the match.)
   */
  tags: string;
}

/** The FTS5 row of a memory text created at `createdAtMs` (ms since the epoch). */
export function ftsDocument(text: string, createdAtMs: number): FtsDocument {
  return { words: memoryWords(text).join(' '), tags: dayTag(createdAtMs) };
}

/**
 * The FTS5 `MATCH` expression of a search query: its distinct words ({@link memoryWords}), each an
 * FTS5 string (`"…"`, an inner `"` doubled) in the `words` column, joined by `OR` — whatever the user
 * typed is only ever words to find: `"a" OR b*`, `NEAR(`, `-x` or `tags:x` are never FTS5 syntax.
 * With `days` (ms since the epoch, at most {@link MAX_TAGGED_DAYS} UTC days apart), only memories of
 * those days match. Undefined when the query has no words (e.g. only punctuation): it finds nothing.
 */
export function ftsMatchExpression(query: string, days?: { fromMs: number; toMs: number }): string | undefined {
  const words = [...new Set(memoryWords(query))];
  if (words.length === 0) return undefined;
  const match = `words : (${words.map(ftsString).join(' OR ')})`;
  if (days === undefined) return match;
  const tags: string[] = [];
  for (let day = Math.floor(days.fromMs / DAY_MS); day <= Math.floor(days.toMs / DAY_MS); day++) tags.push(dayTag(day * DAY_MS));
  return `${match} AND tags : (${tags.map(ftsString).join(' OR ')})`;
}

/** True when the UTC days from `fromMs` to `toMs` are few enough for {@link ftsMatchExpression} to name them. */
export function taggableDays(fromMs: number, toMs: number): boolean {
  return toMs >= fromMs && Math.floor(toMs / DAY_MS) - Math.floor(fromMs / DAY_MS) < MAX_TAGGED_DAYS;
}

function ftsString(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

function dayTag(ms: number): string {
  return `d${new Date(ms).toISOString().slice(0, 10).replaceAll('-', '')}`;
}
