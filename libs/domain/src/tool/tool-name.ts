/**
 * Tool names: what a model, an MCP client or a phone calls a tool by. One rule for every source, the
 * one function-calling APIs and MCP clients accept (OpenAI, Anthropic): ASCII letters, digits, `_` and
 * `-`, 1 to 64 characters.
 */

/** The longest tool name, in characters. */
export const TOOL_NAME_MAX_LENGTH = 64;

/** A valid tool name: `^[A-Za-z0-9_-]{1,64}$`. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** True when `value` is a string matching {@link TOOL_NAME_PATTERN}. */
export function isToolName(value: unknown): value is string {
  return typeof value === 'string' && TOOL_NAME_PATTERN.test(value);
}

/** Characters a sanitised name keeps after a run of anything else is replaced by one `_`. */
const OUTSIDE_NAME_CHARACTERS = /[^A-Za-z0-9_-]+/g;
/** Combining marks left by canonical decomposition (`é` → `e` + U+0301), dropped so accents fold to ASCII. */
const COMBINING_MARKS = /\p{M}+/gu;
/** Length of the hash suffix `_xxxxxxxx` added when a name is cut or nothing of it survives. */
const HASH_SUFFIX_LENGTH = 9;

/**
 * Turns a foreign name (a remote server's, a SKILL.md's, a catalog's) into a valid tool name,
 * deterministically: the same input always gives the same output, whatever the process or machine.
 *
 * - A valid name is returned unchanged.
 * - Otherwise accents fold to ASCII (NFKD, marks dropped: `météo` → `meteo`), each run of other
 *   characters becomes one `_` (`weather.get now` → `weather_get_now`) and `_` at either end is trimmed.
 * - When nothing survives (`天気`, `!!!`, the empty string) the result is `tool_` + 8 hex digits of a
 *   hash of the original; when the result is longer than 64 characters it is cut to 55 and the same
 *   hash suffix appended, so long names sharing a prefix stay apart.
 *
 * Two different names can still sanitise to the same result (`a.b` and `a b` → `a_b`): telling them
 * apart is the registry's job (it prefixes the source), not this function's.
 */
export function sanitizeToolName(name: string): string {
  if (TOOL_NAME_PATTERN.test(name)) return name;
  const folded = name.normalize('NFKD').replace(COMBINING_MARKS, '');
  const cleaned = trimUnderscores(folded.replace(OUTSIDE_NAME_CHARACTERS, '_'));
  const suffix = `_${fnv1a32Hex(name)}`;
  if (cleaned === '') return `tool${suffix}`;
  if (cleaned.length > TOOL_NAME_MAX_LENGTH) return cleaned.slice(0, TOOL_NAME_MAX_LENGTH - HASH_SUFFIX_LENGTH) + suffix;
  return cleaned;
}

function trimUnderscores(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && value[start] === '_') start++;
  while (end > start && value[end - 1] === '_') end--;
  return value.slice(start, end);
}

/**
 * 32-bit FNV-1a of the UTF-8 bytes of `value`, as 8 lower-case hex digits: small, pure and the same on
 * every platform (no Node crypto in the domain). Not a security hash: it only keeps sanitised names apart.
 */
function fnv1a32Hex(value: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(value)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
