import { MobileClawError, type MemoryScope, type MemorySection, type StoredMemoryLayer } from '@mobileclaw/domain';
import type { ParsedMemorySection } from './memory-section-format';

/**
 * Where a scope's memory lives inside the memory directory, and back.
 *
 * A scope `<kind>:<id>` lives in `<kind>/<folder>`, where the folder is the id made file-safe:
 * - every UTF-8 byte outside `[A-Za-z0-9_-]` is percent-encoded with upper-case hex (`.` → `%2E`,
 *   `/` → `%2F`, `\` → `%5C`, NUL → `%00`, `%` → `%25`), so no id can name `.`, `..`, a separator
 *   or a character a file system refuses;
 * - an encoded id longer than {@link SEGMENT_MAX_CHARS} is cut into nested folders, each but the
 *   last ending in `+` (never a character of an encoded id), so a 200-character id of Chinese
 *   characters (1,800 encoded characters) stays within every file system's 255-byte name limit;
 * - a last folder that Windows reserves (`con`, `nul`, `aux`, `prn`, `com1`–`com9`, `lpt1`–`lpt9`,
 *   any case) has its first character percent-encoded too (`con` → `%63on`).
 * The encoding is a function of the id and decoding inverts it; a folder that is not exactly the
 * encoding of its decoded id (lower-case hex, an unencoded byte, a cut elsewhere) is nobody's folder.
 * Ids differing only in case (`Alice`, `alice`) share a folder on case-insensitive file systems
 * (macOS, Windows): kept simple on purpose, such ids are one person in practice.
 *
 * Files: `YYYY-MM-DD.md` (a day of the daily layer, UTC) and `MEMORY.md` (the curated layer).
 */

/** The longest folder name written, in characters (all ASCII), `+` included. */
export const SEGMENT_MAX_CHARS = 120;
/** Ends every folder of a long id but its last. */
const CONTINUED = '+';
/** The curated layer's file. */
export const CURATED_FILE_NAME = 'MEMORY.md';

const SCOPE_KINDS = ['context', 'device'] as const;
type ScopeKind = (typeof SCOPE_KINDS)[number];

const SAFE_BYTE = /^[A-Za-z0-9_-]$/;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/i;
const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.md$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A memory file, as its path says. */
export interface MemoryFileLocation {
  scope: MemoryScope;
  layer: StoredMemoryLayer;
  /** `YYYY-MM-DD` for a daily file. */
  day?: string;
}

/** True for a `YYYY-MM-DD` that is a real calendar day. */
export function isCalendarDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/**
 * The scope's folder relative to the memory directory, `/`-separated, e.g. `device/sim-1`.
 * @throws MobileClawError `VALIDATION_FAILED` when the scope is not `context:<id>` or `device:<id>` with a non-empty, well-formed id.
 */
export function scopeFolder(scope: MemoryScope): string {
  const separator = scope.indexOf(':');
  const kind = scope.slice(0, separator);
  const id = scope.slice(separator + 1);
  if (separator < 0 || !(SCOPE_KINDS as readonly string[]).includes(kind) || id.length === 0 || !isWellFormed(id)) {
    throw new MobileClawError('VALIDATION_FAILED', `memory scope must be context:<id> or device:<id> with a non-empty id, got ${JSON.stringify(scope.slice(0, 80))}`);
  }
  return [kind, ...idSegments(id)].join('/');
}

/**
 * The file of a scope's layer, relative to the memory directory: `<folder>/YYYY-MM-DD.md` (daily, `day` required) or `<folder>/MEMORY.md`.
 * @throws MobileClawError `VALIDATION_FAILED` for a bad scope (see {@link scopeFolder}) or day.
 */
export function memoryFilePath(scope: MemoryScope, layer: StoredMemoryLayer, day?: string): string {
  if (layer === 'curated') return `${scopeFolder(scope)}/${CURATED_FILE_NAME}`;
  if (day === undefined || !isCalendarDay(day)) {
    throw new MobileClawError('VALIDATION_FAILED', `a daily memory file needs a day YYYY-MM-DD, got ${JSON.stringify(day)}`);
  }
  return `${scopeFolder(scope)}/${day}.md`;
}

/** What a relative path (`/`-separated) is: a scope's daily or curated file, or undefined when it is no memory file. */
export function parseMemoryFilePath(file: string): MemoryFileLocation | undefined {
  const segments = file.split('/');
  const name = segments.pop();
  const scope = scopeOfFolder(segments);
  if (!scope || name === undefined) return undefined;
  if (name === CURATED_FILE_NAME) return { scope, layer: 'curated' };
  const day = DAY_FILE.exec(name)?.[1];
  return day !== undefined && isCalendarDay(day) ? { scope, layer: 'daily', day } : undefined;
}

/** The scope whose folder these segments (`[kind, …folders]`) are exactly, or undefined. */
export function scopeOfFolder(segments: readonly string[]): MemoryScope | undefined {
  const [kind, ...folders] = segments;
  if (!(SCOPE_KINDS as readonly string[]).includes(kind ?? '') || folders.length === 0) return undefined;
  let encoded = '';
  for (const [index, folder] of folders.entries()) {
    const last = index === folders.length - 1;
    if (last === folder.endsWith(CONTINUED)) return undefined;
    encoded += last ? folder : folder.slice(0, -CONTINUED.length);
  }
  const id = decodeId(encoded);
  if (id === undefined) return undefined;
  const canonical = idSegments(id);
  return canonical.length === folders.length && canonical.every((folder, index) => folder === folders[index])
    ? (`${kind as ScopeKind}:${id}` as MemoryScope)
    : undefined;
}

/** True when a folder name may be on the way to a scope's folder (`[kind, …]` prefix); for walking and watching. */
export function isScopeFolderPrefix(segments: readonly string[]): boolean {
  const [kind, ...folders] = segments;
  if (!(SCOPE_KINDS as readonly string[]).includes(kind ?? '')) return false;
  return folders.every((folder) => /^[A-Za-z0-9_%-]+\+?$/.test(folder));
}

/** False for a string with a lone surrogate (it has no UTF-8 form, so no folder). */
function isWellFormed(text: string): boolean {
  return Buffer.from(text, 'utf8').toString('utf8') === text;
}

function idSegments(id: string): string[] {
  let encoded = '';
  for (const byte of Buffer.from(id, 'utf8')) {
    const char = String.fromCharCode(byte);
    encoded += SAFE_BYTE.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  const segments: string[] = [];
  const room = SEGMENT_MAX_CHARS - CONTINUED.length;
  while (encoded.length > room) {
    let cut = room;
    // Never split a `%XX` triple.
    const percent = encoded.lastIndexOf('%', cut - 1);
    if (percent >= 0 && percent > cut - 3) cut = percent;
    segments.push(encoded.slice(0, cut) + CONTINUED);
    encoded = encoded.slice(cut);
  }
  segments.push(WINDOWS_RESERVED.test(encoded) ? `%${encoded.charCodeAt(0).toString(16).toUpperCase()}${encoded.slice(1)}` : encoded);
  return segments;
}

function decodeId(encoded: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    const char = encoded[i];
    if (char === '%') {
      const hex = encoded.slice(i + 1, i + 3);
      if (!/^[0-9A-F]{2}$/.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (SAFE_BYTE.test(char)) {
      bytes.push(char.charCodeAt(0));
    } else {
      return undefined;
    }
  }
  if (bytes.length === 0) return undefined;
  try {
    return STRICT_UTF8.decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
}

/** A section parsed from the document at `file` (whose path gave `location`), as the `MemoryFiles` port returns it. */
export function memorySectionAt(location: MemoryFileLocation, file: string, parsed: ParsedMemorySection): MemorySection {
  return {
    scope: location.scope,
    layer: location.layer,
    file,
    line: parsed.line,
    text: parsed.text,
    category: parsed.category,
    priority: parsed.priority,
    createdAt: parsed.createdAt,
    contentHash: parsed.contentHash,
  };
}
