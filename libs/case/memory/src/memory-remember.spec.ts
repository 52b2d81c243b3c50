import { MEMORY_TEXT_MAX_CHARS, MobileClawError } from '@mobileclaw/domain';
import { memoryContentHash, memoryRecordId } from './memory-record-id';
import { InMemoryMemoryFiles, memoryHarness } from './testing';

const SCOPE = 'device:sim-1';
const DAILY = 'device/sim-1/2026-12-02.md';
const CURATED = 'device/sim-1/MEMORY.md';

async function rejection(promise: Promise<unknown>): Promise<MobileClawError> {
  try {
    await promise;
  } catch (err) {
    return err as MobileClawError;
  }
  throw new Error('expected a rejection');
}

describe('MemoryService remember, get, list, forget', () => {
  it('writes priority 8 to the daily file and MEMORY.md, indexed and embedded in one request', async () => {
    const { service, files, index, embeddings } = memoryHarness();
    const records = await service.remember(SCOPE, { text: '  Mom is Alice ', category: 'contact', priority: 8 }, 'api');
    const hash = memoryContentHash('Mom is Alice');
    expect(records).toEqual([
      { id: memoryRecordId(SCOPE, 'daily', hash), scope: SCOPE, layer: 'daily', text: 'Mom is Alice', category: 'contact', priority: 8, createdAt: '2026-12-02T10:00:00.000Z', source: { file: DAILY, line: 3 }, contentHash: hash, embedding: 'present' },
      { id: memoryRecordId(SCOPE, 'curated', hash), scope: SCOPE, layer: 'curated', text: 'Mom is Alice', category: 'contact', priority: 8, createdAt: '2026-12-02T10:00:00.000Z', source: { file: CURATED, line: 3 }, contentHash: hash, embedding: 'present' },
    ]);
    expect(files.text(DAILY)).toBe('# 2026-12-02\n\n## 10:00 · contact · p8\n\nMom is Alice\n');
    expect(files.text(CURATED)).toBe('# Long-term memory\n\n## contact · p8 · 2026-12-02\n\nMom is Alice\n');
    expect(index.all()).toEqual(records);
    expect(records.every((record) => index.hasVector(record.id))).toBe(true);
    expect(embeddings?.calls).toEqual([['Mom is Alice']]);
  });

  it('writes a preference of priority 2 to both files, and a fact of priority 7 to the daily file only', async () => {
    const { service, files } = memoryHarness();
    expect((await service.remember(SCOPE, { text: 'Prefers dark mode', category: 'preference', priority: 2 }, 'tool')).map((record) => record.layer)).toEqual(['daily', 'curated']);
    expect((await service.remember(SCOPE, { text: 'Parked on level 3', priority: 7 }, 'tool')).map((record) => [record.layer, record.category, record.priority])).toEqual([['daily', 'fact', 7]]);
    expect(files.text(CURATED)).toBe('# Long-term memory\n\n## preference · p2 · 2026-12-02\n\nPrefers dark mode\n');
    expect(files.text(DAILY)).toBe('# 2026-12-02\n\n## 10:00 · preference · p2\n\nPrefers dark mode\n\n## 10:00 · fact · p7\n\nParked on level 3\n');
  });

  it('does not write a text again that a layer already holds, even on another day', async () => {
    const { service, files, clock, embeddings } = memoryHarness();
    const first = await service.remember(SCOPE, { text: 'Mom is Alice' }, 'api');
    clock.set('2026-12-03T08:00:00.000Z');
    const again = await service.remember(SCOPE, { text: 'mom  is ALICE' }, 'api');
    expect(again).toEqual(first);
    expect(files.text('device/sim-1/2026-12-03.md')).toBe('');
    expect(embeddings?.calls).toHaveLength(1);
    // Curated the second time: only the curated layer is new.
    const curated = await service.remember(SCOPE, { text: 'Mom is Alice', priority: 9 }, 'api');
    expect(curated.map((record) => [record.layer, record.priority, record.source.file])).toEqual([
      ['daily', 5, DAILY],
      ['curated', 9, CURATED],
    ]);
    expect(embeddings?.calls).toHaveLength(2);
  });

  it('stores the embedding as missing when the endpoint fails, and none without one', async () => {
    const failing = memoryHarness();
    if (failing.embeddings) failing.embeddings.failing = true;
    expect((await failing.service.remember(SCOPE, { text: 'Mom is Alice' }, 'api'))[0].embedding).toBe('missing');
    expect(await failing.service.status()).toEqual({ semantic: 'on', embeddingModel: 'fake-embedding', summarizer: 'rule-based', records: 1, missingEmbeddings: 1 });
    const plain = memoryHarness({ embeddings: false });
    expect((await plain.service.remember(SCOPE, { text: 'Mom is Alice' }, 'api'))[0].embedding).toBe('none');
    expect(await plain.service.status()).toEqual({ semantic: 'off', summarizer: 'rule-based', records: 1, missingEmbeddings: 0 });
  });

  it.each([
    [{ text: '   ' }, 'text must not be blank'],
    [{ text: 'x'.repeat(MEMORY_TEXT_MAX_CHARS + 1) }, `text must be at most 4000 characters, got 4001`],
    [{ text: 'first\n## second' }, 'text must not contain a line starting with "## " (it would start another section of the memory file)'],
    [{ text: 'nul\u0000byte' }, 'text must not contain control characters other than line breaks and tabs, got U+0000'],
    [{ text: 'red \u001b[31malert' }, 'text must not contain control characters other than line breaks and tabs, got U+001B'],
    [{ text: 'ok', category: 'Not OK' }, 'category must be 1–40 lower-case letters, digits or "_", got "Not OK"'],
    [{ text: 'ok', priority: 11 }, 'priority must be an integer 1–10, got 11'],
    [{ text: 'ok', priority: 2.5 }, 'priority must be an integer 1–10, got 2.5'],
  ])('rejects %j with VALIDATION_FAILED, writing nothing', async (candidate, message) => {
    const { service, index, files } = memoryHarness();
    const err = await rejection(service.remember(SCOPE, candidate, 'api'));
    expect([err.code, err.message]).toEqual(['VALIDATION_FAILED', message]);
    expect(index.all()).toEqual([]);
    expect(await files.allFiles()).toEqual([]);
  });

  it('rejects a bad scope', async () => {
    const { service } = memoryHarness();
    const err = await rejection(service.remember('phone:1' as never, { text: 'x' }, 'api'));
    expect(err.code).toBe('VALIDATION_FAILED');
    // A typo with a space would start a second memory of the phone: refused.
    expect((await rejection(service.remember('device:sim-1 ' as never, { text: 'x' }, 'api'))).message).toBe('memory scope must be context:<id> or device:<id> (id 1–256 characters, no control characters, no spaces around it), got "device:sim-1 "');
    // Tabs and line breaks stay.
    expect((await service.remember(SCOPE, { text: 'line one\n\tindented' }, 'api'))[0].text).toBe('line one\n\tindented');
    expect(() => service.recordTurn('nope' as never, { role: 'user', text: 'x', at: '2026-12-02T10:00:00.000Z' })).toThrow(MobileClawError);
  });

  it('gets and lists records, newest first; an unknown id is MEMORY_NOT_FOUND', async () => {
    const { service, clock } = memoryHarness();
    const [first] = await service.remember(SCOPE, { text: 'first' }, 'api');
    clock.set('2026-12-02T11:00:00.000Z');
    const [second] = await service.remember(SCOPE, { text: 'second' }, 'api');
    await service.remember('device:sim-2', { text: 'elsewhere' }, 'api');
    expect(await service.get(first.id)).toEqual(first);
    expect(await service.list(SCOPE, 'daily', { limit: 10, offset: 0 })).toEqual({ records: [second, first], total: 2 });
    expect(await service.list(SCOPE, 'daily', { limit: 1, offset: 1 })).toEqual({ records: [first], total: 2 });
    expect(await service.list(SCOPE, 'curated', { limit: 10, offset: 0 })).toEqual({ records: [], total: 0 });
    expect((await rejection(service.get('mem_000000000000000000000000'))).code).toBe('MEMORY_NOT_FOUND');
    expect((await rejection(service.list(SCOPE, 'session' as never, { limit: 1, offset: 0 }))).message).toBe('layer must be daily or curated, got "session"');
    expect((await rejection(service.list(SCOPE, 'daily', { limit: 0, offset: 0 }))).message).toBe('limit must be an integer 1–500, got 0');
  });

  it('forgets for good: every section with the text in the scope, every row and vector', async () => {
    const { service, files, index, clock } = memoryHarness();
    await service.onModuleInit();
    const [daily, curated] = await service.remember(SCOPE, { text: 'Wi-Fi password is tiger', priority: 9 }, 'api');
    const [kept] = await service.remember(SCOPE, { text: 'Mom is Alice' }, 'api');
    // A person wrote the same text into another day's file; and another scope has it too.
    clock.set('2026-12-03T09:00:00.000Z');
    files.edit('device/sim-1/2026-12-03.md', '# 2026-12-03\n\n## copied\n\nwi-fi password is  tiger\n\n## other\n\nstays\n');
    const [otherScope] = await service.remember('device:sim-2', { text: 'Wi-Fi password is tiger' }, 'api');

    expect(await service.forget(curated.id)).toEqual([daily, curated]);
    expect(files.text(DAILY)).toBe('# 2026-12-02\n\n## 10:00 · fact · p5\n\nMom is Alice\n');
    expect(files.text(CURATED)).toBe('# Long-term memory\n\n');
    expect(files.text('device/sim-1/2026-12-03.md')).toBe('# 2026-12-03\n\n## other\n\nstays\n');
    await service.idle();
    expect(index.all().map((record) => record.text).sort()).toEqual(['Mom is Alice', 'Wi-Fi password is tiger', 'stays']);
    expect((await index.byHash(SCOPE, daily.contentHash)).length).toBe(0);
    expect([index.hasVector(daily.id), index.hasVector(curated.id), index.hasVector(kept.id), index.hasVector(otherScope.id)]).toEqual([false, false, true, true]);
    expect((await rejection(service.forget(daily.id))).code).toBe('MEMORY_NOT_FOUND');
    service.onModuleDestroy();
  });

  it('names files by an injective, file-safe encoding of the scope id', () => {
    expect(InMemoryMemoryFiles.fileOf('context:../a b/é', 'curated')).toBe('context/%2E%2E%2Fa%20b%2F%C3%A9/MEMORY.md');
  });
});
