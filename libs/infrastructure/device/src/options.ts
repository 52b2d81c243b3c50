/**
 * Tunables of the device gateway, whatever transports phones use (wire protocol v1, docs/protocol.md). Sizes in bytes, times in ms.
 */
export interface DeviceGatewayOptions {
  /** Shared secret every phone sends in `hello`; compared in constant time. Required, no default. */
  deviceToken: string;
  /** Largest frame after `hello`, announced in `welcome`. Default 16 MiB. */
  maxFrameBytes?: number;
  /** Largest first frame, and the most bytes before it. Default 64 KiB. */
  maxHelloBytes?: number;
  /** Time a new connection has to say `hello`. Default 10 000 ms. */
  helloTimeoutMs?: number;
  /** Ping after this much silence; close after twice this. Default 15 000 ms. */
  heartbeatIntervalMs?: number;
  /** Deadline of a command when the caller gives none (queue time included). Default 30 000 ms. */
  defaultTimeoutMs?: number;
  /** Commands that may wait behind the one in flight, per phone. Default 32. */
  queueLimit?: number;
  /** Bytes not yet accepted by a phone's socket above which new commands fail `DEVICE_BUSY`. Default 1 MiB. */
  writeHighWaterMarkBytes?: number;
  /** Protocol errors in a row that close a session. Default 10. */
  maxConsecutiveProtocolErrors?: number;
  /** Offline phones remembered for `GET /api/devices`. Default 1000. */
  offlineDeviceLimit?: number;
}

export type ResolvedDeviceGatewayOptions = Required<DeviceGatewayOptions>;

export const DEVICE_GATEWAY_DEFAULTS = {
  maxFrameBytes: 16 * 1024 * 1024,
  maxHelloBytes: 64 * 1024,
  helloTimeoutMs: 10_000,
  heartbeatIntervalMs: 15_000,
  defaultTimeoutMs: 30_000,
  queueLimit: 32,
  writeHighWaterMarkBytes: 1024 * 1024,
  maxConsecutiveProtocolErrors: 10,
  offlineDeviceLimit: 1000,
} as const;

/** Fills defaults. @throws Error when the token is empty or a number is out of range. */
export function resolveDeviceGatewayOptions(options: DeviceGatewayOptions): ResolvedDeviceGatewayOptions {
  if (typeof options.deviceToken !== 'string' || options.deviceToken.length === 0) {
    throw new Error('MobileClaw: deviceToken is required (no default shared token)');
  }
  const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const resolved = { ...DEVICE_GATEWAY_DEFAULTS, ...defined } as ResolvedDeviceGatewayOptions;
  const positive: (keyof ResolvedDeviceGatewayOptions)[] = [
    'maxFrameBytes',
    'maxHelloBytes',
    'helloTimeoutMs',
    'heartbeatIntervalMs',
    'defaultTimeoutMs',
    'writeHighWaterMarkBytes',
    'maxConsecutiveProtocolErrors',
  ];
  for (const key of positive) {
    const value = resolved[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new Error(`MobileClaw: ${key} must be a positive number, got ${String(value)}`);
  }
  if (!Number.isInteger(resolved.queueLimit) || resolved.queueLimit < 0) throw new Error('MobileClaw: queueLimit must be an integer ≥ 0');
  return resolved;
}
