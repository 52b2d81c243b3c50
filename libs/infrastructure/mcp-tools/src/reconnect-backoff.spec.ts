import { RECONNECT_BACKOFF_DEFAULTS, reconnectDelayMs } from './reconnect-backoff';
import { StderrTail } from './stderr-tail';

describe('reconnection delays', () => {
  it('double from the initial delay up to the maximum, without jitter at random 0', () => {
    const delays = [0, 1, 2, 3, 6, 7, 50].map((attempt) => reconnectDelayMs(RECONNECT_BACKOFF_DEFAULTS, attempt, () => 0));
    expect(delays).toEqual([500, 1000, 2000, 4000, 30_000, 30_000, 30_000]);
  });

  it('take off at most the jitter share, so delays stay within [d·(1−jitter), d]', () => {
    expect(reconnectDelayMs(RECONNECT_BACKOFF_DEFAULTS, 2, () => 0.5)).toBe(1800);
    expect(reconnectDelayMs(RECONNECT_BACKOFF_DEFAULTS, 20, () => 0.999999)).toBe(24_000);
    expect(reconnectDelayMs({ initialMs: 100, maxMs: 1000, factor: 3, jitter: 0 }, 1, () => 0.7)).toBe(300);
  });
});

describe('stderr tail', () => {
  it('keeps only the last bytes', () => {
    const tail = new StderrTail(10);
    tail.push('0123456789');
    tail.push(Buffer.from('abc'));
    expect(tail.text()).toBe('3456789abc');
    tail.push('x'.repeat(25));
    expect(tail.text()).toBe('x'.repeat(10));
  });
});
