import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import type { KV, Kvm, KvOptions, KvWatchEntry } from '@nats-io/kv';
import type { QueuedIterator } from '@nats-io/transport-node';
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

/**
 * Runs a write through {@link kvOperation}; when it fails, calls `failed` before throwing — a bucket's
 * owner starts a recovery there: the server may have lost the bucket (a restart without its store),
 * and the caller should not wait for the next periodic renewal to find it made again.
 */
export async function kvWrite<T>(what: string, operation: () => Promise<T>, failed: () => void): Promise<T> {
  try {
    return await kvOperation(what, operation);
  } catch (err) {
    failed();
    throw err;
  }
}

/**
 * JetStream's answers to a stream creation when another process made the same stream a moment before:
 * its name in use (10058), or its subjects covered by it (10065).
 */
const STREAM_MADE_MEANWHILE: ReadonlySet<number> = new Set([10058, 10065]);

/**
 * Makes the KV bucket `bucket`, or binds it when it exists (`kvm.create`). Gateways started together
 * on a fresh server make the same bucket at the same moment, and JetStream refuses all creations but
 * the first: such a refusal is answered by binding the bucket the other process made.
 * @throws what `kvm.create` throws for any other failure.
 */
export async function createBucket(kvm: Kvm, bucket: string, options: Partial<KvOptions>): Promise<KV> {
  try {
    return await kvm.create(bucket, options);
  } catch (err) {
    if (!(err instanceof JetStreamApiError) || !STREAM_MADE_MEANWHILE.has(err.code)) throw err;
    return kvm.create(bucket, options);
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

/**
 * A watch of `kv` (the last value of each key, then every change), or undefined when `closed()` turned
 * true while it was being made: then it is stopped at once, because the owner's close() could not see
 * it, and left running its consumer's heartbeat timer would outlive the connection (and keep the
 * process alive).
 */
export async function watchUnlessClosed(kv: KV, closed: () => boolean): Promise<QueuedIterator<KvWatchEntry> | undefined> {
  const watch = await kv.watch();
  if (!closed()) return watch;
  watch.stop();
  return undefined;
}

export function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
