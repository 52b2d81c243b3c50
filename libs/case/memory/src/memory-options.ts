import { MobileClawError } from '@mobileclaw/domain';

/** Settings of the memory (defaults in {@link DEFAULT_MEMORY_OPTIONS}); the gateway reads them from `MOBILECLAW_MEMORY_*`. */
export interface MemoryOptions {
  /** Session turns returned by a search (the newest), score 1.0. Default 15. */
  sessionTurns: number;
  /** Session turns kept per scope before an automatic flush to the daily layer. Default 50. */
  flushThreshold: number;
  /** Daily memories searched: those of the last this many days. Default 7. */
  dailyWindowDays: number;
  /** At most this many daily hits per search. Default 3. */
  dailyResults: number;
  /** At most this many curated hits per search. Default 3. */
  curatedResults: number;
  /** Minimum cosine similarity of a semantic candidate. Default 0.35. */
  minSemanticScore: number;
  /** Half-life of the temporal decay of daily memories, in days (curated memories do not decay). Default 30. */
  halfLifeDays: number;
  /** MMR's weight of relevance against diversity, 0–1. Default 0.7. */
  mmrLambda: number;
  /** Organize reads the daily files of the last this many days. Default 30. */
  organizeDays: number;
  /** …each cut to this many characters. Default 3,000. */
  organizeFileChars: number;
  /** How often memories whose embedding failed are retried, in ms. Default 60,000. */
  embeddingRetryMs: number;
  /** Scopes whose session layer is kept in memory at once (the least recently used is flushed beyond it). Default 1,000. */
  maxSessions: number;
}

export const DEFAULT_MEMORY_OPTIONS: Readonly<MemoryOptions> = Object.freeze({
  sessionTurns: 15,
  flushThreshold: 50,
  dailyWindowDays: 7,
  dailyResults: 3,
  curatedResults: 3,
  minSemanticScore: 0.35,
  halfLifeDays: 30,
  mmrLambda: 0.7,
  organizeDays: 30,
  organizeFileChars: 3000,
  embeddingRetryMs: 60_000,
  maxSessions: 1000,
});

/** DI token of the {@link MemoryOptions} (a partial: the rest defaults). */
export const MEMORY_OPTIONS = Symbol('MEMORY_OPTIONS');

const POSITIVE_INTEGERS = ['sessionTurns', 'flushThreshold', 'dailyWindowDays', 'dailyResults', 'curatedResults', 'organizeDays', 'organizeFileChars', 'embeddingRetryMs', 'maxSessions'] as const;

/**
 * The defaults with `options` over them, checked: the counts, days and ms positive integers,
 * `halfLifeDays` a positive number, `mmrLambda` 0–1, `minSemanticScore` −1–1.
 * @throws MobileClawError `VALIDATION_FAILED` naming the first bad setting.
 */
export function memoryOptions(options: Partial<MemoryOptions> = {}): MemoryOptions {
  const settings: MemoryOptions = { ...DEFAULT_MEMORY_OPTIONS, ...options };
  const bad = (field: keyof MemoryOptions, rule: string) =>
    new MobileClawError('VALIDATION_FAILED', `memory option ${field} must be ${rule}, got ${String(settings[field])}`, { fieldErrors: [{ field, message: `must be ${rule}` }] });
  for (const field of POSITIVE_INTEGERS) {
    if (!Number.isInteger(settings[field]) || settings[field] < 1) throw bad(field, 'a positive integer');
  }
  if (!(settings.halfLifeDays > 0) || !Number.isFinite(settings.halfLifeDays)) throw bad('halfLifeDays', 'a positive number');
  if (!(settings.mmrLambda >= 0 && settings.mmrLambda <= 1)) throw bad('mmrLambda', 'a number 0–1');
  if (!(settings.minSemanticScore >= -1 && settings.minSemanticScore <= 1)) throw bad('minSemanticScore', 'a number -1–1');
  return settings;
}
