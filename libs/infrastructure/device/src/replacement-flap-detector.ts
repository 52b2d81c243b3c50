/** When a device id counts as flapping, and how often that is reported. Times in ms. */
export interface ReplacementFlapOptions {
  /** A device id replaced more than this many times within {@link windowMs} is flapping. Default 3. */
  maxReplacements: number;
  /** The sliding window replacements are counted in. Default 60 000 ms. */
  windowMs: number;
  /** At most one report per device id within this period. Default 600 000 ms (10 min). */
  reportIntervalMs: number;
}

export const REPLACEMENT_FLAP_DEFAULTS: Readonly<ReplacementFlapOptions> = Object.freeze({
  maxReplacements: 3,
  windowMs: 60_000,
  reportIntervalMs: 600_000,
});

/** A device id that keeps replacing its own session: what to tell the operator. */
export interface ReplacementFlap {
  deviceId: string;
  /** Replacements within the window, this one included. */
  replacements: number;
  windowMs: number;
  /** Remote addresses of the session just replaced and of the one that replaced it (`unknown` if the transport has none). */
  addresses: [string, string];
}

/**
 * Notices a device id whose session keeps being replaced: two live phones configured with the same
 * id (e.g. two simulators with the default `phone-` prefix) take it from each other on every
 * reconnect, and every command to that id fails `DEVICE_REPLACED`. A phone that really moved to a
 * new network replaces its session once, not several times a minute.
 *
 * Remote addresses are reported, not compared: two simulators on one host differ only by their
 * ephemeral port, which changes on every connection. Memory: the replacement times within the
 * window, per device id that was ever replaced.
 */
export class ReplacementFlapDetector {
  private readonly options: ReplacementFlapOptions;
  private readonly recent = new Map<string, number[]>();
  private readonly reportedAt = new Map<string, number>();

  constructor(options: Partial<ReplacementFlapOptions> = {}) {
    this.options = { ...REPLACEMENT_FLAP_DEFAULTS, ...options };
  }

  /**
   * Records that `deviceId`'s session from `replacedAddress` was replaced by one from `newAddress` at
   * `nowMs` (a monotonic clock). Returns a flap to report when the id crossed the threshold and was
   * not reported within `reportIntervalMs`; otherwise null.
   */
  replaced(deviceId: string, replacedAddress: string | undefined, newAddress: string | undefined, nowMs: number): ReplacementFlap | null {
    const { maxReplacements, windowMs, reportIntervalMs } = this.options;
    const times = (this.recent.get(deviceId) ?? []).filter((t) => nowMs - t < windowMs);
    times.push(nowMs);
    this.recent.set(deviceId, times);
    if (times.length <= maxReplacements) return null;
    const last = this.reportedAt.get(deviceId);
    if (last !== undefined && nowMs - last < reportIntervalMs) return null;
    this.reportedAt.set(deviceId, nowMs);
    return { deviceId, replacements: times.length, windowMs, addresses: [replacedAddress ?? 'unknown', newAddress ?? 'unknown'] };
  }
}

/** The operator's warning for a flap: names the id, both addresses, and the likely fix. */
export function describeReplacementFlap(flap: ReplacementFlap): string {
  const [replaced, latest] = flap.addresses;
  return (
    `device ${flap.deviceId} is flapping between two connections (${replaced} and ${latest}): ` +
    `its session was replaced ${flap.replacements} times within ${flap.windowMs / 1000} s. ` +
    `Two phones probably use the same device id; give each its own (for the simulator: --prefix)`
  );
}
