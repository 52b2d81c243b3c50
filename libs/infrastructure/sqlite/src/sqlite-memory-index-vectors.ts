import { DOT_STEP, DotMemory } from './sqlite-memory-index-dot';

/** A cached vector to add: its record's id and creation time (ms since the epoch). */
export interface CachedVector {
  id: string;
  createdAtMs: number;
  vector: Float32Array;
}

/** A semantic candidate: the record's id, its cosine similarity to the query, and a copy of its vector. */
export interface VectorMatch {
  id: string;
  score: number;
  vector: Float32Array;
}

/** Filters of {@link MemoryVectorCache.search}. */
export interface VectorSearch {
  /** Only vectors of records created at or after this instant (ms since the epoch). */
  sinceMs: number;
  minScore: number;
  limit: number;
}

const INITIAL_ROWS = 64;

/**
 * The vectors of one scope and layer that have one length, in one {@link DotMemory}:
 * the query at row "-1", then row `r` at float `(r + 1) * stride` (`stride` = the length padded with
 * zeros to a multiple of {@link DOT_STEP}), so that a search is one linear scan. Removal moves the last
 * row into the gap. At most 4 GiB per slab (WebAssembly's 32-bit memory: e.g. 650k vectors of 1,536 values).
 */
class VectorSlab {
  private ids: string[] = [];
  private createdAtMs = new Float64Array(INITIAL_ROWS);
  private norms = new Float64Array(INITIAL_ROWS);
  private readonly stride: number;
  private readonly memory: DotMemory;
  private readonly rowOf = new Map<string, number>();

  constructor(readonly dims: number) {
    this.stride = Math.max(DOT_STEP, Math.ceil(dims / DOT_STEP) * DOT_STEP);
    this.memory = new DotMemory((INITIAL_ROWS + 1) * this.stride);
  }

  get size(): number {
    return this.ids.length;
  }

  add(entry: CachedVector, norm: number): void {
    const row = this.ids.length;
    if (row === this.norms.length) this.grow();
    this.ids.push(entry.id);
    this.createdAtMs[row] = entry.createdAtMs;
    this.norms[row] = norm;
    this.memory.floats.set(entry.vector, (row + 1) * this.stride);
    this.rowOf.set(entry.id, row);
  }

  remove(id: string): void {
    const row = this.rowOf.get(id);
    if (row === undefined) return;
    const last = this.ids.length - 1;
    if (row !== last) {
      const moved = this.ids[last];
      this.ids[row] = moved;
      this.createdAtMs[row] = this.createdAtMs[last];
      this.norms[row] = this.norms[last];
      this.memory.floats.copyWithin((row + 1) * this.stride, (last + 1) * this.stride, (last + 2) * this.stride);
      this.rowOf.set(moved, row);
    }
    this.ids.pop();
    this.rowOf.delete(id);
  }

  /** Adds to `top` every row at or after `sinceMs` whose cosine similarity to `query` (norm `queryNorm`) is at least `minScore`. */
  scan(query: Float32Array, queryNorm: number, sinceMs: number, minScore: number, top: TopMatches): void {
    const { stride, norms, createdAtMs } = this;
    const { dot, floats } = this.memory;
    floats.set(query, 0);
    floats.fill(0, query.length, stride);
    const rowBytes = stride * 4;
    for (let row = 0; row < this.ids.length; row++) {
      if (createdAtMs[row] < sinceMs) continue;
      const score = dot(0, (row + 1) * rowBytes, stride) / (queryNorm * norms[row]);
      // `!(>=)` also drops NaN (a vector with NaN values).
      if (!(score >= minScore)) continue;
      top.offer(score, createdAtMs[row], this, row);
    }
  }

  idAt(row: number): string {
    return this.ids[row];
  }

  vectorAt(row: number): Float32Array {
    const start = (row + 1) * this.stride;
    return this.memory.floats.slice(start, start + this.dims);
  }

  private grow(): void {
    const capacity = this.norms.length * 2;
    const createdAtMs = new Float64Array(capacity);
    createdAtMs.set(this.createdAtMs);
    this.createdAtMs = createdAtMs;
    const norms = new Float64Array(capacity);
    norms.set(this.norms);
    this.norms = norms;
    this.memory.ensureFloats((capacity + 1) * this.stride);
  }
}

interface Candidate {
  score: number;
  createdAtMs: number;
  id: string;
  slab: VectorSlab;
  row: number;
}

/**
 * The best `limit` candidates offered, kept in a binary min-heap (the worst kept one at the root), so
 * that a scan of n vectors costs O(n log limit) and never sorts them all. Better: higher score, then
 * newer, then smaller id.
 */
class TopMatches {
  private readonly heap: Candidate[] = [];

  constructor(private readonly limit: number) {}

  offer(score: number, createdAtMs: number, slab: VectorSlab, row: number): void {
    if (this.limit <= 0) return;
    if (this.heap.length === this.limit) {
      const worst = this.heap[0];
      if (score < worst.score || (score === worst.score && createdAtMs < worst.createdAtMs)) return;
    }
    const candidate = { score, createdAtMs, id: slab.idAt(row), slab, row };
    if (this.heap.length < this.limit) {
      this.heap.push(candidate);
      this.up(this.heap.length - 1);
    } else if (better(candidate, this.heap[0])) {
      this.heap[0] = candidate;
      this.down(0);
    }
  }

  /** Best first. */
  matches(): VectorMatch[] {
    return [...this.heap].sort((a, b) => (better(a, b) ? -1 : 1)).map((c) => ({ id: c.id, score: c.score, vector: c.slab.vectorAt(c.row) }));
  }

  private up(index: number): void {
    const heap = this.heap;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!better(heap[parent], heap[index])) break;
      [heap[parent], heap[index]] = [heap[index], heap[parent]];
      index = parent;
    }
  }

  private down(index: number): void {
    const heap = this.heap;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let worst = index;
      if (left < heap.length && better(heap[worst], heap[left])) worst = left;
      if (right < heap.length && better(heap[worst], heap[right])) worst = right;
      if (worst === index) return;
      [heap[worst], heap[index]] = [heap[index], heap[worst]];
      index = worst;
    }
  }
}

function better(a: Candidate, b: Candidate): boolean {
  if (a.score !== b.score) return a.score > b.score;
  if (a.createdAtMs !== b.createdAtMs) return a.createdAtMs > b.createdAtMs;
  return a.id < b.id;
}

function normOf(vector: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i] * vector[i];
  return Math.sqrt(sum);
}

/**
 * The in-memory copy of the index's vectors that a semantic search scans: per scope and layer
 * (loaded whole on its first search, then kept in step by every write of this index), per vector
 * length. A search is a brute-force cosine scan of the filtered vectors (a SIMD dot product per
 * vector) with a bounded top-k selection: at 100k vectors of 256 values, one pass over ~100 MB.
 * It assumes its index is the only writer of the memories table (one gateway per database file).
 */
export class MemoryVectorCache {
  private readonly groups = new Map<string, Map<number, VectorSlab>>();
  private readonly slabOf = new Map<string, VectorSlab>();

  isLoaded(scope: string, layer: string): boolean {
    return this.groups.has(groupKey(scope, layer));
  }

  /** Makes the group known (empty) and adds its vectors. */
  load(scope: string, layer: string, entries: Iterable<CachedVector>): void {
    this.groups.set(groupKey(scope, layer), new Map());
    for (const entry of entries) this.set(scope, layer, entry);
  }

  /**
   * Puts a record's vector in its group when that group is loaded, after taking the record out of
   * wherever it was. A zero vector is left out (its cosine similarity is undefined).
   */
  set(scope: string, layer: string, entry: CachedVector): void {
    this.remove(entry.id);
    const group = this.groups.get(groupKey(scope, layer));
    if (!group) return;
    const norm = normOf(entry.vector);
    if (!(norm > 0) || !Number.isFinite(norm)) return;
    let slab = group.get(entry.vector.length);
    if (!slab) {
      slab = new VectorSlab(entry.vector.length);
      group.set(entry.vector.length, slab);
    }
    slab.add(entry, norm);
    this.slabOf.set(entry.id, slab);
  }

  remove(id: string): void {
    const slab = this.slabOf.get(id);
    if (!slab) return;
    slab.remove(id);
    this.slabOf.delete(id);
  }

  /** Drops everything (e.g. on close). */
  clear(): void {
    this.groups.clear();
    this.slabOf.clear();
  }

  /**
   * The group's vectors of the query's length most similar to it, best first (higher score, then
   * newer, then smaller id). A zero query matches nothing. The group must be loaded.
   */
  search(scope: string, layer: string, query: Float32Array, filter: VectorSearch): VectorMatch[] {
    const slab = this.groups.get(groupKey(scope, layer))?.get(query.length);
    const queryNorm = normOf(query);
    if (!slab || slab.size === 0 || !(queryNorm > 0) || !Number.isFinite(queryNorm)) return [];
    const top = new TopMatches(Math.floor(filter.limit));
    slab.scan(query, queryNorm, filter.sinceMs, filter.minScore, top);
    return top.matches();
  }
}

function groupKey(scope: string, layer: string): string {
  return `${layer}\n${scope}`;
}
