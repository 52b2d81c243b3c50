import { ERROR_CATALOG, MobileClawError, isMobileClawError, type DeviceToolRequests, type ErrorCode, type ToolInvocationResult } from '@mobileclaw/domain';
import { REQUEST_METHODS, type Frame, type RequestFrame, type RequestMethod, type ResultFrame, type ToolsInvokeParams } from '@mobileclaw/protocol';

/** How one phone request ended, for the log: `ok` or the failure's code. */
export type PhoneRequestOutcome = 'ok' | ErrorCode;

/** What a {@link PhoneRequests} needs from the session it serves. */
export interface PhoneRequestsHost {
  /** The phone's device id. */
  deviceId(): string;
  /** Where requests go now (asked at each request); undefined: every request answers `METHOD_NOT_FOUND`. */
  toolRequests(): DeviceToolRequests | undefined;
  /** Longest a request may take, in ms: a phone's `timeoutMs` is capped by it, and it applies when the phone gives none. */
  readonly maxRequestMs: number;
  /** Requests one phone may have in flight; one more answers `TOO_MANY_REQUESTS` at once. */
  readonly limit: number;
  /** The frame limit in bytes: a result frame above it answers `PAYLOAD_TOO_LARGE` instead. */
  readonly maxFrameBytes: number;
  /** Writes one frame to the phone, as compact JSON without a terminator. */
  sendJson(frameJson: string): void;
  /** A request was answered (or failed at once), after `durationMs` ms. */
  settled(method: string, outcome: PhoneRequestOutcome, durationMs: number, requestId: string): void;
}

/** One request being served. */
interface InFlight {
  method: string;
  startedAt: number;
  controller: AbortController;
  timer: NodeJS.Timeout;
}

type Answer = { ok: true; result: Record<string, unknown> } | { ok: false; error: { code: ErrorCode; message: string; retryable: boolean } };

const KNOWN_METHODS = new Set<string>(REQUEST_METHODS);

/**
 * A phone's own requests on one session (wire protocol v1 `request` → `result`, docs/protocol.md §7):
 * each handed to the {@link DeviceToolRequests} port with an AbortSignal and a deadline, and answered
 * once by a `result` frame with the same `requestId`. The deadline (the phone's `timeoutMs`, at most
 * {@link PhoneRequestsHost.maxRequestMs}) answers `TIMEOUT` and aborts the call; the session's end
 * aborts every call in flight (nothing is sent then). At most {@link PhoneRequestsHost.limit} are in
 * flight; nothing is queued. A result over the frame limit answers `PAYLOAD_TOO_LARGE`.
 */
export class PhoneRequests {
  private readonly inFlight = new Map<string, InFlight>();

  constructor(private readonly host: PhoneRequestsHost) {}

  /** Requests being served now. */
  get size(): number {
    return this.inFlight.size;
  }

  /** Serves one decoded request. Never throws; every path answers the phone exactly once. */
  handle(frame: RequestFrame): void {
    const { requestId, method } = frame;
    const startedAt = performance.now();
    if (this.inFlight.has(requestId)) {
      // The first request keeps its id and is still answered; this one is refused as a broken rule of the protocol.
      const refusal: Frame = { type: 'error', code: 'PROTOCOL_ERROR', message: `request ${requestId} is already in flight; a request id is reused only after its result`, requestId };
      this.host.sendJson(JSON.stringify(refusal));
      return;
    }
    const port = this.host.toolRequests();
    if (!KNOWN_METHODS.has(method)) return this.refuse(frame, startedAt, 'METHOD_NOT_FOUND', `no method ${JSON.stringify(method)}; this gateway serves ${REQUEST_METHODS.join(', ')}`);
    if (port === undefined) return this.refuse(frame, startedAt, 'METHOD_NOT_FOUND', `this gateway serves no tools (no tool registry), so no ${method}`);
    if (this.inFlight.size >= this.host.limit) {
      return this.refuse(frame, startedAt, 'TOO_MANY_REQUESTS', `device ${this.host.deviceId()} has ${this.inFlight.size} requests in flight, the most it may; retry once one has answered`);
    }
    const deadlineMs = Math.min(frame.timeoutMs ?? this.host.maxRequestMs, this.host.maxRequestMs);
    const controller = new AbortController();
    const timer = setTimeout(() => {
      this.answer(requestId, failure('TIMEOUT', `${method} did not finish within ${deadlineMs} ms`));
      controller.abort(new MobileClawError('TIMEOUT', `${method} passed its ${deadlineMs} ms deadline`, { deviceId: this.host.deviceId(), requestId }));
    }, deadlineMs);
    this.inFlight.set(requestId, { method, startedAt, controller, timer });
    void this.call(port, frame, method as RequestMethod, controller.signal, deadlineMs).then((answer) => this.answer(requestId, answer));
  }

  /**
   * The session ended: aborts every request in flight with `code` (their results are never sent) and
   * forgets them.
   */
  abortAll(code: ErrorCode, message: string): void {
    const waiting = [...this.inFlight.entries()];
    this.inFlight.clear();
    for (const [requestId, request] of waiting) {
      clearTimeout(request.timer);
      request.controller.abort(new MobileClawError(code, message, { deviceId: this.host.deviceId(), requestId }));
      this.host.settled(request.method, code, performance.now() - request.startedAt, requestId);
    }
  }

  /** Asks the port; resolves with the answer whatever happens (a rejection or a throw becomes a failure). */
  private async call(port: DeviceToolRequests, frame: RequestFrame, method: RequestMethod, signal: AbortSignal, deadlineMs: number): Promise<Answer> {
    const deviceId = this.host.deviceId();
    try {
      if (method === 'tools.catalog') return { ok: true, result: { tools: await port.catalog(deviceId) } };
      const params = frame.params as unknown as ToolsInvokeParams;
      const context = { requestId: frame.requestId, signal, deadlineMs, ...(params.toolCallId === undefined ? {} : { toolCallId: params.toolCallId }) };
      return fromInvocation(await port.invoke(deviceId, params.name, params.arguments ?? {}, context));
    } catch (err) {
      return isMobileClawError(err) ? failure(err.code, err.message) : failure('INTERNAL_ERROR', `${method} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Sends the one answer of `requestId`, unless it was answered already (deadline) or its session ended. */
  private answer(requestId: string, answer: Answer): void {
    const request = this.inFlight.get(requestId);
    if (request === undefined) return;
    this.inFlight.delete(requestId);
    clearTimeout(request.timer);
    const sent = this.sendResult(requestId, answer);
    this.host.settled(request.method, sent.ok ? 'ok' : sent.error.code, performance.now() - request.startedAt, requestId);
  }

  private refuse(frame: RequestFrame, startedAt: number, code: ErrorCode, message: string): void {
    this.sendResult(frame.requestId, failure(code, message));
    this.host.settled(frame.method, code, performance.now() - startedAt, frame.requestId);
  }

  /**
   * Writes the result frame, or a failure when it is not JSON or over the frame limit; returns what
   * was sent. The failure itself is small and sent unchecked.
   */
  private sendResult(requestId: string, answer: Answer): Answer {
    let json: string;
    try {
      json = JSON.stringify(resultFrame(requestId, answer));
    } catch (err) {
      return this.sendUnchecked(requestId, failure('INTERNAL_ERROR', `the result is not JSON: ${err instanceof Error ? err.message : String(err)}`));
    }
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > this.host.maxFrameBytes) return this.sendUnchecked(requestId, failure('PAYLOAD_TOO_LARGE', `the result is ${bytes} bytes, over the ${this.host.maxFrameBytes}-byte frame limit`));
    this.host.sendJson(json);
    return answer;
  }

  private sendUnchecked(requestId: string, answer: Answer): Answer {
    this.host.sendJson(JSON.stringify(resultFrame(requestId, answer)));
    return answer;
  }
}

function resultFrame(requestId: string, answer: Answer): ResultFrame {
  return answer.ok ? { type: 'result', requestId, ok: true, result: answer.result } : { type: 'result', requestId, ok: false, error: answer.error };
}

function failure(code: ErrorCode, message: string): Answer {
  return { ok: false, error: { code, message, retryable: ERROR_CATALOG[code].retryable } };
}

/** A tool's result as the phone gets it: `{content, text, verified?}`, or its failure. */
function fromInvocation(result: ToolInvocationResult): Answer {
  if (!result.ok) return { ok: false, error: { code: result.error.code, message: result.error.message, retryable: result.error.retryable } };
  return { ok: true, result: { content: result.content, text: result.text, ...(result.verified === undefined ? {} : { verified: result.verified }) } };
}
