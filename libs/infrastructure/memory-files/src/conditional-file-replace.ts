import { randomUUID } from 'node:crypto';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `content` to a temporary file beside `path` and renames it over `path` — only when `path`
 * still holds `expected` (checked after the temporary file is written, so the window left is a rename).
 * @returns false, with `path` untouched, when it changed.
 */
export async function replaceFileIfUnchanged(path: string, content: Buffer, mode: number, expected: Buffer): Promise<boolean> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
  try {
    await writeFile(temporary, content, { mode });
    const current = await readFile(path).catch(() => undefined);
    if (!current || !current.equals(expected)) {
      await unlink(temporary);
      return false;
    }
    await rename(temporary, path);
    return true;
  } catch (err) {
    await unlink(temporary).catch(() => undefined);
    throw err;
  }
}
