import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ERROR_CATALOG, type MemoryIndexQuery, type MemoryRecord } from '@mobileclaw/domain';
import { describeMemoryIndexContract, domainRejection, memoryRecordFixture, taskFixture } from '@mobileclaw/domain/testing';
import { SqliteMemoryIndex } from './sqlite-memory-index';
import { SqliteTaskRepository } from './sqlite-task-repository';
import { TASK_MIGRATIONS, TASK_SCHEMA_VERSION } from './task-database';
import { temporaryDataDir } from './testing/temporary-data-dir';

let opened: SqliteMemoryIndex[] = [];

describeMemoryIndexContract('SqliteMemoryIndex', {
  create: async () => {
    const index = SqliteMemoryIndex.open(':memory:');
    opened.push(index);
    return index;
  },
  dispose: async () => {
    for (const index of opened) index.close();
    opened = [];
  },
});

const DAILY: MemoryIndexQuery = { scope: 'device:sim-1', layer: 'daily', limit: 10 };

/** A deterministic pseudo-random generator (mulberry32), for vectors that differ from run to run only by seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// What only this adapter has: a database file shared with the task store, its schema, connections
// that fail or close. The port's behaviour is the contract's (above).
describe('SqliteMemoryIndex', () => {
  let dataDir: { dir: string; remove(): void };
  let path: string;
  const indexes: SqliteMemoryIndex[] = [];

  const open = (options: { busyTimeoutMs?: number } = {}): SqliteMemoryIndex => {
    const index = SqliteMemoryIndex.open(path, options);
    indexes.push(index);
    return index;
  };

  beforeEach(() => {
    dataDir = temporaryDataDir('mobileclaw-memory-index-');
    path = join(dataDir.dir, 'mobileclaw.db');
  });

  afterEach(() => {
    for (const index of indexes.splice(0)) index.close();
    dataDir.remove();
  });

  it('keeps records, lexical entries and vectors across a reopen of the file', async () => {
    const record = memoryRecordFixture({ text: '办公室的无线网络是ACME-5G' });
    const first = open();
    await first.upsert([record]);
    await first.setEmbedding(record.id, Float32Array.of(0.25, -1.5, 3));
    first.close();

    const reopened = open();
    expect(await reopened.get(record.id)).toStrictEqual({ ...record, embedding: 'present' });
    expect((await reopened.lexical('无线网络', DAILY)).map((hit) => hit.record.id)).toStrictEqual([record.id]);
    const [hit] = await reopened.semantic(Float32Array.of(0.25, -1.5, 3), { ...DAILY, minScore: 0.99 });
    expect(hit.record.id).toBe(record.id);
    expect(hit.vector).toStrictEqual(Float32Array.of(0.25, -1.5, 3));
  });

  it('gives lexical hits the vectors of records that have one', async () => {
    const index = open();
    const embedded = memoryRecordFixture({ text: 'gate code 1234' });
    const plain = memoryRecordFixture({ text: 'gate opens at 8' });
    await index.upsert([embedded, plain]);
    await index.setEmbedding(embedded.id, Float32Array.of(0.5, 0.25));
    const hits = await index.lexical('gate', DAILY);
    expect(new Map(hits.map((hit) => [hit.record.id, hit.vector]))).toStrictEqual(new Map([[embedded.id, Float32Array.of(0.5, 0.25)], [plain.id, undefined]]));
  });

  it('stores a vector as little-endian float32 values with its length', async () => {
    const record = memoryRecordFixture();
    const index = open();
    await index.upsert([record]);
    await index.setEmbedding(record.id, Float32Array.of(1, -2.5));
    const raw = new Database(path);
    const row = raw.prepare('SELECT vector, dims, embedding FROM memories WHERE id = ?').get(record.id) as { vector: Buffer; dims: number; embedding: string };
    raw.close();
    expect(row.dims).toBe(2);
    expect(row.embedding).toBe('present');
    expect([...row.vector]).toStrictEqual([0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x20, 0xc0]);
  });

  it('migrates a version-7 database to the current version, keeping its tasks', async () => {
    const raw = new Database(path);
    raw.pragma('journal_mode = WAL');
    for (const migration of TASK_MIGRATIONS.slice(0, 7)) raw.exec(migration);
    raw.pragma('user_version = 7');
    const task = taskFixture({ taskId: 'before-memory', status: 'completed', endedAt: '2026-03-01T10:01:00.000Z' });
    raw
      .prepare('INSERT INTO tasks (task_id, device_id, status, created_at, ended_at, data) VALUES (?, ?, ?, ?, ?, ?)')
      .run(task.taskId, task.deviceId, task.status, Date.parse(task.createdAt), Date.parse(task.endedAt!), JSON.stringify(task));
    raw.close();

    const index = open();
    const record = memoryRecordFixture();
    await index.upsert([record]);
    expect(await index.get(record.id)).toStrictEqual(record);
    const migrated = new Database(path);
    expect(migrated.pragma('user_version', { simple: true })).toBe(TASK_SCHEMA_VERSION);
    migrated.close();
    const repository = SqliteTaskRepository.open({ dataDir: dataDir.dir });
    try {
      expect(await repository.getTask('before-memory')).toStrictEqual(task);
    } finally {
      await repository.close();
    }
  });

  it('filters lexical hits by `since` over a few days (matched by day tags) and over months (filtered after matching)', async () => {
    const index = open();
    const at = (days: number): string => new Date(Date.parse('2026-12-01T12:00:00.000Z') + days * 86_400_000).toISOString();
    const old = memoryRecordFixture({ text: 'parking level 1', createdAt: at(-100) });
    const month = memoryRecordFixture({ text: 'parking level 2', createdAt: at(-30) });
    const today = memoryRecordFixture({ text: 'parking level 3', createdAt: at(0) });
    await index.upsert([old, month, today]);
    const found = async (since: string): Promise<string[]> => (await index.lexical('parking', { ...DAILY, since })).map((hit) => hit.record.id).sort();
    expect(await found(at(-90))).toStrictEqual([month.id, today.id].sort());
    expect(await found(at(-30))).toStrictEqual([month.id, today.id].sort());
    expect(await found('2026-12-01T12:00:00.001Z')).toStrictEqual([]);
    expect(await found(at(-31))).toStrictEqual([month.id, today.id].sort());
    // The day tags are never words: a query naming one finds nothing.
    expect(await index.lexical('d20261201 tags:d20261201', DAILY)).toStrictEqual([]);
  });

  it('refuses malformed records and filters with VALIDATION_FAILED, writing nothing', async () => {
    const index = open();
    const good = memoryRecordFixture();
    const bad: MemoryRecord[] = [
      memoryRecordFixture({ createdAt: 'yesterday' }),
      memoryRecordFixture({ scope: 'phone:sim-1' as MemoryRecord['scope'] }),
      memoryRecordFixture({ layer: 'session' as MemoryRecord['layer'] }),
      memoryRecordFixture({ embedding: 'maybe' as MemoryRecord['embedding'] }),
    ];
    for (const record of bad) {
      expect((await domainRejection(index.upsert([good, record]))).code).toBe('VALIDATION_FAILED');
    }
    expect(await index.stats()).toStrictEqual({ records: 0, missingEmbeddings: 0 });
    expect((await domainRejection(index.lexical('wifi', { ...DAILY, since: 'last week' }))).code).toBe('VALIDATION_FAILED');
    expect((await domainRejection(index.semantic(Float32Array.of(1), { ...DAILY, scope: 'nobody' as MemoryIndexQuery['scope'], minScore: 0 }))).code).toBe('VALIDATION_FAILED');
  });

  it('fails writes with retryable STORAGE_ERROR while another connection holds the write lock, leaving its searches as they were', async () => {
    const index = open({ busyTimeoutMs: 0 });
    const kept = memoryRecordFixture({ text: 'door code 4711' });
    await index.upsert([kept]);
    await index.setEmbedding(kept.id, Float32Array.of(1, 0));
    expect((await index.semantic(Float32Array.of(1, 0), { ...DAILY, minScore: 0 })).map((hit) => hit.record.id)).toStrictEqual([kept.id]);

    const raw = new Database(path);
    raw.exec('BEGIN IMMEDIATE');
    try {
      const writes: [string, () => Promise<unknown>][] = [
        ['upsert', () => index.upsert([memoryRecordFixture({ text: 'door bell broken' })])],
        ['delete', () => index.delete([kept.id])],
        ['setEmbedding', () => index.setEmbedding(kept.id, Float32Array.of(0, 1))],
      ];
      for (const [method, write] of writes) {
        const err = await domainRejection(write());
        expect({ method, code: err.code, retryable: ERROR_CATALOG[err.code].retryable }).toStrictEqual({ method, code: 'STORAGE_ERROR', retryable: true });
      }
      // Readers are not blocked (WAL), and the failed writes left no trace.
      expect((await index.semantic(Float32Array.of(1, 0), { ...DAILY, minScore: 0.99 })).map((hit) => hit.record.id)).toStrictEqual([kept.id]);
      expect((await index.lexical('door', DAILY)).map((hit) => hit.record.id)).toStrictEqual([kept.id]);
    } finally {
      raw.exec('ROLLBACK');
      raw.close();
    }
    expect(await index.delete([kept.id])).toBe(1);
    expect(await index.semantic(Float32Array.of(1, 0), { ...DAILY, minScore: -1 })).toStrictEqual([]);
  });

  it('fails every call with SHUTTING_DOWN once closed; closing again does nothing', async () => {
    const index = open();
    index.close();
    index.close();
    const calls: [string, () => Promise<unknown>][] = [
      ['upsert', () => index.upsert([memoryRecordFixture()])],
      ['get', () => index.get('mem_1')],
      ['byHash', () => index.byHash('device:sim-1', 'a'.repeat(64))],
      ['byFile', () => index.byFile('device/sim-1/2026-12-01.md')],
      ['list', () => index.list('device:sim-1', 'daily', { limit: 1, offset: 0 })],
      ['delete', () => index.delete(['mem_1'])],
      ['lexical', () => index.lexical('wifi', DAILY)],
      ['semantic', () => index.semantic(Float32Array.of(1), { ...DAILY, minScore: 0 })],
      ['vectors', () => index.vectors(['mem_1'])],
      ['setEmbedding', () => index.setEmbedding('mem_1', Float32Array.of(1))],
      ['missingEmbeddings', () => index.missingEmbeddings(1)],
      ['stats', () => index.stats()],
    ];
    for (const [method, call] of calls) {
      expect({ method, code: (await domainRejection(call())).code }).toStrictEqual({ method, code: 'SHUTTING_DOWN' });
    }
  });

  it('answers semantic searches after many writes exactly as a freshly loaded index does', async () => {
    const next = random(7);
    const vectorOf = (dims: number): Float32Array => Float32Array.from({ length: dims }, () => next() * 2 - 1);
    const index = open();
    const records = Array.from({ length: 300 }, (_, i) => memoryRecordFixture({ text: `memory ${i}`, createdAt: new Date(Date.parse('2026-12-01T00:00:00.000Z') + i * 60_000).toISOString() }));
    await index.upsert(records);
    for (const record of records) await index.setEmbedding(record.id, vectorOf(record.text.endsWith('7') ? 4 : 8));
    const query = vectorOf(8);
    const filter = { ...DAILY, since: '2026-12-01T01:00:00.000Z', minScore: -0.2, limit: 25 };
    await index.semantic(query, filter);

    // Writes after the cache is loaded: deletions from its middle, new vectors, records moved in time or dropped to `missing`.
    await index.delete(records.filter((_, i) => i % 3 === 0).map((record) => record.id));
    for (const record of records.filter((_, i) => i % 5 === 1)) await index.setEmbedding(record.id, vectorOf(8));
    await index.upsert(records.filter((_, i) => i % 7 === 2).map((record) => ({ ...record, createdAt: '2026-11-30T00:00:00.000Z', embedding: 'present' as const })));
    await index.upsert(records.filter((_, i) => i % 11 === 4).map((record) => ({ ...record, embedding: 'missing' as const })));

    const warm = await index.semantic(query, filter);
    index.close();
    const cold = await open().semantic(query, filter);
    expect(warm.length).toBe(25);
    expect(warm.map((hit) => [hit.record.id, hit.score, hit.vector])).toStrictEqual(cold.map((hit) => [hit.record.id, hit.score, hit.vector]));
    expect(warm.every((hit, i) => i === 0 || hit.score <= warm[i - 1].score)).toBe(true);
  });
});
