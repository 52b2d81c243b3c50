import { MobileClawError } from '../errors';

/** The error a promise rejects with; fails the test when it resolves or rejects with something that is not an Error. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    // Not `instanceof Error`: a native driver's errors may come from another realm (e.g. better-sqlite3 under Jest).
    expect(Object.prototype.toString.call(err)).toBe('[object Error]');
    return err as Error;
  }
  throw new Error('expected a rejection');
}

/** The {@link MobileClawError} a promise rejects with; fails the test when it resolves or rejects with another error. */
export async function domainRejection(promise: Promise<unknown>): Promise<MobileClawError> {
  const err = await rejection(promise);
  expect(err).toBeInstanceOf(MobileClawError);
  return err as MobileClawError;
}
