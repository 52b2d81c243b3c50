import { Subject } from 'rxjs';
import { ControlLeases, deviceControlledError, controllerOf, type ControlHolder, type ControlLease, type ControllerChangeReason, type DeviceControllerEvent } from '@mobileclaw/domain';

/**
 * {@link ControlLeases} for case-layer tests: leases never run out by themselves; {@link end} ends one
 * as an expiry or a disconnect would. Times are fixed at `at`.
 */
export class ManualControlLeases extends ControlLeases {
  readonly leaseMs = 30_000;
  readonly changes$ = new Subject<DeviceControllerEvent>();
  private readonly held = new Map<string, ControlLease>();

  constructor(private readonly at = '2026-01-01T00:00:00.000Z') {
    super();
  }

  override take(deviceId: string, holder: ControlHolder): ControlLease {
    const existing = this.held.get(deviceId);
    if (existing && existing.holderId !== holder.holderId) throw deviceControlledError(existing);
    const lease: ControlLease = { deviceId, holderId: holder.holderId, holder: holder.holder, since: this.at, expiresAt: new Date(Date.parse(this.at) + this.leaseMs).toISOString() };
    this.held.set(deviceId, lease);
    if (!existing) this.changes$.next({ type: 'device.controller', deviceId, controller: controllerOf(lease), reason: 'taken', at: this.at });
    return { ...lease };
  }

  override release(deviceId: string, holderId: string): ControlLease {
    const lease = this.heldBy(deviceId, holderId);
    this.end(deviceId, 'handed_back');
    return lease;
  }

  override current(deviceId: string): ControlLease | undefined {
    const lease = this.held.get(deviceId);
    return lease && { ...lease };
  }

  /** Ends the phone's lease for `reason` (e.g. `expired`, `disconnected`). */
  end(deviceId: string, reason: Exclude<ControllerChangeReason, 'taken'>): void {
    if (!this.held.delete(deviceId)) return;
    this.changes$.next({ type: 'device.controller', deviceId, controller: null, reason, at: this.at });
  }
}
