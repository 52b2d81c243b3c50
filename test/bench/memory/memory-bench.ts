/**
 * The memory retrieval benchmark (`npm run bench`, last): on the generated long-term memory set
 * (`memory-set.ts`: EN + ZH, three scopes, 120 days, planted, changed and paraphrased facts), recall@3
 * and MRR of the ways of searching, side by side — the seed's `LIKE` keyword search, lexical only
 * (the index's BM25), semantic only (cosine of the concept embedding, served over HTTP), hybrid,
 * lexical + decay + MMR, and hybrid + temporal decay + MMR (the full `MemoryService.search`) — per
 * kind of question; then, on sets of 10k and 100k memories, the indexing throughput (without and with
 * embeddings) and the latency of a search. Prints Markdown and writes it into `docs/benchmarks.md`,
 * section "Memory retrieval"; progress goes to stderr.
 *
 * Usage: `npm run bench:memory -- [--memories N] [--sizes 10000,100000] [--searches N] [--no-docs]`
 * (`node --conditions=@mobileclaw/source --require ./tools/register-typescript.cjs
 * test/bench/memory/memory-bench.ts …`: the sources, compiled on load). Defaults: 6,000 memories for
 * the quality figures, sizes 10,000 and 100,000, 400 timed searches per size after 40 untimed ones.
 * Exit status 0; 1 when a run fails, 2 on bad arguments.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_MEMORY_OPTIONS } from '@mobileclaw/case-memory';
import type { EmbeddingProvider } from '@mobileclaw/domain';
import { SqliteMemoryIndex } from '@mobileclaw/store-sqlite';
import { qualityTable, replaceSection, speedTable, type QualityRow, type SearchLatency, type SpeedRow } from './bench-report';
import { CONCEPT_DIMENSIONS } from './concept-embedding';
import { startConceptEmbeddings } from './concept-embeddings-endpoint';
import { LikeBaseline } from './like-baseline';
import { generateMemorySet, QUERY_KINDS, type BenchQuery, type MemorySet, type QueryKind } from './memory-set';
import { embedMemories, indexMemories, semanticArm, type ArmLimits, type RetrievalArm } from './retrieval-arms';
import { memoryServiceArm, NO_DECAY_NO_MMR } from './service-arms';
import { latencyPercentiles, scoreArm } from './retrieval-metrics';

const K = 3;
const WARMUP_SEARCHES = 40;
const DOCS = resolve(__dirname, '../../../docs/benchmarks.md');
const SECTION = 'Memory retrieval';

interface Args {
  memories: number;
  sizes: number[];
  searches: number;
  docs: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { memories: 6000, sizes: [10_000, 100_000], searches: 400, docs: true };
  const positive = (flag: string, value: string | undefined) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer, got ${value}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--no-docs') args.docs = false;
    else if (flag === '--memories') args.memories = positive(flag, argv[++i]);
    else if (flag === '--searches') args.searches = positive(flag, argv[++i]);
    else if (flag === '--sizes') args.sizes = (argv[++i] ?? '').split(',').map((s) => positive(flag, s));
    else throw new Error(`unknown argument ${flag} (known: --memories, --sizes, --searches, --no-docs)`);
  }
  return args;
}

const LIMITS: ArmLimits = {
  dailyWindowDays: DEFAULT_MEMORY_OPTIONS.dailyWindowDays,
  dailyResults: DEFAULT_MEMORY_OPTIONS.dailyResults,
  curatedResults: DEFAULT_MEMORY_OPTIONS.curatedResults,
  minSemanticScore: DEFAULT_MEMORY_OPTIONS.minSemanticScore,
};

/** A line on stderr about where the run is. */
function progress(message: string): void {
  process.stderr.write(`memory-bench: ${message}\n`);
}

/** Every question through `arm`, in order: question id → ranked ids. */
async function answers(queries: readonly BenchQuery[], arm: RetrievalArm): Promise<Map<string, string[]>> {
  const results = new Map<string, string[]>();
  for (const q of queries) results.set(q.id, await arm(q.scope, q.text));
  return results;
}

/** `searches` timed calls of `arm` over the questions (cycled), after {@link WARMUP_SEARCHES} untimed ones. */
async function latency(queries: readonly BenchQuery[], arm: RetrievalArm, searches: number): Promise<SearchLatency> {
  const samples: number[] = [];
  for (let i = 0; i < WARMUP_SEARCHES + searches; i++) {
    const q = queries[i % queries.length];
    const started = performance.now();
    await arm(q.scope, q.text);
    if (i >= WARMUP_SEARCHES) samples.push(performance.now() - started);
  }
  return { ...latencyPercentiles(samples), samples: samples.length };
}

/** A SQLite memory index in a fresh temporary file (as the gateway's, not `:memory:`), removed by `close`. */
function temporaryIndex(): { index: SqliteMemoryIndex; close(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'mobileclaw-memory-bench-'));
  const index = SqliteMemoryIndex.open(join(dir, 'memory.db'));
  return {
    index,
    close: () => {
      index.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The arms of the quality table, on an index holding the set with its embeddings. */
function arms(index: SqliteMemoryIndex, now: string, embeddings: EmbeddingProvider): [string, RetrievalArm][] {
  return [
    ['lexical only (BM25)', memoryServiceArm(index, now, undefined, NO_DECAY_NO_MMR)],
    ['semantic only (cosine)', semanticArm(index, embeddings, now, LIMITS)],
    ['hybrid (BM25 + cosine)', memoryServiceArm(index, now, embeddings, NO_DECAY_NO_MMR)],
    ['lexical + decay + MMR (no embeddings endpoint)', memoryServiceArm(index, now, undefined)],
    ['**hybrid + decay + MMR** (`MemoryService.search`)', memoryServiceArm(index, now, embeddings)],
  ];
}

async function quality(set: MemorySet, embeddings: EmbeddingProvider): Promise<QualityRow[]> {
  const rows: QualityRow[] = [];
  const score = async (arm: string, run: RetrievalArm) => {
    const started = performance.now();
    rows.push({ arm, score: scoreArm(set.queries, await answers(set.queries, run), K) });
    progress(`${arm}: ${set.queries.length} questions in ${Math.round(performance.now() - started)} ms`);
  };
  const like = new LikeBaseline(set.memories, set.now, LIMITS);
  try {
    await score('`LIKE` keywords (seed)', (scope, query) => Promise.resolve(like.search(scope, query)));
  } finally {
    like.close();
  }
  const { index, close } = temporaryIndex();
  try {
    progress(`indexed ${set.memories.length} memories in ${Math.round(await indexMemories(index, set.memories))} ms`);
    progress(`embedded them in ${Math.round(await embedMemories(index, set.memories, embeddings))} ms`);
    for (const [arm, run] of arms(index, set.now, embeddings)) await score(arm, run);
    return rows;
  } finally {
    close();
  }
}

async function speed(size: number, searches: number, embeddings: EmbeddingProvider): Promise<SpeedRow> {
  const set = generateMemorySet({ memories: size });
  const like = new LikeBaseline(set.memories, set.now, LIMITS);
  let likeSearch: SearchLatency;
  try {
    likeSearch = await latency(set.queries, (scope, query) => Promise.resolve(like.search(scope, query)), searches);
  } finally {
    like.close();
  }
  const { index, close } = temporaryIndex();
  try {
    const indexMs = await indexMemories(index, set.memories);
    const embedMs = await embedMemories(index, set.memories, embeddings);
    progress(`${size} memories: indexed in ${Math.round(indexMs)} ms, embedded in ${Math.round(embedMs)} ms`);
    return {
      memories: size,
      indexPerSecond: (size / indexMs) * 1000,
      indexWithEmbeddingsPerSecond: (size / (indexMs + embedMs)) * 1000,
      search: await latency(set.queries, memoryServiceArm(index, set.now, embeddings), searches),
      lexicalSearch: await latency(set.queries, memoryServiceArm(index, set.now, undefined), searches),
      likeSearch,
    };
  } finally {
    close();
  }
}

function section(set: MemorySet, rows: QualityRow[], speedRows: SpeedRow[], machine: string): string {
  const counts = Object.fromEntries(QUERY_KINDS.map((kind) => [kind, set.queries.filter((q) => q.kind === kind).length])) as Record<QueryKind, number>;
  const curated = set.memories.filter((m) => m.layer === 'curated').length;
  const chinese = set.memories.filter((m) => m.language === 'zh').length;
  const n = (value: number) => value.toLocaleString('en-US');
  return `## ${SECTION} (${new Date().toISOString().slice(0, 10)})

What is measured (\`test/bench/memory/memory-bench.ts\`, the last part of \`npm run bench\`; this section
is written by it): how well and how fast the agent's memory finds what it was told. The memory set is
generated (\`memory-set.ts\`, seeded: the same on every run): ${n(set.memories.length)} memories over ${set.days} days in
${set.scopes.length} scopes (${set.scopes.map((s) => `\`${s}\``).join(', ')}), ${n(chinese)} in Chinese and the rest in
English, ${n(curated)} of them curated (each also in the daily layer, as the memory writes them). Planted in
it: facts a person tells an assistant (who "mom" is, home and office Wi-Fi names and passwords, the
address, preferences, app habits, where the car is parked), facts that changed (an older and a newer
value, e.g. of a Wi-Fi password: only the newer is right), lasting statements and daily chatter that
share the facts' words without answering them. ${set.queries.length} questions, each with its right memories:
**exact** (the memory's own key words), **paraphrase** (the same meaning in other words: no word in
common but stop words), **cross-language** (a Chinese question for an English memory and back; loanwords
such as "Wi-Fi" and "VPN" are written alike in both), **latest** (the current value of a changed fact,
asked in both languages; "stale first": the share answered with the older value above the newer).
R@${K}: a right memory among the first ${K} results; MRR: mean of 1 / rank of the first right one.

Every arm searches as the memory does by default: daily memories of the last ${LIMITS.dailyWindowDays} days and curated
ones of any age, at most ${LIMITS.dailyResults} + ${LIMITS.curatedResults} results, in the question's scope only.
- **\`LIKE\` keywords (seed)**: the seed's search as it was, over a plain SQLite table: one
  \`text LIKE '%word%'\` per word of the question, most matched words first, then newest.
- **lexical only**: \`MemoryService.search\` without embeddings, decay or MMR (half-life ∞, λ = 1):
  BM25 of the SQLite index (FTS5), normalised per layer, the layers interleaved by score.
- **semantic only**: the index's cosine search of the question's embedding (≥ ${LIMITS.minSemanticScore}), per layer, merged by cosine.
- **hybrid**: \`MemoryService.search\` with embeddings, without decay or MMR.
- **lexical + decay + MMR**: \`MemoryService.search\` as a gateway without an embeddings endpoint runs it.
- **hybrid + decay + MMR**: \`MemoryService.search\` as configured by default.

**The semantic figures come from a stand-in, not a model**: a deterministic "concept" embedding
(\`concept-embedding.ts\`, ${CONCEPT_DIMENSIONS} dimensions) that maps a small bilingual lexicon of synonyms and
translations to concepts (\`wifi\`, \`wireless\`, \`无线\`, \`网络\` → WIFI) and hashes every other word, served
by a local HTTP server in the OpenAI \`/v1/embeddings\` format and reached through \`OpenAiEmbeddingProvider\`.
It knows exactly the synonyms the questions use, so the semantic and hybrid rows show what the pipeline
makes of a model that gets them right, not the quality of any real embedding model.

${qualityTable(rows, K, counts)}

Indexing and search time on generated sets of each size (the same generator, more chatter), in a SQLite
file: records indexed per second (\`MemoryIndex.upsert\`, 1,000 records a call; "with embeddings" adds
embedding every text over HTTP — 64 texts a request, the provider's default — and \`setEmbedding\`), and
the latency of one \`MemoryService.search\` (hybrid + decay + MMR, the question embedded over HTTP
included; lexical only: without an embeddings endpoint), each question of the set in turn, ${WARMUP_SEARCHES} untimed
first. Target: search p50 ≤ 20 ms at 100k memories.

${speedTable(speedRows)}

Machine: ${machine}.

\`\`\`sh
npm run bench:memory                   # this benchmark alone (also the last part of npm run bench)
npm run bench:memory -- --memories 6000 --sizes 10000,100000 --searches 400 --no-docs
\`\`\`
`;
}

async function main(args: Args): Promise<void> {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, load average ${loadavg()[0].toFixed(1)} at the start`;
  const set = generateMemorySet({ memories: args.memories });
  const embeddings = await startConceptEmbeddings();
  try {
    const rows = await quality(set, embeddings.provider);
    const speedRows: SpeedRow[] = [];
    for (const size of args.sizes) speedRows.push(await speed(size, args.searches, embeddings.provider));
    const markdown = section(set, rows, speedRows, machine);
    process.stdout.write(`${markdown}\n`);
    if (args.docs) writeFileSync(DOCS, replaceSection(readFileSync(DOCS, 'utf8'), SECTION, markdown));
  } finally {
    await embeddings.close();
  }
}

if (require.main === module) {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`memory-bench: ${(err as Error).message}\n`);
    process.exit(2);
  }
  main(args).then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`memory-bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
