import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { MobileClawError } from '@mobileclaw/domain';

const WRONG_LAST_SEQUENCE = new Set<number>([JetStreamApiCodes.StreamWrongLastSequence, JetStreamApiCodes.StreamWrongLastSequenceUnknown]);

/** Whether `err` is a compare-and-set that lost: the key's revision was not the one given (another writer came first). */
export function isCasConflict(err: unknown): boolean {
  return err instanceof JetStreamApiError && WRONG_LAST_SEQUENCE.has(err.code);
}

/**
 * Runs a KV operation; its failure becomes `STORAGE_ERROR` (cause kept), naming `what` ("could not
 * <what> (the cluster's NATS KV): …"). A `MobileClawError`, or an error `passes` accepts, is thrown as is.
 */
export async function kvOperation<T>(what: string, operation: () => Promise<T>, passes: (err: unknown) => boolean = () => false): Promise<T> {
  try {
    return await operation();
  } catch (err) {
    if (err instanceof MobileClawError || passes(err)) throw err;
    throw new MobileClawError('STORAGE_ERROR', `could not ${what} (the cluster's NATS KV): ${describeError(err)}`, { cause: err });
  }
}

/** When the server made `kv`'s stream (ISO-8601), or undefined when it has none (the bucket is gone). Other failures are thrown. */
export async function bucketMadeAt(kv: KV): Promise<string | undefined> {
  try {
    return (await kv.status()).streamInfo.created;
  } catch (err) {
    if (err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound) return undefined;
    throw err;
  }
}

export function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
