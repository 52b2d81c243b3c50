import { describeMemoryIndexContract, memoryRecordFixture } from '@mobileclaw/domain/testing';
import { PostgresMemoryIndex } from './postgres-memory-index';
import { postgresStoreLifecycle, useSpecDatabase } from './testing';

const spec = useSpecDatabase('memory_index');
const lifecycle = postgresStoreLifecycle(spec, (database) => new PostgresMemoryIndex(database));

describeMemoryIndexContract('PostgresMemoryIndex', lifecycle);

// What only this adapter has: several instances (pools) on one table.
describe('PostgresMemoryIndex', () => {
  beforeEach(async () => {
    await lifecycle.create();
  });
  afterEach(async () => {
    await lifecycle.dispose();
  });

  it("shows one instance's writes to another at once: records, lexical and semantic hits, deletions", async () => {
    const [a, b] = [lifecycle.open(), lifecycle.open()];
    const record = memoryRecordFixture({ text: '办公室的无线网络是ACME-5G' });
    await a.upsert([record]);
    await a.setEmbedding(record.id, Float32Array.of(0.25, -1.5, 3));
    expect(await b.get(record.id)).toStrictEqual({ ...record, embedding: 'present' });
    expect((await b.lexical('无线网络', { scope: record.scope, layer: 'daily', limit: 5 })).map((hit) => hit.record.id)).toStrictEqual([record.id]);
    const [hit] = await b.semantic(Float32Array.of(0.25, -1.5, 3), { scope: record.scope, layer: 'daily', limit: 5, minScore: 0.99 });
    expect(hit?.vector).toStrictEqual(Float32Array.of(0.25, -1.5, 3));
    expect(await b.delete([record.id])).toBe(1);
    expect(await a.get(record.id)).toBeUndefined();
  });
});
