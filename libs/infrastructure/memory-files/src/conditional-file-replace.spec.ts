import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replaceFileIfUnchanged } from './conditional-file-replace';

describe('replaceFileIfUnchanged', () => {
  let dir: string;
  let path: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mobileclaw-replace-'));
    path = join(dir, 'MEMORY.md');
    await writeFile(path, '# Long-term memory\n\n## a\n\nA\n');
  });

  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('replaces the file when it still holds what was read, leaving no temporary file', async () => {
    const read = await readFile(path);
    expect(await replaceFileIfUnchanged(path, Buffer.from('# Long-term memory\n'), 0o600, read)).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('# Long-term memory\n');
    expect(await readdir(dir)).toEqual(['MEMORY.md']);
  });

  it('leaves a file a person changed since it was read untouched, and says so', async () => {
    const read = await readFile(path);
    await writeFile(path, '# Long-term memory\n\n## a\n\nA\n\n## written meanwhile\n\nB\n');
    expect(await replaceFileIfUnchanged(path, Buffer.from('# Long-term memory\n'), 0o600, read)).toBe(false);
    expect(await readFile(path, 'utf8')).toBe('# Long-term memory\n\n## a\n\nA\n\n## written meanwhile\n\nB\n');
    expect(await readdir(dir)).toEqual(['MEMORY.md']);
  });

  it('does not bring back a file deleted since it was read', async () => {
    const read = await readFile(path);
    await rm(path);
    expect(await replaceFileIfUnchanged(path, Buffer.from('x'), 0o600, read)).toBe(false);
    expect(await readdir(dir)).toEqual([]);
  });
});
