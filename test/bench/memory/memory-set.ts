import { isCuratedMemory, normaliseMemoryText, type MemoryScope, type StoredMemoryLayer } from '@mobileclaw/domain';
import { CHATTER_PEOPLE, CURATED_FILLER, FACT_TEMPLATES, GENERIC_CHATTER, SLOT_POOLS, type FactTemplate, type Language, type SlotValues } from './fact-templates';
import { SeededRandom } from './seeded-random';

/** One memory of the set, as the benchmark indexes it (a section of a daily file or of `MEMORY.md`). */
export interface BenchMemory {
  /** `mem_bench_` + 6 digits, oldest first. */
  id: string;
  scope: MemoryScope;
  layer: StoredMemoryLayer;
  text: string;
  category: string;
  priority: number;
  /** ISO-8601. */
  createdAt: string;
  language: Language;
}

/**
 * What a question tests: `exact` (the memory's own words), `paraphrase` (other words, same language),
 * `cross-language` (a Chinese question for an English memory and back), `latest` (a fact that changed:
 * only the newer value is right; in either language).
 */
export type QueryKind = 'exact' | 'paraphrase' | 'cross-language' | 'latest';

export const QUERY_KINDS: readonly QueryKind[] = ['exact', 'paraphrase', 'cross-language', 'latest'];

/** A question with its answer. */
export interface BenchQuery {
  /** `q` + 3 digits. */
  id: string;
  scope: MemoryScope;
  text: string;
  language: Language;
  kind: QueryKind;
  /** The fact template asked about, e.g. `home-wifi`. */
  fact: string;
  /** The memories that answer it (the daily and curated copies of one fact): any one of them is right. */
  expected: string[];
  /** `latest` questions: the copies of the older, superseded value (wrong answers). Else empty. */
  superseded: string[];
}

export interface MemorySet {
  /** The instant the set is "now" for (ISO-8601): ages and the daily window count from it. */
  now: string;
  days: number;
  scopes: MemoryScope[];
  memories: BenchMemory[];
  queries: BenchQuery[];
}

export interface MemorySetOptions {
  /** PRNG seed; default 16. */
  seed?: number;
  /** Total memories (daily and curated records); default 6,000; at least 500. */
  memories?: number;
  /** Days the memories span back from `now`; default 120; at least 60. */
  days?: number;
  /** Default 2026-12-01T12:00:00.000Z. */
  now?: string;
}

/** The scopes of the set and the share of Chinese in each. */
export const BENCH_SCOPES: readonly { scope: MemoryScope; chinese: number }[] = [
  { scope: 'device:pixel-8', chinese: 0.5 },
  { scope: 'context:family-chat', chinese: 0.7 },
  { scope: 'context:work-desk', chinese: 0.3 },
];

/** Facts planted per scope (besides the changed ones). */
export const FACTS_PER_SCOPE = 22;
/** Facts per scope planted twice, an older and a newer value. */
export const CHANGED_FACTS_PER_SCOPE = 3;

const DAY_MS = 86_400_000;
/** Shares of the filler: chatter around a fact's words, other chatter; the rest is curated filler. */
const FACT_CHATTER_SHARE = 0.35;
const GENERIC_CHATTER_SHARE = 0.55;
const MAX_DRAWS = 200;

interface Draft {
  scope: MemoryScope;
  layer: StoredMemoryLayer;
  text: string;
  category: string;
  priority: number;
  ageMs: number;
  language: Language;
  seq: number;
}

interface DraftQuery {
  scope: MemoryScope;
  text: string;
  language: Language;
  kind: QueryKind;
  fact: string;
  expected: Draft[];
  superseded: Draft[];
}

/**
 * Generates the benchmark's long-term memory set and its questions, the same for the same options on
 * any machine (seeded PRNG, no clock, no `Math.random`). Every scope gets {@link FACTS_PER_SCOPE}
 * facts of {@link FACT_TEMPLATES} (a lasting fact on any day, curated and daily; a recent one in the
 * last 6 days, daily only) with an exact, a paraphrased and a cross-language question each, and
 * {@link CHANGED_FACTS_PER_SCOPE} facts that changed (older value 60+ days ago, newer within 45; a
 * recent one: 3–6 days and 0–1 day ago) with a `latest` question in each language; next to each
 * fact a curated statement that shares its key words but does not answer it. The rest is
 * chatter and curated filler up to `memories`. No two memories of one scope and layer have the same
 * normalised text (they would be one record).
 * @throws Error on options out of range.
 */
export function generateMemorySet(options: MemorySetOptions = {}): MemorySet {
  const seed = options.seed ?? 16;
  const total = options.memories ?? 6000;
  const days = options.days ?? 120;
  const now = options.now ?? '2026-12-01T12:00:00.000Z';
  const nowMs = Date.parse(now);
  if (!Number.isInteger(total) || total < 500) throw new Error(`memories must be an integer ≥ 500, got ${total}`);
  if (!Number.isInteger(days) || days < 60) throw new Error(`days must be an integer ≥ 60, got ${days}`);
  if (Number.isNaN(nowMs)) throw new Error(`now must be an ISO-8601 instant, got ${now}`);

  const rng = new SeededRandom(seed);
  const drafts: Draft[] = [];
  const seen = new Set<string>();
  const queries: DraftQuery[] = [];

  const add = (draft: Omit<Draft, 'seq'>): Draft | undefined => {
    const key = `${draft.scope}\n${draft.layer}\n${normaliseMemoryText(draft.text)}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    const full = { ...draft, seq: drafts.length };
    drafts.push(full);
    return full;
  };
  /** The daily copy and, when curated, the curated copy of one memory (same text and time). */
  const remember = (scope: MemoryScope, text: string, category: string, priority: number, ageMs: number, language: Language): Draft[] | undefined => {
    const layers: StoredMemoryLayer[] = isCuratedMemory(category, priority) ? ['daily', 'curated'] : ['daily'];
    if (layers.some((layer) => seen.has(`${scope}\n${layer}\n${normaliseMemoryText(text)}`))) return undefined;
    return layers.map((layer) => add({ scope, layer, text, category, priority, ageMs, language }) as Draft);
  };
  /** {@link remember} for a planted fact, whose text is new by construction. */
  const plant = (scope: MemoryScope, text: string, template: FactTemplate, ageMs: number, language: Language): Draft[] => {
    const copies = remember(scope, text, template.category, template.priority, ageMs, language);
    if (!copies) throw new Error(`planted fact ${template.key} of ${scope} is already remembered: ${text}`);
    return copies;
  };
  const ageOn = (minDay: number, maxDay: number) => rng.int(minDay, maxDay) * DAY_MS + rng.int(0, DAY_MS - 1);
  const languageIn = (chinese: number): Language => (rng.chance(chinese) ? 'zh' : 'en');
  /** The fact's related statement (curated, any day) in its language, and half the time in the other too. */
  const plantRelated = (scope: MemoryScope, template: FactTemplate, language: Language) => {
    for (const lang of rng.chance(0.5) ? [language, otherLanguage(language)] : [language]) {
      remember(scope, fill(template.related[lang], {}, lang, rng), 'fact', 8, ageOn(0, days - 1), lang);
    }
  };

  for (const { scope, chinese } of BENCH_SCOPES) {
    const changed = rng.sample(
      FACT_TEMPLATES.filter((t) => t.latest !== undefined),
      CHANGED_FACTS_PER_SCOPE,
    );
    const facts = rng.sample(
      FACT_TEMPLATES.filter((t) => !changed.includes(t)),
      FACTS_PER_SCOPE,
    );
    for (const template of facts) {
      const language = languageIn(chinese);
      const other = otherLanguage(language);
      const text = fill(template.memory[language], rng.pick(template.values), language, rng);
      const age = template.recent ? ageOn(0, 5) : ageOn(0, days - 1);
      const copies = plant(scope, text, template, age, language);
      plantRelated(scope, template, language);
      const ask = (kind: QueryKind, q: string, lang: Language) => queries.push({ scope, text: q, language: lang, kind, fact: template.key, expected: copies, superseded: [] });
      ask('exact', template.exact[language], language);
      ask('paraphrase', template.paraphrase[language], language);
      ask('cross-language', rng.chance(0.5) ? template.exact[other] : template.paraphrase[other], other);
    }
    for (const template of changed) {
      const language = languageIn(chinese);
      const [older, newer] = rng.sample(template.values, 2);
      const olderAge = template.recent ? ageOn(3, 5) : ageOn(60, days - 1);
      const newerAge = template.recent ? ageOn(0, 1) : ageOn(1, 45);
      const olderCopies = plant(scope, fill(template.memory[language], older, language, rng), template, olderAge, language);
      const newerCopies = plant(scope, fill(template.memory[language], newer, language, rng), template, newerAge, language);
      plantRelated(scope, template, language);
      for (const lang of [language, otherLanguage(language)]) {
        queries.push({ scope, text: (template.latest as Record<Language, string>)[lang], language: lang, kind: 'latest', fact: template.key, expected: newerCopies, superseded: olderCopies });
      }
    }
  }

  while (drafts.length < total) {
    const { scope, chinese } = rng.pick(BENCH_SCOPES);
    const language = languageIn(chinese);
    const roll = rng.next();
    const curated = roll >= FACT_CHATTER_SHARE + GENERIC_CHATTER_SHARE && total - drafts.length >= 2;
    for (let draw = 0; ; draw++) {
      if (draw === MAX_DRAWS) throw new Error(`no new memory text after ${MAX_DRAWS} draws: the pools are too small for ${total} memories`);
      const age = ageOn(0, days - 1);
      if (curated) {
        const text = fill(rng.pick(CURATED_FILLER[language]), {}, language, rng);
        if (remember(scope, text, 'preference', 8, age, language)) break;
        continue;
      }
      const pattern = roll < FACT_CHATTER_SHARE ? rng.pick(rng.pick(FACT_TEMPLATES).chatter[language]) : rng.pick(GENERIC_CHATTER[language]);
      if (remember(scope, fill(pattern, {}, language, rng), rng.pick(['task', 'note', 'chat']), rng.int(1, 5), age, language)) break;
    }
  }

  const ordered = [...drafts].sort((a, b) => b.ageMs - a.ageMs || a.seq - b.seq);
  const ids = new Map<Draft, string>(ordered.map((d, i) => [d, `mem_bench_${String(i + 1).padStart(6, '0')}`]));
  const memories: BenchMemory[] = ordered.map((d) => ({
    id: ids.get(d) as string,
    scope: d.scope,
    layer: d.layer,
    text: d.text,
    category: d.category,
    priority: d.priority,
    createdAt: new Date(nowMs - d.ageMs).toISOString(),
    language: d.language,
  }));
  return {
    now,
    days,
    scopes: BENCH_SCOPES.map((s) => s.scope),
    memories,
    queries: queries.map((q, i) => ({
      id: `q${String(i + 1).padStart(3, '0')}`,
      scope: q.scope,
      text: q.text,
      language: q.language,
      kind: q.kind,
      fact: q.fact,
      expected: q.expected.map((d) => ids.get(d) as string),
      superseded: q.superseded.map((d) => ids.get(d) as string),
    })),
  };
}

function otherLanguage(language: Language): Language {
  return language === 'en' ? 'zh' : 'en';
}

/** Fills `{slot}`s: from `values` (`{slot_zh}` first in Chinese), else from the chatter pools. */
function fill(pattern: string, values: SlotValues, language: Language, rng: SeededRandom): string {
  return pattern.replace(/\{(\w+)\}/g, (_match, slot: string) => {
    const own = language === 'zh' ? (values[`${slot}_zh`] ?? values[slot]) : values[slot];
    if (own !== undefined) return own;
    switch (slot) {
      case 'time':
        return `${rng.int(6, 23)}:${String(rng.int(0, 59)).padStart(2, '0')}`;
      case 'n':
        return String(rng.int(2, 99));
      case 'person':
        return rng.pick(CHATTER_PEOPLE);
      case 'city':
      case 'app':
      case 'weekday':
      case 'month':
      case 'hobby':
        return rng.pick(SLOT_POOLS[slot])[language === 'en' ? 0 : 1];
      default:
        throw new Error(`unknown slot {${slot}} in ${JSON.stringify(pattern)}`);
    }
  });
}
