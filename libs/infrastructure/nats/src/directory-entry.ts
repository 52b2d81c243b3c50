import { MobileClawError, type DeviceInfo } from '@mobileclaw/domain';
import type { DeviceDirectoryEntry } from './device-directory';

const DEVICE_STATUSES = new Set(['online', 'busy', 'offline']);

/**
 * Whether `epoch` is a fencing epoch: a safe integer ≥ 1. Above 2^53 − 1, `epoch + 1 === epoch` and
 * two claims could carry one epoch, so such a value is never taken from the directory or a routed command.
 */
export function isEpoch(epoch: unknown): epoch is number {
  return Number.isSafeInteger(epoch) && (epoch as number) >= 1;
}

/**
 * A device directory value (the parsed JSON of a KV entry) as a {@link DeviceDirectoryEntry}, or
 * undefined when it is not one: every field of its type, `epoch` an {@link isEpoch}, and `device` a
 * phone record of the same device id and session (an object with string `deviceId`, `sessionId`,
 * `connectedAt`, `lastSeenAt`, a known `status`, a numeric `queueLength` and string `capabilities`).
 * A forged or corrupt value is never listed, routed to or compared against.
 */
export function readDirectoryEntry(value: unknown): DeviceDirectoryEntry | undefined {
  if (!isRecord(value)) return undefined;
  const { deviceId, instanceId, sessionId, epoch, connectedAt, device } = value;
  if (typeof deviceId !== 'string' || deviceId === '' || typeof instanceId !== 'string' || instanceId === '' || typeof sessionId !== 'string') return undefined;
  if (!isEpoch(epoch) || typeof connectedAt !== 'string' || !isDeviceInfo(device)) return undefined;
  if (device.deviceId !== deviceId || device.sessionId !== sessionId) return undefined;
  return { deviceId, instanceId, sessionId, epoch, connectedAt, device };
}

/**
 * The epoch of a claim that replaces the entry whose parsed value is `previous` (undefined: no entry):
 * its epoch + 1, or 1 when there is none or it carries no epoch at all.
 * @throws MobileClawError `STORAGE_ERROR` when `previous` carries an epoch that is not an {@link isEpoch}
 *   or whose successor is not one (≥ 2^53 − 1): no later epoch can be ordered after it, so the claim is
 *   refused rather than numbered anew (a holder of that entry would never see itself replaced). The key
 *   must be deleted from the bucket by hand.
 */
export function nextEpoch(deviceId: string, previous: unknown): number {
  if (!isRecord(previous) || previous['epoch'] === undefined) return 1;
  const epoch = previous['epoch'];
  if (!isEpoch(epoch) || !isEpoch(epoch + 1)) {
    throw new MobileClawError('STORAGE_ERROR', `the directory entry of device ${deviceId} carries epoch ${JSON.stringify(epoch)}, after which no epoch can be ordered: delete its key from the devices bucket to claim it again`, { deviceId });
  }
  return epoch + 1;
}

/** Whether `value` has the fields of a {@link DeviceInfo} a listing reads, of their types. */
export function isDeviceInfo(value: unknown): value is DeviceInfo {
  if (!isRecord(value)) return false;
  const { deviceId, sessionId, status, connectedAt, lastSeenAt, queueLength, capabilities } = value;
  return (
    typeof deviceId === 'string' &&
    typeof sessionId === 'string' &&
    typeof status === 'string' &&
    DEVICE_STATUSES.has(status) &&
    typeof connectedAt === 'string' &&
    typeof lastSeenAt === 'string' &&
    Number.isSafeInteger(queueLength) &&
    (queueLength as number) >= 0 &&
    Array.isArray(capabilities) &&
    capabilities.every((capability) => typeof capability === 'string')
  );
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
