import { Clock } from '../clock';

/** A {@link Clock} that stands still at the time it is set to, for exact timestamps and ages in tests. */
export class SettableClock extends Clock {
  private ms: number;

  /** @param at ISO-8601. */
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

  /** Moves the clock on by `days` (fractional allowed). */
  advanceDays(days: number): void {
    this.ms += days * 86_400_000;
  }
}
