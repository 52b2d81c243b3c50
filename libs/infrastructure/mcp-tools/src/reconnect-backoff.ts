/** How a lost server is retried: exponential delays between `initialMs` and `maxMs`, with jitter. */
export interface ReconnectBackoff {
  /** Delay before the first retry, in ms; default 500. */
  initialMs: number;
  /** Longest delay between two retries, in ms; default 30,000. */
  maxMs: number;
  /** Growth of the delay per failed retry; default 2. */
  factor: number;
  /**
   * Share of each delay that is random, 0–1; default 0.2: the delay is drawn from
   * `[d·(1−jitter), d]`, so that servers lost together are not retried in lockstep, and never exceeds `maxMs`.
   */
  jitter: number;
}

/** Defaults of {@link ReconnectBackoff}. */
export const RECONNECT_BACKOFF_DEFAULTS: ReconnectBackoff = { initialMs: 500, maxMs: 30_000, factor: 2, jitter: 0.2 };

/**
 * The delay before retry number `attempt` (0 for the first), in ms: `min(maxMs, initialMs·factor^attempt)`
 * less a random share of up to `jitter` of it. `random` returns a number in [0, 1).
 */
export function reconnectDelayMs(backoff: ReconnectBackoff, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** Math.max(0, attempt));
  return Math.round(ceiling * (1 - backoff.jitter * random()));
}
