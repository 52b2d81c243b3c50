import { createHash } from 'node:crypto';
import { appendFile, chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom, toArray } from 'rxjs';
import { isMobileClawError, type MemoryFileChange, type MemoryScope } from '@mobileclaw/domain';
import { MarkdownMemoryFiles } from './markdown-memory-files';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function rejection(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('MarkdownMemoryFiles', () => {
  let root: string;
  let dir: string;
  let files: MarkdownMemoryFiles;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'memory-files-'));
    dir = join(root, 'memory');
    files = new MarkdownMemoryFiles({ dir, debounceMs: 20 });
  });

  afterEach(async () => {
    await files.close();
    await rm(root, { recursive: true, force: true });
  });

  describe('append and read', () => {
    it('creates the folders and the title line, and appends sections that read back as written', async () => {
      const first = await files.append('device:sim-1', 'daily', { text: 'Mom is Alice', category: 'contact', priority: 6 }, '2026-12-02T09:15:42.123Z');
      const second = await files.append('device:sim-1', 'daily', { text: 'Office Wi-Fi is ACME-5G\nthe 5 GHz one', category: 'fact', priority: 5 }, '2026-12-02T22:01:00.000Z');
      expect(first).toEqual({
        scope: 'device:sim-1',
        layer: 'daily',
        file: 'device/sim-1/2026-12-02.md',
        line: 3,
        text: 'Mom is Alice',
        category: 'contact',
        priority: 6,
        createdAt: '2026-12-02T09:15:00.000Z',
        contentHash: sha256('mom is alice'),
      });
      expect(second.line).toBe(7);
      expect(await readFile(join(dir, 'device', 'sim-1', '2026-12-02.md'), 'utf8')).toBe(
        '# 2026-12-02\n\n## 09:15 · contact · p6\n\nMom is Alice\n\n## 22:01 · fact · p5\n\nOffice Wi-Fi is ACME-5G\nthe 5 GHz one\n\n',
      );
      expect(await files.read('device/sim-1/2026-12-02.md')).toEqual([first, second]);
    });

    it('creates its folders 0700 and its files 0600, and keeps the mode of a file a person made', async () => {
      await files.append('device:sim-1', 'daily', { text: 'Mom is Alice', category: 'contact', priority: 6 }, '2026-12-02T09:15:42.123Z');
      const modeOf = async (...path: string[]) => ((await stat(join(dir, ...path))).mode & 0o777).toString(8);
      expect([await modeOf(), await modeOf('device'), await modeOf('device', 'sim-1'), await modeOf('device', 'sim-1', '2026-12-02.md')]).toEqual(['700', '700', '700', '600']);

      await writeFile(join(dir, 'device', 'sim-1', 'MEMORY.md'), '# Memory\n');
      await chmod(join(dir, 'device', 'sim-1', 'MEMORY.md'), 0o640);
      const section = await files.append('device:sim-1', 'curated', { text: 'Office Wi-Fi is ACME-5G', category: 'fact', priority: 9 }, '2026-12-02T10:00:00Z');
      expect(await modeOf('device', 'sim-1', 'MEMORY.md')).toBe('640');
      expect(await files.removeSection(section.file, section.contentHash)).toBe(1);
      expect(await modeOf('device', 'sim-1', 'MEMORY.md')).toBe('640');
    });

    it('writes MEMORY.md with its title, the curated heading and the day', async () => {
      const section = await files.append('context:conv 7', 'curated', { text: '妈妈是Alice', category: 'preference', priority: 9 }, '2026-12-01T23:30:00+00:00');
      expect(section).toMatchObject({ file: 'context/conv%207/MEMORY.md', line: 3, layer: 'curated', createdAt: '2026-12-01T00:00:00.000Z', priority: 9 });
      expect(await readFile(join(dir, 'context', 'conv%207', 'MEMORY.md'), 'utf8')).toBe('# Long-term memory\n\n## preference · p9 · 2026-12-01\n\n妈妈是Alice\n\n');
      expect(await files.read(section.file)).toEqual([section]);
    });

    it('puts a line end first when a person left the file without one, and keeps a CRLF file in CRLF', async () => {
      await mkdir(join(dir, 'device', 'sim-1'), { recursive: true });
      await writeFile(join(dir, 'device', 'sim-1', '2026-12-02.md'), '# 2026-12-02\r\n\r\n## Lunch\r\nwith Bob');
      const section = await files.append('device:sim-1', 'daily', { text: 'Mom is Alice', category: 'contact', priority: 6 }, '2026-12-02T10:00:00Z');
      expect(section.line).toBe(5);
      expect(await readFile(join(dir, 'device', 'sim-1', '2026-12-02.md'), 'utf8')).toBe(
        '# 2026-12-02\r\n\r\n## Lunch\r\nwith Bob\r\n## 10:00 · contact · p6\r\n\r\nMom is Alice\r\n\r\n',
      );
      expect((await files.read(section.file)).map(({ line, text }) => ({ line, text }))).toEqual([
        { line: 3, text: 'with Bob' },
        { line: 5, text: 'Mom is Alice' },
      ]);
    });

    it('serialises appends to one file: every section whole, lines as reported', async () => {
      const sections = await Promise.all(
        Array.from({ length: 25 }, (_, i) => files.append('device:sim-1', 'daily', { text: `memory ${i}\nsecond line ${i}`, category: 'fact', priority: 3 }, '2026-12-02T10:00:00Z')),
      );
      const read = await files.read('device/sim-1/2026-12-02.md');
      expect(read).toHaveLength(25);
      expect(read).toEqual(expect.arrayContaining(sections));
      expect(new Set(sections.map((section) => section.line)).size).toBe(25);
    });

    it("reads a person's edits: their headings as notes, their text before the first ## ignored", async () => {
      await mkdir(join(dir, 'device', 'sim-1'), { recursive: true });
      await writeFile(join(dir, 'device', 'sim-1', 'MEMORY.md'), 'My notes, not memories.\n\n## Work\nI work at ACME since 2019.\n\n## fact · p10 · 2026-01-05\n\nAllergic to peanuts\n');
      const sections = await files.read('device/sim-1/MEMORY.md');
      expect(sections.map(({ line, text, category, priority }) => ({ line, text, category, priority }))).toEqual([
        { line: 3, text: 'I work at ACME since 2019.', category: 'note', priority: 9 },
        { line: 6, text: 'Allergic to peanuts', category: 'fact', priority: 10 },
      ]);
      expect(Date.parse(sections[0].createdAt)).not.toBeNaN();
    });

    it('has no sections, no text and no daily files where nothing was written', async () => {
      expect(await files.read('device/none/MEMORY.md')).toEqual([]);
      expect(await files.dailyFiles('device:none', '2026-01-01')).toEqual([]);
      expect(await files.removeSection('device/none/MEMORY.md', sha256('x'))).toBe(0);
      expect(await files.allFiles()).toEqual([]);
    });

    it('rejects a bad memory, scope, path or day as VALIDATION_FAILED and writes nothing', async () => {
      const failures = await Promise.all([
        rejection(files.append('device:sim-1', 'daily', { text: '  ', category: 'fact', priority: 5 }, '2026-12-02T10:00:00Z')),
        rejection(files.append('device:sim-1', 'daily', { text: 'x', category: 'Bad Category', priority: 5 }, '2026-12-02T10:00:00Z')),
        rejection(files.append('device:sim-1', 'daily', { text: 'x', category: 'fact', priority: 0 }, '2026-12-02T10:00:00Z')),
        rejection(files.append('device:sim-1', 'daily', { text: 'x', category: 'fact', priority: 5 }, 'not a time')),
        rejection(files.append('device:' as MemoryScope, 'daily', { text: 'x', category: 'fact', priority: 5 }, '2026-12-02T10:00:00Z')),
        rejection(files.read('../../etc/passwd')),
        rejection(files.removeSection('device/sim-1/MEMORY.md', 'not-a-hash')),
        rejection(files.dailyFiles('device:sim-1', '2026-02-30')),
      ]);
      for (const failure of failures) expect(isMobileClawError(failure, 'VALIDATION_FAILED')).toBe(true);
      expect(await readdir(root)).toEqual([]);
    });
  });

  describe('hostile scope ids', () => {
    it('keeps every file inside the directory, in a folder of its own that maps back to the scope', async () => {
      const ids = ['..', '../../escape', 'a/b', 'a\\b', 'nul\u0000byte', 'con', 'CON', '.', '.hidden', 'x'.repeat(300), '中'.repeat(300), '%2E%2E'];
      const written = [];
      for (const id of ids) {
        written.push(await files.append(`device:${id}`, 'curated', { text: `memory of ${JSON.stringify(id)}`, category: 'fact', priority: 9 }, '2026-12-02T10:00:00Z'));
      }
      expect(await readdir(root)).toEqual(['memory']);
      expect(await readdir(dir)).toEqual(['device']);
      const all = await files.allFiles();
      expect(all).toHaveLength(ids.length);
      expect(new Set(all.map((file) => file.file)).size).toBe(ids.length);
      expect(all.map((file) => file.scope).sort()).toEqual(ids.map((id) => `device:${id}`).sort());
      for (const [index, section] of written.entries()) {
        expect(section.scope).toBe(`device:${ids[index]}`);
        expect(await files.read(section.file)).toEqual([section]);
      }
    });
  });

  describe('removeSection', () => {
    it('removes every section with the hash and leaves the rest of the file byte for byte', async () => {
      await mkdir(join(dir, 'device', 'sim-1'), { recursive: true });
      const path = join(dir, 'device', 'sim-1', '2026-12-02.md');
      const before = '# 2026-12-02\r\nA preamble.\r\n\r\n## 10:00 · fact · p5\r\n\r\nMom is Alice\r\n\r\n## Person\r\nkeep me   \r\n\r\n## 11:00 · contact · p6\r\n\r\nmom  IS alice\r\n\r\n## last\r\nkeep me too';
      await writeFile(path, before);
      const hash = sha256('mom is alice');
      expect(await files.removeSection('device/sim-1/2026-12-02.md', hash)).toBe(2);
      expect(await readFile(path, 'utf8')).toBe('# 2026-12-02\r\nA preamble.\r\n\r\n## Person\r\nkeep me   \r\n\r\n## last\r\nkeep me too');
      expect((await files.read('device/sim-1/2026-12-02.md')).map(({ line, text }) => ({ line, text }))).toEqual([
        { line: 4, text: 'keep me' },
        { line: 7, text: 'keep me too' },
      ]);
      expect(await files.removeSection('device/sim-1/2026-12-02.md', hash)).toBe(0);
      expect(await readdir(join(dir, 'device', 'sim-1'))).toEqual(['2026-12-02.md']);
    });

    it('keeps bytes that are not UTF-8 exactly', async () => {
      await mkdir(join(dir, 'device', 'sim-1'), { recursive: true });
      const path = join(dir, 'device', 'sim-1', 'MEMORY.md');
      const odd = Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]);
      await writeFile(path, Buffer.concat([odd, Buffer.from('## a\nremove me\n## b\nkeep\xe9\n', 'latin1')]));
      expect(await files.removeSection('device/sim-1/MEMORY.md', sha256('remove me'))).toBe(1);
      expect(await readFile(path)).toEqual(Buffer.concat([odd, Buffer.from('## b\nkeep\xe9\n', 'latin1')]));
    });
  });

  describe('dailyFiles, allFiles', () => {
    it('lists the daily files from a day on, oldest first, and nothing else', async () => {
      for (const day of ['2026-12-02', '2026-11-30', '2026-11-01', '2026-12-01']) {
        await files.append('device:sim-1', 'daily', { text: `on ${day}`, category: 'fact', priority: 4 }, `${day}T08:00:00Z`);
      }
      await files.append('device:sim-1', 'curated', { text: 'lasting', category: 'fact', priority: 9 }, '2026-12-02T08:00:00Z');
      await writeFile(join(dir, 'device', 'sim-1', 'notes.md'), 'x');
      await writeFile(join(dir, 'device', 'sim-1', '2026-02-30.md'), 'x');
      expect(await files.dailyFiles('device:sim-1', '2026-11-30')).toEqual([
        { day: '2026-11-30', file: 'device/sim-1/2026-11-30.md' },
        { day: '2026-12-01', file: 'device/sim-1/2026-12-01.md' },
        { day: '2026-12-02', file: 'device/sim-1/2026-12-02.md' },
      ]);
    });

    it('walks every memory file, skipping other files, hidden ones and links out of the directory', async () => {
      await files.append('device:sim-1', 'daily', { text: 'a', category: 'fact', priority: 4 }, '2026-12-02T08:00:00Z');
      await files.append('context:c1', 'curated', { text: 'b', category: 'fact', priority: 9 }, '2026-12-02T08:00:00Z');
      await writeFile(join(dir, 'device', 'sim-1', 'README.md'), 'x');
      await writeFile(join(dir, 'device', 'sim-1', '.2026-12-01.md'), '## hidden\nx\n');
      await mkdir(join(dir, 'device', '.trash'), { recursive: true });
      await writeFile(join(dir, 'device', '.trash', 'MEMORY.md'), '## hidden\nx\n');
      await mkdir(join(dir, 'other'), { recursive: true });
      await writeFile(join(dir, 'other', 'MEMORY.md'), '## elsewhere\nx\n');
      await writeFile(join(root, 'outside.md'), '## secret\nfrom outside\n');
      await symlink(join(root, 'outside.md'), join(dir, 'context', 'c1', '2026-12-01.md'));
      await symlink(join(dir, 'device', 'sim-1', '2026-12-02.md'), join(dir, 'context', 'c1', '2026-12-02.md'));
      expect(await files.allFiles()).toEqual([
        { scope: 'context:c1', layer: 'curated', file: 'context/c1/MEMORY.md' },
        { scope: 'context:c1', layer: 'daily', file: 'context/c1/2026-12-02.md' },
        { scope: 'device:sim-1', layer: 'daily', file: 'device/sim-1/2026-12-02.md' },
      ].sort((a, b) => (a.file < b.file ? -1 : 1)));
      expect(await files.read('context/c1/2026-12-01.md')).toEqual([]);
      expect(await files.dailyFiles('context:c1', '2026-01-01')).toEqual([{ day: '2026-12-02', file: 'context/c1/2026-12-02.md' }]);
    });

    it('refuses to write through a link out of the directory (STORAGE_ERROR)', async () => {
      await mkdir(join(dir, 'device', 'sim-1'), { recursive: true });
      await writeFile(join(root, 'outside.md'), 'untouched');
      await symlink(join(root, 'outside.md'), join(dir, 'device', 'sim-1', 'MEMORY.md'));
      const failure = await rejection(files.append('device:sim-1', 'curated', { text: 'x', category: 'fact', priority: 9 }, '2026-12-02T08:00:00Z'));
      expect(isMobileClawError(failure, 'STORAGE_ERROR')).toBe(true);
      expect(await readFile(join(root, 'outside.md'), 'utf8')).toBe('untouched');
    });
  });

  describe('changes$', () => {
    const next = (predicate: (change: MemoryFileChange) => boolean) => firstValueFrom(files.changes$.pipe(filter(predicate)));

    it("reports a person's edit, a new file and a deleted file, once each file is quiet", async () => {
      await files.append('device:sim-1', 'daily', { text: 'a', category: 'fact', priority: 4 }, '2026-12-02T08:00:00Z');
      await files.start();
      const path = join(dir, 'device', 'sim-1', '2026-12-02.md');

      const edited = next((change) => change.file === 'device/sim-1/2026-12-02.md');
      await appendFile(path, '## Person\nan edit\n');
      expect(await edited).toEqual({ scope: 'device:sim-1', layer: 'daily', file: 'device/sim-1/2026-12-02.md', removed: false });

      const created = next((change) => change.file === 'context/new%20one/MEMORY.md');
      await mkdir(join(dir, 'context', 'new%20one'), { recursive: true });
      await writeFile(join(dir, 'context', 'new%20one', 'MEMORY.md'), '## Person\nnew file\n');
      expect(await created).toEqual({ scope: 'context:new one', layer: 'curated', file: 'context/new%20one/MEMORY.md', removed: false });

      const deleted = next((change) => change.file === 'device/sim-1/2026-12-02.md');
      await unlink(path);
      expect(await deleted).toEqual({ scope: 'device:sim-1', layer: 'daily', file: 'device/sim-1/2026-12-02.md', removed: true });
    });

    it("reports the gateway's own writes and removals, and nothing for other files", async () => {
      await files.start();
      const seen = files.changes$.pipe(toArray());
      const collected = firstValueFrom(seen);
      const appended = next((change) => change.file === 'device/sim-1/MEMORY.md');
      await writeFile(join(dir, 'device-notes.md'), 'not a memory');
      await mkdir(join(dir, 'device', 'sim-1'), { recursive: true });
      await writeFile(join(dir, 'device', 'sim-1', 'notes.md'), 'not a memory');
      const section = await files.append('device:sim-1', 'curated', { text: 'Mom is Alice', category: 'contact', priority: 9 }, '2026-12-02T08:00:00Z');
      expect(await appended).toMatchObject({ file: section.file, removed: false });

      const rewritten = next((change) => change.file === section.file);
      expect(await files.removeSection(section.file, section.contentHash)).toBe(1);
      expect(await rewritten).toEqual({ scope: 'device:sim-1', layer: 'curated', file: section.file, removed: false });

      await files.close();
      const all = await collected;
      expect(all.every((change) => change.file === section.file)).toBe(true);
    });

    it('completes on close', async () => {
      await files.start();
      const done = firstValueFrom(files.changes$.pipe(toArray()));
      await files.close();
      expect(await done).toEqual([]);
    });
  });
});
