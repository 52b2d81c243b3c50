import { Inject, Injectable, Optional, type OnModuleDestroy } from '@nestjs/common';
import { Subject, type Observable, type Subscription } from 'rxjs';
import {
  Clock,
  ControlLeases,
  MobileClawError,
  MobileClawService,
  controllerOf,
  deviceControlledError,
  type ControlHolder,
  type ControlLease,
  type ControllerChangeReason,
  type DeviceControllerEvent,
} from '@mobileclaw/domain';
import { DEFAULT_DEVICE_CONTROL_OPTIONS, DEVICE_CONTROL_OPTIONS, type DeviceControlOptions } from './device-control.options';

/** A holder id: what a client may choose (it is echoed in no answer, but kept short and plain). */
const HOLDER_ID = /^[A-Za-z0-9._-]{1,128}$/;
/** Longest display name, in characters (code points). */
const MAX_HOLDER_NAME = 64;

interface HeldPhone {
  lease: ControlLease;
  expiry: NodeJS.Timeout;
}

/**
 * The in-process {@link ControlLeases}: one lease per phone, each ended by a timer `controlLeaseMs`
 * after its last renewal, and ended at once when the phone disconnects (a `device.disconnected` event
 * of {@link MobileClawService}); a phone that reconnects comes back free. Times come from the
 * {@link Clock} when the host provides one.
 */
@Injectable()
export class ControlLeaseRegistry extends ControlLeases implements OnModuleDestroy {
  private readonly held = new Map<string, HeldPhone>();
  private readonly changes = new Subject<DeviceControllerEvent>();
  readonly leaseMs: number;
  private readonly disconnects: Subscription;
  readonly changes$: Observable<DeviceControllerEvent> = this.changes.asObservable();

  constructor(
    phones: MobileClawService,
    @Optional() @Inject(DEVICE_CONTROL_OPTIONS) options?: Partial<DeviceControlOptions>,
    @Optional() private readonly clock?: Clock,
  ) {
    super();
    this.leaseMs = options?.controlLeaseMs ?? DEFAULT_DEVICE_CONTROL_OPTIONS.controlLeaseMs;
    this.disconnects = phones.events$.subscribe((event) => {
      if (event.type === 'device.disconnected') this.end(event.deviceId, 'disconnected');
    });
  }

  /**
   * @throws MobileClawError `VALIDATION_FAILED` (a holder id not of 1–128 `[A-Za-z0-9._-]`, a name
   *   empty, over 64 characters or with control characters), `DEVICE_CONTROLLED` (someone else holds it).
   */
  take(deviceId: string, holder: ControlHolder): ControlLease {
    checkHolder(holder);
    const existing = this.held.get(deviceId);
    if (existing && existing.lease.holderId !== holder.holderId) throw deviceControlledError(existing.lease);
    if (existing) clearTimeout(existing.expiry);
    const now = this.now();
    const lease: ControlLease = {
      deviceId,
      holderId: holder.holderId,
      holder: holder.holder,
      since: existing?.lease.since ?? now.toISOString(),
      expiresAt: new Date(now.getTime() + this.leaseMs).toISOString(),
    };
    const expiry = setTimeout(() => this.end(deviceId, 'expired'), this.leaseMs);
    expiry.unref();
    this.held.set(deviceId, { lease, expiry });
    if (!existing) this.changes.next({ type: 'device.controller', deviceId, controller: controllerOf(lease), reason: 'taken', at: now.toISOString() });
    return { ...lease };
  }

  release(deviceId: string, holderId: string): ControlLease {
    const lease = this.heldBy(deviceId, holderId);
    this.end(deviceId, 'handed_back');
    return { ...lease };
  }

  current(deviceId: string): ControlLease | undefined {
    const lease = this.held.get(deviceId)?.lease;
    return lease && { ...lease };
  }

  onModuleDestroy(): void {
    this.disconnects.unsubscribe();
    for (const { expiry } of this.held.values()) clearTimeout(expiry);
    this.held.clear();
    this.changes.complete();
  }

  private end(deviceId: string, reason: Exclude<ControllerChangeReason, 'taken'>): void {
    const held = this.held.get(deviceId);
    if (!held) return;
    clearTimeout(held.expiry);
    this.held.delete(deviceId);
    this.changes.next({ type: 'device.controller', deviceId, controller: null, reason, at: this.now().toISOString() });
  }

  private now(): Date {
    return this.clock?.now() ?? new Date();
  }
}

/** @throws MobileClawError `VALIDATION_FAILED` listing each bad field of `holder`. */
function checkHolder(holder: ControlHolder): void {
  const fieldErrors = [];
  if (typeof holder.holderId !== 'string' || !HOLDER_ID.test(holder.holderId)) {
    fieldErrors.push({ field: 'holderId', message: 'holderId must be 1–128 characters of [A-Za-z0-9._-]' });
  }
  const name = holder.holder;
  if (typeof name !== 'string' || name.trim() === '' || [...name].length > MAX_HOLDER_NAME || /\p{Cc}/u.test(name)) {
    fieldErrors.push({ field: 'holder', message: `holder must be a name of 1–${MAX_HOLDER_NAME} characters without control characters` });
  }
  if (fieldErrors.length > 0) throw new MobileClawError('VALIDATION_FAILED', fieldErrors.map((f) => f.message).join('; '), { fieldErrors });
}
