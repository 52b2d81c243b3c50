/** Why `LocalTools.register` refused a tool. Stable codes: */
export type ToolRegistrationErrorCode =
  /** The spec breaks a rule: name pattern, description length, schema not compilable, not `type: object`, too large. */
  | 'TOOL_SPEC_INVALID'
  /** A tool of that name is already registered. */
  | 'TOOL_NAME_TAKEN';

/** Thrown by `LocalTools.register`; the message names the tool and the broken rule. */
export class ToolRegistrationError extends Error {
  override readonly name = 'ToolRegistrationError';

  constructor(
    readonly code: ToolRegistrationErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Why a `ToolCallStore` refused an operation. Stable codes: */
export type ToolCallStoreErrorCode =
  /** `finish` of a call that was never begun. */
  | 'TOOL_CALL_NOT_STARTED'
  /** `finish` of a call that already has its outcome. */
  | 'TOOL_CALL_ALREADY_FINISHED'
  /** A stored record cannot be read back (edited or damaged outside the store). */
  | 'TOOL_CALL_RECORD_UNREADABLE';

/** Thrown by a `ToolCallStore`; the message names the `toolCallId`. */
export class ToolCallStoreError extends Error {
  override readonly name = 'ToolCallStoreError';

  constructor(
    readonly code: ToolCallStoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}
