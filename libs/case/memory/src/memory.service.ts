import { Inject, Injectable, Logger, Optional, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  Clock,
  EmbeddingProvider,
  FLUSH_PRIORITY_MAX,
  MemoryFiles,
  MemoryIndex,
  MemorySummarizer,
  MobileClawError,
  ORGANIZE_PRIORITY_MIN,
  isCuratedMemory,
  type MemoryCandidate,
  type MemoryHit,
  type MemoryLayer,
  type MemoryRecord,
  type MemoryScope,
  type MemorySearchResult,
  type SemanticSearchState,
  type SessionTurn,
  type StoredMemoryLayer,
} from '@mobileclaw/domain';
import { KeyedSerialQueue } from './keyed-serial-queue';
import { MemoryEmbedder } from './memory-embedder';
import { MemoryFileSync } from './memory-file-sync';
import { DEFAULT_MEMORY_PRIORITY, validLayers, validMemoryCandidate, validMemoryQuery, validMemoryScope, validPage, validSearchK } from './memory-input';
import { interleaveByScore, searchStoredLayer, sessionHits } from './memory-layer-search';
import { MEMORY_OPTIONS, memoryOptions, type MemoryOptions } from './memory-options';
import { memoryContentHash, memoryRecordId, memoryRecordOf } from './memory-record-id';
import { SessionTurnStore } from './memory-sessions';
import { organizeDigest } from './organize-digest';

/** Who stored a memory (kept in logs and answers, not in the file). */
export type MemoryOrigin = 'api' | 'tool' | 'flush' | 'organize';

/** Options of {@link MemoryService.search}. */
export interface MemorySearchOptions {
  /** At most this many daily + curated hits in all (1–50), each layer giving up to `k`; default `dailyResults` + `curatedResults` (3 + 3). */
  k?: number;
  /** Layers to search; default all three. */
  layers?: readonly MemoryLayer[];
  signal?: AbortSignal;
}

/** What {@link MemoryService.status} reports. */
export interface MemoryStatus {
  /** `off` when no embeddings endpoint is configured (lexical search only). */
  semantic: 'on' | 'off';
  /** The embeddings model, when configured. */
  embeddingModel?: string;
  /** The summariser's name (`rule-based`, `llm:<model>`). */
  summarizer: string;
  records: number;
  missingEmbeddings: number;
}

const DAY_MS = 86_400_000;
const ALL_LAYERS: readonly MemoryLayer[] = ['session', 'daily', 'curated'];
/** The oldest day a daily file can have, for "every daily file of a scope". */
const FIRST_DAY = '0000-01-01';
/** Session turns kept per scope, as a multiple of the flush threshold (the oldest dropped beyond it while flushes fail). */
const SESSION_TURNS_PER_THRESHOLD = 2;

/**
 * The agent's memory: one search over the session, daily and curated layers, remembering, forgetting,
 * flushing a session and organizing long-term memory. The files are the truth ({@link MemoryFiles});
 * the index ({@link MemoryIndex}) follows them, at start-up and on every file change. Embeddings are
 * optional: without them, or while the endpoint fails, search is lexical.
 *
 * Every change of one scope's files and index (remember, forget, a file re-index) runs in that
 * scope's turn, one after the other; scopes run side by side.
 * Construction throws MobileClawError `VALIDATION_FAILED` on a bad option ({@link memoryOptions}).
 */
@Injectable()
export class MemoryService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(MemoryService.name);
  private readonly settings: MemoryOptions;
  private readonly queue = new KeyedSerialQueue();
  private readonly sessions: SessionTurnStore;
  private readonly embedder: MemoryEmbedder;
  private readonly sync: MemoryFileSync;
  /** The flush of each scope running now (and those queued behind it), so one scope never has two at once. */
  private readonly flushes = new Map<MemoryScope, Promise<unknown>>();
  private retryTimer?: ReturnType<typeof setInterval>;

  constructor(
    private readonly index: MemoryIndex,
    private readonly files: MemoryFiles,
    private readonly summarizer: MemorySummarizer,
    private readonly clock: Clock,
    @Optional() private readonly embeddings?: EmbeddingProvider,
    @Optional() @Inject(MEMORY_OPTIONS) options: Partial<MemoryOptions> = {},
  ) {
    this.settings = memoryOptions(options);
    this.sessions = new SessionTurnStore(this.settings.maxSessions, this.settings.flushThreshold * SESSION_TURNS_PER_THRESHOLD);
    this.embedder = new MemoryEmbedder(index, embeddings, this.logger);
    this.sync = new MemoryFileSync(index, files, this.embedder, this.queue, this.logger);
  }

  /**
   * Searches `scope`'s memory: the newest `sessionTurns` session turns (oldest first, score 1.0), then
   * up to `dailyResults` daily memories of the last `dailyWindowDays` days and up to `curatedResults`
   * curated ones, each layer ranked by the hybrid of BM25 (normalised 0–1) and cosine similarity
   * (≥ `minSemanticScore`), decayed by age (daily only, half-life `halfLifeDays` days), re-ranked by
   * MMR (`mmrLambda`); the two layers interleaved by score and cut to `k`. With `k` given, each layer
   * may give up to `k` hits and the best `k` of both are kept. The query is embedded once.
   * Semantic search is `off` without embeddings and `degraded` (with a `notice`) when the endpoint
   * fails — never an error.
   * @throws MobileClawError `VALIDATION_FAILED` (bad scope, query blank or over 1,000 characters, k not
   * 1–50, unknown layer), `ABORTED` (the signal fired), `STORAGE_ERROR`.
   */
  async search(scope: MemoryScope, query: string, options: MemorySearchOptions = {}): Promise<MemorySearchResult> {
    const valid = validMemoryScope(scope);
    const text = validMemoryQuery(query);
    // Without k, the seed's 3 + 3; a caller's k is the total, each layer competing for all of it.
    const k = options.k === undefined ? this.settings.dailyResults + this.settings.curatedResults : validSearchK(options.k);
    const dailyLimit = options.k === undefined ? this.settings.dailyResults : k;
    const curatedLimit = options.k === undefined ? this.settings.curatedResults : k;
    const layers = validLayers(options.layers ?? ALL_LAYERS);
    if (options.signal?.aborted) throw new MobileClawError('ABORTED', 'the memory search was aborted');
    const now = this.clock.now();
    const stored = layers.has('daily') || layers.has('curated');

    let semantic: SemanticSearchState = this.embeddings ? 'on' : 'off';
    let notice = this.embeddings ? undefined : 'no embeddings endpoint is configured: lexical search only';
    let vector: Float32Array | undefined;
    if (this.embeddings && stored) {
      try {
        [vector] = await this.embeddings.embed([text], options.signal);
        if (!vector || vector.length === 0) throw new MobileClawError('PLANNER_ERROR', 'the embeddings endpoint answered no vector');
      } catch (err) {
        vector = undefined;
        if (options.signal?.aborted) throw new MobileClawError('ABORTED', 'the memory search was aborted', { cause: err });
        semantic = 'degraded';
        notice = `the embeddings endpoint failed (${(err as Error).message}): lexical search only this time`;
        this.logger.warn(`memory search in ${valid}: ${notice}`);
      }
    }

    const common = { scope: valid, query: text, ...(vector ? { vector } : {}), minSemanticScore: this.settings.minSemanticScore, mmrLambda: this.settings.mmrLambda, now };
    const [daily, curated] = await Promise.all([
      layers.has('daily')
        ? searchStoredLayer(this.index, {
            ...common,
            layer: 'daily',
            since: new Date(now.getTime() - this.settings.dailyWindowDays * DAY_MS).toISOString(),
            limit: dailyLimit,
            halfLifeDays: this.settings.halfLifeDays,
          })
        : Promise.resolve([]),
      layers.has('curated') ? searchStoredLayer(this.index, { ...common, layer: 'curated', limit: curatedLimit, halfLifeDays: null }) : Promise.resolve([]),
    ]);
    const session: MemoryHit[] = layers.has('session') ? sessionHits(this.sessions.turns(valid), this.settings.sessionTurns, now) : [];
    return { scope: valid, query: text, hits: [...session, ...interleaveByScore(daily, curated, k)], semantic, ...(notice !== undefined ? { notice } : {}) };
  }

  /**
   * Remembers `candidate` in `scope`: a section of today's (UTC, from the clock) daily file and, when
   * curated (`isCuratedMemory`: priority ≥ 8 or a curated category), of `MEMORY.md` too; indexed and
   * embedded at once (one embeddings request; a failed one leaves the records `missing`). A layer that
   * already holds the text (same record id) is not written again: its existing record is returned.
   * @returns the stored records (daily first), including ones that already existed.
   * @throws MobileClawError `VALIDATION_FAILED` (bad scope; text blank, over 4,000 characters or with a
   * line starting `## `; category not `[a-z0-9_]{1,40}`; priority not an integer 1–10), `STORAGE_ERROR`.
   */
  async remember(scope: MemoryScope, candidate: MemoryCandidate, origin: MemoryOrigin): Promise<MemoryRecord[]> {
    const valid = validMemoryScope(scope);
    const memory = validMemoryCandidate(candidate);
    return this.store(valid, memory, isCuratedMemory(memory.category, memory.priority) ? ['daily', 'curated'] : ['daily'], origin);
  }

  /** The record with this id. @throws MobileClawError `MEMORY_NOT_FOUND`, `STORAGE_ERROR`. */
  async get(id: string): Promise<MemoryRecord> {
    const record = await this.index.get(id);
    if (!record) throw new MobileClawError('MEMORY_NOT_FOUND', `no memory ${JSON.stringify(id.slice(0, 80))}`);
    return record;
  }

  /**
   * A page of a scope's stored memories of one layer, newest first, and how many there are.
   * @throws MobileClawError `VALIDATION_FAILED` (bad scope or layer, limit not 1–500, offset not an integer ≥ 0), `STORAGE_ERROR`.
   */
  async list(scope: MemoryScope, layer: StoredMemoryLayer, page: { limit: number; offset: number }): Promise<{ records: MemoryRecord[]; total: number }> {
    const valid = validMemoryScope(scope);
    if (layer !== 'daily' && layer !== 'curated') {
      throw new MobileClawError('VALIDATION_FAILED', `layer must be daily or curated, got ${JSON.stringify(layer)}`, { fieldErrors: [{ field: 'layer', message: 'must be daily or curated' }] });
    }
    return this.index.list(valid, layer, validPage(page));
  }

  /**
   * Forgets a memory for good: every section with its text (same content hash) in its scope's files —
   * every daily file and `MEMORY.md` — and the index rows and vectors of every record of the scope
   * with that text (daily and curated).
   * @returns the records removed.
   * @throws MobileClawError `MEMORY_NOT_FOUND`, `STORAGE_ERROR`.
   */
  async forget(id: string): Promise<MemoryRecord[]> {
    const record = await this.get(id);
    return this.queue.run(record.scope, async () => {
      const records = await this.index.byHash(record.scope, record.contentHash);
      if (records.length === 0) throw new MobileClawError('MEMORY_NOT_FOUND', `no memory ${JSON.stringify(id)}`);
      const files = new Set([...(await this.files.dailyFiles(record.scope, FIRST_DAY)).map((daily) => daily.file), ...records.map((each) => each.source.file)]);
      for (const file of files) await this.files.removeSection(file, record.contentHash);
      await this.index.delete(records.map((each) => each.id));
      this.logger.log(`forgot ${records.length} record(s) of ${record.scope} (${records.map((each) => each.id).join(', ')})`);
      return records;
    });
  }

  /**
   * Adds a turn to `scope`'s session layer (its text cut to 4,000 characters). Once `flushThreshold`
   * turns have come since the last flush attempt, the session is flushed in the background; beyond
   * `maxSessions` scopes the least recently used one is flushed in the background and dropped.
   * @throws MobileClawError `VALIDATION_FAILED` (bad scope).
   */
  recordTurn(scope: MemoryScope, turn: SessionTurn): void {
    const valid = validMemoryScope(scope);
    const evicted = this.sessions.add(valid, turn);
    if (evicted) {
      void this.serialFlush(evicted.scope, () => this.flushTurns(evicted.scope, evicted.turns)).catch((err: unknown) =>
        this.logger.warn(`the session of ${evicted.scope} was dropped (over ${this.settings.maxSessions} sessions) and its flush failed: ${(err as Error).message}`),
      );
    }
    if (this.sessions.sinceAttempt(valid) >= this.settings.flushThreshold && !this.flushes.has(valid)) {
      void this.flush(valid).catch((err: unknown) => this.logger.warn(`automatic flush of ${valid} failed (tried again after ${this.settings.flushThreshold} more turns): ${(err as Error).message}`));
    }
  }

  /** The scope's session turns, oldest first. @throws MobileClawError `VALIDATION_FAILED` (bad scope). */
  sessionTurns(scope: MemoryScope): SessionTurn[] {
    return this.sessions.turns(validMemoryScope(scope));
  }

  /**
   * Flushes `scope`'s session: the summariser picks what is worth keeping, each candidate's priority
   * is capped at 7 (`FLUSH_PRIORITY_MAX`) and it is remembered in the daily layer only (a flush alone
   * never curates); then the flushed turns leave the session (turns added meanwhile stay). A session
   * without turns stores nothing. A flush of a scope already flushing waits for that one first.
   * Candidates that fail validation are logged and skipped.
   * @returns how many turns were flushed and the records this flush wrote (a memory the scope already had is not listed).
   * @throws MobileClawError `VALIDATION_FAILED` (bad scope), from the summariser (`PLANNER_ERROR`, `TIMEOUT`, `ABORTED`) — the session is kept then — or `STORAGE_ERROR`.
   */
  async flush(scope: MemoryScope, signal?: AbortSignal): Promise<{ turns: number; stored: MemoryRecord[] }> {
    const valid = validMemoryScope(scope);
    return this.serialFlush(valid, () => {
      this.sessions.markAttempt(valid);
      return this.flushTurns(valid, this.sessions.turns(valid), signal);
    });
  }

  /**
   * Flushes every scope's session (the session layer lives in memory only: a stopping gateway would
   * lose it), one scope after another; a scope whose flush fails is logged and keeps its turns.
   * @returns how many scopes were flushed and how many turns they had.
   */
  async flushAll(signal?: AbortSignal): Promise<{ scopes: number; turns: number }> {
    let scopes = 0;
    let turns = 0;
    for (const scope of this.sessions.scopes()) {
      if (signal?.aborted) break;
      try {
        const flushed = await this.flush(scope, signal);
        scopes++;
        turns += flushed.turns;
      } catch (err) {
        this.logger.warn(`could not flush the session of ${scope}: ${(err as Error).message}`);
      }
    }
    return { scopes, turns };
  }

  /**
   * Organizes `scope`'s long-term memory: the daily files of the last `organizeDays` days (today
   * included, each as its sections, highest priority and newest first, within `organizeFileChars` characters (`organizeDigest`); days without sections left out) go to the summariser,
   * and what it finds lasting (priority ≥ 9, `ORGANIZE_PRIORITY_MIN`) is remembered in the daily and
   * curated layers; lower priorities and invalid candidates are dropped. Without daily files the
   * summariser is not asked.
   * @returns how many days were read and the records it wrote (lasting memories the scope already had are not listed).
   * @throws MobileClawError `VALIDATION_FAILED` (bad scope), from the summariser (`PLANNER_ERROR`, `TIMEOUT`, `ABORTED`), `STORAGE_ERROR`.
   */
  async organize(scope: MemoryScope, signal?: AbortSignal): Promise<{ days: number; stored: MemoryRecord[] }> {
    const valid = validMemoryScope(scope);
    const { organizeDays, organizeFileChars } = this.settings;
    const sinceDay = new Date(this.clock.now().getTime() - (organizeDays - 1) * DAY_MS).toISOString().slice(0, 10);
    const days: { day: string; text: string }[] = [];
    for (const { day, file } of (await this.files.dailyFiles(valid, sinceDay)).slice(-organizeDays)) {
      const text = organizeDigest(day, await this.files.read(file), organizeFileChars);
      if (text !== '') days.push({ day, text });
    }
    if (days.length === 0) return { days: 0, stored: [] };
    const stored: MemoryRecord[] = [];
    for (const candidate of await this.summarizer.organize(days, signal)) {
      if ((candidate.priority ?? 0) < ORGANIZE_PRIORITY_MIN) continue;
      const memory = this.summarizerCandidate(valid, candidate, 'organize');
      if (memory) stored.push(...(await this.storeIn(valid, memory, ['daily', 'curated'], 'organize')).created);
    }
    return { days: days.length, stored };
  }

  /** What the memory runs with and holds. @throws MobileClawError `STORAGE_ERROR`. */
  async status(): Promise<MemoryStatus> {
    const stats = await this.index.stats();
    return {
      semantic: this.embeddings ? 'on' : 'off',
      ...(this.embeddings ? { embeddingModel: this.embeddings.model } : {}),
      summarizer: this.summarizer.name,
      records: stats.records,
      missingEmbeddings: stats.missingEmbeddings,
    };
  }

  /**
   * Embeds now the memories whose embedding failed (also done every `embeddingRetryMs` ms), until none
   * is left or the endpoint fails again; one retry at a time.
   * @returns how many were embedded (0 without embeddings).
   * @throws MobileClawError `STORAGE_ERROR`.
   */
  retryEmbeddings(): Promise<number> {
    return this.embedder.retryMissing();
  }

  /**
   * Resolves once every change of the files and index and every flush started so far (background ones
   * included, and any they start) has finished — for an orderly shutdown and for tests.
   */
  async idle(): Promise<void> {
    while (this.flushes.size > 0) await Promise.allSettled([...this.flushes.values()]);
    await this.queue.idle();
    if (this.flushes.size > 0) await this.idle();
  }

  /** Watches the memory files, indexes every one of them (new sections only) and starts the embedding retries. */
  async onModuleInit(): Promise<void> {
    // Watch first: a change during the full re-index queues behind it in its scope's turn.
    this.sync.watch();
    await this.sync.reindexAll();
    if (this.embeddings) {
      this.retryTimer = setInterval(() => {
        this.retryEmbeddings().catch((err: unknown) => this.logger.warn(`embedding retry failed: ${(err as Error).message}`));
      }, this.settings.embeddingRetryMs);
      this.retryTimer.unref();
    }
  }

  /** Stops watching and retrying. */
  onModuleDestroy(): void {
    this.sync.stop();
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.retryTimer = undefined;
  }

  /** Writes, indexes and embeds a valid memory in the layers given, in the scope's turn. */
  /** Remembers `memory` in `layers`; resolves with every layer's record and those written now (`created`), existing ones left as they were. */
  private storeIn(scope: MemoryScope, memory: Required<MemoryCandidate>, layers: readonly StoredMemoryLayer[], origin: MemoryOrigin): Promise<{ records: MemoryRecord[]; created: MemoryRecord[] }> {
    return this.queue.run(scope, async () => {
      const at = this.clock.now().toISOString();
      const contentHash = memoryContentHash(memory.text);
      const records: MemoryRecord[] = [];
      const fresh: MemoryRecord[] = [];
      for (const layer of layers) {
        const existing = await this.index.get(memoryRecordId(scope, layer, contentHash));
        if (existing) {
          records.push(existing);
          continue;
        }
        const record = memoryRecordOf(await this.files.append(scope, layer, memory, at), 'missing');
        records.push(record);
        fresh.push(record);
      }
      const stored = new Map((await this.embedder.store(fresh)).map((record) => [record.id, record]));
      if (fresh.length > 0) this.logger.debug(`remembered in ${scope} (${origin}): ${fresh.map((record) => `${record.layer} ${record.id}`).join(', ')}`);
      return { records: records.map((record) => stored.get(record.id) ?? record), created: fresh.map((record) => stored.get(record.id) ?? record) };
    });
  }

  private async store(scope: MemoryScope, memory: Required<MemoryCandidate>, layers: readonly StoredMemoryLayer[], origin: MemoryOrigin): Promise<MemoryRecord[]> {
    return (await this.storeIn(scope, memory, layers, origin)).records;
  }

  /** Runs a flush of `scope` after the one running (whatever its outcome), so a scope never has two at once. */
  private serialFlush<T>(scope: MemoryScope, flush: () => Promise<T>): Promise<T> {
    const run = (this.flushes.get(scope) ?? Promise.resolve()).catch(() => undefined).then(flush);
    this.flushes.set(scope, run);
    const settle = () => {
      if (this.flushes.get(scope) === run) this.flushes.delete(scope);
    };
    run.then(settle, settle);
    return run;
  }

  private async flushTurns(scope: MemoryScope, turns: readonly SessionTurn[], signal?: AbortSignal): Promise<{ turns: number; stored: MemoryRecord[] }> {
    if (turns.length === 0) return { turns: 0, stored: [] };
    const stored: MemoryRecord[] = [];
    for (const candidate of await this.summarizer.summarize(turns, signal)) {
      const memory = this.summarizerCandidate(scope, { ...candidate, priority: Math.min(candidate.priority ?? DEFAULT_MEMORY_PRIORITY, FLUSH_PRIORITY_MAX) }, 'flush');
      // Only what this flush wrote: a memory the scope already had is not reported as stored again.
      if (memory) stored.push(...(await this.storeIn(scope, memory, ['daily'], 'flush')).created);
    }
    this.sessions.remove(scope, turns);
    this.logger.log(`flushed ${turns.length} session turn(s) of ${scope}: ${stored.length} memor${stored.length === 1 ? 'y' : 'ies'}`);
    return { turns: turns.length, stored };
  }

  /** A summariser's candidate, validated; undefined (logged) when invalid. */
  private summarizerCandidate(scope: MemoryScope, candidate: MemoryCandidate, origin: MemoryOrigin): Required<MemoryCandidate> | undefined {
    try {
      return validMemoryCandidate(candidate);
    } catch (err) {
      this.logger.warn(`${origin} of ${scope}: a candidate from ${this.summarizer.name} was skipped: ${(err as Error).message}`);
      return undefined;
    }
  }
}
