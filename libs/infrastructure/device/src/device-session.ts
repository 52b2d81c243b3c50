import { randomUUID } from 'node:crypto';
import type { Command, DeviceInfo, DeviceStatus, DeviceToolRequests, DiscardedFrameReason, DroppedReplyReason, ErrorCode, ScreenInfo } from '@mobileclaw/domain';
import { decodeFrame, peekRequestId, PROTOCOL_VERSION, type Frame, type HelloFrame, type ResponseFrame } from '@mobileclaw/protocol';
import type { FrameTransport } from './frame-transport';
import type { ResolvedDeviceGatewayOptions } from './options';
import type { PendingRequest } from './pending-request';
import { PhoneRequests, type PhoneRequestOutcome } from './phone-requests';

/** Counters a session reports to its hub (exposed by `DeviceHub.stats()`). */
export type SessionCounter = 'droppedReplies' | 'protocolErrors' | 'oversizedFrames' | 'unauthorized' | 'timeouts' | 'deviceEvents';

/** What a session needs from the hub that owns it. */
export interface SessionHost {
  readonly options: ResolvedDeviceGatewayOptions;
  /** Checks the token in constant time. */
  authenticate(token: string): boolean;
  /** Makes the session the current one for its deviceId (replacing an older one). */
  register(session: DeviceSession): void;
  /** Called once when the session closes (also when it never finished its handshake). */
  unregister(session: DeviceSession, code: ErrorCode, reason: string): void;
  count(counter: SessionCounter): void;
  statusChanged(session: DeviceSession): void;
  heartbeat(session: DeviceSession, rttMs: number): void;
  /** A queued command was just sent to the phone (its `dispatchedAt` is set). */
  dispatched(session: DeviceSession, request: PendingRequest): void;
  /** A frame from the phone was thrown away. */
  frameDiscarded(session: DeviceSession, reason: DiscardedFrameReason): void;
  /** A reply matched no command in flight. */
  replyDropped(session: DeviceSession, reason: DroppedReplyReason): void;
  deviceEvent(session: DeviceSession, event: string, data: Record<string, unknown>): void;
  /** A connection was refused before or at its hello (wrong token, version, malformed, too slow). */
  refused(session: DeviceSession, code: string, message: string): void;
  /** Where the phone's own `request`s go (docs/protocol.md §7); undefined: they answer `METHOD_NOT_FOUND`. */
  readonly toolRequests: DeviceToolRequests | undefined;
  /** A phone's request was answered (`ok` or the failure's code) after `durationMs` ms. */
  phoneRequestSettled(session: DeviceSession, method: string, outcome: PhoneRequestOutcome, durationMs: number, requestId: string): void;
}

type SessionState = 'handshake' | 'open' | 'closed';

/** Request ids a session remembers having sent, to tell a late reply from an unknown one. */
const REMEMBERED_REQUEST_IDS = 64;

/** Most characters of an error thrown while handling a frame that its close reason (and so the log) carries. */
const FAILURE_REASON_CHARS = 200;

/**
 * One phone connection, independent of the transport (frames in through {@link receive}, frames out
 * through {@link FrameTransport.send}). Runs the handshake, keeps one command in flight with a FIFO
 * queue behind it, correlates replies by request id, and fails every waiting caller at once when
 * the session ends (docs/protocol.md). The phone's own `request`s (its tools, §7) are served beside
 * the commands by {@link PhoneRequests}, in the phone's namespace of request ids.
 */
export class DeviceSession {
  state: SessionState = 'handshake';
  readonly sessionId = randomUUID();
  hello: HelloFrame | undefined;
  readonly connectedAt = Date.now();
  /** Date.now() of the last frame received. */
  lastSeenAt = Date.now();
  /** performance.now() of the last frame received / ping sent (heartbeat bookkeeping). */
  lastReceivedAt = performance.now();
  lastPingAt = -Infinity;
  /** `ts` of the ping not yet answered; undefined when none is outstanding (a pong then counts for nothing). */
  private lastPingTs: number | undefined;
  rttMs: number | undefined;
  screen: ScreenInfo | undefined;
  private inFlight: PendingRequest | null = null;
  private readonly queue: PendingRequest[] = [];
  private consecutiveProtocolErrors = 0;
  private helloTimer: NodeJS.Timeout | undefined;
  /** The last {@link REMEMBERED_REQUEST_IDS} request ids sent to the phone, oldest first. */
  private readonly sentRequestIds = new Set<string>();
  /** The phone's own requests being served (its namespace of request ids, apart from {@link sentRequestIds}). */
  private readonly phoneRequests: PhoneRequests;

  /** @param transportName the name of the transport the connection came through (`DeviceTransport.name`, e.g. `tcp`). */
  constructor(
    private readonly host: SessionHost,
    readonly transport: FrameTransport,
    readonly transportName = 'unknown',
  ) {
    transport.setMaxFrameBytes(host.options.maxHelloBytes);
    this.phoneRequests = new PhoneRequests({
      deviceId: () => this.deviceId,
      toolRequests: () => host.toolRequests,
      maxRequestMs: host.options.maxPhoneRequestMs,
      limit: host.options.phoneRequestLimit,
      maxFrameBytes: host.options.maxFrameBytes,
      sendJson: (json) => transport.send(json),
      settled: (method, outcome, durationMs, requestId) => host.phoneRequestSettled(this, method, outcome, durationMs, requestId),
    });
    this.helloTimer = setTimeout(() => this.refuse('PROTOCOL_ERROR', `no hello within ${host.options.helloTimeoutMs} ms`), host.options.helloTimeoutMs);
  }

  get deviceId(): string {
    return this.hello?.deviceId ?? '';
  }

  get status(): DeviceStatus {
    return this.state !== 'open' ? 'offline' : this.inFlight && !this.inFlight.background ? 'busy' : 'online';
  }

  /** Commands waiting behind the one in flight. */
  get queueLength(): number {
    return this.queue.length;
  }

  /** The phone's own requests being served now. */
  get phoneRequestCount(): number {
    return this.phoneRequests.size;
  }

  /** Commands in flight or queued. */
  get pendingCount(): number {
    return this.queue.length + (this.inFlight ? 1 : 0);
  }

  /** True when the transport is not draining (new commands then fail `DEVICE_BUSY`). */
  get congested(): boolean {
    return this.transport.pendingWriteBytes > this.host.options.writeHighWaterMarkBytes;
  }

  get queueFull(): boolean {
    return this.inFlight !== null && this.queue.length >= this.host.options.queueLimit;
  }

  info(): DeviceInfo {
    const device = this.hello?.device ?? {};
    return {
      deviceId: this.deviceId,
      status: this.status,
      model: device.model,
      manufacturer: device.manufacturer,
      android: device.android,
      screen: this.screen,
      capabilities: this.hello?.capabilities ?? [],
      client: this.hello?.client,
      sessionId: this.sessionId,
      remoteAddress: this.transport.remoteAddress,
      connectedAt: new Date(this.connectedAt).toISOString(),
      lastSeenAt: new Date(this.lastSeenAt).toISOString(),
      rttMs: this.rttMs,
      queueLength: this.queue.length,
    };
  }

  // ---- frames in ------------------------------------------------------------------------------

  /**
   * One complete frame from the transport, as JSON text (UTF-8 bytes or a string; no terminator).
   * Never throws: like every frame entry point here ({@link receiveUnreadable}, {@link frameTooLarge},
   * {@link frameDiscarded}), an error thrown while handling the frame ends this session only (see
   * {@link failed}), since a throw would otherwise escape the transport's data handler and end the process.
   */
  receive(line: Buffer | string): void {
    this.guarded(() => this.handleFrame(line));
  }

  private handleFrame(line: Buffer | string): void {
    if (this.state === 'closed') return;
    this.lastReceivedAt = performance.now();
    this.lastSeenAt = Date.now();
    const decoded = decodeFrame(line);
    if (this.state === 'handshake') {
      if (!decoded.ok) return this.refuse('PROTOCOL_ERROR', `invalid hello: ${decoded.reason}`);
      return this.handshake(decoded.frame);
    }
    if (!decoded.ok && decoded.code === 'VALIDATION_FAILED') return this.invalidRequest(decoded.reason, decoded.requestId as string);
    if (!decoded.ok) return this.malformed(decoded.reason, decoded.requestId, decoded.request === true);
    this.consecutiveProtocolErrors = 0;
    const frame = decoded.frame;
    switch (frame.type) {
      case 'response':
        return this.onResponse(frame);
      case 'ping':
        return this.send({ type: 'pong', ts: frame.ts });
      case 'pong':
        return this.onPong(frame.ts);
      case 'request':
        return this.phoneRequests.handle(frame);
      case 'event':
        if (frame.event === 'screen' && frame.data && typeof frame.data['width'] === 'number') this.updateScreen(frame.data as unknown as ScreenInfo);
        return this.host.deviceEvent(this, frame.event, frame.data ?? {});
      default:
        this.host.frameDiscarded(this, 'unexpected');
        return this.protocolError(`unexpected "${frame.type}" frame from a phone`);
    }
  }

  /**
   * A message the transport cannot hand over as a frame at all (WebSocket: a binary message), read
   * as a malformed frame: refuses the connection before `hello`; afterwards answers `PROTOCOL_ERROR`,
   * counts it towards the errors in a row that close a session, and fails the command in flight when
   * `head` (the message's first bytes) names it by a top-level `requestId`.
   */
  receiveUnreadable(head: Buffer, reason: string): void {
    this.guarded(() => this.handleUnreadable(head, reason));
  }

  private handleUnreadable(head: Buffer, reason: string): void {
    if (this.state === 'closed') return;
    this.lastReceivedAt = performance.now();
    this.lastSeenAt = Date.now();
    if (this.state === 'handshake') return this.refuse('PROTOCOL_ERROR', `invalid hello: ${reason}`);
    this.malformed(reason, peekRequestId(head), false);
  }

  /**
   * A frame just crossed the frame limit (the transport discards it): fails its caller at once, or
   * refuses the connection when it is the first frame. `head` holds the frame's first bytes, from
   * which the request id is read. A stream transport calls this as soon as the limit is crossed,
   * before the rest of the frame has arrived; a message transport calls it on receipt.
   */
  frameTooLarge(head: Buffer): void {
    this.guarded(() => this.handleTooLarge(head));
  }

  private handleTooLarge(head: Buffer): void {
    if (this.state === 'closed') return;
    if (this.state === 'handshake') return this.refuse('PROTOCOL_ERROR', `first frame exceeds ${this.host.options.maxHelloBytes} bytes`);
    const requestId = peekRequestId(head);
    if (requestId !== undefined && this.inFlight?.requestId === requestId) {
      const limit = this.host.options.maxFrameBytes;
      this.finishInFlight((p) => p.reject('PAYLOAD_TOO_LARGE', `reply exceeds the ${limit}-byte frame limit`));
    }
  }

  /**
   * The oversized frame reported by {@link frameTooLarge} has been discarded whole; `sizeBytes` is its
   * length. Counts it and tells the phone (`error PAYLOAD_TOO_LARGE` with the request id, when seen).
   */
  frameDiscarded(head: Buffer, sizeBytes: number): void {
    this.guarded(() => this.handleDiscarded(head, sizeBytes));
  }

  private handleDiscarded(head: Buffer, sizeBytes: number): void {
    if (this.state !== 'open') return;
    this.lastReceivedAt = performance.now();
    this.lastSeenAt = Date.now();
    this.host.count('oversizedFrames');
    this.host.frameDiscarded(this, 'oversized');
    const requestId = peekRequestId(head);
    const limit = this.host.options.maxFrameBytes;
    this.send({ type: 'error', code: 'PAYLOAD_TOO_LARGE', message: `frame of ${sizeBytes} bytes exceeds ${limit} bytes`, ...(requestId ? { requestId } : {}) });
  }

  /**
   * The transport closed (peer hung up, reset, or we closed it). `reason` says how, when the
   * transport knows more than that (e.g. a WebSocket closed for a message over its size limit).
   */
  transportClosed(reason = 'connection closed'): void {
    this.close('DEVICE_DISCONNECTED', reason);
  }

  // ---- commands -------------------------------------------------------------------------------

  /** Queues a command; dispatches it at once when the phone is idle. Caller checked capacity. */
  enqueue(request: PendingRequest): void {
    if (this.inFlight === null) {
      this.dispatch(request);
      if (!request.background) this.host.statusChanged(this);
    } else {
      this.queue.push(request);
    }
  }

  /** Removes a request that passed its deadline or was aborted, wherever it is. */
  withdraw(request: PendingRequest, code: ErrorCode, message: string): void {
    if (request.settled) return;
    if (this.inFlight === request) {
      // Tell the phone nobody waits any more; the next command goes out now.
      this.send({ type: 'cancel', requestId: request.requestId });
      this.finishInFlight((p) => p.reject(code, message));
      return;
    }
    const index = this.queue.indexOf(request);
    if (index >= 0) this.queue.splice(index, 1);
    request.reject(code, message);
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  /**
   * Pings once per interval whatever else crosses the line (so that the round-trip time stays
   * measured even when the phone pings first or is busy); closes a session silent for two intervals.
   */
  checkHeartbeat(now: number): void {
    if (this.state !== 'open') return;
    const interval = this.host.options.heartbeatIntervalMs;
    const silentFor = now - this.lastReceivedAt;
    if (silentFor >= 2 * interval) {
      this.close('DEVICE_DISCONNECTED', `no frame for ${Math.round(silentFor)} ms (heartbeat)`, true);
      return;
    }
    if (now - this.lastPingAt >= interval) this.ping(now);
  }

  private ping(now: number): void {
    this.lastPingAt = now;
    this.lastPingTs = Date.now();
    this.send({ type: 'ping', ts: this.lastPingTs });
  }

  /**
   * Ends the session once: fails the command in flight and every queued one with `code`, closes the
   * transport and tells the hub. `destroy` drops unsent bytes (dead peer).
   */
  close(code: ErrorCode, reason: string, destroy = false): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.helloTimer);
    const waiting = this.inFlight ? [this.inFlight, ...this.queue] : [...this.queue];
    this.inFlight = null;
    this.queue.length = 0;
    const message = `${code === 'DEVICE_DISCONNECTED' ? 'device disconnected' : code === 'DEVICE_REPLACED' ? 'device reconnected on a new session' : 'gateway shutting down'}: ${reason}`;
    for (const request of waiting) request.reject(code, message);
    // Nobody is left to read the phone's results: its calls stop.
    this.phoneRequests.abortAll(code, message);
    // A replaced phone is told why, so that it does not reconnect at once and take the id back
    // (two phones sharing an id would otherwise replace each other forever).
    if (code === 'DEVICE_REPLACED' && !destroy) this.send({ type: 'error', code: 'DEVICE_REPLACED', message: reason });
    if (destroy) this.transport.destroy();
    else this.transport.end(code);
    this.host.unregister(this, code, reason);
  }

  // ---- internals ------------------------------------------------------------------------------

  private guarded(handle: () => void): void {
    try {
      handle();
    } catch (err) {
      this.failed(err);
    }
  }

  /**
   * Handling a frame threw (a gateway bug, or a frame nobody foresaw): the phone gets `error
   * PROTOCOL_ERROR` and the connection closes, failing its callers; the reason, with the error's
   * message cut to {@link FAILURE_REASON_CHARS} characters, is logged once by the hub (as a refusal
   * before `hello`, as the disconnect reason after it). Other sessions are untouched.
   */
  private failed(err: unknown): void {
    const reason = `the gateway failed to handle a frame: ${(err instanceof Error ? err.message : String(err)).slice(0, FAILURE_REASON_CHARS)}`;
    if (this.state === 'handshake') this.host.refused(this, 'PROTOCOL_ERROR', reason);
    this.send({ type: 'error', code: 'PROTOCOL_ERROR', message: 'the gateway failed to handle a frame' });
    this.close('DEVICE_DISCONNECTED', reason);
  }

  private handshake(frame: Frame): void {
    if (frame.type !== 'hello') return this.refuse('PROTOCOL_ERROR', `first frame must be "hello", got "${frame.type}"`);
    if (frame.protocolVersion !== PROTOCOL_VERSION) return this.refuse('UNSUPPORTED_VERSION', `protocol version ${frame.protocolVersion} is not supported (want ${PROTOCOL_VERSION})`);
    if (!this.host.authenticate(frame.token)) {
      this.host.count('unauthorized');
      return this.refuse('UNAUTHORIZED', 'invalid device token');
    }
    clearTimeout(this.helloTimer);
    this.helloTimer = undefined;
    // Keep the token out of memory dumps and device listings.
    this.hello = { ...frame, token: '' };
    this.screen = frame.device?.screen;
    this.state = 'open';
    this.transport.setMaxFrameBytes(this.host.options.maxFrameBytes);
    this.send({ type: 'welcome', sessionId: this.sessionId, heartbeatIntervalMs: this.host.options.heartbeatIntervalMs, maxFrameBytes: this.host.options.maxFrameBytes });
    this.host.register(this);
    // A first round trip right away: dashboards show a measured RTT from the start.
    this.ping(performance.now());
  }

  private refuse(code: string, message: string): void {
    if (this.state === 'closed') return;
    this.host.refused(this, code, message);
    this.send({ type: 'error', code, message });
    this.close('DEVICE_DISCONNECTED', message);
  }

  /**
   * A frame that does not decode, after the handshake; `requestId` is the request it names, if any;
   * `phoneRequest`: the frame is a phone's `request`, whose id the `error` answer then names.
   */
  private malformed(reason: string, requestId: string | undefined, phoneRequest: boolean): void {
    this.host.frameDiscarded(this, 'malformed');
    this.protocolError(reason, phoneRequest ? requestId : undefined);
    // A malformed answer to the command in flight fails its caller now rather than at its deadline.
    if (requestId !== undefined && this.inFlight?.requestId === requestId) {
      this.finishInFlight((p) => p.reject('PROTOCOL_ERROR', `malformed reply: ${reason}`));
    }
  }

  /**
   * A well-formed `request` whose params do not fit its method: answered `error VALIDATION_FAILED`
   * with its request id; the frame was readable, so it ends a run of protocol errors.
   */
  private invalidRequest(reason: string, requestId: string): void {
    this.consecutiveProtocolErrors = 0;
    this.send({ type: 'error', code: 'VALIDATION_FAILED', message: reason, requestId });
  }

  /** Answers `error PROTOCOL_ERROR` (naming `requestId` when given) and closes the session after too many in a row. */
  private protocolError(reason: string, requestId?: string): void {
    this.host.count('protocolErrors');
    this.consecutiveProtocolErrors += 1;
    this.send(requestId === undefined ? { type: 'error', code: 'PROTOCOL_ERROR', message: reason } : { type: 'error', code: 'PROTOCOL_ERROR', message: reason, requestId });
    const max = this.host.options.maxConsecutiveProtocolErrors;
    if (this.consecutiveProtocolErrors >= max) this.close('DEVICE_DISCONNECTED', `${max} protocol errors in a row`);
  }

  private onResponse(frame: ResponseFrame): void {
    const request = this.inFlight;
    if (request === null || request.requestId !== frame.requestId) {
      // Unknown, timed out, aborted or answered twice: never delivered to another caller.
      this.host.count('droppedReplies');
      this.host.replyDropped(this, this.sentRequestIds.has(frame.requestId) ? 'late' : 'unknown');
      return;
    }
    if (frame.status === 'success') {
      const data = frame.data ?? {};
      if (request.command.command === 'screenshot' || request.command.command === 'ui_tree') {
        const screen = data['screen'] as ScreenInfo | undefined;
        if (screen && typeof screen.width === 'number') this.updateScreen(screen);
      }
      this.finishInFlight((p) => p.resolve(data));
    } else {
      const { code, message } = frame.error;
      const domainCode: ErrorCode = code === 'STALE_FRAME' ? 'STALE_FRAME' : 'DEVICE_ERROR';
      this.finishInFlight((p) => p.reject(domainCode, message ?? code, code));
    }
  }

  /**
   * Takes a phone's newer screen geometry (a `screenshot`/`ui_tree` reply's `screen`, a `screen`
   * event). Reports often carry only what changed (size, rotation), so fields they omit keep their
   * known value: a reply without `densityDpi` must not erase the one from `hello`.
   */
  private updateScreen(reported: ScreenInfo): void {
    this.screen = { ...this.screen, ...reported };
  }

  private onPong(ts: number | undefined): void {
    if (ts === undefined || ts !== this.lastPingTs) return;
    this.lastPingTs = undefined;
    this.rttMs = Math.max(0, Date.now() - ts);
    this.host.heartbeat(this, this.rttMs);
  }

  /** Settles the command in flight and sends the next queued one that is still wanted. */
  private finishInFlight(settle: (request: PendingRequest) => void): void {
    const request = this.inFlight as PendingRequest;
    this.inFlight = null;
    settle(request);
    let next = this.queue.shift();
    while (next !== undefined && next.settled) next = this.queue.shift();
    // Only commands that are not background reads make the phone busy: report a change between the two kinds.
    if (next !== undefined) {
      this.dispatch(next);
      if (request.background !== next.background) this.host.statusChanged(this);
    } else if (!request.background) this.host.statusChanged(this);
  }

  private dispatch(request: PendingRequest): void {
    this.inFlight = request;
    const now = performance.now();
    request.dispatchedAt = now;
    const command: Command = request.command;
    // type/requestId first for readable traces, and re-set after the spread so arguments cannot override them.
    const frame: Record<string, unknown> = Object.assign({ type: 'action', requestId: request.requestId }, command as object, {
      type: 'action',
      requestId: request.requestId,
      timeoutMs: request.remainingMs(now),
    });
    if (request.frameId !== undefined) frame['frameId'] = request.frameId;
    this.transport.send(JSON.stringify(frame));
    this.sentRequestIds.add(request.requestId);
    if (this.sentRequestIds.size > REMEMBERED_REQUEST_IDS) this.sentRequestIds.delete(this.sentRequestIds.values().next().value as string);
    this.host.dispatched(this, request);
  }

  private send(frame: Frame): void {
    this.transport.send(JSON.stringify(frame));
  }
}
