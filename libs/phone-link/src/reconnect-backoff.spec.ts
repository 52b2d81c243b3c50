import { ReconnectBackoff } from './reconnect-backoff';

function delays(backoff: ReconnectBackoff, n: number): number[] {
  return Array.from({ length: n }, () => backoff.nextDelayMs());
}

describe('ReconnectBackoff', () => {
  it('doubles a 1 s backoff up to 60 s, each delay in [backoff/2, backoff]', () => {
    expect(delays(new ReconnectBackoff({ random: () => 0 }), 9)).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
    expect(delays(new ReconnectBackoff({ random: () => 0.5 }), 8)).toEqual([750, 1500, 3000, 6000, 12_000, 24_000, 45_000, 45_000]);
    expect(delays(new ReconnectBackoff({ random: () => 0.999_999 }), 8)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
  });

  it('resets only after a welcomed connection that stayed up 30 s and was not replaced', () => {
    const backoff = new ReconnectBackoff({ random: () => 0 });
    delays(backoff, 3);
    expect(backoff.currentMs).toBe(8000);
    backoff.connectionEnded(null, false); // never welcomed
    backoff.connectionEnded(29_999, false); // too short
    backoff.connectionEnded(3_600_000, true); // an hour, but replaced by another phone with the same id
    expect(backoff.currentMs).toBe(8000);
    backoff.connectionEnded(30_000, false);
    expect(backoff.currentMs).toBe(1000);
    expect(backoff.nextDelayMs()).toBe(500);
  });

  it('takes its own bounds and refuses impossible ones', () => {
    expect(delays(new ReconnectBackoff({ initialMs: 10, maxMs: 40, random: () => 0 }), 4)).toEqual([5, 10, 20, 20]);
    expect(() => new ReconnectBackoff({ initialMs: 0 })).toThrow(RangeError);
    expect(() => new ReconnectBackoff({ initialMs: 1000, maxMs: 999 })).toThrow('backoff needs 0 < initialMs ≤ maxMs, got 1000 and 999');
  });
});
