import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDirectory } from './private-files';

let root!: string;
beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'mobileclaw-private-'))));
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('ensurePrivateDirectory', () => {
  it('creates the directory and its missing parents with mode 0700', () => {
    const dir = join(root, 'a', 'b', 'c');
    expect(ensurePrivateDirectory(dir)).toBeUndefined();
    for (const path of [join(root, 'a'), join(root, 'a', 'b'), dir]) expect(statSync(path).mode & 0o777).toBe(0o700);
    // Again: nothing to do.
    expect(ensurePrivateDirectory(dir)).toBeUndefined();
  });

  it('narrows an existing directory others may read to 0700, and returns its previous mode', () => {
    const dir = join(root, 'open');
    ensurePrivateDirectory(dir);
    chmodSync(dir, 0o755);
    expect(ensurePrivateDirectory(dir)).toBe(0o755);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('throws ENOTDIR when the path or a parent is a file', () => {
    const file = join(root, 'file');
    writeFileSync(file, 'x');
    expect(() => ensurePrivateDirectory(file)).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    expect(() => ensurePrivateDirectory(join(file, 'data'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });

  it('throws ENOENT where the file system refuses new entries (under /proc), instead of retrying forever', () => {
    expect(() => ensurePrivateDirectory('/proc/mobileclaw-data/tasks')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
