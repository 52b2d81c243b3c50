import { QUERY_KINDS, type QueryKind } from './memory-set';
import type { ArmScore } from './retrieval-metrics';

/** One arm's line of the quality table. */
export interface QualityRow {
  arm: string;
  score: ArmScore;
}

/** p50 and p99 of a search, in ms, over `samples` searches. */
export interface SearchLatency {
  p50Ms: number;
  p99Ms: number;
  samples: number;
}

/** One memory-set size's line of the speed table. */
export interface SpeedRow {
  memories: number;
  /** Records per second into the index, without and with their embeddings. */
  indexPerSecond: number;
  indexWithEmbeddingsPerSecond: number;
  /** The full search (`MemoryService.search` with embeddings), the same without, and the `LIKE` baseline. */
  search: SearchLatency;
  lexicalSearch: SearchLatency;
  likeSearch: SearchLatency;
}

const fixed = (value: number, digits: number) => value.toFixed(digits);

/** The quality table: recall@k and MRR, all questions and per kind; the `latest` kind also the share answered stale first. */
export function qualityTable(rows: readonly QualityRow[], k: number, counts: Record<QueryKind, number>): string {
  const kinds = QUERY_KINDS.filter((kind) => counts[kind] > 0);
  const total = kinds.reduce((a, kind) => a + counts[kind], 0);
  const head = [`arm`, `all (${total}) R@${k}`, 'MRR', ...kinds.flatMap((kind) => [`${kind} (${counts[kind]}) R@${k}`, 'MRR']), 'stale first'];
  const lines = [`| ${head.join(' | ')} |`, `|---|${head.slice(1).map(() => '---:').join('|')}|`];
  for (const row of rows) {
    const s = row.score;
    const cells = [fixed(s.all.recallAtK, 3), fixed(s.all.mrr, 3), ...kinds.flatMap((kind) => [fixed(s.byKind[kind]?.recallAtK ?? 0, 3), fixed(s.byKind[kind]?.mrr ?? 0, 3)]), fixed(s.byKind.latest?.staleFirst ?? 0, 3)];
    lines.push(`| ${row.arm} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** The speed table: indexing throughput and search latency per memory-set size. */
export function speedTable(rows: readonly SpeedRow[]): string {
  const lines = ['| memories | index records/s (no embeddings) | index records/s (with embeddings) | search p50 ms | search p99 ms | lexical-only p50 / p99 ms | LIKE p50 / p99 ms |', '|---:|---:|---:|---:|---:|---:|---:|'];
  const pair = (l: SearchLatency) => `${fixed(l.p50Ms, 2)} / ${fixed(l.p99Ms, 2)}`;
  const count = (n: number) => Math.round(n).toLocaleString('en-US');
  for (const r of rows) {
    lines.push(`| ${count(r.memories)} | ${count(r.indexPerSecond)} | ${count(r.indexWithEmbeddingsPerSecond)} | ${fixed(r.search.p50Ms, 2)} | ${fixed(r.search.p99Ms, 2)} | ${pair(r.lexicalSearch)} | ${pair(r.likeSearch)} |`);
  }
  return lines.join('\n');
}

/**
 * `doc` with its section `## <heading>…` (up to the next `## ` heading) replaced by `section`, which
 * starts with its own heading line. A document without the section gets it before `## <before>`, or
 * at its end.
 */
export function replaceSection(doc: string, heading: string, section: string, before = 'Files'): string {
  const lines = doc.split('\n');
  const body = section.replace(/\n+$/, '').split('\n');
  const start = lines.findIndex((l) => l.startsWith(`## ${heading}`));
  if (start >= 0) {
    let end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
    if (end < 0) end = lines.length;
    return [...lines.slice(0, start), ...body, ...(end < lines.length ? [''] : []), ...lines.slice(end)].join('\n');
  }
  const at = lines.findIndex((l) => l.startsWith(`## ${before}`));
  if (at < 0) return `${doc.replace(/\n*$/, '')}\n\n${body.join('\n')}\n`;
  return [...lines.slice(0, at), ...body, '', ...lines.slice(at)].join('\n');
}
