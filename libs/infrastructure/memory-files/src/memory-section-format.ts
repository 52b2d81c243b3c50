import { createHash } from 'node:crypto';
import {
  MEMORY_CATEGORY_PATTERN,
  MEMORY_PRIORITY_MAX,
  MEMORY_PRIORITY_MIN,
  MEMORY_TEXT_MAX_CHARS,
  MobileClawError,
  normaliseMemoryText,
  type MemoryCandidate,
  type StoredMemoryLayer,
} from '@mobileclaw/domain';

/**
 * The Markdown of a memory file.
 *
 * A daily file starts with `# YYYY-MM-DD`, `MEMORY.md` with `# Long-term memory`; then sections. A
 * section is a `## ` heading line and the lines up to the next one. The gateway writes
 * `## HH:MM · <category> · p<priority>` (daily, HH:MM in UTC) or `## <category> · p<priority> · YYYY-MM-DD`
 * (curated), a blank line, the text, a blank line. Any other heading is a person's: category `note`,
 * priority {@link PERSON_PRIORITY}, and the time in its title when there is one. Text before the first
 * heading (the title, a person's preamble) is no memory. Headings follow CommonMark: `##` then a space
 * or the line's end, up to 3 spaces of indentation, an optional closing `#` run; `###` and deeper
 * headings are body lines. A text line that would read as a heading is written with a backslash
 * before its `##` (`\## …`, which Markdown shows as `## …`), and one backslash is taken off when read.
 * Lines end in LF or CRLF; a UTF-8 byte order mark is skipped.
 */

/** The priority of a section whose heading is a person's (no `· p<n>` metadata), by layer. */
export const PERSON_PRIORITY: Readonly<Record<StoredMemoryLayer, number>> = { daily: 5, curated: 9 };
/** The category of a section whose heading is a person's. */
export const PERSON_CATEGORY = 'note';
/** The title line of `MEMORY.md`. */
export const CURATED_TITLE = 'Long-term memory';

const HEADING = /^ {0,3}##(?:[ \t]+(.*))?$/;
const CLOSING_HASHES = /(?:^|[ \t]+)#+[ \t]*$/;
const ESCAPED_HEADING = /^( {0,3})\\(\\*##(?:[ \t]|$))/;
const HEADING_LIKE = /^( {0,3})(\\*##(?:[ \t]|$))/;
const DAILY_HEADING = /^([01]\d|2[0-3]):([0-5]\d)[ \t]*·[ \t]*([a-z0-9_]{1,40})[ \t]*·[ \t]*p(10|[1-9])$/;
const CURATED_HEADING = /^([a-z0-9_]{1,40})[ \t]*·[ \t]*p(10|[1-9])[ \t]*·[ \t]*(\d{4}-\d{2}-\d{2})$/;
/** A time in a person's daily heading, e.g. `9:05` or `14:30`. */
const TIME_IN_TITLE = /(?:^|\D)([01]?\d|2[0-3]):([0-5]\d)(?!\d)/;
/** A day (and optionally a time) in a person's curated heading, e.g. `2026-11-30` or `2026-11-30 14:30`. */
const DAY_IN_TITLE = /(?:^|\D)(\d{4}-\d{2}-\d{2})(?:[T ]([01]\d|2[0-3]):([0-5]\d))?(?!\d)/;

/** What a file's path and status say about its sections. */
export interface MemoryFileFacts {
  layer: StoredMemoryLayer;
  /** The daily file's day, `YYYY-MM-DD`. */
  day?: string;
  /** ISO-8601: the file's modification time, the time of a curated section whose heading has none. */
  modifiedAt: string;
}

/** One section as parsed, with where it is in the file's bytes. */
export interface ParsedMemorySection {
  /** 1-based line of the heading. */
  line: number;
  /** Byte offset of the heading line. */
  start: number;
  /** Byte offset just after the section (the next heading line, or the end of the file). */
  end: number;
  text: string;
  category: string;
  priority: number;
  createdAt: string;
  contentHash: string;
}

/** SHA-256 (hex) of {@link normaliseMemoryText} of the text: a memory's content hash. */
export function memoryContentHash(text: string): string {
  return createHash('sha256').update(normaliseMemoryText(text), 'utf8').digest('hex');
}

/** The line ending a file uses: CRLF when its first line ends so, else LF. */
export function lineEndingOf(content: Buffer): '\n' | '\r\n' {
  const newline = content.indexOf(0x0a);
  return newline > 0 && content[newline - 1] === 0x0d ? '\r\n' : '\n';
}

/**
 * Every section of a file's content, in order. Sections without text (an empty heading and body) are
 * left out; a section's text is cut to {@link MEMORY_TEXT_MAX_CHARS} characters.
 */
export function parseMemorySections(content: Buffer, facts: MemoryFileFacts): ParsedMemorySection[] {
  const sections: ParsedMemorySection[] = [];
  let open: { line: number; start: number; title: string; body: string[] } | undefined;
  const close = (end: number) => {
    if (!open) return;
    const section = sectionOf(open, end, facts);
    if (section) sections.push(section);
  };
  let start = 0;
  let line = 1;
  while (start < content.length) {
    const newline = content.indexOf(0x0a, start);
    const end = newline < 0 ? content.length : newline + 1;
    let text = content.toString('utf8', start, newline < 0 ? end : newline).replace(/\r$/, '');
    if (start === 0) text = text.replace(/^\uFEFF/, '');
    const heading = HEADING.exec(text);
    if (heading) {
      close(start);
      open = { line, start, title: headingTitle(heading[1] ?? ''), body: [] };
    } else {
      open?.body.push(text.replace(ESCAPED_HEADING, '$1$2'));
    }
    start = end;
    line++;
  }
  close(content.length);
  return sections;
}

/**
 * `content` without its sections whose content hash is `contentHash` (each cut from its heading to the
 * next heading or the end), and how many were cut; the same buffer and 0 when none has that hash.
 */
export function withoutMemorySections(content: Buffer, facts: MemoryFileFacts, contentHash: string): { content: Buffer; removed: number } {
  const removed = parseMemorySections(content, facts).filter((section) => section.contentHash === contentHash);
  if (removed.length === 0) return { content, removed: 0 };
  const kept: Buffer[] = [];
  let from = 0;
  for (const section of removed) {
    kept.push(content.subarray(from, section.start));
    from = section.end;
  }
  kept.push(content.subarray(from));
  return { content: Buffer.concat(kept), removed: removed.length };
}

/**
 * The Markdown of a memory the gateway appends: heading, blank line, text (heading-like lines
 * escaped), blank line; lines ended with `eol`.
 * @throws MobileClawError `VALIDATION_FAILED` for a blank or too long text, a bad category or priority, or a bad `at`.
 */
export function formatMemorySection(layer: StoredMemoryLayer, memory: Required<MemoryCandidate>, at: string, eol: '\n' | '\r\n' = '\n'): string {
  const time = checkedInstant(at);
  const text = memory.text.replace(/\r\n?/g, '\n').trim();
  if (!text) throw new MobileClawError('VALIDATION_FAILED', 'memory text must not be blank');
  if (text.length > MEMORY_TEXT_MAX_CHARS) {
    throw new MobileClawError('VALIDATION_FAILED', `memory text must be at most ${MEMORY_TEXT_MAX_CHARS} characters, got ${text.length}`);
  }
  if (!MEMORY_CATEGORY_PATTERN.test(memory.category)) {
    throw new MobileClawError('VALIDATION_FAILED', `memory category must be 1–40 of a-z, 0-9 and _, got ${JSON.stringify(memory.category.slice(0, 60))}`);
  }
  if (!Number.isInteger(memory.priority) || memory.priority < MEMORY_PRIORITY_MIN || memory.priority > MEMORY_PRIORITY_MAX) {
    throw new MobileClawError('VALIDATION_FAILED', `memory priority must be an integer from ${MEMORY_PRIORITY_MIN} to ${MEMORY_PRIORITY_MAX}, got ${memory.priority}`);
  }
  const iso = time.toISOString();
  const heading =
    layer === 'daily'
      ? `${iso.slice(11, 16)} · ${memory.category} · p${memory.priority}`
      : `${memory.category} · p${memory.priority} · ${iso.slice(0, 10)}`;
  const body = text
    .split('\n')
    .map((line) => line.replace(HEADING_LIKE, '$1\\$2'))
    .join(eol);
  return `## ${heading}${eol}${eol}${body}${eol}${eol}`;
}

/** The first line of a new file and the blank line after it: `# YYYY-MM-DD` or `# Long-term memory`. */
export function formatFileTitle(layer: StoredMemoryLayer, day: string, eol: '\n' | '\r\n' = '\n'): string {
  return `# ${layer === 'daily' ? day : CURATED_TITLE}${eol}${eol}`;
}

/**
 * `at` as a date.
 * @throws MobileClawError `VALIDATION_FAILED` when it is not an ISO-8601 instant.
 */
export function checkedInstant(at: string): Date {
  const time = new Date(at);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(at) || Number.isNaN(time.getTime())) {
    throw new MobileClawError('VALIDATION_FAILED', `memory time must be an ISO-8601 instant, got ${JSON.stringify(at.slice(0, 40))}`);
  }
  return time;
}

function headingTitle(raw: string): string {
  const title = raw.trim();
  return /^#+$/.test(title) ? '' : title.replace(CLOSING_HASHES, '');
}

function sectionOf(
  open: { line: number; start: number; title: string; body: string[] },
  end: number,
  facts: MemoryFileFacts,
): ParsedMemorySection | undefined {
  const text = capped(open.body.join('\n').trim() || open.title);
  if (!text) return undefined;
  const meta = gatewayHeading(open.title, facts) ?? personHeading(open.title, facts);
  return { line: open.line, start: open.start, end, text, ...meta, contentHash: memoryContentHash(text) };
}

type HeadingMeta = { category: string; priority: number; createdAt: string };

function gatewayHeading(title: string, facts: MemoryFileFacts): HeadingMeta | undefined {
  if (facts.layer === 'daily') {
    const match = DAILY_HEADING.exec(title);
    if (!match || facts.day === undefined) return undefined;
    return { category: match[3], priority: Number(match[4]), createdAt: instantOf(facts.day, match[1], match[2]) ?? facts.modifiedAt };
  }
  const match = CURATED_HEADING.exec(title);
  const createdAt = match ? instantOf(match[3], '00', '00') : undefined;
  if (!match || createdAt === undefined) return undefined;
  return { category: match[1], priority: Number(match[2]), createdAt };
}

function personHeading(title: string, facts: MemoryFileFacts): HeadingMeta {
  let createdAt: string | undefined;
  if (facts.layer === 'daily' && facts.day !== undefined) {
    const time = TIME_IN_TITLE.exec(title);
    createdAt = instantOf(facts.day, time?.[1] ?? '00', time?.[2] ?? '00');
  } else if (facts.layer === 'curated') {
    const day = DAY_IN_TITLE.exec(title);
    if (day) createdAt = instantOf(day[1], day[2] ?? '00', day[3] ?? '00');
  }
  return { category: PERSON_CATEGORY, priority: PERSON_PRIORITY[facts.layer], createdAt: createdAt ?? facts.modifiedAt };
}

/** `YYYY-MM-DDTHH:MM:00.000Z`, or undefined when the day is not a calendar day. */
function instantOf(day: string, hours: string, minutes: string): string | undefined {
  const iso = `${day}T${hours.padStart(2, '0')}:${minutes}:00.000Z`;
  const time = new Date(iso);
  return !Number.isNaN(time.getTime()) && time.toISOString() === iso ? iso : undefined;
}

/** At most {@link MEMORY_TEXT_MAX_CHARS} UTF-16 units, never ending in half a surrogate pair. */
function capped(text: string): string {
  if (text.length <= MEMORY_TEXT_MAX_CHARS) return text;
  const cut = text.slice(0, MEMORY_TEXT_MAX_CHARS);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
