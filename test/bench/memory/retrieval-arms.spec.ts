import { FakeEmbeddingProvider, InMemoryMemoryIndex } from '@mobileclaw/case-memory/testing';
import { conceptEmbedding } from './concept-embedding';
import { startConceptEmbeddings } from './concept-embeddings-endpoint';
import type { BenchMemory } from './memory-set';
import { embedMemories, indexMemories, memoryRecordOf, semanticArm } from './retrieval-arms';
import { memoryServiceArm, NO_DECAY_NO_MMR } from './service-arms';

const NOW = '2026-12-01T12:00:00.000Z';
const LIMITS = { dailyWindowDays: 7, dailyResults: 3, curatedResults: 3, minSemanticScore: 0.35 };
const memory = (id: string, text: string, layer: 'daily' | 'curated', daysAgo: number, scope: BenchMemory['scope'] = 'device:d1'): BenchMemory => ({
  id,
  scope,
  layer,
  text,
  category: 'fact',
  priority: 9,
  createdAt: new Date(Date.parse(NOW) - daysAgo * 86_400_000).toISOString(),
  language: 'en',
});
const MEMORIES = [
  memory('home-old-daily', 'Home Wi-Fi is Maple-5G, password sunflower42.', 'daily', 40),
  memory('home-curated', 'Home Wi-Fi is Maple-5G, password sunflower42.', 'curated', 40),
  memory('recent-chatter', 'Home Wi-Fi dropped again at 21:10.', 'daily', 1),
  memory('old-chatter', 'Restarted the home Wi-Fi router.', 'daily', 20),
  memory('other-scope', '家里的Wi-Fi是Orchid-Net，密码violet88cloud。', 'curated', 3, 'device:d2'),
  memory('mom', 'Mom is Alice Chen.', 'curated', 60),
];
const concept = new FakeEmbeddingProvider({ vectorOf: (text) => Array.from(conceptEmbedding(text)) });

async function indexed(): Promise<InMemoryMemoryIndex> {
  const index = new InMemoryMemoryIndex();
  await indexMemories(index, MEMORIES, 2);
  await embedMemories(index, MEMORIES, concept, 4);
  return index;
}

describe('retrieval arms', () => {
  it('indexes the set under its own ids, with the file each memory would be a section of, and its embedding', async () => {
    const index = await indexed();
    expect(await index.get('home-curated')).toMatchObject({ layer: 'curated', source: { file: 'device/d1/MEMORY.md', line: 6 }, embedding: 'present' });
    expect((await index.get('home-old-daily'))?.source.file).toBe('device/d1/2026-10-22.md');
    expect(memoryRecordOf(memory('x', 'A  b', 'daily', 0, 'context:a/b'), 6)).toMatchObject({ source: { file: 'context/a%2Fb/2026-12-01.md', line: 6 }, contentHash: memoryRecordOf(memory('y', 'a b', 'daily', 1), 2).contentHash });
    expect((await index.stats()).missingEmbeddings).toBe(0);
  });

  it('semantic only: a paraphrase finds the fact by cosine, in the scope, daily over the last 7 days only', async () => {
    const arm = semanticArm(await indexed(), concept, NOW, LIMITS);
    expect(await arm('device:d1', 'wireless key for my house')).toEqual(['home-curated', 'recent-chatter']);
    expect(await arm('device:d1', '母亲叫什么名字')).toEqual(['mom']);
  });

  it('the service arms rank as MemoryService.search does, lexical without embeddings and hybrid with them', async () => {
    const index = await indexed();
    expect(await memoryServiceArm(index, NOW, undefined, NO_DECAY_NO_MMR)('device:d1', 'wireless key for my house')).toEqual([]);
    expect(await memoryServiceArm(index, NOW, concept, NO_DECAY_NO_MMR)('device:d1', 'wireless key for my house')).toEqual(['home-curated', 'recent-chatter']);
    expect(await memoryServiceArm(index, NOW, undefined)('device:d1', 'home Wi-Fi password')).toEqual(['home-curated', 'recent-chatter']);
  });

  it('fails rather than report a lexical figure as semantic when the endpoint fails', async () => {
    const failing = new FakeEmbeddingProvider();
    failing.failing = true;
    await expect(memoryServiceArm(await indexed(), NOW, failing)('device:d1', 'mom')).rejects.toThrow(/^memory search of "mom" was semantic degraded, not on: the embeddings endpoint failed/);
  });

  it('serves the concept embedding over HTTP as /v1/embeddings, through the gateway provider', async () => {
    const embeddings = await startConceptEmbeddings();
    try {
      const [vector] = await embeddings.provider.embed(['家中无线网络的口令']);
      expect(embeddings.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(Array.from(vector)).toEqual(Array.from(conceptEmbedding('家中无线网络的口令')));
    } finally {
      await embeddings.close();
    }
  });
});
