import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MarkdownMemoryFiles } from '@mobileclaw/memory-files';
import { PostgresDatabase, PostgresMemoryFiles } from '@mobileclaw/store-postgres';
import { useSpecDatabase } from '@mobileclaw/store-postgres/testing';
import { importMemoryDirectory } from './memory-import';

const spec = useSpecDatabase('memory_import');

describe('importMemoryDirectory', () => {
  let root: string;
  let database: PostgresDatabase;
  let documents: PostgresMemoryFiles;

  beforeEach(async () => {
    await spec.reset();
    root = await mkdtemp(join(tmpdir(), 'memory-import-'));
    database = PostgresDatabase.open({ url: spec.url });
    documents = new PostgresMemoryFiles(database);
  });

  afterEach(async () => {
    await documents.close();
    await database.close();
    await rm(root, { recursive: true, force: true });
  });

  it('moves the memory files into the database, merged with what is there, and renames the folder so that it is not imported again', async () => {
    const dir = join(root, 'memory');
    const local = new MarkdownMemoryFiles({ dir });
    await local.append('device:sim-1', 'daily', { text: 'Mom is Alice', category: 'contact', priority: 6 }, '2026-12-02T09:15:00.000Z');
    await local.append('device:sim-1', 'daily', { text: 'Dad is Bob', category: 'contact', priority: 6 }, '2026-12-02T09:20:00.000Z');
    await local.append('context:ctx 7', 'curated', { text: 'Prefers dark mode', category: 'preference', priority: 9 }, '2026-12-01T00:00:00.000Z');
    const expected = { daily: await local.read('device/sim-1/2026-12-02.md'), curated: await local.read('context/ctx%207/MEMORY.md') };
    await local.close();
    // Not a memory file: left where it is, with the folder.
    await mkdir(join(dir, 'notes'));
    await writeFile(join(dir, 'notes', 'todo.md'), '## not memory\n');
    // Another instance already moved "Mom is Alice" into the database, in its own words.
    await documents.append('device:sim-1', 'daily', { text: 'mom is alice', category: 'contact', priority: 6 }, '2026-12-02T08:00:00.000Z');

    const imported = await importMemoryDirectory(dir, documents);
    expect(imported).toEqual({ files: 2, sections: 2, movedTo: expect.stringMatching(/\/memory\.imported-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/) });
    expect(existsSync(dir)).toBe(false);
    expect((await readdir(imported!.movedTo)).sort()).toEqual(['context', 'device', 'notes']);
    expect((await documents.read('device/sim-1/2026-12-02.md')).map((section) => section.text)).toEqual(['mom is alice', 'Dad is Bob']);
    expect((await documents.read('device/sim-1/2026-12-02.md'))[1]).toEqual({ ...expected.daily[1], line: 7 });
    expect(await documents.read('context/ctx%207/MEMORY.md')).toEqual(expected.curated);
    expect(await importMemoryDirectory(dir, documents)).toBeUndefined();
  });
});
