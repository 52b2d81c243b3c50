/**
 * Domain errors. Every failure a caller of {@link MobileClawService} can see carries a stable,
 * machine-readable `code` (see docs/protocol.md and the REST problem-details table in README.md).
 */
export const ERROR_CODES = [
  'DEVICE_NOT_FOUND',
  'DEVICE_DISCONNECTED',
  'DEVICE_REPLACED',
  'DEVICE_BUSY',
  'TIMEOUT',
  'DEVICE_ERROR',
  'PAYLOAD_TOO_LARGE',
  'PROTOCOL_ERROR',
  'STALE_FRAME',
  'UNAUTHORIZED',
  'SHUTTING_DOWN',
  'VALIDATION_FAILED',
  'ABORTED',
  'UNSUPPORTED_VERSION',
  'TASK_NOT_FOUND',
  'TASK_STATE_CONFLICT',
  'STORAGE_ERROR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** One invalid field of a request, as listed in a `VALIDATION_FAILED` error. */
export interface FieldError {
  /** Dotted path of the field, e.g. `x` or `screen.width`. */
  field: string;
  message: string;
}

export interface MobileClawErrorOptions {
  deviceId?: string;
  requestId?: string;
  /** The phone's own error code, for `DEVICE_ERROR` (e.g. `APP_NOT_FOUND`). */
  deviceCode?: string;
  /** Field errors, for `VALIDATION_FAILED`. */
  fieldErrors?: FieldError[];
  cause?: unknown;
}

/**
 * The one error type the domain throws. `code` is stable and documented; `message` is for humans.
 */
export class MobileClawError extends Error {
  readonly code: ErrorCode;
  readonly deviceId?: string;
  readonly requestId?: string;
  readonly deviceCode?: string;
  readonly fieldErrors?: FieldError[];

  constructor(code: ErrorCode, message: string, options: MobileClawErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MobileClawError';
    this.code = code;
    this.deviceId = options.deviceId;
    this.requestId = options.requestId;
    this.deviceCode = options.deviceCode;
    this.fieldErrors = options.fieldErrors;
  }
}

/** True when `err` is a {@link MobileClawError}, optionally with the given code. */
export function isMobileClawError(err: unknown, code?: ErrorCode): err is MobileClawError {
  return err instanceof MobileClawError && (code === undefined || err.code === code);
}
