import { createHash } from 'node:crypto';
import { memoryWords, normaliseMemoryText } from '@mobileclaw/domain';
import { conceptEmbedding, cosine, STOP_WORDS } from './concept-embedding';
import { FACT_TEMPLATES } from './fact-templates';
import { generateMemorySet, QUERY_KINDS } from './memory-set';

const DAY_MS = 86_400_000;
const set = generateMemorySet();
const byId = new Map(set.memories.map((m) => [m.id, m]));
const contentWords = (text: string) => new Set(memoryWords(text).filter((w) => !STOP_WORDS.has(w)));
/** Words Chinese writes in Latin letters too, so a cross-language question may share them. */
const LOANWORDS = new Set(['wi', 'fi', 'vpn']);

describe('generateMemorySet', () => {
  it('is the same set on every run and machine (pinned by its SHA-256), and another with another seed', () => {
    const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
    expect(digest(generateMemorySet())).toBe(digest(set));
    expect(digest(set)).toBe('02701c6551ada500d8c635893b456e2d3de67f74cf25331fae70ea15f45bde5f');
    expect(digest(generateMemorySet({ seed: 17 }))).not.toBe(digest(set));
  });

  it('holds 6,000 memories over 120 days in three scopes, English and Chinese, daily and curated', () => {
    expect(set.memories).toHaveLength(6000);
    expect(set.scopes).toEqual(['device:pixel-8', 'context:family-chat', 'context:work-desk']);
    expect(new Set(set.memories.map((m) => m.scope))).toEqual(new Set(set.scopes));
    const ages = set.memories.map((m) => (Date.parse(set.now) - Date.parse(m.createdAt)) / DAY_MS);
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...ages)).toBeLessThan(120);
    expect(Math.max(...ages)).toBeGreaterThan(119);
    const zh = set.memories.filter((m) => m.language === 'zh').length;
    expect(zh / set.memories.length).toBeGreaterThan(0.4);
    expect(zh / set.memories.length).toBeLessThan(0.6);
    expect(set.memories.filter((m) => m.layer === 'curated').length).toBeGreaterThan(500);
    expect(set.memories.map((m) => m.id)).toEqual(set.memories.map((_, i) => `mem_bench_${String(i + 1).padStart(6, '0')}`));
    expect([...set.memories].sort((a, b) => a.createdAt.localeCompare(b.createdAt))).toEqual(set.memories);
  });

  it('gives every curated memory its daily copy, and never one text twice in a scope and layer', () => {
    const keys = set.memories.map((m) => `${m.scope}\n${m.layer}\n${normaliseMemoryText(m.text)}`);
    expect(new Set(keys).size).toBe(keys.length);
    const daily = new Map(set.memories.filter((m) => m.layer === 'daily').map((m) => [`${m.scope}\n${m.text}`, m]));
    for (const curated of set.memories.filter((m) => m.layer === 'curated')) {
      expect(daily.get(`${curated.scope}\n${curated.text}`)?.createdAt).toBe(curated.createdAt);
    }
  });

  it('asks 216 questions of every kind, each answered by memories of its own scope that a default search can reach', () => {
    expect(set.queries).toHaveLength(216);
    expect(QUERY_KINDS.map((kind) => set.queries.filter((q) => q.kind === kind).length)).toEqual([66, 66, 66, 18]);
    for (const q of set.queries) {
      const answers = q.expected.map((id) => byId.get(id));
      expect(answers.every((m) => m !== undefined && m.scope === q.scope)).toBe(true);
      // Curated memories are searched at any age, daily ones over the last 7 days.
      expect(answers.some((m) => m?.layer === 'curated' || Date.parse(set.now) - Date.parse(m?.createdAt ?? '') < 7 * DAY_MS)).toBe(true);
    }
  });

  it('asks the current value of a changed fact: the right memories are newer than the superseded ones', () => {
    const latest = set.queries.filter((q) => q.kind === 'latest');
    expect(new Set(latest.map((q) => q.language))).toEqual(new Set(['en', 'zh']));
    for (const q of latest) {
      expect(q.superseded.length).toBeGreaterThan(0);
      const newest = (ids: string[]) => Math.max(...ids.map((id) => Date.parse(byId.get(id)?.createdAt ?? '')));
      expect(newest(q.expected)).toBeGreaterThan(newest(q.superseded));
      expect(byId.get(q.expected[0])?.text).not.toBe(byId.get(q.superseded[0])?.text);
    }
    expect(set.queries.filter((q) => q.kind !== 'latest').every((q) => q.superseded.length === 0)).toBe(true);
  });

  it('words its questions as their kind says: exact shares a word with the answer, paraphrase none, cross-language only loanwords and the other language', () => {
    for (const q of set.queries) {
      const answer = byId.get(q.expected[0]);
      const shared = [...contentWords(q.text)].filter((w) => contentWords(answer?.text ?? '').has(w));
      if (q.kind === 'exact') expect({ q: q.text, shared: shared.length > 0 }).toEqual({ q: q.text, shared: true });
      if (q.kind === 'paraphrase') expect({ q: q.text, shared }).toEqual({ q: q.text, shared: [] });
      if (q.kind === 'cross-language') {
        expect({ q: q.text, shared: shared.filter((w) => !LOANWORDS.has(w)) }).toEqual({ q: q.text, shared: [] });
        expect(q.language).not.toBe(answer?.language);
      }
      if (q.kind !== 'cross-language' && q.kind !== 'latest') expect(q.language).toBe(answer?.language);
    }
  });

  it('gives every question a concept-embedding similarity of at least 0.35 to its answer (the stand-in knows the synonyms asked)', () => {
    const low = set.queries.filter((q) => cosine(conceptEmbedding(q.text), conceptEmbedding(byId.get(q.expected[0])?.text ?? '')) < 0.35);
    expect(low.map((q) => q.text)).toEqual([]);
  });

  it('uses every fact template, and its questions in both languages', () => {
    expect(new Set(set.queries.map((q) => q.fact))).toEqual(new Set(FACT_TEMPLATES.map((t) => t.key)));
  });

  it('scales to more memories with the same planted facts and questions, and rejects sizes out of range', () => {
    const larger = generateMemorySet({ memories: 9000 });
    expect(larger.memories).toHaveLength(9000);
    expect(larger.queries.map((q) => [q.kind, q.text, q.fact, q.scope])).toEqual(set.queries.map((q) => [q.kind, q.text, q.fact, q.scope]));
    expect(() => generateMemorySet({ memories: 499 })).toThrow('memories must be an integer ≥ 500, got 499');
    expect(() => generateMemorySet({ days: 30 })).toThrow('days must be an integer ≥ 60, got 30');
    expect(() => generateMemorySet({ now: 'yesterday' })).toThrow('now must be an ISO-8601 instant, got yesterday');
  });
});
