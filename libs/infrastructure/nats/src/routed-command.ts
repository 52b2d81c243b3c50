import { isErrorCode, isMobileClawError, MobileClawError, type Command, type CommandResult, type ErrorCode, type FieldError, type DeviceController } from '@mobileclaw/domain';
import { isEpoch } from './directory-entry';

/**
 * A command routed to the instance holding the phone: the JSON body of a request on
 * `<prefix>.cmd.<owner token>`, answered with a {@link RoutedCommandReply}.
 */
export interface RoutedCommand {
  /** The caller's id of this routed request (unique in the cluster); a cancel names it. */
  requestId: string;
  deviceId: string;
  /** The directory epoch the caller routed for; the owner refuses any other (`DEVICE_REPLACED`). */
  epoch: number;
  command: Command;
  /** The deadline left when the request was sent, in ms (queue time on the owner included). */
  timeoutMs: number;
  frameId?: string;
  background?: boolean;
}

/** The body of a cancel on `<prefix>.cancel.<owner token>`: the owner aborts that request's hub call. */
export interface RoutedCancel {
  requestId: string;
}

/** A {@link MobileClawError} as it crosses the hop: the catalog code and every field a caller reads. */
export interface RoutedError {
  code: ErrorCode;
  message: string;
  deviceId?: string;
  requestId?: string;
  deviceCode?: string;
  fieldErrors?: FieldError[];
  controller?: DeviceController;
}

/** The owner's answer to a {@link RoutedCommand}: the hub's result, or its error. */
export type RoutedCommandReply = { ok: true; result: CommandResult } | { ok: false; error: RoutedError };

/** `err` as it is sent back; anything but a {@link MobileClawError} is an `INTERNAL_ERROR` with its message. */
export function toRoutedError(err: unknown): RoutedError {
  if (!isMobileClawError(err)) return { code: 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err) };
  const routed: RoutedError = { code: err.code, message: err.message };
  if (err.deviceId !== undefined) routed.deviceId = err.deviceId;
  if (err.requestId !== undefined) routed.requestId = err.requestId;
  if (err.deviceCode !== undefined) routed.deviceCode = err.deviceCode;
  if (err.fieldErrors !== undefined) routed.fieldErrors = err.fieldErrors;
  if (err.controller !== undefined) routed.controller = err.controller;
  return routed;
}

/** The {@link MobileClawError} a {@link RoutedError} stands for; a code outside the catalog becomes `INTERNAL_ERROR`. */
export function fromRoutedError(routed: RoutedError): MobileClawError {
  const code = isErrorCode(routed.code) ? routed.code : 'INTERNAL_ERROR';
  const message = code === routed.code ? routed.message : `${String(routed.code)}: ${routed.message}`;
  return new MobileClawError(code, message, {
    deviceId: routed.deviceId,
    requestId: routed.requestId,
    deviceCode: routed.deviceCode,
    fieldErrors: routed.fieldErrors,
    controller: routed.controller,
  });
}

/**
 * Reads a request body as a {@link RoutedCommand}.
 * @returns undefined when it is not one (not JSON, a field missing or of the wrong type, or an epoch
 *   that is not a safe integer ≥ 1).
 */
export function readRoutedCommand(body: string): RoutedCommand | undefined {
  try {
    const value = JSON.parse(body) as Partial<RoutedCommand> | null;
    if (value === null || typeof value !== 'object') return undefined;
    if (typeof value.requestId !== 'string' || typeof value.deviceId !== 'string' || !isEpoch(value.epoch)) return undefined;
    if (typeof value.timeoutMs !== 'number' || value.command === null || typeof value.command !== 'object' || Array.isArray(value.command)) return undefined;
    return value as RoutedCommand;
  } catch {
    return undefined;
  }
}
