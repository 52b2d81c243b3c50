/**
 * The simulated phone's files: an in-memory map from absolute path to bytes, enough for what adb
 * clients do with files (`uiautomator dump` then `adb pull /sdcard/window_dump.xml`, `screencap -p
 * /sdcard/s.png`, `cat`, `rm`). Shared storage is known under its usual aliases (`/sdcard`,
 * `/storage/emulated/0`, `/storage/self/primary`, `/mnt/sdcard`).
 */

/** A stored file: its bytes and modification time in whole seconds since the epoch. */
export interface DeviceFile {
  data: Buffer;
  mtimeS: number;
}

/** Directories that exist (and are listed by `LIST`), in canonical form. */
const DIRECTORIES = ['/', '/sdcard', '/data', '/data/local', '/data/local/tmp'];
const STORAGE_ALIASES = ['/storage/emulated/0', '/storage/self/primary', '/mnt/sdcard'];

/** Device paths where the shell user may write (shared storage and adb's scratch directory). */
const WRITABLE = ['/sdcard/', '/data/local/tmp/'];

export class DeviceFiles {
  private readonly files = new Map<string, DeviceFile>();

  /** `clock()` gives the time in ms used for modification times (default `Date.now`). */
  constructor(private readonly clock: () => number = Date.now) {}

  /** The canonical form of `path` (absolute, `.`/`..` and `//` resolved, storage aliases mapped to `/sdcard`). */
  static canonical(path: string, cwd = '/'): string {
    const absolute = path.startsWith('/') ? path : `${cwd.replace(/\/$/, '')}/${path}`;
    const segments: string[] = [];
    for (const segment of absolute.split('/')) {
      if (segment === '' || segment === '.') continue;
      if (segment === '..') segments.pop();
      else segments.push(segment);
    }
    let canonical = `/${segments.join('/')}`;
    for (const alias of STORAGE_ALIASES) if (canonical === alias || canonical.startsWith(`${alias}/`)) canonical = `/sdcard${canonical.slice(alias.length)}`;
    return canonical;
  }

  read(path: string): DeviceFile | undefined {
    return this.files.get(DeviceFiles.canonical(path));
  }

  isDirectory(path: string): boolean {
    return DIRECTORIES.includes(DeviceFiles.canonical(path));
  }

  /** Whether the shell user may create `path` (a file directly or deeper under a writable directory). */
  writable(path: string): boolean {
    const canonical = DeviceFiles.canonical(path);
    return WRITABLE.some((dir) => canonical.startsWith(dir));
  }

  /** Stores `data` at `path` (callers check {@link writable} first and report the failure their own way). */
  write(path: string, data: Buffer, append = false): void {
    const canonical = DeviceFiles.canonical(path);
    const before = append ? this.files.get(canonical)?.data : undefined;
    this.files.set(canonical, { data: before ? Buffer.concat([before, data]) : Buffer.from(data), mtimeS: Math.floor(this.clock() / 1000) });
  }

  /** Removes the file; false when there was none. */
  remove(path: string): boolean {
    return this.files.delete(DeviceFiles.canonical(path));
  }

  /** Names of the files and directories directly inside directory `path`. */
  list(path: string): { name: string; directory: boolean; file?: DeviceFile }[] {
    const dir = DeviceFiles.canonical(path);
    const prefix = dir === '/' ? '/' : `${dir}/`;
    const direct = (p: string): string | null => (p.startsWith(prefix) && p !== dir && !p.slice(prefix.length).includes('/') ? p.slice(prefix.length) : null);
    const entries: { name: string; directory: boolean; file?: DeviceFile }[] = [];
    for (const d of DIRECTORIES) {
      const name = direct(d);
      if (name) entries.push({ name, directory: true });
    }
    for (const [p, file] of this.files) {
      const name = direct(p);
      if (name) entries.push({ name, directory: false, file });
    }
    return entries.sort((a, b) => a.name.localeCompare(b.name));
  }
}
