/**
 * Error codes a phone answers in `response.error.code` (docs/protocol.md, "Phone error codes"; other
 * UPPER_SNAKE_CASE codes are allowed by the protocol, these are the ones MobileClaw's phones use).
 *
 * - `INVALID_ARGUMENT`: a required argument is missing or has the wrong type or range.
 * - `UNSUPPORTED_COMMAND`: the phone does not implement the command.
 * - `UNSUPPORTED`: the command is implemented but this phone cannot carry out these arguments (e.g.
 *   text its input method cannot type); the message says how to enable it.
 * - `APP_NOT_FOUND`, `NO_FOCUSED_INPUT`, `OUT_OF_BOUNDS`, `STALE_FRAME`, `PAYLOAD_TOO_LARGE`: as in the protocol.
 * - `TIMEOUT`: a tool on the device did not finish within the action's deadline and was abandoned.
 * - `COMMAND_FAILED`: a tool on the device ran but failed (its output is in the message).
 * - `INTERNAL_ERROR`: an unexpected failure of the phone software itself.
 */
export type PhoneErrorCode =
  | 'INVALID_ARGUMENT'
  | 'UNSUPPORTED_COMMAND'
  | 'UNSUPPORTED'
  | 'APP_NOT_FOUND'
  | 'NO_FOCUSED_INPUT'
  | 'OUT_OF_BOUNDS'
  | 'STALE_FRAME'
  | 'PAYLOAD_TOO_LARGE'
  | 'TIMEOUT'
  | 'COMMAND_FAILED'
  | 'INTERNAL_ERROR';

/** A command the phone refuses; becomes `{"status":"error","error":{code, message}}` on the wire. */
export class PhoneError extends Error {
  constructor(
    readonly code: PhoneErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PhoneError';
  }
}
