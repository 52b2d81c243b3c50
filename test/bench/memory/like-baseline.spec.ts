import { LikeBaseline } from './like-baseline';
import type { BenchMemory } from './memory-set';

const NOW = '2026-12-01T12:00:00.000Z';
let seq = 0;
const memory = (text: string, layer: 'daily' | 'curated', daysAgo: number, scope: BenchMemory['scope'] = 'device:d1'): BenchMemory => ({
  id: `m${++seq}`,
  scope,
  layer,
  text,
  category: 'fact',
  priority: layer === 'curated' ? 9 : 3,
  createdAt: new Date(Date.parse(NOW) - daysAgo * 86_400_000).toISOString(),
  language: 'en',
});

describe('LikeBaseline (the seed keyword search)', () => {
  const memories = [
    memory('Home Wi-Fi is Maple-5G, password sunflower42.', 'curated', 90), // m1
    memory('Home Wi-Fi dropped again.', 'daily', 1), // m2
    memory('Restarted the router at home.', 'daily', 2), // m3
    memory('Home Wi-Fi password changed to lantern-9031.', 'daily', 10), // m4: outside the daily window
    memory('Office Wi-Fi is ACME-5G, password acme@2026.', 'curated', 30), // m5
    memory('Home Wi-Fi password is secret.', 'curated', 5, 'device:other'), // m6: another scope
    memory('Discount: 100% off_today', 'daily', 0), // m7
    memory('Mom is Alice.', 'curated', 50), // m8
    memory('Promo offXtoday', 'daily', 0), // m9
  ];
  const like = new LikeBaseline(memories, NOW);
  afterAll(() => like.close());

  it('ranks by matched words then newest, daily over the last 7 days and curated at any age, in the scope only', () => {
    // home, wi, fi, password: m1 4 words, m5 3 (wi, fi, password), m2 3 (home, wi, fi), m3 1 (home); m4 is 10 days old.
    expect(like.search('device:d1', 'home Wi-Fi password')).toEqual(['m1', 'm2', 'm5', 'm3']);
  });

  it('matches ASCII case-insensitively and Chinese as written, and a question without words finds nothing', () => {
    expect(like.search('device:d1', 'MOM')).toEqual(['m8']);
    expect(like.search('device:d1', '?!')).toEqual([]);
  });

  it('takes _ in a word literally (not as LIKE\'s any-character)', () => {
    expect(like.search('device:d1', 'off_today')).toEqual(['m7']);
  });
});
