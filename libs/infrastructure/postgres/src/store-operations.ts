import { MobileClawError } from '@mobileclaw/domain';
import { toStorageError } from './storage-error';

/**
 * The operations in progress of one store over a shared {@link PostgresDatabase}: each public method
 * of a store runs through {@link run}, which refuses it with `SHUTTING_DOWN` once the store is closed
 * and turns failures of the database into `STORAGE_ERROR`; {@link close} waits for those in progress.
 * Closing a store leaves the database open (its owner closes it, after every store on it).
 */
export class StoreOperations {
  private readonly inProgress = new Set<Promise<unknown>>();
  private closed = false;

  /** @param what the store's name in the `SHUTTING_DOWN` message, e.g. `the task store`. */
  constructor(private readonly what: string) {}

  /**
   * Runs one operation of the store.
   * @throws MobileClawError `SHUTTING_DOWN` once closed, `STORAGE_ERROR` (retryable, the original as
   *   `cause`) when the database is unreachable or fails; every other rejection unchanged.
   */
  run<T>(operation: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new MobileClawError('SHUTTING_DOWN', `${this.what} is closed`));
    const running = (async () => {
      try {
        return await operation();
      } catch (err) {
        throw toStorageError(err);
      }
    })();
    this.inProgress.add(running);
    const forget = (): void => void this.inProgress.delete(running);
    running.then(forget, forget);
    return running;
  }

  /** Refuses new operations, then waits for those in progress to settle. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.inProgress]);
  }
}
