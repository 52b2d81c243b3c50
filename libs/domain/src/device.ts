import type { DeviceController } from './errors';
import type { ScreenInfo } from './results';

export type DeviceStatus = 'online' | 'busy' | 'offline';

/** A phone known to the gateway, as shown by `GET /api/devices`. Times are ISO-8601 strings. */
export interface DeviceInfo {
  deviceId: string;
  status: DeviceStatus;
  model?: string;
  manufacturer?: string;
  /** Android version string, e.g. `"14"`. */
  android?: string;
  screen?: ScreenInfo;
  capabilities: string[];
  client?: { name?: string; version?: string };
  /** Current (or last) session id; changes on every reconnect. `''` for a phone that never connected (see {@link statusReason}). */
  sessionId: string;
  remoteAddress?: string;
  /** When the phone connected or, for one that never could, when the host first reported it (see {@link statusReason}). */
  connectedAt: string;
  lastSeenAt: string;
  disconnectedAt?: string;
  /** Last measured heartbeat round-trip, in ms. */
  rttMs?: number;
  /** Commands waiting behind the one in flight. */
  queueLength: number;
  /**
   * Why an offline phone cannot connect, when the host it is attached to knows: e.g. `adb:
   * unauthorized — …` for a phone plugged in over USB that has not accepted this computer's debugging
   * key. Absent for online phones and for phones that simply went away.
   */
  statusReason?: string;
  /** Who holds the phone while a person has taken it over (see `ControlLeases`); absent when nobody does. */
  controller?: DeviceController;
}

/** Why a phone's controller changed (`device.controller`). */
export type ControllerChangeReason = 'taken' | 'handed_back' | 'expired' | 'disconnected';

/** Device lifecycle events, as emitted by {@link MobileClawService.events$}. */
export type DeviceEvent =
  | { type: 'device.connected'; deviceId: string; device: DeviceInfo; at: string }
  | { type: 'device.disconnected'; deviceId: string; reason: string; at: string }
  | { type: 'device.replaced'; deviceId: string; oldSessionId: string; newSessionId: string; at: string }
  | { type: 'device.status'; deviceId: string; status: DeviceStatus; queueLength: number; at: string }
  | { type: 'device.heartbeat'; deviceId: string; rttMs: number; at: string }
  | { type: 'device.event'; deviceId: string; event: string; data: Record<string, unknown>; at: string }
  /** A phone's listed record changed outside its own connection (e.g. the host reported why it cannot connect, see `DeviceInfo.statusReason`). */
  | { type: 'device.updated'; deviceId: string; device: DeviceInfo; at: string }
  /** A person took the phone over (`controller` set) or it came back (`controller: null`: handed back, lease expired, phone disconnected). */
  | { type: 'device.controller'; deviceId: string; controller: DeviceController | null; reason: ControllerChangeReason; at: string };

/** Every device event type, once each (a `Record` over the union, so a new type cannot be left out). */
const DEVICE_EVENT_TYPE_SET: Record<DeviceEvent['type'], true> = {
  'device.connected': true,
  'device.disconnected': true,
  'device.replaced': true,
  'device.status': true,
  'device.heartbeat': true,
  'device.event': true,
  'device.updated': true,
  'device.controller': true,
};

/** Every {@link DeviceEvent} type (e.g. for documentation checks and client code generators). */
export const DEVICE_EVENT_TYPES = Object.keys(DEVICE_EVENT_TYPE_SET) as readonly DeviceEvent['type'][];
