/** Most characters of a string that an error message quotes; a longer one is cut and ends in `…`. */
export const QUOTED_CHARS = 64;

/** `text` as an error message quotes it: JSON-quoted, at most {@link QUOTED_CHARS} characters of it, `…` inside the quotes when cut. */
export function quoteText(text: string): string {
  return JSON.stringify(text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text);
}

/**
 * What a decoded JSON value from an untrusted peer is, for an error message: `a string "…"` (quoted
 * by {@link quoteText}), `a number`, `a boolean`, `null`, `an array`, `an object`, or `nothing`
 * (undefined). Never serialises an array or object: `JSON.stringify` of one nested a few thousand
 * levels deep overflows the stack, and its text could be megabytes long. The result is at most
 * {@link QUOTED_CHARS} + 14 characters (plus JSON escapes).
 */
export function describeJsonValue(value: unknown): string {
  if (typeof value === 'string') return `a string ${quoteText(value)}`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
