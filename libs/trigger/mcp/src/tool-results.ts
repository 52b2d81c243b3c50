import type { CallToolResult } from '@modelcontextprotocol/server';
import { errorCatalogEntry, isMobileClawError, type ErrorCode } from '@mobileclaw/domain';

/** What a model can do next about each code, appended to the error text of a tool result. */
const NEXT_STEP: Partial<Record<ErrorCode, string>> = {
  DEVICE_NOT_FOUND: 'Call list_devices to see the phones the gateway knows.',
  DEVICE_AMBIGUOUS: 'Pass deviceId (see list_devices).',
  DEVICE_DISCONNECTED: 'The phone is offline; it reconnects on its own. Retry later or pick another phone from list_devices.',
  DEVICE_REPLACED: 'The phone reconnected; retry the same call.',
  DEVICE_BUSY: 'The phone is busy with other commands or a task; retry in a few seconds.',
  TIMEOUT: 'The phone did not answer in time; call get_screen to see its state before retrying.',
  STALE_FRAME: 'Call get_screen again and act on the new frameId.',
  APPROVAL_REQUIRED: 'Ask the user; once they approve, call the tool again with approved: true.',
  NOT_SUPPORTED: 'Use another tool for this phone.',
  VALIDATION_FAILED: 'Fix the arguments and call again.',
  TASK_NOT_FOUND: 'Check the task id.',
};

/** A tool result for a failure: `isError`, the stable code and a sentence a model can act on. */
export function toolError(err: unknown): CallToolResult {
  if (!isMobileClawError(err)) {
    return {
      isError: true,
      content: [{ type: 'text', text: 'INTERNAL_ERROR: the gateway failed unexpectedly; the failure is in its log.' }],
      structuredContent: { error: { code: 'INTERNAL_ERROR', retryable: false } },
    };
  }
  const next = NEXT_STEP[err.code];
  const entry = errorCatalogEntry(err.code);
  const error: Record<string, unknown> = { code: err.code, message: err.message, retryable: entry.retryable };
  if (err.deviceId !== undefined) error['deviceId'] = err.deviceId;
  if (err.deviceCode !== undefined) error['deviceCode'] = err.deviceCode;
  if (err.fieldErrors !== undefined) error['fieldErrors'] = err.fieldErrors;
  const deviceCode = err.deviceCode === undefined ? '' : ` (phone code ${err.deviceCode})`;
  return {
    isError: true,
    content: [{ type: 'text', text: `${err.code}: ${err.message}${deviceCode}.${next ? ` ${next}` : ''}` }],
    structuredContent: { error },
  };
}

/** A successful tool result: a one-line text for the model and the same facts as structured content. */
export function toolResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}
