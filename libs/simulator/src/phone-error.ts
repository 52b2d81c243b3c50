/** Error codes the simulated phone answers in `response.error.code`. */
export type PhoneErrorCode =
  | 'INVALID_ARGUMENT'
  | 'UNSUPPORTED_COMMAND'
  | 'APP_NOT_FOUND'
  | 'NO_FOCUSED_INPUT'
  | 'OUT_OF_BOUNDS'
  | 'STALE_FRAME'
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
