import type { CallToolResult } from '@modelcontextprotocol/server';
import { errorCatalogEntry, isMobileClawError, type ErrorCode } from '@mobileclaw/domain';

/**
 * What a model can do next about each code, appended to the error text of a tool result. A code whose
 * message already says what to do (STALE_FRAME: take a new screen; DEVICE_AMBIGUOUS: name one with
 * deviceId) has none here, so the text does not say it twice.
 */
const NEXT_STEP: Partial<Record<ErrorCode, string>> = {
  DEVICE_NOT_FOUND: 'Call list_devices to see the phones the gateway knows.',
  DEVICE_DISCONNECTED: 'The phone is offline; it reconnects on its own. Retry later or pick another phone from list_devices.',
  DEVICE_REPLACED: 'The phone reconnected; retry the same call.',
  DEVICE_BUSY: 'The phone is busy with other commands or a task; retry in a few seconds.',
  TIMEOUT: 'The phone did not answer in time; call get_screen to see its state before retrying.',
  APPROVAL_REQUIRED: 'Ask the user; once they approve, call the tool again with approved: true.',
  NOT_SUPPORTED: 'Use another tool for this phone.',
  VALIDATION_FAILED: 'Fix the arguments and call again.',
  TASK_NOT_FOUND: 'Check the task id.',
};

/** Longest error message a tool result carries, in characters: a phone's or a library's text is cut there with `…`. */
const MAX_MESSAGE_CHARS = 1000;

/** Next steps of one tool or connection that replace or add to the defaults, by code (`null`: none). */
export type NextSteps = Partial<Record<ErrorCode, string | null>>;

/**
 * A tool result for a failure: `isError`, `structuredContent.error` `{code, message, retryable,
 * deviceId?, deviceCode?, fieldErrors?}` and a text of the code, the message and a sentence a model
 * can act on (`nextSteps` first, then the defaults). Anything but a MobileClawError is INTERNAL_ERROR
 * without details (they are in the log).
 */
export function toolError(err: unknown, nextSteps: NextSteps = {}): CallToolResult {
  if (!isMobileClawError(err)) {
    return {
      isError: true,
      content: [{ type: 'text', text: 'INTERNAL_ERROR: the gateway failed unexpectedly; the failure is in its log.' }],
      structuredContent: { error: { code: 'INTERNAL_ERROR', message: 'the gateway failed unexpectedly', retryable: false } },
    };
  }
  const next = err.code in nextSteps ? nextSteps[err.code] : NEXT_STEP[err.code];
  const entry = errorCatalogEntry(err.code);
  const chars = [...err.message];
  const message = chars.length <= MAX_MESSAGE_CHARS ? err.message : `${chars.slice(0, MAX_MESSAGE_CHARS).join('')}…`;
  const error: Record<string, unknown> = { code: err.code, message, retryable: entry.retryable };
  if (err.deviceId !== undefined) error['deviceId'] = err.deviceId;
  if (err.deviceCode !== undefined) error['deviceCode'] = err.deviceCode;
  if (err.fieldErrors !== undefined) error['fieldErrors'] = err.fieldErrors;
  const deviceCode = err.deviceCode === undefined ? '' : ` (phone code ${err.deviceCode})`;
  return {
    isError: true,
    content: [{ type: 'text', text: `${err.code}: ${message}${deviceCode}.${next ? ` ${next}` : ''}` }],
    structuredContent: { error },
  };
}

/** A successful tool result: a one-line text for the model and the same facts as structured content. */
export function toolResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}
