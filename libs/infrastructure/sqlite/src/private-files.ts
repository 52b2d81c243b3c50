import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from '@mobileclaw/domain';

export { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE };

/** Access bits of `path` (e.g. `0o755`). */
const modeOf = (path: string) => statSync(path).mode & 0o777;

/**
 * Creates `dir` (and missing parents) with mode 0700, whatever the process umask, or narrows an
 * existing `dir` that group or others may read to 0700: screenshots show private messages, so the
 * data is tightened at start rather than refused.
 * @returns the directory's previous mode when an existing one was narrowed, else undefined.
 * @throws Error when the directory cannot be created, read or changed (e.g. EACCES, or another owner).
 */
export function ensurePrivateDirectory(dir: string): number | undefined {
  const created = makeDirectory(dir, PRIVATE_DIRECTORY_MODE);
  const mode = modeOf(dir);
  if (mode === PRIVATE_DIRECTORY_MODE) return undefined;
  chmodSync(dir, PRIVATE_DIRECTORY_MODE);
  return created ? undefined : mode;
}

/**
 * Creates `dir` and its missing parents with `mode` (`mkdir -p`), one level at a time: Node's own
 * recursive mkdir never returns where a folder refuses new entries with ENOENT (under `/proc`, Node
 * 20 loops at full CPU), this throws that ENOENT.
 * @returns whether `dir` was created (false: it was a directory already).
 * @throws Error `ENOTDIR` when `dir` or a parent is a file; what mkdir throws otherwise (EACCES, ENOENT, EROFS…).
 */
function makeDirectory(dir: string, mode: number): boolean {
  try {
    mkdirSync(dir, { mode });
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if (statSync(dir).isDirectory()) return false;
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: 'ENOTDIR', path: dir });
    }
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir) throw err;
    makeDirectory(parent, mode);
    // The parent exists now: a second ENOENT is the file system's refusal, thrown as it is.
    mkdirSync(dir, { mode });
    return true;
  }
}

/**
 * Creates `path` empty with mode 0600 when absent, and sets an existing file's mode to 0600.
 * @throws Error when the file cannot be created or changed.
 */
export function ensurePrivateFile(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  if (modeOf(path) !== PRIVATE_FILE_MODE) chmodSync(path, PRIVATE_FILE_MODE);
}

/** Sets `path`'s mode to 0600 when the file exists; nothing when it does not. */
export function narrowFileIfPresent(path: string): void {
  try {
    if (modeOf(path) !== PRIVATE_FILE_MODE) chmodSync(path, PRIVATE_FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
