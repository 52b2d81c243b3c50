import type { MemoryRecord, MemoryScope } from '../memory/memory';
import type { MemoryIndex, MemoryIndexHit, MemoryIndexQuery } from '../memory/memory-ports';

/** How the contract suite gets the index under test. */
export interface MemoryIndexContractHooks {
  /** Opens a new, empty index; called before every test. */
  create(): Promise<MemoryIndex>;
  /** Called after every test (closes the index, removes temporary files). */
  dispose?(): Promise<void>;
}

const SCOPE: MemoryScope = 'device:sim-1';
const OTHER_SCOPE: MemoryScope = 'context:ctx-7';
const T0 = '2026-12-01T09:00:00.000Z';
const HOUR_MS = 3_600_000;

let sequence = 0;

/** `T0` plus `hours`, as an ISO-8601 string. */
function hoursAfterT0(hours: number): string {
  return new Date(Date.parse(T0) + hours * HOUR_MS).toISOString();
}

/**
 * A plausible daily record of `device:sim-1` (no embedding yet), with `overrides` applied. Its id and
 * content hash are made unique per call (a real hash is not needed by the index: it stores what it gets).
 */
export function memoryRecordFixture(overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  sequence += 1;
  const n = sequence.toString(16).padStart(24, '0');
  return {
    id: `mem_${n}`,
    scope: SCOPE,
    layer: 'daily',
    text: 'My office Wi-Fi is ACME-5G',
    category: 'fact',
    priority: 5,
    createdAt: T0,
    source: { file: 'device/sim-1/2026-12-01.md', line: 3 },
    contentHash: n.padStart(64, 'a'),
    embedding: 'missing',
    ...overrides,
  };
}

const query = (overrides: Partial<MemoryIndexQuery> = {}): MemoryIndexQuery => ({ scope: SCOPE, layer: 'daily', limit: 10, ...overrides });
const ids = (hits: MemoryIndexHit[]): string[] => hits.map((hit) => hit.record.id);
const vector = (...values: number[]): Float32Array => Float32Array.from(values);

/**
 * Registers the `describe`/`it` blocks every {@link MemoryIndex} adapter must pass: records by id,
 * hash, file and page; scope isolation in every query; BM25 lexical search (order, Chinese words,
 * queries taken literally, `since`, `limit`); cosine semantic search (minimum score, order, vectors of
 * another length); embeddings to retry; deletion everywhere; stats. Call it at the top level of an
 * adapter's spec file.
 */
export function describeMemoryIndexContract(name: string, hooks: MemoryIndexContractHooks): void {
  describe(`${name} (MemoryIndex contract)`, () => {
    let index: MemoryIndex;

    beforeEach(async () => {
      index = await hooks.create();
    });

    afterEach(async () => {
      await hooks.dispose?.();
    });

    describe('records', () => {
      it('gives back an upserted record exactly as it was given; an unknown id is undefined', async () => {
        const record = memoryRecordFixture({ layer: 'curated', category: 'preference', priority: 9, createdAt: '2026-12-01T09:30:15.250Z', source: { file: 'device/sim-1/MEMORY.md', line: 7 } });
        await index.upsert([record]);
        await index.upsert([]);
        expect(await index.get(record.id)).toStrictEqual(record);
        expect(await index.get('mem_ffffffffffffffffffffffff')).toBeUndefined();
        expect(await index.stats()).toStrictEqual({ records: 1, missingEmbeddings: 1 });
      });

      it('replaces a record by id, its lexical entry with it', async () => {
        const first = memoryRecordFixture({ text: 'mom is Alice' });
        await index.upsert([first]);
        const replaced = { ...first, text: 'mom is Beatrice', priority: 8, source: { file: first.source.file, line: 12 } };
        await index.upsert([replaced]);
        expect(await index.get(first.id)).toStrictEqual(replaced);
        expect(ids(await index.lexical('alice', query()))).toStrictEqual([]);
        expect(ids(await index.lexical('beatrice', query()))).toStrictEqual([first.id]);
        expect(await index.stats()).toStrictEqual({ records: 1, missingEmbeddings: 1 });
      });

      it('finds the scope\'s records by content hash in any layer, and a file\'s records', async () => {
        const daily = memoryRecordFixture({ contentHash: 'c'.repeat(64) });
        const curated = memoryRecordFixture({ layer: 'curated', contentHash: 'c'.repeat(64), source: { file: 'device/sim-1/MEMORY.md', line: 3 } });
        const elsewhere = memoryRecordFixture({ scope: OTHER_SCOPE, contentHash: 'c'.repeat(64), source: { file: 'context/ctx-7/2026-12-01.md', line: 3 } });
        const sameFile = memoryRecordFixture({ text: 'Battery saver on at night', source: { file: 'device/sim-1/2026-12-01.md', line: 9 } });
        await index.upsert([daily, curated, elsewhere, sameFile]);
        expect(sortById(await index.byHash(SCOPE, 'c'.repeat(64)))).toStrictEqual(sortById([daily, curated]));
        expect(await index.byHash(SCOPE, 'd'.repeat(64))).toStrictEqual([]);
        expect(sortById(await index.byFile('device/sim-1/2026-12-01.md'))).toStrictEqual(sortById([daily, sameFile]));
        expect(await index.byFile('device/sim-1/2026-11-30.md')).toStrictEqual([]);
      });

      it('lists a scope\'s layer newest first in pages, with the total', async () => {
        const records = [0, 1, 2, 3, 4].map((hour) => memoryRecordFixture({ text: `note ${hour}`, createdAt: hoursAfterT0(hour) }));
        await index.upsert([...records, memoryRecordFixture({ layer: 'curated' }), memoryRecordFixture({ scope: OTHER_SCOPE })]);
        const newestFirst = [...records].reverse();
        expect(await index.list(SCOPE, 'daily', { limit: 2, offset: 0 })).toStrictEqual({ records: newestFirst.slice(0, 2), total: 5 });
        expect(await index.list(SCOPE, 'daily', { limit: 2, offset: 4 })).toStrictEqual({ records: newestFirst.slice(4), total: 5 });
        expect(await index.list(SCOPE, 'daily', { limit: 2, offset: 6 })).toStrictEqual({ records: [], total: 5 });
        expect((await index.list(SCOPE, 'curated', { limit: 10, offset: 0 })).total).toBe(1);
        expect(await index.list('device:nobody', 'daily', { limit: 10, offset: 0 })).toStrictEqual({ records: [], total: 0 });
      });

      it('deletes records from everywhere: record, lexical and semantic results, vectors; unknown ids ignored', async () => {
        const gone = memoryRecordFixture({ text: 'door code 4711' });
        const kept = memoryRecordFixture({ text: 'door bell broken' });
        await index.upsert([gone, kept]);
        await index.setEmbedding(gone.id, vector(1, 0));
        await index.setEmbedding(kept.id, vector(0.9, 0.1));
        expect(await index.delete([gone.id, gone.id, 'mem_ffffffffffffffffffffffff'])).toBe(1);
        expect(await index.delete([gone.id])).toBe(0);
        expect(await index.get(gone.id)).toBeUndefined();
        expect(ids(await index.lexical('door', query()))).toStrictEqual([kept.id]);
        expect(ids(await index.lexical('4711', query()))).toStrictEqual([]);
        expect(ids(await index.semantic(vector(1, 0), { ...query(), minScore: -1 }))).toStrictEqual([kept.id]);
        expect([...(await index.vectors([gone.id, kept.id])).keys()]).toStrictEqual([kept.id]);
        expect(await index.list(SCOPE, 'daily', { limit: 10, offset: 0 })).toStrictEqual({ records: [{ ...kept, embedding: 'present' }], total: 1 });
        expect(await index.stats()).toStrictEqual({ records: 1, missingEmbeddings: 0 });
      });
    });

    describe('lexical search', () => {
      it('ranks by BM25: the word twice in a short text beats it once in a long one; scores ≥ 0, best first', async () => {
        const twice = memoryRecordFixture({ text: 'router password: router admin' });
        const once = memoryRecordFixture({ text: 'yesterday the technician came by and looked at the heating, the windows, the router cables and the kitchen sink' });
        const unrelated = ['mom is Alice', 'the dentist is on Friday', 'the car is parked on level 3', 'buy oat milk'].map((text) => memoryRecordFixture({ text }));
        await index.upsert([once, ...unrelated, twice]);
        const hits = await index.lexical('router', query());
        expect(ids(hits)).toStrictEqual([twice.id, once.id]);
        expect(hits[0].score).toBeGreaterThan(hits[1].score);
        expect(hits[1].score).toBeGreaterThanOrEqual(0);
        expect(hits[0].record).toStrictEqual(twice);
      });

      it('matches any of the query\'s words, case and width folded', async () => {
        const wifi = memoryRecordFixture({ text: 'My office Wi-Fi is ACME-5G' });
        const mom = memoryRecordFixture({ text: 'mom is Alice' });
        await index.upsert([wifi, mom, memoryRecordFixture({ text: 'buy oat milk' })]);
        expect(ids(await index.lexical('ＡＣＭＥ', query()))).toStrictEqual([wifi.id]);
        expect(sortIds(ids(await index.lexical('alice office', query())))).toStrictEqual(sortIds([wifi.id, mom.id]));
      });

      it('finds Chinese text by its words', async () => {
        const wifi = memoryRecordFixture({ text: '办公室的无线网络是ACME-5G' });
        const weather = memoryRecordFixture({ text: '今天天气很好' });
        await index.upsert([wifi, weather, memoryRecordFixture({ text: 'mom is Alice' })]);
        expect(ids(await index.lexical('无线网络', query()))).toStrictEqual([wifi.id]);
        expect(ids(await index.lexical('办公室的网络密码', query()))).toStrictEqual([wifi.id]);
        expect(ids(await index.lexical('acme', query()))).toStrictEqual([wifi.id]);
        expect(ids(await index.lexical('天气', query()))).toStrictEqual([weather.id]);
      });

      it('takes search syntax in a query literally, as words, and finds nothing for a query without words', async () => {
        const planB = memoryRecordFixture({ text: 'plan b is ready' });
        const bravo = memoryRecordFixture({ text: 'bravo team meets at noon' });
        const near = memoryRecordFixture({ text: 'the pharmacy near the station' });
        await index.upsert([planB, bravo, near]);
        expect(ids(await index.lexical('"a" OR b*', query()))).toStrictEqual([planB.id]);
        expect(ids(await index.lexical('NEAR(', query()))).toStrictEqual([near.id]);
        const literals: [string, string[]][] = [
          ['-x', []],
          ['words:noon', []],
          ['noon OR NOT', [bravo.id]],
          ['"unbalanced', []],
          ['a AND', []],
          ['^plan', [planB.id]],
          ['b"*"', [planB.id]],
          ['bra*', []],
        ];
        for (const [literal, expected] of literals) {
          expect(ids(await index.lexical(literal, query()))).toStrictEqual(expected);
        }
        for (const wordless of ['', '   ', '?!…', '"*()-:^', '*', '(']) {
          expect(await index.lexical(wordless, query())).toStrictEqual([]);
        }
      });

      it('keeps to the scope and layer, from `since` (inclusive), at most `limit` hits', async () => {
        const old = memoryRecordFixture({ text: 'parking level 3', createdAt: hoursAfterT0(0) });
        const atSince = memoryRecordFixture({ text: 'parking level 4', createdAt: hoursAfterT0(24) });
        const recent = memoryRecordFixture({ text: 'parking level 5', createdAt: hoursAfterT0(30) });
        const curated = memoryRecordFixture({ layer: 'curated', text: 'parking is always on level 2' });
        const elsewhere = memoryRecordFixture({ scope: OTHER_SCOPE, text: 'parking level 3' });
        await index.upsert([old, atSince, recent, curated, elsewhere]);
        expect(sortIds(ids(await index.lexical('parking', query())))).toStrictEqual(sortIds([old.id, atSince.id, recent.id]));
        expect(sortIds(ids(await index.lexical('parking', query({ since: hoursAfterT0(24) }))))).toStrictEqual(sortIds([atSince.id, recent.id]));
        expect(ids(await index.lexical('parking', query({ layer: 'curated' })))).toStrictEqual([curated.id]);
        expect(ids(await index.lexical('parking', query({ scope: OTHER_SCOPE })))).toStrictEqual([elsewhere.id]);
        expect(await index.lexical('parking', query({ limit: 2 }))).toHaveLength(2);
        expect(ids(await index.lexical('parking level 3', query({ limit: 1 })))).toStrictEqual([old.id]);
      });

      it('gives a hit no vector but the record\'s own (an index may leave it out: vectors() gives it)', async () => {
        const embedded = memoryRecordFixture({ text: 'gate code 1234' });
        const plain = memoryRecordFixture({ text: 'gate opens at 8' });
        await index.upsert([embedded, plain]);
        await index.setEmbedding(embedded.id, vector(0.5, 0.25));
        const hits = await index.lexical('gate', query());
        expect(sortIds(ids(hits))).toStrictEqual(sortIds([embedded.id, plain.id]));
        expect([undefined, vector(0.5, 0.25)]).toContainEqual(hits.find((hit) => hit.record.id === embedded.id)?.vector);
        expect(hits.find((hit) => hit.record.id === plain.id)?.vector).toBeUndefined();
      });
    });

    describe('semantic search and embeddings', () => {
      it('ranks by cosine similarity, at least minScore, skipping records without a vector or with one of another length', async () => {
        const same = memoryRecordFixture({ text: 'same direction' });
        const diagonal = memoryRecordFixture({ text: 'diagonal' });
        const orthogonal = memoryRecordFixture({ text: 'orthogonal' });
        const opposite = memoryRecordFixture({ text: 'opposite' });
        const longer = memoryRecordFixture({ text: 'four dimensions' });
        const missing = memoryRecordFixture({ text: 'not embedded' });
        const elsewhere = memoryRecordFixture({ scope: OTHER_SCOPE, text: 'same direction' });
        const curated = memoryRecordFixture({ layer: 'curated', text: 'same direction' });
        await index.upsert([same, diagonal, orthogonal, opposite, longer, missing, elsewhere, curated]);
        await index.setEmbedding(same.id, vector(2, 0, 0));
        await index.setEmbedding(diagonal.id, vector(1, 1, 0));
        await index.setEmbedding(orthogonal.id, vector(0, 0, 3));
        await index.setEmbedding(opposite.id, vector(-1, 0, 0));
        await index.setEmbedding(longer.id, vector(1, 0, 0, 0));
        await index.setEmbedding(elsewhere.id, vector(1, 0, 0));
        await index.setEmbedding(curated.id, vector(1, 0, 0));

        const hits = await index.semantic(vector(1, 0, 0), { ...query(), minScore: 0.35 });
        expect(ids(hits)).toStrictEqual([same.id, diagonal.id]);
        expect(hits[0].score).toBeCloseTo(1, 6);
        expect(hits[1].score).toBeCloseTo(Math.SQRT1_2, 6);
        expect(hits[0].record).toStrictEqual({ ...same, embedding: 'present' });
        expect(hits[1].vector).toStrictEqual(vector(1, 1, 0));

        const all = await index.semantic(vector(1, 0, 0), { ...query(), minScore: -1 });
        expect(ids(all)).toStrictEqual([same.id, diagonal.id, orthogonal.id, opposite.id]);
        expect(all.map((hit) => hit.score)).toEqual([expect.closeTo(1, 6), expect.closeTo(Math.SQRT1_2, 6), expect.closeTo(0, 6), expect.closeTo(-1, 6)]);
        expect(ids(await index.semantic(vector(1, 0, 0), { ...query(), minScore: -1, limit: 1 }))).toStrictEqual([same.id]);
        expect(ids(await index.semantic(vector(1, 0, 0), { ...query(), layer: 'curated', minScore: 0 }))).toStrictEqual([curated.id]);
        expect(ids(await index.semantic(vector(1, 0, 0), { ...query(), scope: OTHER_SCOPE, minScore: 0 }))).toStrictEqual([elsewhere.id]);
        expect(ids(await index.semantic(vector(0, 0, 0, 1), { ...query(), minScore: -1 }))).toStrictEqual([longer.id]);
        expect(await index.semantic(vector(1, 0), { ...query(), minScore: -1 })).toStrictEqual([]);
      });

      it('keeps to `since` (inclusive) and follows later embeddings and replacements', async () => {
        const old = memoryRecordFixture({ createdAt: hoursAfterT0(0) });
        const atSince = memoryRecordFixture({ createdAt: hoursAfterT0(24) });
        await index.upsert([old, atSince]);
        await index.setEmbedding(old.id, vector(1, 0));
        await index.setEmbedding(atSince.id, vector(1, 1));
        expect(ids(await index.semantic(vector(1, 0), { ...query(), minScore: 0 }))).toStrictEqual([old.id, atSince.id]);
        expect(ids(await index.semantic(vector(1, 0), { ...query({ since: hoursAfterT0(24) }), minScore: 0 }))).toStrictEqual([atSince.id]);

        // A new embedding, a record moved in time, and a new record: the next search sees them all.
        await index.setEmbedding(atSince.id, vector(0, 1));
        await index.upsert([{ ...old, createdAt: hoursAfterT0(48), embedding: 'present' }]);
        const added = memoryRecordFixture({ createdAt: hoursAfterT0(30) });
        await index.upsert([added]);
        await index.setEmbedding(added.id, vector(3, 1));
        expect(ids(await index.semantic(vector(1, 0), { ...query({ since: hoursAfterT0(24) }), minScore: 0.5 }))).toStrictEqual([old.id, added.id]);
      });

      it('keeps a record\'s vector while it is upserted as present, and drops it when upserted as missing', async () => {
        const record = memoryRecordFixture();
        await index.upsert([record]);
        await index.setEmbedding(record.id, vector(0, 1));
        await index.upsert([{ ...record, source: { file: record.source.file, line: 20 }, embedding: 'present' }]);
        expect(ids(await index.semantic(vector(0, 1), { ...query(), minScore: 0.9 }))).toStrictEqual([record.id]);
        expect(await index.vectors([record.id])).toStrictEqual(new Map([[record.id, vector(0, 1)]]));
        await index.upsert([{ ...record, embedding: 'missing' }]);
        expect(await index.semantic(vector(0, 1), { ...query(), minScore: -1 })).toStrictEqual([]);
        expect(await index.vectors([record.id])).toStrictEqual(new Map());
      });

      it('lists missing embeddings of every scope oldest first; setEmbedding makes one present; an unknown id is ignored', async () => {
        const newest = memoryRecordFixture({ createdAt: hoursAfterT0(5) });
        const oldest = memoryRecordFixture({ scope: OTHER_SCOPE, createdAt: hoursAfterT0(1) });
        const middle = memoryRecordFixture({ layer: 'curated', createdAt: hoursAfterT0(3) });
        const none = memoryRecordFixture({ embedding: 'none' });
        await index.upsert([newest, oldest, middle, none]);
        expect(await index.missingEmbeddings(10)).toStrictEqual([oldest, middle, newest]);
        expect(await index.missingEmbeddings(2)).toStrictEqual([oldest, middle]);
        expect(await index.stats()).toStrictEqual({ records: 4, missingEmbeddings: 3 });

        await index.setEmbedding(oldest.id, vector(0.1, 0.2, 0.3));
        await index.setEmbedding('mem_ffffffffffffffffffffffff', vector(1, 2, 3));
        expect(await index.missingEmbeddings(10)).toStrictEqual([middle, newest]);
        expect(await index.get(oldest.id)).toStrictEqual({ ...oldest, embedding: 'present' });
        expect(await index.get('mem_ffffffffffffffffffffffff')).toBeUndefined();
        expect(await index.vectors([oldest.id, middle.id, 'mem_ffffffffffffffffffffffff'])).toStrictEqual(new Map([[oldest.id, vector(0.1, 0.2, 0.3)]]));
        expect(await index.stats()).toStrictEqual({ records: 4, missingEmbeddings: 2 });
      });
    });
  });
}

function sortById(records: MemoryRecord[]): MemoryRecord[] {
  return [...records].sort((a, b) => a.id.localeCompare(b.id));
}

function sortIds(values: string[]): string[] {
  return [...values].sort();
}
