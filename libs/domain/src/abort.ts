/**
 * Settles like `work`, or rejects with `toError(signal)` as soon as `signal` fires, whichever comes
 * first — so a caller stops waiting even when the work ignores its signal. The abort listener is
 * removed once `work` settles; a rejection of `work` after the answer is handled (it ends no process).
 * @param toError the rejection for a fired signal; default `signal.reason`.
 */
export function settleOrAbort<T>(work: Promise<T>, signal: AbortSignal, toError: (signal: AbortSignal) => unknown = (s) => s.reason): Promise<T> {
  if (signal.aborted) {
    // The work's own failure (often the same abort, seen by the work) is nobody's now: handled here,
    // so that it is not an unhandled rejection, which ends a Node process.
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
