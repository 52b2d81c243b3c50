import { Clock } from '@mobileclaw/domain';

/** A {@link Clock} that stands still at the time it is set to, for exact timestamps in tests. */
export class FixedClock extends Clock {
  private ms: number;

  /** @param at ISO-8601 start time. */
  constructor(at: string) {
    super();
    this.ms = Date.parse(at);
  }

  override now(): Date {
    return new Date(this.ms);
  }

  /** Moves the clock to `at` (ISO-8601). */
  set(at: string): void {
    this.ms = Date.parse(at);
  }
}
