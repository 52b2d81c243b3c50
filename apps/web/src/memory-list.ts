import type { MemoryHit, MemoryRecord, MemoryScoreParts, MemorySearchResult, MemoryStatus } from './api-types.js';
import { h } from './dom.js';

/**
 * The memory panel's rendering: one list item per search hit and per stored record. Every memory text
 * comes from a file anyone with the data folder may edit, so it is set as text, never parsed as HTML.
 */

const DAY_MS = 86_400_000;

/** How old a memory is, for people: `just now` (under a minute), `5 min ago`, `3 h ago`, `1 day ago`, `12 days ago`. */
export function formatAge(ageDays: number): string {
  const minutes = Math.floor((ageDays * DAY_MS) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return days === 1 ? '1 day ago' : `${days} days ago`;
}

/** Age in days of `createdAt` (ISO-8601) at `now` (ms since the epoch); 0 for a time in the future or unreadable. */
export function ageInDays(createdAt: string, now: number): number {
  const at = Date.parse(createdAt);
  return Number.isNaN(at) ? 0 : Math.max(0, (now - at) / DAY_MS);
}

/** A score part with two decimals, `—` when it took no part (null). */
export function scorePart(value: number | null): string {
  return value === null ? '—' : value.toFixed(2);
}

/** How a hit's score was made, e.g. `score 0.49 · lexical 1.00 · semantic — · decay 0.49`. */
export function scoreText(score: number, parts: MemoryScoreParts): string {
  return `score ${score.toFixed(2)} · lexical ${scorePart(parts.lexical)} · semantic ${scorePart(parts.semantic)} · decay ${parts.decay.toFixed(2)}`;
}

/** Where a stored memory is written: `device/sim-1/2026-12-02.md:3`. */
export function sourceText(source: { file: string; line: number }): string {
  return `${source.file}:${source.line}`;
}

/** The semantic search state in words: what the status says, or what the last search found. */
export function semanticText(status: MemoryStatus | undefined, search: MemorySearchResult | undefined): { state: string; text: string } {
  if (search) {
    if (search.semantic === 'on') return { state: 'on', text: `Semantic search on${status?.embeddingModel ? ` (${status.embeddingModel})` : ''}` };
    const why = search.notice ?? (search.semantic === 'degraded' ? 'the embeddings endpoint failed: lexical search only this time' : 'lexical search only');
    return { state: search.semantic, text: `Semantic search ${search.semantic}: ${why}` };
  }
  if (!status) return { state: 'unknown', text: '' };
  return status.semantic === 'on'
    ? { state: 'on', text: `Semantic search on${status.embeddingModel ? ` (${status.embeddingModel})` : ''}` }
    : { state: 'off', text: 'Semantic search off, lexical only: no embeddings endpoint configured (MOBILECLAW_EMBEDDINGS_BASE_URL)' };
}

/** One search hit: its layer, its text, then where it is, how it scored and how old it is. */
export function renderMemoryHit(hit: MemoryHit): HTMLLIElement {
  return h(
    'li',
    { class: `memory-hit layer-${hit.layer}`, 'data-layer': hit.layer, ...(hit.id ? { 'data-id': hit.id } : {}) },
    h('span', { class: 'memory-layer' }, hit.layer),
    ' ',
    h('span', { class: 'memory-text' }, hit.text),
    h(
      'p',
      { class: 'memory-meta' },
      hit.source ? h('code', { class: 'memory-source' }, sourceText(hit.source)) : h('span', { class: 'memory-source' }, 'this session'),
      ' · ',
      h('span', { class: 'memory-score' }, scoreText(hit.score, hit.parts)),
      ' · ',
      h('span', { class: 'memory-age' }, formatAge(hit.ageDays)),
    ),
  );
}

/** One stored memory with a Delete button: its text, category and priority, where it is written, its age at `now` (ms). */
export function renderMemoryRecord(record: MemoryRecord, now: number, onDelete: (record: MemoryRecord) => void): HTMLLIElement {
  return h(
    'li',
    { class: 'memory-record', 'data-id': record.id, 'data-layer': record.layer },
    h('span', { class: 'memory-text' }, record.text),
    h(
      'p',
      { class: 'memory-meta' },
      h('span', { class: 'memory-category' }, `${record.category} · p${record.priority}`),
      ' · ',
      h('code', { class: 'memory-source' }, sourceText(record.source)),
      ' · ',
      h('span', { class: 'memory-age' }, formatAge(ageInDays(record.createdAt, now))),
      record.embedding === 'missing' ? h('span', { class: 'memory-embedding' }, ' · embedding pending') : null,
    ),
    h('button', { type: 'button', class: 'memory-delete', title: 'Forget it for good: its file sections, index rows and vectors', onclick: () => onDelete(record) }, 'Delete'),
  );
}
