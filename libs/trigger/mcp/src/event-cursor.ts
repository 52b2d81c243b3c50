import type { Observable, Subscription } from 'rxjs';

/**
 * Pull-based reading of an observable: `next()` resolves with the next value, or undefined once it
 * completed. Values that arrive between two pulls are buffered in order. An error of the source
 * rejects the pull that meets it.
 */
export class EventCursor<T> {
  private readonly buffer: T[] = [];
  private done = false;
  private failure: { error: unknown } | undefined;
  private wake?: () => void;
  private readonly subscription: Subscription;

  constructor(source: Observable<T>) {
    this.subscription = source.subscribe({
      next: (value) => {
        this.buffer.push(value);
        this.wake?.();
      },
      error: (error: unknown) => {
        this.failure = { error };
        this.wake?.();
      },
      complete: () => {
        this.done = true;
        this.wake?.();
      },
    });
  }

  /** The next value, undefined once the source completed (or the cursor was closed); rejects with the source's error. */
  async next(): Promise<T | undefined> {
    for (;;) {
      if (this.buffer.length > 0) return this.buffer.shift();
      if (this.failure) throw this.failure.error;
      if (this.done) return undefined;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  /** Stops reading: the source is unsubscribed, buffered values are dropped, and `next()` resolves undefined from now on. */
  close(): void {
    this.subscription.unsubscribe();
    this.buffer.length = 0;
    this.done = true;
    this.wake?.();
  }
}
