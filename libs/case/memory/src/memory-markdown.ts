import { MEMORY_PRIORITY_MAX, MEMORY_PRIORITY_MIN, type StoredMemoryLayer } from '@mobileclaw/domain';

/**
 * The Markdown of the memory files, as the gateway writes it and reads it back:
 * - daily file: first line `# YYYY-MM-DD`, sections `## HH:MM · <category> · p<priority>` (time UTC);
 * - `MEMORY.md`: first line `# Long-term memory`, sections `## <category> · p<priority> · YYYY-MM-DD`;
 * - each section: the heading, a blank line, the text, a blank line.
 * A section a person writes (`## anything`) is a `note` of priority 5 (daily) or 9 (curated) whose
 * text is its body (its title when the body is empty). Text before the first `##` is not a memory.
 */

/** A heading line: `##` followed by a space, a tab or the end of the line (`###` is not one). */
const HEADING = /^##(?:[ \t]+(.*))?$/;
const DAILY_META = /^(\d{2}):(\d{2}) · ([a-z0-9_]{1,40}) · p(\d{1,2})$/;
const CURATED_META = /^([a-z0-9_]{1,40}) · p(\d{1,2}) · (\d{4}-\d{2}-\d{2})$/;

/** The priority of a section a person wrote without the gateway's metadata. */
export const PERSON_SECTION_PRIORITY: Readonly<Record<StoredMemoryLayer, number>> = Object.freeze({ daily: 5, curated: 9 });
/** The category of a section a person wrote without the gateway's metadata. */
export const PERSON_SECTION_CATEGORY = 'note';

/** One `##` section of a memory file. */
export interface ParsedMemorySection {
  /** 1-based line of the heading. */
  line: number;
  /** 1-based line of the section's last line (before the next heading, or the file's last line). */
  endLine: number;
  /** The body trimmed (multi-line kept as written), or the heading's title when the body is empty. */
  text: string;
  category: string;
  priority: number;
  /** ISO-8601 when the heading gives a time: `HH:MM` on the daily file's `day`, or a curated heading's day at 00:00 UTC. */
  at?: string;
}

/** True when `line` starts a section (so a memory's text must not contain such a line). */
export function isMemoryHeading(line: string): boolean {
  return HEADING.test(line);
}

/**
 * The sections of a memory file's text, in file order; sections without text are left out.
 * @param day the daily file's day (`YYYY-MM-DD`), for the time of its `HH:MM` headings.
 */
export function parseMemoryMarkdown(text: string, layer: StoredMemoryLayer, day?: string): ParsedMemorySection[] {
  const lines = text.split(/\r?\n/u);
  // A final line break ends the last line; it does not start another.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const sections: ParsedMemorySection[] = [];
  let open: { line: number; title: string; body: string[] } | undefined;
  const close = () => {
    if (open) {
      const section = toSection(open.line, open.title, open.body.join('\n').trim(), layer, day);
      if (section) sections.push({ ...section, endLine: open.line + open.body.length });
    }
  };
  lines.forEach((content, i) => {
    const heading = HEADING.exec(content);
    if (heading) {
      close();
      open = { line: i + 1, title: (heading[1] ?? '').trim(), body: [] };
    } else {
      open?.body.push(content);
    }
  });
  close();
  return sections;
}

function toSection(line: number, title: string, body: string, layer: StoredMemoryLayer, day: string | undefined): Omit<ParsedMemorySection, 'endLine'> | undefined {
  const daily = DAILY_META.exec(title);
  if (daily && Number(daily[1]) < 24 && Number(daily[2]) < 60 && validPriority(Number(daily[4]))) {
    if (body === '') return undefined;
    const at = day !== undefined ? `${day}T${daily[1]}:${daily[2]}:00.000Z` : undefined;
    return { line, text: body, category: daily[3], priority: Number(daily[4]), ...(at !== undefined && validInstant(at) ? { at } : {}) };
  }
  const curated = CURATED_META.exec(title);
  if (curated && validPriority(Number(curated[2]))) {
    if (body === '') return undefined;
    const at = `${curated[3]}T00:00:00.000Z`;
    return { line, text: body, category: curated[1], priority: Number(curated[2]), ...(validInstant(at) ? { at } : {}) };
  }
  const text = body === '' ? title : body;
  if (text === '') return undefined;
  return { line, text, category: PERSON_SECTION_CATEGORY, priority: PERSON_SECTION_PRIORITY[layer] };
}

function validPriority(priority: number): boolean {
  return priority >= MEMORY_PRIORITY_MIN && priority <= MEMORY_PRIORITY_MAX;
}

function validInstant(iso: string): boolean {
  const ms = Date.parse(iso);
  return !Number.isNaN(ms) && new Date(ms).toISOString() === iso;
}

/** The first line of a new memory file: `# YYYY-MM-DD` (daily) or `# Long-term memory`. */
export function memoryFileTitle(layer: StoredMemoryLayer, day: string): string {
  return layer === 'daily' ? `# ${day}` : '# Long-term memory';
}

/**
 * The gateway's heading of a section: `## HH:MM · <category> · p<priority>` (daily) or
 * `## <category> · p<priority> · YYYY-MM-DD` (curated), the time of `at` (ISO-8601) in UTC.
 */
export function memorySectionHeading(layer: StoredMemoryLayer, memory: { category: string; priority: number }, at: string): string {
  return layer === 'daily' ? `## ${at.slice(11, 16)} · ${memory.category} · p${memory.priority}` : `## ${memory.category} · p${memory.priority} · ${at.slice(0, 10)}`;
}
