/**
 * A phone's own request (`tools.catalog`, `tools.invoke`; docs/protocol.md §7) failed: the gateway's
 * `result` with `ok: false` or its `error` frame naming the request (`code`, e.g. `TOOL_NOT_FOUND`,
 * `VALIDATION_FAILED`), or the phone's own end of it — `TIMEOUT` (no answer by the deadline) and
 * `DEVICE_DISCONNECTED` (not connected, or the connection closed before the answer).
 */
export class GatewayRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The phone's request id; undefined when the request was never sent. */
    readonly requestId: string | undefined,
    /** Whether the same request may succeed later (as the gateway said, or the phone's own failures: true). */
    readonly retryable = false,
  ) {
    super(`${code}: ${message}`);
    this.name = 'GatewayRequestError';
  }
}
