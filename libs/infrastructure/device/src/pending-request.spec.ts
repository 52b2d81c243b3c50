import { MobileClawError } from '@mobileclaw/domain';
import { PendingRequest } from './pending-request';

describe('PendingRequest', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function request(timeoutMs = 1000, signal?: AbortSignal) {
    const resolved: unknown[] = [];
    const rejected: MobileClawError[] = [];
    const deadlines: PendingRequest[] = [];
    const aborts: PendingRequest[] = [];
    const pending = new PendingRequest(
      'r-1',
      'phone-1',
      { command: 'home' },
      undefined,
      timeoutMs,
      signal,
      (r) => resolved.push(r),
      (e) => rejected.push(e),
      (p) => deadlines.push(p),
      (p) => aborts.push(p),
    );
    return { pending, resolved, rejected, deadlines, aborts };
  }

  it('settles exactly once: a later resolve or reject is ignored', () => {
    const first = request();
    first.pending.resolve({ a: 1 });
    first.pending.reject('TIMEOUT', 'late');
    first.pending.resolve({ a: 2 });
    expect(first.resolved).toHaveLength(1);
    expect(first.rejected).toEqual([]);

    const second = request();
    second.pending.reject('DEVICE_ERROR', 'boom', 'E_PHONE');
    second.pending.resolve({});
    second.pending.reject('TIMEOUT', 'late');
    expect(second.resolved).toEqual([]);
    expect(second.rejected).toHaveLength(1);
    expect(second.rejected[0]).toMatchObject({ code: 'DEVICE_ERROR', message: 'boom', deviceId: 'phone-1', requestId: 'r-1', deviceCode: 'E_PHONE' });
    expect(second.pending.settled).toBe(true);
  });

  it('fires its deadline once at timeoutMs, and never after settling', () => {
    const live = request(300);
    jest.advanceTimersByTime(299);
    expect(live.deadlines).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(live.deadlines).toEqual([live.pending]);

    const done = request(300);
    expect(jest.getTimerCount()).toBe(1);
    done.pending.resolve({});
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(1000);
    expect(done.deadlines).toEqual([]);
  });

  it('reports an abort to its owner until it settles, then removes its listener', () => {
    const controller = new AbortController();
    const live = request(1000, controller.signal);
    controller.abort();
    expect(live.aborts).toEqual([live.pending]);

    const other = new AbortController();
    const done = request(1000, other.signal);
    done.pending.reject('TIMEOUT', 'x');
    other.abort();
    expect(done.aborts).toEqual([]);
  });

  it('measures durationMs from the call and queuedMs up to dispatch (the whole duration when never dispatched)', () => {
    const never = request();
    jest.advanceTimersByTime(12.5);
    never.pending.resolve({ k: 'v' });
    expect(never.resolved).toEqual([{ requestId: 'r-1', deviceId: 'phone-1', command: 'home', status: 'success', data: { k: 'v' }, durationMs: 12.5, queuedMs: 12.5 }]);

    const sent = request();
    jest.advanceTimersByTime(4);
    sent.pending.dispatchedAt = performance.now();
    jest.advanceTimersByTime(6);
    sent.pending.resolve({});
    expect(sent.resolved[0]).toMatchObject({ durationMs: 10, queuedMs: 4 });
  });

  it('rounds times to the microsecond', () => {
    const r = request();
    jest.advanceTimersByTime(1);
    r.pending.dispatchedAt = r.pending.startedAt + 0.0004;
    r.pending.resolve({});
    expect(r.resolved[0]).toMatchObject({ durationMs: 1, queuedMs: 0 });
    const s = request();
    s.pending.dispatchedAt = s.pending.startedAt + 0.0006;
    s.pending.resolve({});
    expect(s.resolved[0]).toMatchObject({ queuedMs: 0.001 });
  });

  it('gives the remaining time to its deadline in whole ms, at least 1', () => {
    const { pending } = request(1000);
    expect(pending.deadline - pending.startedAt).toBe(1000);
    expect(pending.remainingMs(pending.startedAt + 250.2)).toBe(750);
    expect(pending.remainingMs(pending.startedAt + 999.9)).toBe(1);
    expect(pending.remainingMs(pending.startedAt + 5000)).toBe(1);
    jest.advanceTimersByTime(400);
    expect(pending.remainingMs()).toBe(600);
  });
});
