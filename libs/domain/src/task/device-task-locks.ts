import { NEVER, type Observable } from 'rxjs';

/** Who holds a phone for tasks, as a {@link DeviceTaskLocks} adapter knows it. */
export interface DeviceTaskLockHolder {
  /** The task that runs on the phone. */
  taskId: string;
  /** The gateway instance that runs that task, when the adapter knows it. */
  instanceId?: string;
}

/** The answer of {@link DeviceTaskLocks.tryAcquire}. */
export type DeviceTaskLockResult = { granted: true } | { granted: false; holder?: DeviceTaskLockHolder };

/** A hold of this instance that ended without {@link DeviceTaskLocks.release}: see {@link DeviceTaskLocks.lost$}. */
export interface LostDeviceTaskLock {
  deviceId: string;
  taskId: string;
  /** Why, for logs and the task's end (e.g. "expired while the cluster link was down"). */
  reason: string;
}

/**
 * Which task may run on a phone, across every gateway instance: at most one task holds a phone at a
 * time. `TaskService` already runs one task at a time per phone in its own process (a lane with a FIFO
 * queue); this port extends that to a cluster, where two instances may each accept a task for one
 * phone. Abstract class so that it doubles as the Nest DI token. No I/O in the domain: the default
 * adapter (`@mobileclaw/case-tasks`, one process) grants every request, the lane being enough there;
 * a cluster's adapter (`NatsDeviceTaskLocks`) keeps the holds in shared storage.
 *
 * A hold lives until released, or until its holding instance stops keeping it alive for the adapter's
 * TTL (a crash, a lost link): the adapter renews the holds of this instance by itself, so the caller
 * only acquires and releases. Device and task ids are any strings.
 */
export abstract class DeviceTaskLocks {
  /**
   * Takes `deviceId` for `taskId` if no task holds it (a hold whose instance stopped renewing it for
   * the TTL counts as free).
   * @returns `{granted: true}` when `taskId` holds the phone now, also when it held it already;
   *   `{granted: false, holder}` when another task holds it (the holder as far as the adapter knows).
   * @throws MobileClawError `STORAGE_ERROR` (retryable) when the shared storage cannot be reached or
   *   does not answer in time: nothing was taken, the caller must not run the task.
   */
  abstract tryAcquire(deviceId: string, taskId: string): Promise<DeviceTaskLockResult>;

  /**
   * Frees `deviceId` if `taskId` holds it, whichever instance took it (an instance that found the task
   * ended, e.g. interrupted after its lease expired, may free the phone of a dead one); does nothing
   * when another task, or none, holds it. Idempotent. A freed phone is announced on {@link released$}.
   * @throws MobileClawError `STORAGE_ERROR` when the shared storage cannot be reached: the hold then
   *   ends at the TTL, as no instance renews it any more.
   */
  abstract release(deviceId: string, taskId: string): Promise<void>;

  /**
   * Hot stream of device ids whose hold was released on any instance (maybe spuriously, e.g. again
   * after a reconnect), so that tasks waiting for them try at once. Not every free phone is announced
   * (a hold that expired is not): a waiting caller also tries again now and then. Never errors. The
   * default never emits.
   */
  get released$(): Observable<string> {
    return NEVER;
  }

  /**
   * Hot stream of this instance's holds that ended while still held — not renewed within the TTL
   * (the shared storage was out of reach), or found taken by another task — so that the task running
   * under it stops (another instance may start a task on the phone). Never errors. The default never emits.
   */
  get lost$(): Observable<LostDeviceTaskLock> {
    return NEVER;
  }
}
