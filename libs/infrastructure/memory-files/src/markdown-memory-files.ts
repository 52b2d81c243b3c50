import type { Dirent } from 'node:fs';
import { appendFile, mkdir, open, readFile, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { Subject, type Observable } from 'rxjs';
import {
  MemoryFiles,
  MobileClawError,
  PRIVATE_DIRECTORY_MODE,
  PRIVATE_FILE_MODE,
  type MemoryCandidate,
  type MemoryFileChange,
  type MemoryScope,
  type MemorySection,
  type StoredMemoryLayer,
} from '@mobileclaw/domain';
import { replaceFileIfUnchanged } from './conditional-file-replace';
import { isCalendarDay, isScopeFolderPrefix, memoryFilePath, memorySectionAt, parseMemoryFilePath, scopeFolder, type MemoryFileLocation } from './memory-file-path';
import { checkedInstant, formatFileTitle, formatMemorySection, lineEndingOf, parseMemorySections, withoutMemorySections } from './memory-section-format';

/** Options of {@link MarkdownMemoryFiles}. */
export interface MarkdownMemoryFilesOptions {
  /** The memory directory, e.g. `<data dir>/memory`; created when missing. */
  dir: string;
  /** How long a file must be quiet before its change is reported, in ms. Default 200. */
  debounceMs?: number;
}

/** How often a section's removal reads and rewrites a file that keeps changing under it before it gives up. */
const REWRITE_ATTEMPTS = 5;
const DEFAULT_DEBOUNCE_MS = 200;
/** The kinds of scope, the top folders of the memory directory. */
const KIND_FOLDERS = ['context', 'device'] as const;
/** Deepest folder walked below a kind folder (a long id's nested folders); far above any real id's. */
const MAX_FOLDER_DEPTH = 64;
const DAILY_FILE_NAME = /^(\d{4}-\d{2}-\d{2})\.md$/;
const CONTENT_HASH = /^[0-9a-f]{64}$/;

/**
 * The memory files on disk: `<dir>/<scope kind>/<scope id, file-safe>/YYYY-MM-DD.md` and `…/MEMORY.md`
 * (layout and folder encoding: `memory-file-path.ts`; Markdown: `memory-section-format.ts`).
 *
 * Writes to one file are serialised. An append is one write of the whole section (after a line end
 * when the file does not end with one), so a crash leaves at worst a section cut at its end, never half
 * a section between two others. A removal writes the rest of the file to a hidden temporary file in
 * the same folder and renames it over the file: readers see the old file or the new one. A symbolic
 * link that leads out of the directory is not followed: its file is read as absent, and writing through
 * it fails with `STORAGE_ERROR`.
 *
 * {@link changes$} reports, once a file has been quiet for `debounceMs`, every memory file added,
 * changed or deleted after {@link start} — the gateway's own writes too, reported by the write itself
 * rather than by the watcher (the caller de-duplicates by content hash). Hidden files and anything
 * that is not a memory file are not reported.
 *
 * Folders and files it creates are private like the rest of the data directory (0700, 0600); a file
 * people made keeps its mode, also when a section is removed from it.
 *
 * An appended section is returned as a later {@link read} gives it: its `createdAt` is the heading's
 * minute (a daily heading has `HH:MM`, a curated one the day), not `at` to the millisecond.
 *
 * Failures: `VALIDATION_FAILED` for a bad scope, day, file path, memory or content hash (nothing is
 * written), `STORAGE_ERROR` when the disk fails.
 */
export class MarkdownMemoryFiles extends MemoryFiles {
  private readonly changes = new Subject<MemoryFileChange>();
  override readonly changes$: Observable<MemoryFileChange> = this.changes.asObservable();
  private readonly dir: string;
  private readonly debounceMs: number;
  private watcher: FSWatcher | undefined;
  private starting: Promise<void> | undefined;
  private root: Promise<string> | undefined;
  private closed = false;
  private readonly quietTimers = new Map<string, NodeJS.Timeout>();
  private readonly fileQueues = new Map<string, Promise<unknown>>();

  /** @throws RangeError when `debounceMs` is not an integer from 0 to 60,000. */
  constructor(readonly options: MarkdownMemoryFilesOptions) {
    super();
    this.dir = resolve(options.dir);
    this.debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    if (!Number.isInteger(this.debounceMs) || this.debounceMs < 0 || this.debounceMs > 60_000) {
      throw new RangeError(`debounceMs must be an integer from 0 to 60000, got ${this.debounceMs}`);
    }
  }

  /**
   * Starts watching the directory (people's edits), creating it when missing. Resolves once the
   * watcher is ready: a change made after that is reported. Calling it again does nothing.
   * @throws MobileClawError `STORAGE_ERROR` when the directory cannot be created.
   */
  async start(): Promise<void> {
    this.starting ??= this.startWatching();
    return this.starting;
  }

  /** Stops watching; completes {@link changes$}. Changes still waiting for quiet are dropped. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.quietTimers.values()) clearTimeout(timer);
    this.quietTimers.clear();
    await this.starting?.catch(() => undefined);
    await this.watcher?.close();
    this.changes.complete();
  }

  override async append(scope: MemoryScope, layer: StoredMemoryLayer, memory: Required<MemoryCandidate>, at: string): Promise<MemorySection> {
    const day = checkedInstant(at).toISOString().slice(0, 10);
    const file = memoryFilePath(scope, layer, day);
    formatMemorySection(layer, memory, at); // checks the memory before anything is touched
    const path = this.pathOf(file);
    return this.serialised(path, async () => {
      await this.storage('create the folder of', file, () => mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIRECTORY_MODE }));
      const real = await this.confined(path, file);
      if (real === undefined) throw new MobileClawError('STORAGE_ERROR', `memory file ${file} leads out of the memory directory`);
      const existing = await this.storage('read', file, () => readIfExists(real));
      const eol = existing?.length ? lineEndingOf(existing) : '\n';
      let prefix = '';
      if (!existing?.length) prefix = formatFileTitle(layer, day, eol);
      else if (existing[existing.length - 1] !== 0x0a) prefix = eol;
      const text = formatMemorySection(layer, memory, at, eol);
      await this.storage('append to', file, () => appendFile(real, prefix + text, { encoding: 'utf8', mode: PRIVATE_FILE_MODE }));
      this.noteOwnWrite(path);
      const [parsed] = parseMemorySections(Buffer.from(text, 'utf8'), { layer, day, modifiedAt: new Date().toISOString() });
      const line = newlines(existing) + newlines(Buffer.from(prefix)) + 1;
      return memorySectionAt({ scope, layer, day }, file, { ...parsed, line });
    });
  }

  override async read(file: string): Promise<MemorySection[]> {
    const location = this.location(file);
    const real = await this.confined(this.pathOf(file), file);
    if (real === undefined) return [];
    const loaded = await this.storage('read', file, () => readWithTime(real));
    if (!loaded) return [];
    return parseMemorySections(loaded.content, { layer: location.layer, day: location.day, modifiedAt: loaded.modifiedAt }).map((parsed) =>
      memorySectionAt(location, file, parsed),
    );
  }

  override async dailyFiles(scope: MemoryScope, sinceDay: string): Promise<{ day: string; file: string }[]> {
    if (!isCalendarDay(sinceDay)) throw new MobileClawError('VALIDATION_FAILED', `sinceDay must be a day YYYY-MM-DD, got ${JSON.stringify(sinceDay.slice(0, 40))}`);
    const folder = scopeFolder(scope);
    const entries = await this.storage('list', folder, () => listIfExists(this.pathOf(folder)));
    const days: { day: string; file: string }[] = [];
    for (const entry of entries) {
      const day = DAILY_FILE_NAME.exec(entry.name)?.[1];
      if (day === undefined || !isCalendarDay(day) || day < sinceDay) continue;
      const file = `${folder}/${entry.name}`;
      if (await this.isMemoryFile(entry, file)) days.push({ day, file });
    }
    return days.sort((a, b) => (a.day < b.day ? -1 : 1));
  }

  override async removeSection(file: string, contentHash: string): Promise<number> {
    const location = this.location(file);
    if (!CONTENT_HASH.test(contentHash)) throw new MobileClawError('VALIDATION_FAILED', `contentHash must be 64 lower-case hex digits, got ${JSON.stringify(contentHash.slice(0, 80))}`);
    const path = this.pathOf(file);
    return this.serialised(path, async () => {
      const real = await this.confined(path, file);
      if (real === undefined) return 0;
      // A person may be editing the file meanwhile: the rewrite replaces it only if it still holds what
      // was read, else it reads again — never dropping what they wrote.
      for (let attempt = 1; ; attempt++) {
        const loaded = await this.storage('read', file, () => readWithTime(real));
        if (!loaded) return 0;
        const { content, removed } = withoutMemorySections(loaded.content, { layer: location.layer, day: location.day, modifiedAt: loaded.modifiedAt }, contentHash);
        if (removed === 0) return 0;
        const replaced = await this.storage('rewrite', file, () => replaceFileIfUnchanged(real, content, loaded.mode, loaded.content));
        if (replaced) {
          this.noteOwnWrite(path);
          return removed;
        }
        if (attempt === REWRITE_ATTEMPTS) {
          throw new MobileClawError('STORAGE_ERROR', `${file} kept changing while a section was removed from it (${REWRITE_ATTEMPTS} attempts): nothing was removed, try again`);
        }
      }
    });
  }

  override async allFiles(): Promise<{ scope: MemoryScope; layer: StoredMemoryLayer; file: string }[]> {
    const files: { scope: MemoryScope; layer: StoredMemoryLayer; file: string }[] = [];
    const walk = async (segments: string[]): Promise<void> => {
      const folder = segments.join('/');
      const entries = await this.storage('list', folder, () => listIfExists(this.pathOf(folder)));
      for (const entry of entries) {
        if (entry.name.startsWith('.')) continue;
        const inner = [...segments, entry.name];
        if (entry.isDirectory()) {
          if (inner.length <= MAX_FOLDER_DEPTH && isScopeFolderPrefix(inner)) await walk(inner);
          continue;
        }
        const file = inner.join('/');
        const location = parseMemoryFilePath(file);
        if (location && (await this.isMemoryFile(entry, file))) files.push({ scope: location.scope, layer: location.layer, file });
      }
    };
    for (const kind of KIND_FOLDERS) await walk([kind]);
    return files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  }

  private async startWatching(): Promise<void> {
    if (this.closed) return;
    await this.realRoot();
    if (this.closed) return;
    const watcher = watch(this.dir, { ignoreInitial: true, followSymlinks: false, ignored: (path) => this.isIgnoredPath(path) });
    this.watcher = watcher;
    watcher.on('all', (event, path) => {
      if (event === 'add' || event === 'change' || event === 'unlink') this.noteChange(path);
    });
    // A watcher error (a folder gone mid-scan) loses nothing worth reporting: the files are re-read on the next change.
    watcher.on('error', () => undefined);
    await new Promise<void>((ready) => watcher.once('ready', () => ready()));
  }

  /** Hidden files and folders, and anything outside the kind folders, are neither watched nor reported. */
  private isIgnoredPath(path: string): boolean {
    const inner = relative(this.dir, path);
    if (inner === '') return false;
    const segments = inner.split(sep);
    return segments[0] === '..' || !(KIND_FOLDERS as readonly string[]).includes(segments[0]) || segments.some((segment) => segment.startsWith('.'));
  }

  /**
   * The gateway's own writes are reported without waiting for the watcher: a folder created just
   * before the write may not be watched yet, and a busy machine may deliver its event late.
   */
  private noteOwnWrite(path: string): void {
    if (this.starting !== undefined) this.noteChange(path);
  }

  /** (Re)starts the file's quiet timer; when it runs out, reports the file as it is then (present or gone). */
  private noteChange(path: string): void {
    if (this.closed) return;
    const file = relative(this.dir, path).split(sep).join('/');
    const location = parseMemoryFilePath(file);
    if (!location) return;
    clearTimeout(this.quietTimers.get(file));
    const timer = setTimeout(() => {
      this.quietTimers.delete(file);
      void stat(path).then(
        (stats) => this.report(location, file, !stats.isFile()),
        () => this.report(location, file, true),
      );
    }, this.debounceMs);
    this.quietTimers.set(file, timer);
  }

  private report(location: MemoryFileLocation, file: string, removed: boolean): void {
    if (!this.closed) this.changes.next({ scope: location.scope, layer: location.layer, file, removed });
  }

  /**
   * What a `file` argument is.
   * @throws MobileClawError `VALIDATION_FAILED` when it is not a memory file's path.
   */
  private location(file: string): MemoryFileLocation {
    const location = parseMemoryFilePath(file);
    if (!location) throw new MobileClawError('VALIDATION_FAILED', `not a memory file: ${JSON.stringify(file.slice(0, 200))}`);
    return location;
  }

  private pathOf(file: string): string {
    return join(this.dir, ...file.split('/'));
  }

  /** The directory's real path (it is created first when missing). */
  private realRoot(): Promise<string> {
    this.root ??= this.storage('create', '.', async () => {
      await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
      return realpath(this.dir);
    });
    const root = this.root;
    root.catch(() => (this.root = undefined));
    return root;
  }

  /**
   * Where `path` really is when that is inside the directory (for a missing file: its folder's real
   * path joined with its name); undefined when a symbolic link on the way leads out of it.
   */
  private async confined(path: string, file: string): Promise<string | undefined> {
    const root = await this.realRoot();
    const real = await this.storage('resolve', file, async () => {
      try {
        return await realpath(path);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      try {
        return join(await realpath(dirname(path)), basename(path));
      } catch (err) {
        if (isNotFound(err)) return join(root, relative(this.dir, path));
        throw err;
      }
    });
    return real === root || real.startsWith(root + sep) ? real : undefined;
  }

  /** True for a regular file, or a symbolic link to one inside the directory. */
  private async isMemoryFile(entry: Dirent, file: string): Promise<boolean> {
    if (entry.isFile()) return true;
    if (!entry.isSymbolicLink()) return false;
    const real = await this.confined(this.pathOf(file), file);
    if (real === undefined) return false;
    return stat(real).then(
      (stats) => stats.isFile(),
      () => false,
    );
  }

  /** Runs `work` after every earlier write to the same file has settled. */
  private serialised<T>(path: string, work: () => Promise<T>): Promise<T> {
    const previous = this.fileQueues.get(path) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.fileQueues.set(path, settled);
    void settled.then(() => {
      if (this.fileQueues.get(path) === settled) this.fileQueues.delete(path);
    });
    return next;
  }

  /** Runs a file operation; a failure other than {@link MobileClawError} becomes `STORAGE_ERROR` naming the file and the system's code. */
  private async storage<T>(action: string, file: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof MobileClawError) throw err;
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      throw new MobileClawError('STORAGE_ERROR', `cannot ${action} memory file ${file}: ${code}`, { cause: err });
    }
  }
}


function newlines(content: Buffer | undefined): number {
  let count = 0;
  if (!content) return count;
  for (let at = content.indexOf(0x0a); at >= 0; at = content.indexOf(0x0a, at + 1)) count++;
  return count;
}

function isNotFound(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function readIfExists(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** The file's bytes, modification time (ISO-8601) and mode; undefined when there is none (missing, or no regular file). */
async function readWithTime(path: string): Promise<{ content: Buffer; modifiedAt: string; mode: number } | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return undefined;
    return { content: await handle.readFile(), modifiedAt: stats.mtime.toISOString(), mode: stats.mode & 0o777 };
  } finally {
    await handle.close();
  }
}

async function listIfExists(path: string): Promise<Dirent[]> {
  try {
    return await readdir(path, { withFileTypes: true });
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
}

/** Writes `content` to a hidden file beside `path`, then renames it over `path`. */
