import type { SettleTimer } from '../screen-settling';

/**
 * A {@link SettleTimer} for tests: a pause returns at once and moves its time on by the pause, so a
 * settle wait takes no real time and its `settleMs` is exact.
 */
export class InstantSettleTimer implements SettleTimer {
  /** The time, in ms; starts at 0. */
  ms = 0;
  /** Every pause asked for, in ms, in order. */
  readonly pauses: number[] = [];

  now(): number {
    return this.ms;
  }

  async pause(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw signal.reason;
    this.pauses.push(ms);
    this.ms += ms;
  }
}
