import { ERROR_CATALOG, isMobileClawError, type ErrorCode } from '../errors';

/**
 * A JSON value: what a tool's arguments and results are made of, so that they travel unchanged over
 * REST, MCP, A2A and the phone's wire.
 */
export type ToolContent = null | boolean | number | string | ToolContent[] | { [key: string]: ToolContent };

/** What a caller hands to {@link ToolSource.invoke} besides the name and arguments. */
export interface ToolInvocationContext {
  /**
   * The call's id, chosen by the caller and stable across retries of the same call (e.g.
   * `<taskId>:<stepIndex>`): a source that forwards calls passes it on, so that a call executes at most once.
   */
  toolCallId: string;
  /** Fires when the caller gives up (a canceled task, a closed connection): the source stops and answers `ABORTED`. */
  signal: AbortSignal;
  /** How long the call may take, in ms from its start; past it the source answers `TIMEOUT`. */
  deadlineMs: number;
  /**
   * The memory scope of the caller's conversation or device (`context:<id>` or `device:<id>`, see
   * `MemoryScope`), for tools that keep state per scope (the memory tools); absent when the caller
   * has none (a REST or MCP caller names it in the arguments instead).
   */
  scope?: string;
}

/** A successful call: its result as JSON, and as text for a model or a person. */
export interface ToolInvocationSuccess {
  ok: true;
  /** The result as structured JSON (a source's own shape, documented by the source). */
  content: ToolContent;
  /** The result as text: what a model is shown when it cannot take JSON, never empty for a non-empty result. */
  text: string;
  /**
   * Whether the source could confirm that the tool itself produced the result. Only a source that
   * delegates a call to someone who may answer without calling the tool (an `AGENT_SESSION` source:
   * another agent asked to call it) sets it: `false` marks an answer that shows no sign of the tool
   * call (plain prose), which callers must not pass off as the tool's result. Absent: the source ran
   * or forwarded the call itself, nothing to confirm.
   */
  verified?: boolean;
}

/** Why a call failed: a catalog code, a message for people, whether the same call may succeed later. */
export interface ToolInvocationError {
  code: ErrorCode;
  message: string;
  /** The catalog's retryability of {@link code}. */
  retryable: boolean;
}

/** A failed call. */
export interface ToolInvocationFailure {
  ok: false;
  error: ToolInvocationError;
}

/**
 * The answer of {@link ToolSource.invoke}. A failure the source can name is an answer, not a
 * rejection: `TOOL_NOT_FOUND` (no such tool in the source), `TOOL_UNAVAILABLE` (it cannot be reached
 * now), `ABORTED` (the signal fired), `TIMEOUT` (the deadline passed), `VALIDATION_FAILED` (arguments
 * the tool refused), or another catalog code the source documents.
 */
export type ToolInvocationResult = ToolInvocationSuccess | ToolInvocationFailure;

/** A success with `content`; `text` defaults to `content` itself when it is a string, else its JSON. */
export function toolSuccess(content: ToolContent, text: string = typeof content === 'string' ? content : JSON.stringify(content)): ToolInvocationSuccess {
  return { ok: true, content, text };
}

/** A failure with `code`, its retryability taken from the catalog. */
export function toolFailure(code: ErrorCode, message: string): ToolInvocationFailure {
  return { ok: false, error: { code, message, retryable: ERROR_CATALOG[code].retryable } };
}

/**
 * The failure for a thrown error: a {@link MobileClawError} keeps its code and message; anything else
 * is a bug, `INTERNAL_ERROR`.
 */
export function toolFailureFromError(err: unknown): ToolInvocationFailure {
  if (isMobileClawError(err)) return toolFailure(err.code, err.message);
  return toolFailure('INTERNAL_ERROR', err instanceof Error ? err.message : String(err));
}
