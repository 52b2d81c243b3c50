import type { Observable } from 'rxjs';
import { MobileClawError, type DeviceController } from './errors';
import type { DeviceEvent } from './device';

/** Who asks to hold a phone: an id their client chose and keeps (it proves holding in later calls), and a name shown to others. */
export interface ControlHolder {
  /** 1–128 characters of `[A-Za-z0-9._-]`, e.g. a random id the page keeps in localStorage. Never shown to others. */
  holderId: string;
  /** The display name others see, e.g. `Ada`. */
  holder: string;
}

/** One person's hold on one phone. Times are ISO-8601. */
export interface ControlLease extends ControlHolder, DeviceController {
  deviceId: string;
}

/** A `device.controller` event. */
export type DeviceControllerEvent = Extract<DeviceEvent, { type: 'device.controller' }>;

/**
 * Control leases: at most one person holds a phone at a time (a takeover). While one does, every other
 * controller — REST commands, MCP actions, the agent loop — is refused with `DEVICE_CONTROLLED` and
 * only the holder's own takeover actions reach the phone. A lease lasts `leaseMs` (a setting) from its
 * last renewal; its holder's client renews it by taking it again while it is in use. It ends when the
 * holder hands the phone back, when it runs out, and when the phone disconnects. Each start and end is
 * published on {@link changes$}. An abstract class so that it doubles as the Nest DI token; answers
 * synchronously (one process holds the leases of its phones).
 */
export abstract class ControlLeases {
  /**
   * Takes the phone for `holder`, or renews the lease when `holder.holderId` already holds it (its
   * `since` stays; its name is updated).
   * @throws MobileClawError `DEVICE_CONTROLLED` (with `controller`) when someone else holds it.
   */
  abstract take(deviceId: string, holder: ControlHolder): ControlLease;

  /**
   * Hands the phone back.
   * @throws MobileClawError `CONTROL_NOT_HELD` when nobody holds it, `DEVICE_CONTROLLED` when someone else does.
   */
  abstract release(deviceId: string, holderId: string): ControlLease;

  /** The lease in force on the phone, if any. */
  abstract current(deviceId: string): ControlLease | undefined;

  /** How long a lease lasts from its last renewal, in ms: a holder's client renews well within it. */
  abstract readonly leaseMs: number;

  /** Every phone's lease changes (`device.controller` events); hot, never errors. */
  abstract readonly changes$: Observable<DeviceControllerEvent>;

  /**
   * Checks that nobody holds the phone, before a controller other than a holder acts on it.
   * @throws MobileClawError `DEVICE_CONTROLLED` (with `controller`: who, since when).
   */
  assertFree(deviceId: string): void {
    const lease = this.current(deviceId);
    if (lease) throw deviceControlledError(lease);
  }

  /**
   * The lease `holderId` holds on the phone.
   * @throws MobileClawError `CONTROL_NOT_HELD` when nobody holds it, `DEVICE_CONTROLLED` when someone else does.
   */
  heldBy(deviceId: string, holderId: string): ControlLease {
    const lease = this.current(deviceId);
    if (!lease) throw new MobileClawError('CONTROL_NOT_HELD', `nobody controls ${deviceId}: take it over first`, { deviceId });
    if (lease.holderId !== holderId) throw deviceControlledError(lease);
    return lease;
  }
}

/** The public view of a lease: who and since when, never the holder's id. */
export function controllerOf(lease: ControlLease): DeviceController {
  return { holder: lease.holder, since: lease.since, expiresAt: lease.expiresAt };
}

/** The `DEVICE_CONTROLLED` error for an action refused because `lease` holds the phone. */
export function deviceControlledError(lease: ControlLease): MobileClawError {
  return new MobileClawError('DEVICE_CONTROLLED', `${lease.holder} controls ${lease.deviceId} since ${lease.since}; try again once they hand it back`, {
    deviceId: lease.deviceId,
    controller: controllerOf(lease),
  });
}
