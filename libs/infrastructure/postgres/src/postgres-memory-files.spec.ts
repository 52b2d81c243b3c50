import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeMemoryFilesContract, domainRejection } from '@mobileclaw/domain/testing';
import { MarkdownMemoryFiles } from '@mobileclaw/memory-files';
import { PostgresDatabase } from './postgres-database';
import { PostgresMemoryFiles } from './postgres-memory-files';
import { postgresStoreLifecycle, useSpecDatabase } from './testing';

const spec = useSpecDatabase('memory_files');
const lifecycle = postgresStoreLifecycle(spec, (database) => new PostgresMemoryFiles(database));

describeMemoryFilesContract('PostgresMemoryFiles', lifecycle);

const fact = (text: string, category = 'fact', priority = 5) => ({ text, category, priority });
const DAILY_FILE = 'device/sim-1/2026-12-02.md';

// What only this adapter has: the documents of the file store, byte for byte, shared by several instances (pools).
describe('PostgresMemoryFiles', () => {
  beforeEach(async () => {
    await lifecycle.create();
  });
  afterEach(async () => {
    await lifecycle.dispose();
  });

  async function contentOf(path: string): Promise<string | undefined> {
    const database = PostgresDatabase.open({ url: spec.url });
    try {
      const [row] = await database.query<{ content: Buffer }>('SELECT content FROM memory_files WHERE path = $1', [path]);
      return row?.content.toString('utf8');
    } finally {
      await database.close();
    }
  }

  it('writes the very documents MarkdownMemoryFiles writes: same paths, same Markdown, same sections', async () => {
    const root = await mkdtemp(join(tmpdir(), 'memory-files-compare-'));
    const markdown = new MarkdownMemoryFiles({ dir: join(root, 'memory') });
    const postgres = lifecycle.open();
    try {
      const writes: [Parameters<PostgresMemoryFiles['append']>, string][] = [
        [['context:Zoë/7', 'daily', fact('Mom is Alice', 'contact', 6), '2026-12-02T09:15:42.123Z'], 'context/Zo%C3%AB%2F7/2026-12-02.md'],
        [['context:Zoë/7', 'daily', fact('Line one\n## not a heading\nline three'), '2026-12-02T22:01:00.000Z'], 'context/Zo%C3%AB%2F7/2026-12-02.md'],
        [['context:Zoë/7', 'curated', fact('妈妈是Alice', 'preference', 9), '2026-12-01T23:30:00+00:00'], 'context/Zo%C3%AB%2F7/MEMORY.md'],
      ];
      for (const [args, file] of writes) {
        const [fromFiles, fromRows] = [await markdown.append(...args), await postgres.append(...args)];
        expect(fromRows).toStrictEqual(fromFiles);
        expect(fromRows.file).toBe(file);
      }
      for (const file of ['context/Zo%C3%AB%2F7/2026-12-02.md', 'context/Zo%C3%AB%2F7/MEMORY.md']) {
        expect(await contentOf(file)).toBe(await readFile(join(root, 'memory', ...file.split('/')), 'utf8'));
        expect(await postgres.read(file)).toStrictEqual(await markdown.read(file));
      }
      const [, second] = await postgres.read('context/Zo%C3%AB%2F7/2026-12-02.md');
      expect(await postgres.removeSection(second.file, second.contentHash)).toBe(await markdown.removeSection(second.file, second.contentHash));
      expect(await contentOf(second.file)).toBe('# 2026-12-02\n\n## 09:15 · contact · p6\n\nMom is Alice\n\n');
      expect(await contentOf(second.file)).toBe(await readFile(join(root, 'memory', ...second.file.split('/')), 'utf8'));
      expect(await postgres.allFiles()).toStrictEqual(await markdown.allFiles());
    } finally {
      await markdown.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('loses no append when several instances append to one document at once, each section at the line it reported', async () => {
    const instances = [lifecycle.open(), lifecycle.open(), lifecycle.open()];
    const texts = Array.from({ length: 30 }, (_, i) => `fact ${i} from instance ${i % instances.length}`);
    const appended = await Promise.all(texts.map((text, i) => instances[i % instances.length].append('device:sim-1', 'daily', fact(text), '2026-12-02T10:00:00.000Z')));
    for (const instance of instances) {
      const read = await instance.read(DAILY_FILE);
      expect(read.map((section) => section.text).sort()).toStrictEqual([...texts].sort());
      expect([...read].sort((a, b) => a.line - b.line)).toStrictEqual([...appended].sort((a, b) => a.line - b.line));
    }
    expect((await contentOf(DAILY_FILE))?.match(/^# 2026-12-02$/gm)).toStrictEqual(['# 2026-12-02']);
  });

  it("shows one instance's removal to another at once, and loses no append made meanwhile", async () => {
    const [a, b] = [lifecycle.open(), lifecycle.open()];
    const doomed = await a.append('device:sim-1', 'daily', fact('Mom is Alice'), '2026-12-02T09:00:00.000Z');
    await a.append('device:sim-1', 'daily', fact('Dad is Bob'), '2026-12-02T09:01:00.000Z');
    const [removed, ...added] = await Promise.all([
      b.removeSection(DAILY_FILE, doomed.contentHash),
      ...Array.from({ length: 10 }, (_, i) => a.append('device:sim-1', 'daily', fact(`later ${i}`), '2026-12-02T09:02:00.000Z')),
    ]);
    expect(removed).toBe(1);
    const texts = (await a.read(DAILY_FILE)).map((section) => section.text);
    expect(texts).not.toContain('Mom is Alice');
    expect([...texts].sort()).toStrictEqual(['Dad is Bob', ...added.map((section) => section.text)].sort());
    expect(await b.read(DAILY_FILE)).toStrictEqual(await a.read(DAILY_FILE));
  });

  it('imports a document written elsewhere: byte for byte when new, else only the sections it lacks, and nothing the second time', async () => {
    const files = lifecycle.open();
    const document = Buffer.from('# 2026-12-02\r\n\r\nA preamble\r\n## 09:00 · fact · p5\r\n\r\nMom is Alice\r\n\r\n## Lunch with Bob', 'utf8');
    expect(await files.importDocument(DAILY_FILE, document)).toBe(2);
    expect(await contentOf(DAILY_FILE)).toBe(document.toString('utf8'));
    expect(await files.importDocument(DAILY_FILE, document)).toBe(0);

    const curated = 'device/sim-1/MEMORY.md';
    await files.append('device:sim-1', 'curated', fact('Prefers dark mode', 'preference', 9), '2026-12-01T00:00:00.000Z');
    const elsewhere = '# Long-term memory\n\n## preference · p9 · 2026-11-30\n\nprefers  DARK mode\n\n## fact · p9 · 2026-11-30\n\nDad is Bob\n';
    expect(await files.importDocument(curated, Buffer.from(elsewhere, 'utf8'))).toBe(1);
    expect(await contentOf(curated)).toBe('# Long-term memory\n\n## preference · p9 · 2026-12-01\n\nPrefers dark mode\n\n## fact · p9 · 2026-11-30\n\nDad is Bob\n');
    expect(await files.importDocument(curated, Buffer.from(elsewhere, 'utf8'))).toBe(0);
    expect((await domainRejection(files.importDocument('notes/today.md', document))).code).toBe('VALIDATION_FAILED');
  });

  it('keeps a text with a NUL character byte for byte', async () => {
    const files = lifecycle.open();
    const section = await files.append('device:sim-1', 'daily', fact('odd\u0000text'), '2026-12-02T09:00:00.000Z');
    expect(section.text).toBe('odd\u0000text');
    expect(await files.read(DAILY_FILE)).toStrictEqual([section]);
  });

  it('refuses a bad scope, path, day, memory or content hash with VALIDATION_FAILED, writing nothing', async () => {
    const files = lifecycle.open();
    const refusals = await Promise.all([
      domainRejection(files.append('phone:x' as never, 'daily', fact('x'), '2026-12-02T09:00:00.000Z')),
      domainRejection(files.append('device:sim-1', 'daily', fact('   '), '2026-12-02T09:00:00.000Z')),
      domainRejection(files.append('device:sim-1', 'daily', fact('x', 'Bad Category'), '2026-12-02T09:00:00.000Z')),
      domainRejection(files.append('device:sim-1', 'daily', fact('x'), 'yesterday')),
      domainRejection(files.read('../etc/passwd')),
      domainRejection(files.removeSection(DAILY_FILE, 'ABC')),
      domainRejection(files.dailyFiles('device:sim-1', '2026-02-30')),
    ]);
    expect(refusals.map((err) => err.code)).toStrictEqual(Array(7).fill('VALIDATION_FAILED'));
    expect(await files.allFiles()).toStrictEqual([]);
  });

  it('fails with STORAGE_ERROR when the database is unreachable, and with SHUTTING_DOWN once closed', async () => {
    const unreachable = PostgresDatabase.open({ url: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMs: 1_000 });
    const files = new PostgresMemoryFiles(unreachable);
    try {
      expect((await domainRejection(files.read(DAILY_FILE))).code).toBe('STORAGE_ERROR');
    } finally {
      await files.close();
      await unreachable.close();
    }
    expect((await domainRejection(files.read(DAILY_FILE))).code).toBe('SHUTTING_DOWN');
  });

  it('completes changes$ on close without ever emitting', async () => {
    const files = lifecycle.open();
    const seen: unknown[] = [];
    let completed = false;
    files.changes$.subscribe({ next: (change) => seen.push(change), complete: () => (completed = true) });
    await files.append('device:sim-1', 'daily', fact('Mom is Alice'), '2026-12-02T09:00:00.000Z');
    await files.close();
    expect(seen).toStrictEqual([]);
    expect(completed).toBe(true);
  });
});
