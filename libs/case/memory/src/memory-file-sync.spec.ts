import { memoryContentHash, memoryRecordId } from './memory-record-id';
import { memoryHarness } from './testing';

const SCOPE = 'device:sim-1';
const DAY1 = 'device/sim-1/2026-12-01.md';
const CURATED = 'device/sim-1/MEMORY.md';

describe('MemoryService and the memory files', () => {
  it('indexes every file at start-up: one record per text, embedded in one request', async () => {
    const { service, files, index, embeddings } = memoryHarness();
    files.edit(DAY1, '# 2026-12-01\nintro\n\n## 09:30 · contact · p8\n\nMom is Alice\n\n## again\n\nmom is   alice\n\n## Groceries\n\nmilk\neggs\n');
    files.edit(CURATED, '# Long-term memory\n\n## Work\n\nWorks at ACME\n');
    await service.onModuleInit();
    const hash = memoryContentHash('Mom is Alice');
    expect(index.all()).toEqual([
      { id: memoryRecordId(SCOPE, 'daily', hash), scope: SCOPE, layer: 'daily', text: 'Mom is Alice', category: 'contact', priority: 8, createdAt: '2026-12-01T09:30:00.000Z', source: { file: DAY1, line: 4 }, contentHash: hash, embedding: 'present' },
      expect.objectContaining({ layer: 'daily', text: 'milk\neggs', category: 'note', priority: 5, createdAt: '2026-12-01T00:00:00.000Z', source: { file: DAY1, line: 12 } }),
      expect.objectContaining({ layer: 'curated', text: 'Works at ACME', category: 'note', priority: 9, createdAt: '2026-12-02T10:00:00.000Z', source: { file: CURATED, line: 3 } }),
    ]);
    expect(embeddings?.calls).toEqual([['Mom is Alice', 'milk\neggs'], ['Works at ACME']]);
    // A second start indexes nothing new.
    service.onModuleDestroy();
    await service.onModuleInit();
    expect(embeddings?.calls).toHaveLength(2);
    service.onModuleDestroy();
  });

  it("picks up a person's edits: a new section indexed and embedded, a moved one re-pointed, a deleted one gone", async () => {
    const { service, files, index, embeddings } = memoryHarness();
    await service.onModuleInit();
    const [alice] = await service.remember(SCOPE, { text: 'Mom is Alice' }, 'api');
    const [bob] = await service.remember(SCOPE, { text: 'Dad is Bob' }, 'api');
    const file = alice.source.file;
    embeddings?.calls.splice(0);

    files.edit(file, `# 2026-12-02\n\n## Car\n\nParked on level 3\n\n${files.text(file).split('\n').slice(2).join('\n')}`);
    await service.idle();
    expect(embeddings?.calls).toEqual([['Parked on level 3']]);
    const parked = index.all().find((record) => record.text === 'Parked on level 3');
    expect(parked).toMatchObject({ category: 'note', priority: 5, embedding: 'present', source: { file, line: 3 } });
    expect((await index.get(alice.id))?.source).toEqual({ file, line: 7 });
    expect(index.hasVector(alice.id)).toBe(true);

    files.edit(file, files.text(file).replace('## 10:00 · fact · p5\n\nDad is Bob\n', ''));
    await service.idle();
    expect(await index.get(bob.id)).toBeUndefined();
    expect(index.hasVector(bob.id)).toBe(false);
    expect(index.all().map((record) => record.text)).toEqual(['Mom is Alice', 'Parked on level 3']);

    files.delete(file);
    await service.idle();
    expect(index.all()).toEqual([]);
    service.onModuleDestroy();
  });

  it('never embeds twice or loses a row when file changes race a remember', async () => {
    const { service, files, index, embeddings } = memoryHarness();
    await service.onModuleInit();
    // The person's edit (reported at once) and a remember of the same text, neither awaited.
    files.edit(DAY1, '# 2026-12-01\n\n## 08:00 · fact · p5\n\nMom is Alice\n');
    const remembered = service.remember(SCOPE, { text: 'Mom is Alice', priority: 9 }, 'api');
    // The gateway's own writes are reported too, while the remember is still running.
    const second = service.remember(SCOPE, { text: 'Dad is Bob' }, 'api');
    const [daily, curated] = await remembered;
    await second;
    await service.idle();
    expect(daily.source).toEqual({ file: DAY1, line: 3 });
    expect(curated.source).toEqual({ file: CURATED, line: 3 });
    expect(files.text('device/sim-1/2026-12-02.md')).toBe('# 2026-12-02\n\n## 10:00 · fact · p5\n\nDad is Bob\n');
    expect(index.all().map((record) => [record.layer, record.text, record.embedding])).toEqual([
      ['daily', 'Mom is Alice', 'present'],
      ['curated', 'Mom is Alice', 'present'],
      ['daily', 'Dad is Bob', 'present'],
    ]);
    expect(embeddings?.calls).toEqual([['Mom is Alice'], ['Mom is Alice'], ['Dad is Bob']]);
    service.onModuleDestroy();
  });

  it('does not index a section over 4,000 characters', async () => {
    const { service, files, index } = memoryHarness();
    files.edit(DAY1, `# 2026-12-01\n\n## long\n\n${'x'.repeat(4001)}\n\n## short\n\nok\n`);
    await service.onModuleInit();
    expect(index.all().map((record) => record.text)).toEqual(['ok']);
    service.onModuleDestroy();
  });

  it('stops following the files on destroy', async () => {
    const { service, files, index } = memoryHarness();
    await service.onModuleInit();
    service.onModuleDestroy();
    files.edit(DAY1, '# 2026-12-01\n\n## note\n\nlater\n');
    await service.idle();
    expect(index.all()).toEqual([]);
  });

  it('retries missing embeddings every embeddingRetryMs', async () => {
    jest.useFakeTimers();
    try {
      const { service, files, index, embeddings } = memoryHarness({ options: { embeddingRetryMs: 1000 } });
      if (!embeddings) throw new Error('no embeddings');
      embeddings.failing = true;
      files.edit(DAY1, '# 2026-12-01\n\n## a\n\nfirst\n\n## b\n\nsecond\n');
      await service.onModuleInit();
      expect(index.all().map((record) => record.embedding)).toEqual(['missing', 'missing']);
      embeddings.failing = false;
      await jest.advanceTimersByTimeAsync(999);
      expect(embeddings.calls).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      await service.retryEmbeddings();
      // Oldest first; the two are of one time, so in id order.
      expect(embeddings.calls.map((texts) => [...texts].sort())).toEqual([
        ['first', 'second'],
        ['first', 'second'],
      ]);
      expect(index.all().map((record) => record.embedding)).toEqual(['present', 'present']);
      service.onModuleDestroy();
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
