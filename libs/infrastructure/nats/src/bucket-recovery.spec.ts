import { BucketRecovery, RecoveryBackoff, type BucketRecoveryOptions } from './bucket-recovery';

describe('RecoveryBackoff', () => {
  it('waits the first delay after a failure, doubles it at each further one up to the maximum, and starts over after a success', () => {
    const backoff = new RecoveryBackoff(100, 700);
    const retry = (): void => undefined;
    expect([1, 2, 3, 4, 5].map(() => backoff.failed(retry))).toEqual([100, 200, 400, 700, 700]);
    backoff.succeeded();
    expect(backoff.failed(retry)).toBe(100);
    backoff.succeeded();
  });

  it('runs the retry after its delay; a later failure replaces the retry scheduled, and a success cancels it', async () => {
    const backoff = new RecoveryBackoff(1, 4);
    const runs: string[] = [];
    backoff.failed(() => runs.push('first'));
    // Scheduled 2 ms out: the first (1 ms, set earlier) would have run before it had it not been replaced.
    await new Promise<void>((resolve) => backoff.failed(() => resolve(void runs.push('second'))));
    expect(runs).toEqual(['second']);
    backoff.failed(() => runs.push('cancelled'));
    backoff.succeeded();
    // The next failure starts at 1 ms again, and its retry is the only one that runs.
    await new Promise<void>((resolve) => expect(backoff.failed(() => resolve(void runs.push('third')))).toBe(1));
    expect(runs).toEqual(['second', 'third']);
  });
});

/** A recovery whose tries are held until the test settles them, each recorded with its `full` flag. */
function heldRecovery(options: Partial<BucketRecoveryOptions> = {}) {
  const tries: { full: boolean; settle: (err?: Error) => void }[] = [];
  const failures: number[] = [];
  let closed = false;
  let nextTry: (() => void) | undefined;
  const recovery = new BucketRecovery({
    attempt: (full) =>
      new Promise<void>((resolve, reject) => {
        tries.push({ full, settle: (err) => (err ? reject(err) : resolve()) });
        nextTry?.();
      }),
    closed: () => closed,
    failed: (_err, retryMs) => failures.push(retryMs),
    maxRetryMs: 400,
    ...options,
  });
  /** Resolves at the next try (at once if it started already). */
  const tried = (count: number): Promise<void> =>
    new Promise<void>((resolve) => {
      if (tries.length >= count) return resolve();
      nextTry = () => {
        if (tries.length >= count) resolve();
      };
    });
  return { recovery, tries, failures, tried, close: () => (closed = true) };
}

describe('BucketRecovery', () => {
  it('runs one try at a time: requests while it runs share it, and a full one asked meanwhile runs right after', async () => {
    const { recovery, tries, tried } = heldRecovery();
    const first = recovery.request('if-lost');
    expect(recovery.request('if-lost')).toBe(first);
    expect(recovery.request('full')).toBe(first);
    expect(tries.map((t) => t.full)).toEqual([false]);
    tries[0].settle();
    await first;
    await tried(2);
    expect(tries.map((t) => t.full)).toEqual([false, true]);
    tries[1].settle();
    // Served: the next if-lost request is not full.
    await recovery.request('if-lost');
    expect(tries.map((t) => t.full)).toEqual([false, true]);
  });

  it('tries a failed try again after the backoff, still full when a full one was asked, and never once the owner closed', async () => {
    const { recovery, tries, failures, tried, close } = heldRecovery();
    const first = recovery.request('full');
    tries[0].settle(new Error('JetStream not ready'));
    await first;
    expect(failures).toEqual([100]);
    await tried(2);
    expect(tries[1].full).toBe(true);
    tries[1].settle(new Error('still not ready'));
    await tried(3);
    expect(failures).toEqual([100, 200]);
    tries[2].settle();
    // The retry (full) succeeded: a request now shares its end, and nothing more is tried.
    await recovery.request('if-lost');
    expect(tries).toHaveLength(3);
    // A closed owner is tried neither by a request nor by the retry its last failure scheduled.
    const next = recovery.request('full');
    await tried(4);
    close();
    tries[3].settle(new Error('down'));
    await next;
    await recovery.request('full');
    recovery.stop();
    expect(tries).toHaveLength(4);
  });
});
