import { MobileClawError, memoryWords } from '@mobileclaw/domain';
import { FakeEmbeddingProvider, memoryHarness } from './testing';

const SCOPE = 'device:sim-1';

async function rejection(promise: Promise<unknown>): Promise<MobileClawError> {
  try {
    await promise;
  } catch (err) {
    return err as MobileClawError;
  }
  throw new Error('expected a rejection');
}

/** Embeddings by concept: Wi-Fi words (English and Chinese) share one direction, everything else its own word's. */
function conceptEmbeddings(): FakeEmbeddingProvider {
  const wifi = new Set(['wi', 'fi', 'wireless', 'network', '无线', '网络']);
  const plain = new FakeEmbeddingProvider({ dimensions: 64 });
  return new FakeEmbeddingProvider({
    vectorOf: (text) => {
      const words = memoryWords(text);
      const vector = [...plain.vector(words.filter((word) => !wifi.has(word)).join(' ')), 0];
      vector[64] = words.filter((word) => wifi.has(word)).length * 4;
      return vector;
    },
  });
}

describe('MemoryService search', () => {
  it('finds an English memory by its words, with its layer, source, age and score parts', async () => {
    const { service, clock } = memoryHarness({ embeddings: false });
    const [stored] = await service.remember(SCOPE, { text: 'My office Wi-Fi is ACME-5G' }, 'tool');
    await service.remember(SCOPE, { text: 'Mom is Alice' }, 'tool');
    clock.set('2026-12-03T10:00:00.000Z');
    const result = await service.search(SCOPE, 'office Wi-Fi');
    expect(result).toEqual({
      scope: SCOPE,
      query: 'office Wi-Fi',
      semantic: 'off',
      notice: 'no embeddings endpoint is configured: lexical search only',
      hits: [
        {
          layer: 'daily',
          id: stored.id,
          text: 'My office Wi-Fi is ACME-5G',
          category: 'fact',
          priority: 5,
          source: { file: 'device/sim-1/2026-12-02.md', line: 3 },
          createdAt: '2026-12-02T10:00:00.000Z',
          ageDays: 1,
          score: 0.5 ** (1 / 30),
          parts: { lexical: 1, semantic: null, relevance: 1, decay: 0.5 ** (1 / 30) },
        },
      ],
    });
  });

  it('finds a Chinese memory by a Chinese query', async () => {
    const { service } = memoryHarness({ embeddings: false });
    await service.remember(SCOPE, { text: '我的办公室无线网络是ACME-5G' }, 'tool');
    await service.remember(SCOPE, { text: '妈妈的生日是五月三号' }, 'tool');
    const result = await service.search(SCOPE, '办公室无线网络');
    expect(result.hits.map((hit) => hit.text)).toEqual(['我的办公室无线网络是ACME-5G']);
    expect((await service.search(SCOPE, '妈妈生日')).hits.map((hit) => hit.text)).toEqual(['妈妈的生日是五月三号']);
  });

  it("never returns another scope's memory", async () => {
    const { service } = memoryHarness();
    await service.remember('device:sim-1', { text: 'Mom is Alice', priority: 9 }, 'tool');
    service.recordTurn('device:sim-1', { role: 'user', text: 'call mom', at: '2026-12-02T10:00:00.000Z' });
    await service.remember('context:chat-7', { text: 'Mom is Carol', priority: 9 }, 'tool');
    expect((await service.search('context:chat-7', 'mom')).hits.map((hit) => [hit.layer, hit.text])).toEqual([
      ['daily', 'Mom is Carol'],
      ['curated', 'Mom is Carol'],
    ]);
    expect((await service.search('device:sim-2', 'mom')).hits).toEqual([]);
  });

  it('ranks a new partial daily match above an old exact one (decay), the curated layer without decay', async () => {
    const { service, clock } = memoryHarness({ embeddings: false, options: { dailyWindowDays: 200 } });
    clock.set('2026-06-05T10:00:00.000Z');
    await service.remember(SCOPE, { text: 'office wifi password tiger', priority: 9 }, 'tool');
    clock.set('2026-12-01T10:00:00.000Z');
    await service.remember(SCOPE, { text: 'office wifi changed again', priority: 9 }, 'tool');
    clock.set('2026-12-02T10:00:00.000Z');
    const { hits } = await service.search(SCOPE, 'office wifi password tiger');
    // The partial match's lexical part is 0.208 (BM25 / the best) × 0.5 (2 of the query's 4 words):
    // 0.104 × 0.977 (1 day) beats 1 × 0.0156 (180 days).
    expect(hits.map((hit) => [hit.layer, hit.text, hit.ageDays, hit.parts.decay])).toEqual([
      ['curated', 'office wifi password tiger', 180, 1],
      ['curated', 'office wifi changed again', 1, 1],
      ['daily', 'office wifi changed again', 1, 0.5 ** (1 / 30)],
      ['daily', 'office wifi password tiger', 180, 0.5 ** 6],
    ]);
    // Only daily: the new one first.
    expect((await service.search(SCOPE, 'office wifi password tiger', { layers: ['daily'] })).hits.map((hit) => hit.text)).toEqual(['office wifi changed again', 'office wifi password tiger']);
  });

  it('gives 3 daily and 3 curated hits by default, and up to k from either layer when k is given', async () => {
    const { service } = memoryHarness({ embeddings: false });
    for (let i = 1; i <= 5; i++) {
      await service.remember(SCOPE, { text: `lunch place number ${i}` }, 'api');
      await service.remember(SCOPE, { text: `favourite lunch dish number ${i}`, category: 'preference' }, 'api');
    }
    const count = async (k?: number) => {
      const hits = (await service.search(SCOPE, 'lunch', { layers: ['daily', 'curated'], ...(k === undefined ? {} : { k }) })).hits;
      return [hits.filter((hit) => hit.layer === 'daily').length, hits.filter((hit) => hit.layer === 'curated').length];
    };
    expect(await count()).toEqual([3, 3]);
    // 10 daily sections (the 5 preferences are daily too) and 5 curated: 12 of the 15 asked.
    const [daily, curated] = await count(12);
    expect(daily + curated).toBe(12);
    expect(daily).toBeGreaterThan(3);
    expect(await count(50)).toEqual([10, 5]);
  });

  it('searches the daily layer over the last dailyWindowDays days only', async () => {
    const { service, clock } = memoryHarness({ embeddings: false });
    clock.set('2026-11-24T10:00:00.000Z');
    await service.remember(SCOPE, { text: 'parked on level 2' }, 'tool');
    clock.set('2026-11-26T10:00:00.000Z');
    await service.remember(SCOPE, { text: 'parked on level 3' }, 'tool');
    clock.set('2026-12-02T10:00:00.000Z');
    expect((await service.search(SCOPE, 'parked level')).hits.map((hit) => hit.text)).toEqual(['parked on level 3']);
  });

  it('re-ranks by MMR: of three near-duplicates and one different memory, the different one comes second', async () => {
    const texts = ['office wifi password is tiger', 'the office wifi password is tiger', 'office wifi password is tiger now', 'office wifi password rotates monthly, ask reception'];
    const search = async (mmrLambda: number) => {
      const { service } = memoryHarness({ embeddings: false, options: { mmrLambda } });
      for (const text of texts) await service.remember(SCOPE, { text, priority: 9 }, 'tool');
      return (await service.search(SCOPE, 'office wifi password', { layers: ['curated'] })).hits.map((hit) => [hit.text, Math.round(hit.score * 1000) / 1000]);
    };
    expect(await search(0.7)).toEqual([
      ['office wifi password is tiger', 1],
      ['office wifi password rotates monthly, ask reception', 0.872],
      ['the office wifi password is tiger', 0.932],
    ]);
    // By relevance alone the duplicates fill the page.
    expect(await search(1)).toEqual([
      ['office wifi password is tiger', 1],
      ['the office wifi password is tiger', 0.932],
      ['office wifi password is tiger now', 0.932],
    ]);
  });

  it('returns the newest sessionTurns session turns first, score 1.0, and caps daily + curated at k', async () => {
    const { service } = memoryHarness({ embeddings: false, options: { sessionTurns: 2 } });
    for (const text of ['one', 'two', 'three']) service.recordTurn(SCOPE, { role: 'user', text, at: '2026-12-01T10:00:00.000Z' });
    await service.remember(SCOPE, { text: 'tiger one', priority: 9 }, 'tool');
    await service.remember(SCOPE, { text: 'tiger two' }, 'tool');
    const { hits } = await service.search(SCOPE, 'tiger', { k: 2 });
    expect(hits.map((hit) => [hit.layer, hit.text, hit.score])).toEqual([
      ['session', 'two', 1],
      ['session', 'three', 1],
      ['daily', 'tiger one', 1],
      ['daily', 'tiger two', 1],
    ]);
    expect(hits[0]).toEqual({ layer: 'session', text: 'two', createdAt: '2026-12-01T10:00:00.000Z', ageDays: 1, score: 1, parts: { lexical: null, semantic: null, relevance: 1, decay: 1 } });
  });

  it('merges semantic hits with lexical ones, embedding the query once', async () => {
    const embeddings = conceptEmbeddings();
    const { service } = memoryHarness({ embeddings });
    await service.remember(SCOPE, { text: 'office Wi-Fi is ACME-5G' }, 'tool');
    await service.remember(SCOPE, { text: 'Mom is Alice' }, 'tool');
    embeddings.calls.length = 0;
    const result = await service.search(SCOPE, 'wireless network');
    expect(embeddings.calls).toEqual([['wireless network']]);
    expect(result.semantic).toBe('on');
    expect(result.notice).toBeUndefined();
    expect(result.hits.map((hit) => [hit.text, hit.parts.lexical, hit.parts.semantic !== null && hit.parts.semantic > 0.9])).toEqual([['office Wi-Fi is ACME-5G', null, true]]);
    // Cross-language: the Chinese query finds the English memory by meaning.
    expect((await service.search(SCOPE, '无线网络')).hits.map((hit) => hit.text)).toEqual(['office Wi-Fi is ACME-5G']);
  });

  it('falls back to lexical search when the endpoint is down, and backfills the embeddings later', async () => {
    const embeddings = conceptEmbeddings();
    const { service, index } = memoryHarness({ embeddings });
    embeddings.failing = true;
    const [stored] = await service.remember(SCOPE, { text: 'office Wi-Fi is ACME-5G' }, 'tool');
    expect(stored.embedding).toBe('missing');
    const degraded = await service.search(SCOPE, 'office wireless network');
    expect(degraded.semantic).toBe('degraded');
    expect(degraded.notice).toBe('the embeddings endpoint failed (the embeddings endpoint answered 503 (fake)): lexical search only this time');
    // Lexical alone: the best BM25, times the one word of three ("office") the memory has.
    expect(degraded.hits.map((hit) => [hit.text, hit.parts])).toEqual([['office Wi-Fi is ACME-5G', { lexical: 1 / 3, semantic: null, relevance: 1 / 3, decay: 1 }]]);
    // Still down: the retry embeds nothing.
    expect(await service.retryEmbeddings()).toBe(0);

    embeddings.failing = false;
    // Up again, before the retry: the memory has no vector yet, so a query sharing none of its words finds nothing.
    expect((await service.search(SCOPE, 'wireless network')).hits).toEqual([]);
    expect(await service.retryEmbeddings()).toBe(1);
    expect((await index.get(stored.id))?.embedding).toBe('present');
    expect(await service.status()).toMatchObject({ missingEmbeddings: 0 });
    const { hits, semantic } = await service.search(SCOPE, 'wireless network');
    expect(semantic).toBe('on');
    expect(hits.map((hit) => hit.text)).toEqual(['office Wi-Fi is ACME-5G']);
  });

  it('rejects bad queries and k with VALIDATION_FAILED, and an aborted search with ABORTED', async () => {
    const { service } = memoryHarness();
    expect((await rejection(service.search(SCOPE, '  '))).message).toBe('query must not be blank');
    expect((await rejection(service.search(SCOPE, 'x'.repeat(1001)))).message).toBe('query must be at most 1000 characters, got 1001');
    expect((await rejection(service.search(SCOPE, 'x', { k: 0 }))).message).toBe('k must be an integer 1–50, got 0');
    expect((await rejection(service.search(SCOPE, 'x', { k: 51 }))).code).toBe('VALIDATION_FAILED');
    expect((await rejection(service.search(SCOPE, 'x', { layers: ['weekly' as never] }))).message).toBe('layers must each be session, daily or curated, got "weekly"');
    expect((await rejection(service.search(SCOPE, 'x', { signal: AbortSignal.abort() }))).code).toBe('ABORTED');
    expect((await rejection(memoryHarness({ embeddings: false }).service.search(SCOPE, 'x', { signal: AbortSignal.abort() }))).code).toBe('ABORTED');
  });

  it('is degraded when the endpoint answers no vector', async () => {
    const { service } = memoryHarness({ embeddings: new FakeEmbeddingProvider({ vectorOf: () => [] }) });
    await service.remember(SCOPE, { text: 'Mom is Alice' }, 'tool');
    const result = await service.search(SCOPE, 'mom');
    expect([result.semantic, result.notice, result.hits.map((hit) => hit.text)]).toEqual(['degraded', 'the embeddings endpoint failed (the embeddings endpoint answered no vector): lexical search only this time', ['Mom is Alice']]);
  });
});
