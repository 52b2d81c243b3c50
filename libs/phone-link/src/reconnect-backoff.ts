/** One scheduled callback; `cancel()` keeps it from running (no effect once it ran). */
export interface ScheduledTimer {
  cancel(): void;
}

/**
 * The time source of a phone's reconnect schedule. The default runs on Node's timers; tests inject
 * a fake to see each delay exactly and fire it without waiting.
 */
export interface ReconnectTimers {
  /** A monotonic time in ms (measures how long a connection stayed up). */
  now(): number;
  /** Runs `callback` once after `delayMs` ms. */
  schedule(callback: () => void, delayMs: number): ScheduledTimer;
}

export const SYSTEM_RECONNECT_TIMERS: ReconnectTimers = Object.freeze({
  now: () => performance.now(),
  schedule: (callback: () => void, delayMs: number): ScheduledTimer => {
    const timer = setTimeout(callback, delayMs);
    return { cancel: () => clearTimeout(timer) };
  },
});

/** Shape of the backoff; times in ms. */
export interface ReconnectBackoffOptions {
  /** The first backoff. Default 1000 ms. */
  initialMs?: number;
  /** The backoff doubles up to this. Default 60 000 ms. */
  maxMs?: number;
  /** A welcomed connection that stayed up this long resets the backoff. Default 30 000 ms. */
  stableAfterMs?: number;
  /** Uniform in [0, 1), for the jitter. Default `Math.random`. */
  random?: () => number;
}

/**
 * Exponential backoff with equal jitter, as docs/protocol.md §1 asks of phones: the n-th attempt in a
 * row waits a random delay in [b/2, b] with b = 1 s, 2 s, 4 s, … capped at 60 s. Jitter spreads
 * phones that lost the gateway together; the half that is never jittered away keeps a phone from
 * reconnecting at once.
 *
 * The backoff resets after a connection that was welcomed and stayed up `stableAfterMs` (30 s): a
 * connection that dies sooner (refused, crashed after hello, flapping) keeps the backoff growing. A
 * connection the gateway ended with `DEVICE_REPLACED` never resets it, however long it lasted:
 * another phone uses the same id, and two phones that reset on every replacement would trade the id
 * back and forth every second or so forever.
 */
export class ReconnectBackoff {
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly stableAfterMs: number;
  private readonly random: () => number;
  private backoffMs: number;

  /** @throws RangeError when `initialMs` is not positive or `maxMs` is below it. */
  constructor(options: ReconnectBackoffOptions = {}) {
    this.initialMs = options.initialMs ?? 1000;
    this.maxMs = options.maxMs ?? 60_000;
    this.stableAfterMs = options.stableAfterMs ?? 30_000;
    this.random = options.random ?? Math.random;
    if (!(this.initialMs > 0) || !(this.maxMs >= this.initialMs)) throw new RangeError(`backoff needs 0 < initialMs ≤ maxMs, got ${this.initialMs} and ${this.maxMs}`);
    this.backoffMs = this.initialMs;
  }

  /** The backoff the next attempt draws its delay from, in ms. */
  get currentMs(): number {
    return this.backoffMs;
  }

  /** Back to the first backoff (a fresh start). */
  reset(): void {
    this.backoffMs = this.initialMs;
  }

  /**
   * A connection ended. `welcomedForMs`: how long it was up after `welcome` (null when never
   * welcomed); `replaced`: the gateway ended it with `DEVICE_REPLACED`. Resets the backoff only for a
   * connection that stayed up and was not replaced.
   */
  connectionEnded(welcomedForMs: number | null, replaced: boolean): void {
    if (!replaced && welcomedForMs !== null && welcomedForMs >= this.stableAfterMs) this.reset();
  }

  /** The delay before the next attempt, in whole ms within [backoff/2, backoff]; then doubles the backoff (capped). */
  nextDelayMs(): number {
    const half = this.backoffMs / 2;
    const delay = Math.round(half + this.random() * half);
    this.backoffMs = Math.min(this.backoffMs * 2, this.maxMs);
    return delay;
  }
}
