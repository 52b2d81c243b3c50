/**
 * The wall clock that stamps records: task `createdAt`/`startedAt`/`endedAt`, step
 * `startedAt`/`endedAt`, event `at`, lease expiry. An abstract class so that it doubles as the Nest DI
 * token; a host may provide its own (tests provide a fixed one so that timestamps are exact).
 *
 * Durations (step timings, in ms) are not read from it: they are measured with the monotonic
 * `performance.now()`, which a wall-clock step (NTP, manual change) cannot make negative.
 */
export abstract class Clock {
  /** The current time: a new `Date` each call, ms precision. Records keep it as ISO-8601 (`toISOString()`). */
  abstract now(): Date;
}
