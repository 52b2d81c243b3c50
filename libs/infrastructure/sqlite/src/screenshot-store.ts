import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from './private-files';
import { isSafeFileName } from './safe-file-name';

/**
 * Where the bytes of step screenshots live, by task folder and file name (both safe file names,
 * checked by the caller). The task database keeps which file belongs to which step and its mime type.
 */
export interface ScreenshotStore {
  /** Stores `bytes` as `taskId/fileName`, replacing a previous file of that name atomically. */
  write(taskId: string, fileName: string, bytes: Uint8Array): Promise<void>;
  /** The bytes of `taskId/fileName`, or undefined when there is no such file. */
  read(taskId: string, fileName: string): Promise<Uint8Array | undefined>;
  /** Removes one file; no error when it is absent. */
  remove(taskId: string, fileName: string): Promise<void>;
  /** Removes a task's folder and every file in it; no error when it is absent. */
  removeTask(taskId: string): Promise<void>;
  /** The task folders present. */
  listTasks(): Promise<string[]>;
  /** Resolves when a write could create its file now; rejects with the file system's error otherwise. Writes nothing. */
  checkWritable(): Promise<void>;
}

/**
 * Screenshots as files: `<rootDir>/<taskId>/<fileName>`. A write goes to a temporary file in the same
 * folder which is then renamed over the target, so a reader or a crash sees the old file or the new
 * one, never a torn one. With `fsync`, the file and its folder are also flushed to the disk before the
 * write resolves (survives an OS crash, not only a process kill). Folders are created mode 0700 and
 * files 0600: screenshots show private messages.
 */
export class FileScreenshotStore implements ScreenshotStore {
  constructor(
    readonly rootDir: string,
    private readonly options: { fsync: boolean },
  ) {}

  async write(taskId: string, fileName: string, bytes: Uint8Array): Promise<void> {
    const dir = join(this.rootDir, taskId);
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
    const target = join(dir, fileName);
    const temporary = join(dir, `.${fileName}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const handle = await open(temporary, 'w', PRIVATE_FILE_MODE);
      try {
        await handle.writeFile(bytes);
        if (this.options.fsync) await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, target);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
    if (this.options.fsync) await syncDirectory(dir);
  }

  async read(taskId: string, fileName: string): Promise<Uint8Array | undefined> {
    try {
      const buffer = await readFile(join(this.rootDir, taskId, fileName));
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async remove(taskId: string, fileName: string): Promise<void> {
    await rm(join(this.rootDir, taskId, fileName), { force: true });
  }

  async removeTask(taskId: string): Promise<void> {
    await rm(join(this.rootDir, taskId), { recursive: true, force: true });
  }

  async listTasks(): Promise<string[]> {
    try {
      const entries = await readdir(this.rootDir, { withFileTypes: true });
      return entries.filter((entry) => entry.isDirectory() && isSafeFileName(entry.name)).map((entry) => entry.name);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }

  /** The root folder may take new entries (or, before the first screenshot, the folder that will hold it). */
  async checkWritable(): Promise<void> {
    try {
      await access(this.rootDir, constants.W_OK | constants.X_OK);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await access(dirname(this.rootDir), constants.W_OK | constants.X_OK);
    }
  }
}

/** Screenshots in process memory, for the in-memory repository of tests. */
export class MemoryScreenshotStore implements ScreenshotStore {
  private readonly tasks = new Map<string, Map<string, Uint8Array>>();

  async write(taskId: string, fileName: string, bytes: Uint8Array): Promise<void> {
    let files = this.tasks.get(taskId);
    if (!files) this.tasks.set(taskId, (files = new Map()));
    files.set(fileName, Uint8Array.from(bytes));
  }

  async read(taskId: string, fileName: string): Promise<Uint8Array | undefined> {
    const bytes = this.tasks.get(taskId)?.get(fileName);
    return bytes && Uint8Array.from(bytes);
  }

  async remove(taskId: string, fileName: string): Promise<void> {
    this.tasks.get(taskId)?.delete(fileName);
  }

  async removeTask(taskId: string): Promise<void> {
    this.tasks.delete(taskId);
  }

  async listTasks(): Promise<string[]> {
    return [...this.tasks.keys()];
  }

  async checkWritable(): Promise<void> {}
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
