import { DEFAULT_PUSH_DELIVERY, retryDelayMs } from './push-notification-dispatcher';

describe('retryDelayMs', () => {
  const settings = { ...DEFAULT_PUSH_DELIVERY, baseDelayMs: 100, maxDelayMs: 1000 };

  it('doubles per retry up to the ceiling, jittered within the upper half', () => {
    expect([1, 2, 3, 4, 5].map((retry) => retryDelayMs(retry, settings, () => 1))).toStrictEqual([100, 200, 400, 800, 1000]);
    expect([1, 2, 3, 4, 5].map((retry) => retryDelayMs(retry, settings, () => 0))).toStrictEqual([50, 100, 200, 400, 500]);
    expect(retryDelayMs(3, settings, () => 0.5)).toBe(300);
  });
});
