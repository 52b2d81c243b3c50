import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Mode of the client's store folders: the owner only. */
export const PRIVATE_DIRECTORY_MODE = 0o700;
/** Mode of the client's record files: the owner only. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * A store folder that is made once, on first use: created with its parents and set to
 * {@link PRIVATE_DIRECTORY_MODE} (mkdir's mode applies neither to a folder that already exists nor
 * past the umask). A failure is not remembered: the next call tries again.
 */
export class PrivateDirectory {
  private ready?: Promise<void>;

  constructor(readonly path: string) {}

  /** Resolves once the folder exists with its mode; rejects with the file system's error. */
  prepare(): Promise<void> {
    this.ready ??= mkdir(this.path, { recursive: true, mode: PRIVATE_DIRECTORY_MODE }).then(
      () => chmod(this.path, PRIVATE_DIRECTORY_MODE),
      (err: unknown) => {
        this.ready = undefined;
        throw err;
      },
    );
    return this.ready;
  }
}

/**
 * Writes `text` (UTF-8) to a new temporary file in `dir`, named `.<stem>.<random>.tmp`, mode
 * {@link PRIVATE_FILE_MODE}, flushed to the disk; answers its path. A failure removes the file.
 */
export async function writeTemporaryFile(dir: string, stem: string, text: string): Promise<string> {
  const temporary = join(dir, `.${stem}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'wx', PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
  return temporary;
}

/**
 * Replaces `dir/<stem>.json`-like `target` with `text` so that a crash leaves the old file or the new
 * one: written to a temporary file ({@link writeTemporaryFile}), renamed over the target, then the
 * folder flushed so the rename itself survives a power loss.
 */
export async function replaceFile(dir: string, target: string, stem: string, text: string): Promise<void> {
  const temporary = await writeTemporaryFile(dir, stem, text);
  try {
    await rename(temporary, target);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
  await syncDirectory(dir);
}

/** Flushes a folder's entries (a rename, a new link) to the disk. */
export async function syncDirectory(dir: string): Promise<void> {
  // Windows cannot open a folder for flushing; NTFS journals the rename itself.
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
