import { Subject, type Observable } from 'rxjs';
import { DeviceTaskLocks, MobileClawError, type DeviceTaskLockHolder, type DeviceTaskLockResult, type LostDeviceTaskLock } from '@mobileclaw/domain';

/**
 * {@link DeviceTaskLocks} held in a map, as a cluster's would be: a phone is held by one task until
 * that task releases it, whichever instance asks. {@link holdElsewhere} plays another instance's task;
 * {@link failing} makes every call fail `STORAGE_ERROR` (the storage out of reach); {@link loseHold}
 * plays a hold of this instance lost without a release.
 */
export class FakeDeviceTaskLocks extends DeviceTaskLocks {
  readonly holders = new Map<string, DeviceTaskLockHolder>();
  /** Every call, in order: `acquire <device> <task> → granted|held` and `release <device> <task>`. */
  readonly calls: string[] = [];
  failing = false;
  private readonly releases = new Subject<string>();
  private readonly losses = new Subject<LostDeviceTaskLock>();

  constructor(private readonly instanceId = 'local') {
    super();
  }

  override async tryAcquire(deviceId: string, taskId: string): Promise<DeviceTaskLockResult> {
    if (this.failing) throw new MobileClawError('STORAGE_ERROR', 'the task locks cannot be reached');
    const holder = this.holders.get(deviceId);
    const granted = holder === undefined || holder.taskId === taskId;
    if (granted) this.holders.set(deviceId, { taskId, instanceId: this.instanceId });
    this.calls.push(`acquire ${deviceId} ${taskId} → ${granted ? 'granted' : 'held'}`);
    return granted ? { granted: true } : { granted: false, holder: { ...holder } };
  }

  override async release(deviceId: string, taskId: string): Promise<void> {
    if (this.failing) throw new MobileClawError('STORAGE_ERROR', 'the task locks cannot be reached');
    this.calls.push(`release ${deviceId} ${taskId}`);
    if (this.holders.get(deviceId)?.taskId !== taskId) return;
    this.holders.delete(deviceId);
    this.releases.next(deviceId);
  }

  override get released$(): Observable<string> {
    return this.releases.asObservable();
  }

  override get lost$(): Observable<LostDeviceTaskLock> {
    return this.losses.asObservable();
  }

  /** Another instance's task `taskId` holds `deviceId`. */
  holdElsewhere(deviceId: string, taskId: string, instanceId = 'gw-other'): void {
    this.holders.set(deviceId, { taskId, instanceId });
  }

  /** This instance's hold of `deviceId` ended without a release (e.g. expired in an outage, then taken by another task). */
  loseHold(deviceId: string, taskId: string, reason: string, takenBy?: DeviceTaskLockHolder): void {
    if (takenBy) this.holders.set(deviceId, takenBy);
    else this.holders.delete(deviceId);
    this.losses.next({ deviceId, taskId, reason });
  }
}
