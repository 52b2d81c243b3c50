import { DeviceTaskLocks, type DeviceTaskLockResult } from '@mobileclaw/domain';

/**
 * The {@link DeviceTaskLocks} of a single gateway process: every request is granted, releases do
 * nothing, nothing is ever released elsewhere or lost. `TaskService`'s per-phone lane already runs
 * one task at a time in its process. The default when the host provides no locks.
 */
export class LocalDeviceTaskLocks extends DeviceTaskLocks {
  override async tryAcquire(): Promise<DeviceTaskLockResult> {
    return { granted: true };
  }

  override async release(): Promise<void> {}
}
