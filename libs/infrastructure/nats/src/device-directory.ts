import { randomBytes } from 'node:crypto';
import { Logger, type LoggerService } from '@nestjs/common';
import { jetstream } from '@nats-io/jetstream';
import { Kvm, type KV, type KvEntry, type KvWatchEntry } from '@nats-io/kv';
import type { NatsConnection, QueuedIterator } from '@nats-io/transport-node';
import type { DeviceInfo } from '@mobileclaw/domain';
import { Subject, type Observable, type Subscription } from 'rxjs';
import type { ClusterLinkState } from './cluster-connection';
import { nextEpoch, readDirectoryEntry } from './directory-entry';
import { BucketRecovery } from './bucket-recovery';
import { bucketMadeAt as madeAt, describeError as describe, isCasConflict, createBucket, kvOperation, kvWrite, watchUnlessClosed } from './kv-support';
import { fromSubjectToken, subjectToken } from './subject-token';

/** Where a phone is held in the cluster: one entry per device id in the devices bucket. Times are ISO-8601. */
export interface DeviceDirectoryEntry {
  deviceId: string;
  /** The instance whose hub holds the phone's session. */
  instanceId: string;
  sessionId: string;
  /**
   * The fencing epoch: one more than the entry it replaced at every claim, whichever instance claims
   * (1 when there was none). A routed command carries it; an owner refuses a command of another epoch.
   */
  epoch: number;
  connectedAt: string;
  /** The phone's info as of the claim (listed by instances that do not hold it). */
  device: DeviceInfo;
}

/**
 * A change of the directory as the watches see it: any instance's claims and releases (this one's
 * included), instances that left (deleted their key on close), and instances that expired (stopped
 * renewing their key for the TTL: a crash, or cut off from NATS), each announced once until the
 * instance renews its key again.
 */
export type DeviceDirectoryChange =
  | { type: 'claimed'; entry: DeviceDirectoryEntry }
  | { type: 'released'; deviceId: string }
  | { type: 'instance-left'; instanceId: string }
  | { type: 'instance-expired'; instanceId: string };

export interface DeviceDirectoryOptions {
  /** This instance's id. */
  instanceId: string;
  /** An instance that has not renewed its key for this long counts as gone, its phones offline (ms). Default 15 000. */
  instanceTtlMs?: number;
  /** Bucket of device entries (history 1, no expiry). Default `mobileclaw_devices`. */
  devicesBucket?: string;
  /** Bucket of instance keys (history 1, max age = {@link instanceTtlMs}). Default `mobileclaw_instances`. */
  instancesBucket?: string;
  /** Longest a KV operation may take before it fails, in ms. Default 5 000. */
  operationTimeoutMs?: number;
  /** Default: Nest's `Logger` with context `DeviceDirectory`. */
  logger?: LoggerService;
  /** The wall clock in ms since the epoch, against which heartbeats age. Default `Date.now`. */
  now?: () => number;
  /**
   * The link's state (e.g. {@link ClusterConnection.link$}): at every `up` after a `down` the
   * directory recovers at once (buckets made anew if the server lost them, this instance's key put
   * again) instead of at the next heartbeat.
   */
  link$?: Observable<ClusterLinkState>;
}

/**
 * How this instance's heartbeat fares: `renewing` (the last renewal was written), `failing` (the last
 * one failed: link down, timeout), `replaced` (another process put its key under this instance id:
 * renewals stopped for good), `closed`.
 */
export type HeartbeatState = 'renewing' | 'failing' | 'replaced' | 'closed';

/**
 * {@link DeviceDirectory.open} found this instance id's key renewed by another process, again while it
 * waited for the key to expire (up to the instance TTL): two live processes may not share an id (each would release and interrupt what the
 * other holds).
 */
export class InstanceIdInUseError extends Error {
  constructor(
    readonly instanceId: string,
    /** How long ago the other process renewed the key, in ms. */
    readonly renewedAgoMs: number,
    readonly instanceTtlMs: number,
  ) {
    super(`instance id ${instanceId} is in use by another live process (its key was renewed ${renewedAgoMs} ms ago; the instance TTL is ${instanceTtlMs} ms)`);
    this.name = 'InstanceIdInUseError';
  }
}

/**
 * The cluster's device directory in JetStream KV: `deviceId → {instanceId, sessionId, epoch, connectedAt,
 * device}` (bucket `mobileclaw_devices`, keys {@link subjectToken} of the id), and instance heartbeats
 * (bucket `mobileclaw_instances`, max age = the instance TTL, each instance re-puts its key every
 * TTL/3 and deletes it on {@link close}). Claims are compare-and-set on the entry's revision, so two
 * instances claiming one phone get distinct epochs and the later claim wins. Watches of both buckets
 * keep a local view: {@link lookup} and {@link entries} read it without a round trip. A device entry
 * whose instance has gone (no heartbeat within the TTL) counts as offline and may be claimed by anyone.
 */
export class DeviceDirectory {
  readonly instanceId: string;
  readonly instanceTtlMs: number;
  private readonly logger: LoggerService;
  private readonly now: () => number;
  private readonly view = new Map<string, DeviceDirectoryEntry>();
  /** Instance id → when its key was last written (ms since the epoch, this host's clock or the server's for initial values). */
  private readonly heartbeats = new Map<string, number>();
  private readonly changes = new Subject<DeviceDirectoryChange>();
  readonly changes$: Observable<DeviceDirectoryChange> = this.changes.asObservable();
  private readonly resynced = new Subject<void>();
  /**
   * Emits after the directory watches buckets made anew (by this instance or another, after the
   * server lost its JetStream store): every entry was lost, and the holder of each phone must claim
   * it again.
   */
  readonly resynced$: Observable<void> = this.resynced.asObservable();
  private watches: QueuedIterator<unknown>[] = [];
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private heartbeat: HeartbeatState = 'renewing';
  /** This process' mark in its instance key: another value there is another process with this id. */
  private readonly nonce = randomBytes(8).toString('hex');
  /** The revision of this instance's key as last written (renewals are compare-and-set on it). */
  private keyRevision: number | undefined;
  private readonly recovery: BucketRecovery;
  /** After a failed write: a recovery that makes the buckets again if the server lost them (and does nothing more). */
  private readonly recoverIfLost = (): void => {
    if (!this.closed) void this.recovery.request('if-lost');
  };
  /** Set when the buckets were made anew, until the lost entries are dropped and the resync announced. */
  private resyncPending = false;
  /** When the server made the devices and instances buckets (their streams' creation times) as this directory watches them. */
  private bucketsMadeAt: (string | undefined)[] = [];
  private linkChanges: Subscription | undefined;
  private closed = false;

  private constructor(
    private readonly kvm: Kvm,
    private devices: KV,
    private instances: KV,
    private readonly options: DeviceDirectoryOptions & { operationTimeoutMs: number; instanceTtlMs: number },
  ) {
    this.instanceId = options.instanceId;
    this.instanceTtlMs = options.instanceTtlMs;
    this.logger = options.logger ?? new Logger('DeviceDirectory');
    this.now = options.now ?? Date.now;
    this.recovery = new BucketRecovery({
      attempt: (full) => this.recoverBuckets(full),
      closed: () => this.closed,
      failed: (err, retryMs) => this.logger.warn(`instance ${this.instanceId} could not recover the device directory (tried again in ${retryMs} ms): ${describe(err)}`),
      maxRetryMs: heartbeatIntervalMs(this.instanceTtlMs),
    });
  }

  /**
   * Creates (or binds) both buckets, puts this instance's key (marked with a nonce of this process),
   * starts the heartbeats and the watches, and resolves once the current entries are in the local
   * view. Nothing is written when the id is taken.
   * @throws InstanceIdInUseError when another process renews this instance id's key (a key younger than the TTL is waited for, up to the TTL, in case its process crashed).
   * @throws MobileClawError `STORAGE_ERROR` when JetStream cannot be reached or the buckets cannot be made.
   */
  static async open(nc: NatsConnection, options: DeviceDirectoryOptions): Promise<DeviceDirectory> {
    const ttl = options.instanceTtlMs ?? 15_000;
    if (!(ttl >= 30)) throw new Error(`instanceTtlMs must be at least 30 ms, got ${ttl}`);
    const timeout = options.operationTimeoutMs ?? 5_000;
    const directory = await storage('open the device directory', async () => {
      // A JetStream client of its own carries the timeout to every KV call (reads included).
      const kvm = new Kvm(jetstream(nc, { timeout }));
      const { devices, instances } = await buckets(kvm, options, ttl, timeout);
      return new DeviceDirectory(kvm, devices, instances, { ...options, instanceTtlMs: ttl, operationTimeoutMs: timeout });
    });
    await storage('open the device directory', async () => {
      directory.bucketsMadeAt = await Promise.all([madeAt(directory.devices), madeAt(directory.instances)]);
      await directory.claimInstanceId();
      try {
        await directory.startWatches();
      } catch (err) {
        // Not opened: the key must not hold the id for the TTL against this process' next start.
        await directory.close();
        throw err;
      }
    });
    directory.heartbeatTimer = setInterval(() => {
      directory.expire();
      void directory.beat().catch((err: unknown) => directory.heartbeatFailed(err));
    }, heartbeatIntervalMs(ttl));
    directory.heartbeatTimer.unref();
    let wasDown = false;
    directory.linkChanges = options.link$?.subscribe((state) => {
      if (state === 'down') wasDown = true;
      else if (wasDown) {
        wasDown = false;
        void directory.recovery.request('full');
      }
    });
    return directory;
  }

  /** How this instance's heartbeat fares now (see {@link HeartbeatState}). */
  get heartbeatState(): HeartbeatState {
    return this.closed ? 'closed' : this.heartbeat;
  }

  /**
   * Records that this instance holds `device` (its id, session id and `connectedAt` are taken from it),
   * replacing any entry (compare-and-set on its revision, retried on a concurrent write).
   * @returns the new epoch (the replaced entry's + 1, or 1).
   * @throws MobileClawError `STORAGE_ERROR` when the KV cannot be written (link down, timeout, the bucket lost: a recovery is then started).
   */
  async claim(device: DeviceInfo): Promise<number> {
    const key = subjectToken(device.deviceId);
    return kvWrite(`claim device ${device.deviceId}`, async () => {
      for (;;) {
        const current = await this.devices.get(key);
        // The epoch of a corrupt entry still orders this claim after it (its holder must see itself replaced).
        const previous = current !== null && current.operation === 'PUT' ? readJson(current) : undefined;
        const entry: DeviceDirectoryEntry = {
          deviceId: device.deviceId,
          instanceId: this.instanceId,
          sessionId: device.sessionId,
          epoch: nextEpoch(device.deviceId, previous),
          connectedAt: device.connectedAt,
          device,
        };
        const value = JSON.stringify(entry);
        try {
          if (current === null || current.operation !== 'PUT') await this.devices.create(key, value);
          else await this.devices.update(key, value, current.revision);
          return entry.epoch;
        } catch (err) {
          if (!isCasConflict(err)) throw err;
          // Another instance wrote the entry between the read and the write: read it again.
        }
      }
    }, this.recoverIfLost);
  }

  /**
   * Deletes `deviceId`'s entry if it is still this instance's claim of `epoch` (compare-and-set).
   * @returns whether it was deleted (false: another claim replaced it, or there is none).
   * @throws MobileClawError `STORAGE_ERROR` when the KV cannot be reached.
   */
  async release(deviceId: string, epoch: number): Promise<boolean> {
    const key = subjectToken(deviceId);
    return kvWrite(`release device ${deviceId}`, async () => {
      for (;;) {
        const current = await this.devices.get(key);
        if (current === null || current.operation !== 'PUT') return false;
        const entry = readEntry(current);
        if (entry === undefined || entry.instanceId !== this.instanceId || entry.epoch !== epoch) return false;
        try {
          await this.devices.delete(key, { previousSeq: current.revision });
          return true;
        } catch (err) {
          if (!isCasConflict(err)) throw err;
        }
      }
    }, this.recoverIfLost);
  }

  /** The entry of `deviceId` in the local view (whether or not its instance is live). */
  lookup(deviceId: string): DeviceDirectoryEntry | undefined {
    return this.view.get(deviceId);
  }

  /** Every entry of the local view, in no particular order. */
  entries(): DeviceDirectoryEntry[] {
    return [...this.view.values()];
  }

  /** Whether `instanceId` renewed its key within the instance TTL (this instance: always, until closed). */
  isLive(instanceId: string): boolean {
    if (instanceId === this.instanceId) return !this.closed;
    const at = this.heartbeats.get(instanceId);
    return at !== undefined && this.now() - at < this.instanceTtlMs;
  }

  /**
   * Stops the heartbeats and watches, deletes this instance's key (others see it gone at once, not
   * after the TTL) and completes {@link changes$}. Its device entries stay, offline for everyone, until
   * their phones are claimed again. Never throws; idempotent.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeatTimer);
    this.recovery.stop();
    this.linkChanges?.unsubscribe();
    for (const watch of this.watches) watch.stop();
    // Only this process' own key: a process that replaced it keeps its own.
    if (this.heartbeat !== 'replaced' && this.keyRevision !== undefined) {
      await this.instances
        .delete(subjectToken(this.instanceId), { previousSeq: this.keyRevision })
        .catch((err: unknown) => this.logger.warn(`could not delete the key of instance ${this.instanceId}: ${describe(err)}`));
    }
    this.changes.complete();
    this.resynced.complete();
  }

  // ---- internals ------------------------------------------------------------------------------

  private keyValue(): string {
    return JSON.stringify({ instanceId: this.instanceId, nonce: this.nonce, at: new Date().toISOString() });
  }

  /**
   * Writes this instance's key unless another process renews a key for this id: compare-and-set, so
   * that of two processes starting at once with one id only one gets it. A key younger than the TTL
   * may be a crashed predecessor's (a restart under the same id): this watches it until it would
   * expire (at most the TTL) — renewed meanwhile means a live process holds the id, refused at the
   * renewal; deleted (that process closed) or not renewed, the id is taken.
   */
  private async claimInstanceId(): Promise<void> {
    const key = subjectToken(this.instanceId);
    let current = await this.instances.get(key);
    if (current !== null && current.operation === 'PUT' && readNonce(current) !== this.nonce) {
      const renewedAgoMs = Math.max(0, this.now() - current.created.getTime());
      if (renewedAgoMs < this.instanceTtlMs) {
        const waitMs = this.instanceTtlMs - renewedAgoMs;
        this.logger.log(`instance id ${this.instanceId} was renewed by another process ${renewedAgoMs} ms ago: waiting up to ${waitMs} ms to see whether it is still alive`);
        const renewal = await this.nextWriteOf(key, current.revision, waitMs);
        if (renewal?.operation === 'PUT' && readNonce(renewal) !== this.nonce) {
          throw new InstanceIdInUseError(this.instanceId, Math.max(0, this.now() - renewal.created.getTime()), this.instanceTtlMs);
        }
        const later = await this.instances.get(key);
        if (later !== null && later.revision !== current.revision && later.operation === 'PUT' && readNonce(later) !== this.nonce) {
          throw new InstanceIdInUseError(this.instanceId, Math.max(0, this.now() - later.created.getTime()), this.instanceTtlMs);
        }
        current = later;
      }
    }
    try {
      this.keyRevision = current === null || current.operation !== 'PUT' ? await this.instances.create(key, this.keyValue()) : await this.instances.update(key, this.keyValue(), current.revision);
    } catch (err) {
      if (!isCasConflict(err)) throw err;
      // The old key may have aged out between the read and the write (the update then finds no revision): take the id if it is free now.
      const now = await this.instances.get(key);
      if (now !== null && now.operation === 'PUT') throw new InstanceIdInUseError(this.instanceId, 0, this.instanceTtlMs);
      try {
        this.keyRevision = await this.instances.create(key, this.keyValue());
      } catch (again) {
        if (!isCasConflict(again)) throw again;
        throw new InstanceIdInUseError(this.instanceId, 0, this.instanceTtlMs);
      }
    }
  }

  /**
   * The first write of instance key `key` after `revision` (a renewal, or a delete when its process
   * closed), or undefined when none came within `waitMs` (a key that ages out leaves no marker). A live
   * process renews every TTL/3, so its renewal answers long before the TTL has passed.
   */
  private async nextWriteOf(key: string, revision: number, waitMs: number): Promise<KvWatchEntry | undefined> {
    const watch = await this.instances.watch({ key });
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        (async () => {
          for await (const entry of watch) if (entry.revision > revision) return entry;
          return undefined;
        })(),
        new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs))),
      ]);
    } finally {
      clearTimeout(timer);
      watch.stop();
    }
  }

  /**
   * Renews this instance's key (compare-and-set on the revision last written). A key written by
   * another process under this id means this one was replaced: it logs an error and stops renewing
   * for good. A key gone (aged out while the link was down, or the bucket made anew) is written again.
   */
  private async beat(): Promise<void> {
    if (this.closed || this.heartbeat === 'replaced') return;
    const key = subjectToken(this.instanceId);
    try {
      this.keyRevision = this.keyRevision === undefined ? await this.instances.create(key, this.keyValue()) : await this.instances.update(key, this.keyValue(), this.keyRevision);
    } catch (err) {
      if (!isCasConflict(err)) throw err;
      const current = await this.instances.get(key);
      if (current !== null && current.operation === 'PUT' && readNonce(current) !== this.nonce) {
        this.heartbeat = 'replaced';
        clearInterval(this.heartbeatTimer);
        this.logger.error(
          `instance ${this.instanceId}: another process now renews this instance id's key; this one stops renewing it (give every gateway instance its own id)`,
        );
        return;
      }
      this.keyRevision = current === null || current.operation !== 'PUT' ? await this.instances.create(key, this.keyValue()) : await this.instances.update(key, this.keyValue(), current.revision);
    }
    if (this.heartbeat === 'failing') this.logger.log(`instance ${this.instanceId} renews its key again`);
    this.heartbeat = 'renewing';
  }

  /** Watches both buckets; resolves once the entries present are in the local view. */
  private async startWatches(): Promise<void> {
    const timeout = this.options.operationTimeoutMs;
    await Promise.all([this.watch(this.instances, (entry) => this.instanceChanged(entry), timeout), this.watch(this.devices, (entry) => this.deviceChanged(entry), timeout)]);
  }

  /**
   * One try of a recovery (see {@link BucketRecovery}: after the link came back or a renewal failed,
   * `full`; after a claim or release failed, not): when the server lost a bucket (a restart without its
   * JetStream store) or another instance made it anew since, makes (or binds) both again, drops the
   * lost entries from the view (announced `released`), watches the new buckets and emits
   * {@link resynced$}. Otherwise a `full` try watches both buckets anew (a consumer may not have
   * outlived the outage) and renews this instance's key at once; else it does nothing more.
   * @throws what the KV throws: the try failed, and is tried again.
   */
  private async recoverBuckets(full: boolean): Promise<void> {
    const madeAtNow = await Promise.all([madeAt(this.devices), madeAt(this.instances)]);
    if (madeAtNow.some((at, i) => at !== this.bucketsMadeAt[i])) {
      this.logger.warn(`the device directory's buckets were lost on the cluster's NATS server (restarted without its store): making or binding them again`);
      const { devices, instances } = await buckets(this.kvm, this.options, this.instanceTtlMs, this.options.operationTimeoutMs);
      this.devices = devices;
      this.instances = instances;
      this.bucketsMadeAt = await Promise.all([madeAt(devices), madeAt(instances)]);
      this.keyRevision = undefined;
      // Until the resync is announced: a try that fails after this point finds the new buckets in
      // place the next time, and must still drop the lost entries and announce it.
      this.resyncPending = true;
    }
    if (!this.resyncPending && !full) return;
    await this.beat();
    if (this.closed) return;
    // The watches' consumers lived on the server across the outage only if it kept them; watching
    // anew replays every key's last value (deletes included), so nothing missed in between is lost.
    for (const watch of this.watches.splice(0)) watch.stop();
    if (this.resyncPending) {
      for (const deviceId of [...this.view.keys()]) {
        this.view.delete(deviceId);
        this.changes.next({ type: 'released', deviceId });
      }
    }
    await this.startWatches();
    if (this.resyncPending) {
      this.resyncPending = false;
      this.resynced.next();
    }
  }

  /**
   * Announces `instance-expired` for each other instance whose key is older than the TTL, and forgets
   * its heartbeat (so once; a renewal makes it live again). Not while this instance's own renewals
   * fail: its link is down, and the others' silence says nothing about them.
   */
  private expire(): void {
    if (this.heartbeat !== 'renewing' || this.closed) return;
    for (const [instanceId, at] of this.heartbeats) {
      if (instanceId === this.instanceId || this.now() - at < this.instanceTtlMs) continue;
      this.heartbeats.delete(instanceId);
      this.changes.next({ type: 'instance-expired', instanceId });
    }
  }

  private heartbeatFailed(err: unknown): void {
    if (this.closed || this.heartbeat === 'replaced') return;
    // A renewal may fail because the server lost the bucket (no stream answers): look, and make it again.
    void this.recovery.request('full');
    if (this.heartbeat === 'failing') return;
    this.heartbeat = 'failing';
    this.logger.warn(`instance ${this.instanceId} cannot renew its key (others will count it gone after ${this.instanceTtlMs} ms): ${describe(err)}`);
  }

  /**
   * Watches `kv` (last value per key, then every change) and resolves once the values present when
   * the watch started were handed to `changed`.
   */
  private async watch(kv: KV, changed: (entry: KvWatchEntry) => void, timeoutMs: number): Promise<void> {
    const present = (await kv.status()).streamInfo.state.messages;
    const watch = await watchUnlessClosed(kv, () => this.closed);
    if (!watch) return;
    this.watches.push(watch);
    let loaded!: () => void;
    const initialLoad = new Promise<void>((resolve) => (loaded = resolve));
    if (present === 0) loaded();
    // Entries may expire between the count and the watch (the instances' max age): do not wait forever.
    const fallback = setTimeout(() => loaded(), timeoutMs);
    fallback.unref();
    void (async () => {
      for await (const entry of watch) {
        changed(entry);
        // `delta` is the number of messages still pending for the watch: 0 once it caught up.
        if (entry.delta === 0) loaded();
      }
      loaded();
    })().catch((err: unknown) => this.logger.error(`the watch of ${kv === this.devices ? 'devices' : 'instances'} stopped: ${describe(err)}`));
    await initialLoad;
    clearTimeout(fallback);
  }

  private instanceChanged(entry: KvWatchEntry): void {
    // A delete or purge marker carries no value: the key is the id's token.
    const instanceId = entry.operation === 'PUT' ? readInstanceId(entry) : fromSubjectToken(entry.key);
    if (instanceId === undefined) return;
    if (entry.operation !== 'PUT') {
      if (this.heartbeats.delete(instanceId)) this.changes.next({ type: 'instance-left', instanceId });
      return;
    }
    // Values present when the watch starts are as old as the server says; later ones arrive as written.
    this.heartbeats.set(instanceId, !entry.isUpdate ? Math.min(entry.created.getTime(), this.now()) : this.now());
  }

  private deviceChanged(entry: KvEntry): void {
    if (entry.operation !== 'PUT') {
      const deviceId = fromSubjectToken(entry.key);
      if (!this.view.delete(deviceId)) return;
      this.changes.next({ type: 'released', deviceId });
      return;
    }
    const claimed = readEntry(entry);
    if (claimed === undefined) {
      // Once per revision (the watch hands each one over once); the entry it overwrote is no claim any more.
      this.logger.warn(`ignored an unreadable or malformed device entry (key ${entry.key}, revision ${entry.revision})`);
      const deviceId = fromSubjectToken(entry.key);
      if (this.view.delete(deviceId)) this.changes.next({ type: 'released', deviceId });
      return;
    }
    this.view.set(claimed.deviceId, claimed);
    this.changes.next({ type: 'claimed', entry: claimed });
  }
}

/** Runs a KV operation; its failure becomes `STORAGE_ERROR` (cause kept), a `MobileClawError` or {@link InstanceIdInUseError} passes as is. */
function storage<T>(what: string, operation: () => Promise<T>): Promise<T> {
  return kvOperation(what, operation, (err) => err instanceof InstanceIdInUseError);
}

/** A device entry's value, validated (see {@link readDirectoryEntry}). */
function readEntry(entry: KvEntry): DeviceDirectoryEntry | undefined {
  return readDirectoryEntry(readJson(entry));
}

function readJson(entry: KvEntry): unknown {
  try {
    return entry.json<unknown>();
  } catch {
    return undefined;
  }
}

/** Creates (or binds) the devices and instances buckets. */
async function buckets(kvm: Kvm, options: DeviceDirectoryOptions, ttl: number, timeout: number): Promise<{ devices: KV; instances: KV }> {
  const devices = await createBucket(kvm, options.devicesBucket ?? 'mobileclaw_devices', { history: 1, timeout });
  // max_age of an existing bucket is kept as it was created: every instance of a cluster must use one TTL.
  const instances = await createBucket(kvm, options.instancesBucket ?? 'mobileclaw_instances', { history: 1, ttl, timeout });
  return { devices, instances };
}

function readNonce(entry: KvEntry): string | undefined {
  try {
    const value = entry.json<{ nonce?: unknown }>();
    return typeof value?.nonce === 'string' ? value.nonce : undefined;
  } catch {
    return undefined;
  }
}

function readInstanceId(entry: KvEntry): string | undefined {
  try {
    const value = entry.json<{ instanceId?: unknown }>();
    return typeof value?.instanceId === 'string' ? value.instanceId : undefined;
  } catch {
    return undefined;
  }
}

/** How often an instance renews its key, ms: a third of the TTL (so two renewals may fail before others count it gone), at least 10 ms. */
function heartbeatIntervalMs(ttlMs: number): number {
  return Math.max(10, Math.floor(ttlMs / 3));
}
