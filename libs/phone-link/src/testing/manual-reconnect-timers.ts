import type { ReconnectTimers, ScheduledTimer } from '../reconnect-backoff';

interface Entry {
  callback: () => void;
  delayMs: number;
  cancelled: boolean;
}

/**
 * {@link ReconnectTimers} a test drives by hand: nothing runs until the test calls {@link fire}, the
 * clock moves only when told, and every scheduled delay is recorded, so that tests assert exact
 * reconnect delays without waiting for them.
 */
export class ManualReconnectTimers implements ReconnectTimers {
  /** The clock, in ms; moved by {@link advance} and {@link fire}. */
  nowMs = 0;
  /** Every delay scheduled so far, in ms, in order (cancelled ones included). */
  readonly delays: number[] = [];
  private readonly pending: Entry[] = [];
  private waiters: Array<(delayMs: number) => void> = [];

  now(): number {
    return this.nowMs;
  }

  schedule(callback: () => void, delayMs: number): ScheduledTimer {
    const entry: Entry = { callback, delayMs, cancelled: false };
    this.pending.push(entry);
    this.delays.push(delayMs);
    for (const waiter of this.waiters.splice(0)) waiter(delayMs);
    return { cancel: () => void (entry.cancelled = true) };
  }

  /** Callbacks scheduled and neither fired nor cancelled. */
  get waiting(): number {
    return this.pending.filter((e) => !e.cancelled).length;
  }

  /** Resolves with the delay of the next callback scheduled from now on. */
  nextSchedule(): Promise<number> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Moves the clock by `ms`. */
  advance(ms: number): void {
    this.nowMs += ms;
  }

  /** Moves the clock by the oldest waiting callback's delay and runs it. @throws Error when none waits. */
  fire(): void {
    let entry = this.pending.shift();
    while (entry?.cancelled) entry = this.pending.shift();
    if (entry === undefined) throw new Error('no reconnect is scheduled');
    this.nowMs += entry.delayMs;
    entry.callback();
  }
}
