import { Subject } from 'rxjs';
import { MemoryFiles, type Clock, type MemoryCandidate, type MemoryFileChange, type MemoryScope, type MemorySection, type StoredMemoryLayer } from '@mobileclaw/domain';
import { memoryFileTitle, memorySectionHeading, parseMemoryMarkdown } from '../memory-markdown';
import { memoryContentHash } from '../memory-record-id';

interface StoredFile {
  scope: MemoryScope;
  layer: StoredMemoryLayer;
  /** The daily file's day. */
  day?: string;
  text: string;
  /** ISO-8601 of the last write. */
  mtime: string;
}

const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.md$/;

/**
 * {@link MemoryFiles} in memory for tests: each file's Markdown text in a Map, written and parsed by
 * the same rules as the files on disk (`# YYYY-MM-DD` / `# Long-term memory` title, the gateway's
 * `##` headings, a person's sections as `note`s), paths `<context|device>/<id>/<day>.md` and
 * `…/MEMORY.md` with the id percent-encoded outside `[A-Za-z0-9_-]`. Every write — the gateway's
 * ({@link append}, {@link removeSection}) and a person's ({@link edit}, {@link delete}) — is reported on
 * {@link changes$} at once (turn off with `reportOwnWrites`, or report by hand with {@link emit}).
 */
export class InMemoryMemoryFiles extends MemoryFiles {
  private readonly stored = new Map<string, StoredFile>();
  private readonly changes = new Subject<MemoryFileChange>();
  readonly changes$ = this.changes.asObservable();
  /** Whether {@link append} and {@link removeSection} report their writes on {@link changes$}. */
  reportOwnWrites = true;

  /** @param clock the time of a file's modification (a curated section without a date is taken at it); default the system's. */
  constructor(private readonly clock?: Clock) {
    super();
  }

  /** The file of a scope's layer: `<kind>/<id>/<day>.md` (daily, `day` `YYYY-MM-DD`) or `<kind>/<id>/MEMORY.md`. */
  static fileOf(scope: MemoryScope, layer: StoredMemoryLayer, day?: string): string {
    const colon = scope.indexOf(':');
    const dir = `${scope.slice(0, colon)}/${encodeId(scope.slice(colon + 1))}`;
    if (layer === 'curated') return `${dir}/MEMORY.md`;
    if (day === undefined) throw new RangeError('a daily file needs its day');
    return `${dir}/${day}.md`;
  }

  override async append(scope: MemoryScope, layer: StoredMemoryLayer, memory: Required<MemoryCandidate>, at: string): Promise<MemorySection> {
    const day = at.slice(0, 10);
    const file = InMemoryMemoryFiles.fileOf(scope, layer, day);
    let text = this.stored.get(file)?.text ?? `${memoryFileTitle(layer, day)}\n`;
    if (!text.endsWith('\n')) text += '\n';
    if (!text.endsWith('\n\n')) text += '\n';
    const line = text.split('\n').length;
    text += `${memorySectionHeading(layer, memory, at)}\n\n${memory.text}\n`;
    this.write(file, { scope, layer, ...(layer === 'daily' ? { day } : {}), text, mtime: this.now() });
    if (this.reportOwnWrites) this.emit({ scope, layer, file, removed: false });
    return { scope, layer, file, line, text: memory.text, category: memory.category, priority: memory.priority, createdAt: at, contentHash: memoryContentHash(memory.text) };
  }

  override async read(file: string): Promise<MemorySection[]> {
    const stored = this.stored.get(file);
    if (!stored) return [];
    return parseMemoryMarkdown(stored.text, stored.layer, stored.day).map((section) => ({
      scope: stored.scope,
      layer: stored.layer,
      file,
      line: section.line,
      text: section.text,
      category: section.category,
      priority: section.priority,
      createdAt: section.at ?? (stored.day !== undefined ? `${stored.day}T00:00:00.000Z` : stored.mtime),
      contentHash: memoryContentHash(section.text),
    }));
  }

  override async dailyFiles(scope: MemoryScope, sinceDay: string): Promise<{ day: string; file: string }[]> {
    return [...this.stored.entries()]
      .filter(([, stored]) => stored.scope === scope && stored.day !== undefined && stored.day >= sinceDay)
      .map(([file, stored]) => ({ day: stored.day as string, file }))
      .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  }

  override async removeSection(file: string, contentHash: string): Promise<number> {
    const stored = this.stored.get(file);
    if (!stored) return 0;
    const lines = stored.text.split('\n');
    const doomed = parseMemoryMarkdown(stored.text, stored.layer, stored.day).filter((section) => memoryContentHash(section.text) === contentHash);
    if (doomed.length === 0) return 0;
    for (const section of [...doomed].reverse()) lines.splice(section.line - 1, section.endLine - section.line + 1);
    this.write(file, { ...stored, text: lines.join('\n'), mtime: this.now() });
    if (this.reportOwnWrites) this.emit({ scope: stored.scope, layer: stored.layer, file, removed: false });
    return doomed.length;
  }

  override async allFiles(): Promise<{ scope: MemoryScope; layer: StoredMemoryLayer; file: string }[]> {
    return [...this.stored.entries()].map(([file, stored]) => ({ scope: stored.scope, layer: stored.layer, file }));
  }

  /** A person's edit: `file` (a path as {@link fileOf} makes them) now holds `text`; reported on {@link changes$}. */
  edit(file: string, text: string): void {
    const known = this.stored.get(file) ?? parsePath(file);
    this.write(file, { scope: known.scope, layer: known.layer, ...(known.day !== undefined ? { day: known.day } : {}), text, mtime: this.now() });
    this.emit({ scope: known.scope, layer: known.layer, file, removed: false });
  }

  /** A person deletes `file`; reported on {@link changes$}. */
  delete(file: string): void {
    const stored = this.stored.get(file);
    if (!stored) return;
    this.stored.delete(file);
    this.emit({ scope: stored.scope, layer: stored.layer, file, removed: true });
  }

  /** The file's text ('' when it does not exist). */
  text(file: string): string {
    return this.stored.get(file)?.text ?? '';
  }

  /** Reports a change on {@link changes$}. */
  emit(change: MemoryFileChange): void {
    this.changes.next(change);
  }

  /** Completes {@link changes$}. */
  close(): void {
    this.changes.complete();
  }

  private write(file: string, stored: StoredFile): void {
    this.stored.set(file, stored);
  }

  private now(): string {
    return (this.clock?.now() ?? new Date()).toISOString();
  }
}

function encodeId(id: string): string {
  let encoded = '';
  for (const byte of new TextEncoder().encode(id)) {
    const char = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9_-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

function parsePath(file: string): { scope: MemoryScope; layer: StoredMemoryLayer; day?: string } {
  const [kind, id, name, ...rest] = file.split('/');
  if ((kind !== 'context' && kind !== 'device') || id === undefined || name === undefined || rest.length > 0) throw new RangeError(`not a memory file path: ${file}`);
  const scope = `${kind}:${decodeURIComponent(id)}` as MemoryScope;
  if (name === 'MEMORY.md') return { scope, layer: 'curated' };
  const day = DAY_FILE.exec(name)?.[1];
  if (day === undefined) throw new RangeError(`not a memory file path: ${file}`);
  return { scope, layer: 'daily', day };
}
