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
  /**
   * Longest a phone's own `request` (a tool call) may take, in ms: the phone's `timeoutMs` is capped
   * by it, and it applies when the phone gives none. Default 120 000 ms; at most 2 147 483 647 (Node's timers).
   */
  maxPhoneRequestMs?: number;
  /** A phone's own requests in flight at once; one more answers `TOO_MANY_REQUESTS` (nothing queued). Default 4. */
  phoneRequestLimit?: number;
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
  maxPhoneRequestMs: 120_000,
  phoneRequestLimit: 4,
} as const;

/** The longest delay Node's timers take, in ms. */
const MAX_TIMER_MS = 2_147_483_647;

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
    'maxPhoneRequestMs',
  ];
  for (const key of positive) {
    const value = resolved[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new Error(`MobileClaw: ${key} must be a positive number, got ${String(value)}`);
  }
  if (!Number.isInteger(resolved.queueLimit) || resolved.queueLimit < 0) throw new Error('MobileClaw: queueLimit must be an integer ≥ 0');
  if (resolved.maxPhoneRequestMs > MAX_TIMER_MS) throw new Error(`MobileClaw: maxPhoneRequestMs must be at most ${MAX_TIMER_MS}`);
  if (!Number.isInteger(resolved.phoneRequestLimit) || resolved.phoneRequestLimit < 0) throw new Error('MobileClaw: phoneRequestLimit must be an integer ≥ 0');
  return resolved;
}
