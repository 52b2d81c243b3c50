import { Logger, type LoggerService } from '@nestjs/common';
import { jetstream } from '@nats-io/jetstream';
import { Kvm, type KV, type KvEntry } from '@nats-io/kv';
import type { NatsConnection, QueuedIterator } from '@nats-io/transport-node';
import { DeviceTaskLocks, type DeviceTaskLockResult, type LostDeviceTaskLock } from '@mobileclaw/domain';
import { Subject, type Observable, type Subscription } from 'rxjs';
import type { ClusterLinkState } from './cluster-connection';
import { BucketRecovery } from './bucket-recovery';
import { bucketMadeAt, describeError, isCasConflict, createBucket, kvOperation, kvWrite, watchUnlessClosed } from './kv-support';
import { fromSubjectToken, subjectToken } from './subject-token';

/** The value of a phone's key in the task locks bucket. `at` is ISO-8601, when the holder last wrote it. */
export interface DeviceTaskLockEntry {
  deviceId: string;
  taskId: string;
  instanceId: string;
  at: string;
}

export interface NatsDeviceTaskLocksOptions {
  /** This instance's id: it holds the locks of the tasks it runs. */
  instanceId: string;
  /**
   * A hold its instance stopped renewing expires after this long (ms): the bucket's max age, so one
   * value for the whole cluster (a bucket keeps the max age it was made with; the renewals follow the
   * bucket's). The gateway gives its task lease (`MOBILECLAW_TASK_LEASE_MS`). Default 30 000, at least 30.
   */
  ttlMs?: number;
  /** Default `mobileclaw_device_tasks`. */
  bucket?: string;
  /** Longest a KV operation may take before it fails, in ms. Default 5 000. */
  operationTimeoutMs?: number;
  /** Default: Nest's `Logger` with context `NatsDeviceTaskLocks`. */
  logger?: LoggerService;
  /** Wall clock, ms since the epoch, against which an unrenewed hold ages. Default `Date.now`. */
  now?: () => number;
  /**
   * The link's state (e.g. {@link ClusterConnection.link$}): at every `up` after a `down` the locks
   * recover at once — the bucket made anew if the server lost it, this instance's holds written
   * again, the watch started anew (its replay announces the releases missed meanwhile).
   */
  link$?: Observable<ClusterLinkState>;
}

/** A hold of this instance: the revision it last wrote and when. */
interface Held {
  taskId: string;
  revision: number;
  renewedAt: number;
}

/**
 * {@link DeviceTaskLocks} of a cluster in a JetStream KV bucket (`mobileclaw_device_tasks`, history 1,
 * max age = the TTL): key {@link subjectToken} of the device id, value {@link DeviceTaskLockEntry}.
 * A task takes a phone with `create` (compare-and-set on the key's absence; a delete marker counts as
 * absent), releases it with a `delete` on the revision it read, and its instance renews each of its
 * holds every TTL/3 (`update` on the revision it last wrote), so that the hold of an instance that
 * crashed or lost its link ages out of the bucket after the TTL. A watch of the bucket announces each
 * delete on {@link released$}. Debian's nats-server 2.9 has no per-key TTL and writes no marker when a
 * key ages out: such an expiry is announced nowhere (waiting tasks try again on their own cadence).
 *
 * A hold that could not be renewed for 5/6 of the TTL (link down: it would soon age out) or that
 * another task took meanwhile is dropped and announced on {@link lost$}: its task must stop before
 * another instance may run one.
 * A hold whose key vanished (aged out, or the bucket made anew) while nobody took the phone is written
 * again at the next renewal.
 */
export class NatsDeviceTaskLocks extends DeviceTaskLocks {
  readonly instanceId: string;
  /** The bucket's max age as the server has it, in ms. */
  readonly ttlMs: number;
  private readonly logger: LoggerService;
  private readonly now: () => number;
  private readonly held = new Map<string, Held>();
  private readonly releases = new Subject<string>();
  private readonly losses = new Subject<LostDeviceTaskLock>();
  private watchIterator: QueuedIterator<unknown> | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | undefined;
  private readonly recovery: BucketRecovery;
  /** After a failed write: a recovery that makes the bucket again if the server lost it (and does nothing more). */
  private readonly recoverIfLost = (): void => {
    if (!this.closed) void this.recovery.request('if-lost');
  };
  /** Set when the bucket was made anew, until the holds are written into it and it is watched. */
  private rewritePending = false;
  private linkChanges: Subscription | undefined;
  private madeAt: string | undefined;
  private closed = false;

  private constructor(
    private readonly kvm: Kvm,
    private kv: KV,
    ttlMs: number,
    private readonly options: NatsDeviceTaskLocksOptions & { bucket: string; operationTimeoutMs: number },
  ) {
    super();
    this.instanceId = options.instanceId;
    this.ttlMs = ttlMs;
    this.logger = options.logger ?? new Logger('NatsDeviceTaskLocks');
    this.now = options.now ?? Date.now;
    this.recovery = new BucketRecovery({
      attempt: (full) => this.recoverBucket(full),
      closed: () => this.closed,
      failed: (err, retryMs) => this.logger.warn(`could not recover the task locks (tried again in ${retryMs} ms): ${describeError(err)}`),
      maxRetryMs: renewalIntervalMs(ttlMs),
    });
  }

  /**
   * Makes (or binds) the bucket, starts the watch and the renewals.
   * @throws MobileClawError `STORAGE_ERROR` when JetStream cannot be reached or the bucket cannot be made.
   */
  static async open(nc: NatsConnection, options: NatsDeviceTaskLocksOptions): Promise<NatsDeviceTaskLocks> {
    const ttl = options.ttlMs ?? 30_000;
    if (!(ttl >= 30)) throw new Error(`ttlMs must be at least 30 ms, got ${ttl}`);
    const timeout = options.operationTimeoutMs ?? 5_000;
    const bucket = options.bucket ?? 'mobileclaw_device_tasks';
    const locks = await kvOperation('open the task locks of the phones', async () => {
      const kvm = new Kvm(jetstream(nc, { timeout }));
      const kv = await createBucket(kvm, bucket, { history: 1, ttl, timeout });
      // An existing bucket keeps the max age it was made with: renew on that one.
      const status = await kv.status();
      const locks = new NatsDeviceTaskLocks(kvm, kv, status.ttl > 0 ? status.ttl : ttl, { ...options, bucket, operationTimeoutMs: timeout });
      locks.madeAt = status.streamInfo.created;
      await locks.startWatch();
      return locks;
    });
    if (locks.ttlMs !== ttl) locks.logger.warn(`the task locks bucket ${bucket} has a max age of ${locks.ttlMs} ms, not ${ttl} ms: holds expire after ${locks.ttlMs} ms (every instance of a cluster should use one task lease)`);
    // Every TTL/6: give up the holds about to age out (no I/O, so a renewal stuck on a dead link does
    // not delay it), then renew those last written TTL/4 or more ago (in effect every TTL/3).
    locks.renewTimer = setInterval(() => {
      locks.giveUpStale();
      void locks.renew();
    }, renewalIntervalMs(locks.ttlMs));
    locks.renewTimer.unref();
    let wasDown = false;
    locks.linkChanges = options.link$?.subscribe((state) => {
      if (state === 'down') wasDown = true;
      else if (wasDown) {
        wasDown = false;
        void locks.recovery.request('full');
      }
    });
    return locks;
  }

  override tryAcquire(deviceId: string, taskId: string): Promise<DeviceTaskLockResult> {
    const key = subjectToken(deviceId);
    return kvWrite(`take device ${deviceId} for task ${taskId}`, async () => {
      for (;;) {
        const current = await this.kv.get(key);
        try {
          if (current !== null && current.operation === 'PUT') {
            const entry = readLock(current);
            if (entry === undefined || entry.taskId !== taskId || entry.instanceId !== this.instanceId) {
              // A corrupt value holds the phone too, until it ages out: no instance may assume it free.
              return { granted: false, holder: entry === undefined ? undefined : { taskId: entry.taskId, instanceId: entry.instanceId } };
            }
            this.hold(deviceId, taskId, await this.kv.update(key, this.value(deviceId, taskId), current.revision));
          } else {
            this.hold(deviceId, taskId, await this.kv.create(key, this.value(deviceId, taskId)));
          }
          return { granted: true };
        } catch (err) {
          // Another instance wrote the key between the read and the write: read it again.
          if (!isCasConflict(err)) throw err;
        }
      }
    }, this.recoverIfLost);
  }

  override release(deviceId: string, taskId: string): Promise<void> {
    const key = subjectToken(deviceId);
    return kvWrite(`release device ${deviceId} of task ${taskId}`, async () => {
      for (;;) {
        const current = await this.kv.get(key);
        if (current === null || current.operation !== 'PUT' || readLock(current)?.taskId !== taskId) break;
        try {
          await this.kv.delete(key, { previousSeq: current.revision });
          break;
        } catch (err) {
          if (!isCasConflict(err)) throw err;
        }
      }
      if (this.held.get(deviceId)?.taskId === taskId) this.held.delete(deviceId);
    }, this.recoverIfLost);
  }

  override get released$(): Observable<string> {
    return this.releases.asObservable();
  }

  override get lost$(): Observable<LostDeviceTaskLock> {
    return this.losses.asObservable();
  }

  /** The phones this instance holds, with their tasks (device id → task id). */
  holds(): Map<string, string> {
    return new Map([...this.held].map(([deviceId, held]) => [deviceId, held.taskId]));
  }

  /**
   * Renews every hold of this instance last written TTL/4 or more ago, or every hold when `all` (the
   * timer calls it every TTL/6, so each hold is renewed every TTL/3; a recovery with `all`): `update`
   * on the revision last written. A hold found taken by another task, deleted by another instance, or not renewed for
   * the TTL is dropped and announced on {@link lost$}; a key that vanished while nobody took the phone
   * is written again. One renewal at a time; never throws.
   */
  renew(all = false): Promise<void> {
    // A renewal in progress may have skipped young holds: one that wants them all runs after it.
    if (this.renewing) return all ? this.renewing.then(() => this.renew(true)) : this.renewing;
    const run = async (): Promise<void> => {
      for (const [deviceId, held] of [...this.held]) {
        if (this.closed) return;
        if (!all && this.now() - held.renewedAt < this.ttlMs / 4) continue;
        await this.renewOne(deviceId, held);
      }
    };
    // Cleared in a later turn, never before it is set (the run may finish without awaiting anything).
    this.renewing = run().finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  /** Stops the renewals and the watch, completes both streams. The holds stay until released elsewhere or aged out. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.renewTimer);
    this.recovery.stop();
    this.linkChanges?.unsubscribe();
    this.watchIterator?.stop();
    this.releases.complete();
    this.losses.complete();
  }

  // ---- internals ------------------------------------------------------------------------------

  private value(deviceId: string, taskId: string): string {
    const entry: DeviceTaskLockEntry = { deviceId, taskId, instanceId: this.instanceId, at: new Date(this.now()).toISOString() };
    return JSON.stringify(entry);
  }

  private hold(deviceId: string, taskId: string, revision: number): void {
    this.held.set(deviceId, { taskId, revision, renewedAt: this.now() });
  }

  private async renewOne(deviceId: string, held: Held): Promise<void> {
    const key = subjectToken(deviceId);
    const still = (): boolean => this.held.get(deviceId) === held;
    try {
      try {
        const revision = await this.kv.update(key, this.value(deviceId, held.taskId), held.revision);
        if (still()) this.hold(deviceId, held.taskId, revision);
        return;
      } catch (err) {
        if (!isCasConflict(err)) throw err;
      }
      const current = await this.kv.get(key);
      if (!still()) return;
      if (current === null) {
        // Aged out (a renewal came too late) or the bucket is new: nobody took the phone meanwhile, so it is ours again.
        try {
          this.hold(deviceId, held.taskId, await this.kv.create(key, this.value(deviceId, held.taskId)));
          return;
        } catch (err) {
          if (!isCasConflict(err)) throw err;
          return this.lose(deviceId, held, 'another task took the phone after its hold aged out');
        }
      }
      const entry = current.operation === 'PUT' ? readLock(current) : undefined;
      if (entry?.taskId === held.taskId && entry.instanceId === this.instanceId) {
        this.hold(deviceId, held.taskId, await this.kv.update(key, this.value(deviceId, held.taskId), current.revision));
        return;
      }
      this.lose(deviceId, held, current.operation === 'PUT' ? `task ${entry?.taskId ?? '(unreadable)'} of instance ${entry?.instanceId ?? '(unknown)'} holds it now` : 'another instance released it (the task was found ended)');
    } catch (err) {
      if (!still()) return;
      this.logger.warn(`could not renew the hold of task ${held.taskId} on device ${deviceId} (tried again in ${Math.floor(this.ttlMs / 3)} ms): ${describeError(err)}`);
      // A renewal may fail because the server lost the bucket: look, and make it again.
      void this.recovery.request('full');
    }
  }

  /**
   * Gives up (announces lost) every hold not renewed for 5/6 of the TTL: its key may age out of the
   * bucket soon and another instance take the phone, so its task must stop before that.
   */
  private giveUpStale(): void {
    for (const [deviceId, held] of [...this.held]) {
      const age = this.now() - held.renewedAt;
      if (age >= (this.ttlMs * 5) / 6) this.lose(deviceId, held, `its hold could not be renewed for ${age} ms (the TTL is ${this.ttlMs} ms): it would age out and another instance could take the phone`);
    }
  }

  private lose(deviceId: string, held: Held, reason: string): void {
    this.held.delete(deviceId);
    this.logger.error(`task ${held.taskId} lost its hold on device ${deviceId}: ${reason}`);
    this.losses.next({ deviceId, taskId: held.taskId, reason });
  }

  /**
   * One try of a recovery (see {@link BucketRecovery}: after the link came back or a renewal failed,
   * `full`; after a take or release failed, not): makes (or binds) the bucket again when the server
   * lost it. Then, when it was lost or for a `full` try, renews the holds at once and watches the
   * bucket anew (the watch's replay of the delete markers announces releases missed meanwhile); else
   * it does nothing more.
   * @throws what the KV throws: the try failed, and is tried again.
   */
  private async recoverBucket(full: boolean): Promise<void> {
    if ((await bucketMadeAt(this.kv)) !== this.madeAt) {
      this.logger.warn(`the task locks bucket ${this.options.bucket} was lost on the cluster's NATS server (restarted without its store): making or binding it again, and writing this instance's holds again`);
      this.kv = await createBucket(this.kvm, this.options.bucket, { history: 1, ttl: this.ttlMs, timeout: this.options.operationTimeoutMs });
      this.madeAt = await bucketMadeAt(this.kv);
      this.rewritePending = true;
    }
    if (!this.rewritePending && !full) return;
    await this.renew(true);
    if (this.closed) return;
    this.watchIterator?.stop();
    await this.startWatch();
    this.rewritePending = false;
  }

  /** Watches the bucket (the last value of each key, then every change): every delete or purge is announced on {@link released$}. */
  private async startWatch(): Promise<void> {
    const watch = await watchUnlessClosed(this.kv, () => this.closed);
    if (!watch) return;
    this.watchIterator = watch;
    void (async () => {
      for await (const entry of watch) {
        if (entry.operation !== 'PUT' && !this.closed) this.releases.next(fromSubjectToken(entry.key));
      }
    })().catch((err: unknown) => this.logger.error(`the watch of the task locks stopped: ${describeError(err)}`));
  }
}

/** How often the renewal timer runs, ms: a sixth of the TTL (each hold renewed every third), at least 5 ms. */
function renewalIntervalMs(ttlMs: number): number {
  return Math.max(5, Math.floor(ttlMs / 6));
}

/** A lock's value, or undefined when it is not one. */
function readLock(entry: KvEntry): DeviceTaskLockEntry | undefined {
  try {
    const value = entry.json<Partial<DeviceTaskLockEntry>>();
    if (typeof value?.taskId !== 'string' || typeof value.instanceId !== 'string' || typeof value.deviceId !== 'string' || typeof value.at !== 'string') return undefined;
    return value as DeviceTaskLockEntry;
  } catch {
    return undefined;
  }
}
