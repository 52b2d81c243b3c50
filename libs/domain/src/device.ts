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
  /** Current (or last) session id; changes on every reconnect. */
  sessionId: string;
  remoteAddress?: string;
  connectedAt: string;
  lastSeenAt: string;
  disconnectedAt?: string;
  /** Last measured heartbeat round-trip, in ms. */
  rttMs?: number;
  /** Commands waiting behind the one in flight. */
  queueLength: number;
}

/** Device lifecycle events, as emitted by {@link MobileClawService.events$}. */
export type DeviceEvent =
  | { type: 'device.connected'; deviceId: string; device: DeviceInfo; at: string }
  | { type: 'device.disconnected'; deviceId: string; reason: string; at: string }
  | { type: 'device.replaced'; deviceId: string; oldSessionId: string; newSessionId: string; at: string }
  | { type: 'device.status'; deviceId: string; status: DeviceStatus; queueLength: number; at: string }
  | { type: 'device.heartbeat'; deviceId: string; rttMs: number; at: string }
  | { type: 'device.event'; deviceId: string; event: string; data: Record<string, unknown>; at: string };
