import { DEVICE_EVENT_TYPES, type DeviceEvent } from '@mobileclaw/domain';
import { isDeviceInfo, isRecord } from './directory-entry';

const EVENT_TYPES = new Set<string>(DEVICE_EVENT_TYPES);
const STATUSES = new Set(['online', 'busy', 'offline']);
const CONTROLLER_REASONS = new Set(['taken', 'handed_back', 'expired', 'disconnected']);

/**
 * Another instance's device event (the parsed JSON of a message on `<p>.device-events.<instance>`) as a
 * {@link DeviceEvent}, or undefined when it is not one: a known type (`DEVICE_EVENT_TYPES`), a non-empty
 * string `deviceId`, a string `at`, and each field of that type of its type (a `device` of the same
 * device id, a known status, a queue length ≥ 0, a controller `null` or `{holder, since, expiresAt}`…).
 * Only the fields of the type are kept: nothing else a sender adds reaches a subscriber.
 */
export function readRemoteDeviceEvent(value: unknown): DeviceEvent | undefined {
  if (!isRecord(value)) return undefined;
  const { type, deviceId, at } = value;
  if (typeof type !== 'string' || !EVENT_TYPES.has(type) || typeof deviceId !== 'string' || deviceId === '' || typeof at !== 'string') return undefined;
  const event = type as DeviceEvent['type'];
  switch (event) {
    case 'device.connected':
    case 'device.updated': {
      const device = value['device'];
      return isDeviceInfo(device) && device.deviceId === deviceId ? { type: event, deviceId, device, at } : undefined;
    }
    case 'device.disconnected': {
      const reason = value['reason'];
      return typeof reason === 'string' ? { type: event, deviceId, reason, at } : undefined;
    }
    case 'device.replaced': {
      const { oldSessionId, newSessionId } = value;
      return typeof oldSessionId === 'string' && typeof newSessionId === 'string' ? { type: event, deviceId, oldSessionId, newSessionId, at } : undefined;
    }
    case 'device.status': {
      const { status, queueLength } = value;
      if (typeof status !== 'string' || !STATUSES.has(status) || !Number.isSafeInteger(queueLength) || (queueLength as number) < 0) return undefined;
      return { type: event, deviceId, status: status as 'online' | 'busy' | 'offline', queueLength: queueLength as number, at };
    }
    case 'device.heartbeat': {
      const rttMs = value['rttMs'];
      return typeof rttMs === 'number' && Number.isFinite(rttMs) && rttMs >= 0 ? { type: event, deviceId, rttMs, at } : undefined;
    }
    case 'device.event': {
      const { event: name, data } = value;
      return typeof name === 'string' && isRecord(data) ? { type: event, deviceId, event: name, data, at } : undefined;
    }
    case 'device.controller': {
      const { controller, reason } = value;
      if (typeof reason !== 'string' || !CONTROLLER_REASONS.has(reason)) return undefined;
      const known = controller === null || (isRecord(controller) && typeof controller['holder'] === 'string' && typeof controller['since'] === 'string' && typeof controller['expiresAt'] === 'string');
      if (!known) return undefined;
      const held = controller === null ? null : { holder: controller['holder'] as string, since: controller['since'] as string, expiresAt: controller['expiresAt'] as string };
      return { type: event, deviceId, controller: held, reason: reason as 'taken' | 'handed_back' | 'expired' | 'disconnected', at };
    }
  }
}
