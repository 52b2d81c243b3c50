import { existsSync } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { MarkdownMemoryFiles } from '@mobileclaw/memory-files';
import type { PostgresMemoryFiles } from '@mobileclaw/store-postgres';

/** What {@link importMemoryDirectory} moved. */
export interface MemoryDirectoryImport {
  /** Memory files read. */
  files: number;
  /** Sections added to the database (those it already held are not counted). */
  sections: number;
  /** Where the directory is now: `<dir>.imported-<ISO-8601 time, ':' and '.' as '-'>`. */
  movedTo: string;
}

/**
 * Moves the memory files an instance kept in its data directory (before its memory was in
 * PostgreSQL) into the database's memory documents, once: every memory file of `dir` is merged into
 * the document of the same path (`PostgresMemoryFiles.importDocument`: taken whole when the database
 * has none, else only the sections it lacks, by content hash), then `dir` is renamed so that it is
 * not imported again (a memory forgotten later would otherwise come back at the next start). The
 * memory service indexes what was imported at start-up, as it does every document. Several
 * instances may import at once: each document's merge locks its row.
 * @returns what was moved, or undefined when there is no `dir`.
 * @throws MobileClawError `STORAGE_ERROR` (the disk or the database failed; what was merged stays, and a
 *   new attempt at the next start adds only what is still missing).
 */
export async function importMemoryDirectory(dir: string, documents: PostgresMemoryFiles): Promise<MemoryDirectoryImport | undefined> {
  if (!existsSync(dir)) return undefined;
  const local = new MarkdownMemoryFiles({ dir });
  let files = 0;
  let sections = 0;
  try {
    for (const { file } of await local.allFiles()) {
      sections += await documents.importDocument(file, await readFile(join(dir, ...file.split('/'))));
      files++;
    }
  } finally {
    await local.close();
  }
  const movedTo = `${dir}.imported-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await rename(dir, movedTo);
  return { files, sections, movedTo };
}
