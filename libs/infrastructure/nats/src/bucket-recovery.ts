/**
 * What a recovery must do: `full` after the link came back or a periodic renewal failed (renew and
 * watch anew, whether or not the bucket was lost); `if-lost` after a failed write (make the bucket
 * again if the server lost it, nothing more: a write that timed out under load must not make the
 * owner rewrite or replay its whole bucket).
 */
export type RecoveryScope = 'full' | 'if-lost';

/** How a {@link BucketRecovery} runs its owner's recovery. */
export interface BucketRecoveryOptions {
  /**
   * One try: makes the owner's bucket(s) again if lost, and does the full work when `full` is true
   * (or when a lost bucket requires it). Resolves once done; rejects when it could not finish.
   */
  attempt(full: boolean): Promise<void>;
  /** Whether the owner has closed: then nothing runs or is tried again. */
  closed(): boolean;
  /** Called when a try failed, with the delay (ms) after which it is tried again. */
  failed(err: unknown, retryMs: number): void;
  /** Longest delay between tries, ms (the owner's periodic renewal interval, which also asks). The first is 100 ms, or this when shorter. */
  maxRetryMs: number;
}

/**
 * The recovery of a component's KV bucket(s) on the cluster's NATS server: one try at a time (a
 * request while one runs shares it, and a `full` one asked for meanwhile runs right after it), a
 * failed try tried again soon (100 ms, doubling up to {@link BucketRecoveryOptions.maxRetryMs}) — a
 * server just restarted may answer JetStream requests only a moment later.
 */
export class BucketRecovery {
  private running: Promise<void> | undefined;
  private fullAsked = 0;
  private fullDone = 0;
  private readonly backoff: RecoveryBackoff;

  constructor(private readonly options: BucketRecoveryOptions) {
    this.backoff = new RecoveryBackoff(Math.min(100, options.maxRetryMs), options.maxRetryMs);
  }

  /** Asks for a recovery of `scope`; resolves when the try that serves it ended (never rejects). */
  request(scope: RecoveryScope): Promise<void> {
    if (scope === 'full') this.fullAsked++;
    if (this.running) return this.running;
    const run = async (): Promise<boolean> => {
      if (this.options.closed()) return false;
      const asked = this.fullAsked;
      try {
        await this.options.attempt(asked > this.fullDone);
        this.fullDone = asked;
        this.backoff.succeeded();
        return true;
      } catch (err) {
        if (this.options.closed()) return false;
        this.options.failed(err, this.backoff.failed(() => void this.request('if-lost')));
        return false;
      }
    };
    this.running = run().then((succeeded) => {
      this.running = undefined;
      // A full recovery asked for while this one ran (after it read what was asked): run it now.
      if (succeeded && !this.options.closed() && this.fullAsked > this.fullDone) void this.request('if-lost');
    });
    return this.running;
  }

  /** Cancels a try scheduled after a failure (the owner closes). */
  stop(): void {
    this.backoff.succeeded();
  }
}

/**
 * When to try a failed recovery again: soon after a failure (a server just restarted may answer
 * JetStream requests only a moment later), then less often — `firstMs` after the first failure,
 * doubled at each further one, never more than `maxMs` (the owner's periodic renewal, which also
 * tries). {@link succeeded} starts the series over.
 */
export class RecoveryBackoff {
  private delayMs = 0;
  private timer: NodeJS.Timeout | undefined;

  /** @param firstMs the first delay, ms (> 0). @param maxMs the longest delay, ms (≥ firstMs). */
  constructor(
    private readonly firstMs: number,
    private readonly maxMs: number,
  ) {}

  /** Runs `retry` after the next delay (replacing a retry already scheduled); returns that delay in ms. The timer does not keep the process alive. */
  failed(retry: () => void): number {
    clearTimeout(this.timer);
    this.delayMs = Math.min(this.maxMs, this.delayMs === 0 ? this.firstMs : this.delayMs * 2);
    this.timer = setTimeout(retry, this.delayMs);
    this.timer.unref();
    return this.delayMs;
  }

  /** Cancels a scheduled retry; the next failure waits `firstMs` again. */
  succeeded(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.delayMs = 0;
  }
}
