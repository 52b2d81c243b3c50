import { conceptEmbedding, conceptFeatures, cosine, CONCEPT_DIMENSIONS } from './concept-embedding';

describe('concept embedding', () => {
  it('maps synonyms and translations to one concept, drops stop words and keeps other words', () => {
    expect(conceptFeatures('What is the home Wi-Fi password?')).toEqual(['c:HOME', 'c:WIFI', 'c:PASSWORD']);
    expect(conceptFeatures('家中无线网络的口令')).toEqual(['c:HOME', 'c:WIFI', 'c:PASSWORD']);
    expect(conceptFeatures('Home Wi-Fi is Maple-5G, password sunflower42.')).toEqual(['c:HOME', 'c:WIFI', 'w:maple', 'w:5g', 'c:PASSWORD', 'w:sunflower42']);
    expect(conceptFeatures('the of 的')).toEqual([]);
  });

  it('is a deterministic unit vector of 256 dimensions, never zeros', () => {
    const v = conceptEmbedding('wireless key for my house');
    expect(v).toHaveLength(CONCEPT_DIMENSIONS);
    expect(Array.from(v)).toEqual(Array.from(conceptEmbedding('wireless key for my house')));
    expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    expect(Math.hypot(...conceptEmbedding(''))).toBeCloseTo(1, 6);
  });

  it('finds a paraphrase and a translation similar and an unrelated text not', () => {
    const memory = conceptEmbedding('Home Wi-Fi is Maple-5G, password sunflower42.');
    expect(cosine(memory, conceptEmbedding('wireless key for my house'))).toBeGreaterThan(0.7);
    expect(cosine(memory, conceptEmbedding('家里Wi-Fi密码'))).toBeGreaterThan(0.7);
    expect(cosine(memory, conceptEmbedding('who is mom'))).toBeLessThan(0.2);
    expect(cosine(conceptEmbedding('Mom is Alice Chen.'), conceptEmbedding('母亲叫什么名字'))).toBeGreaterThan(0.5);
  });
});
