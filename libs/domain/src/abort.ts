/**
 * Settles like `work`, or rejects with `toError(signal)` as soon as `signal` fires, whichever comes
 * first — so a caller stops waiting even when the work ignores its signal. The abort listener is
 * removed once `work` settles; a `work` that fails after the wait ended is never an unhandled rejection.
 * @param toError the rejection for a fired signal; default `signal.reason`.
 */
export function settleOrAbort<T>(work: Promise<T>, signal: AbortSignal, toError: (signal: AbortSignal) => unknown = (s) => s.reason): Promise<T> {
  if (signal.aborted) {
    // Nobody waits for the work any more: its own failure (often the same abort) must not surface as an unhandled rejection.
    work.catch(() => undefined);
    return Promise.reject(toError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(toError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
