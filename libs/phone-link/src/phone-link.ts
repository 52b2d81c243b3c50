import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  decodeFrame,
  PROTOCOL_VERSION,
  type ActionFrame,
  type CatalogTool,
  type Frame,
  type HelloFrame,
  type RequestFrame,
  type ResponseFrame,
  type ResultFrame,
  type ToolInvokeResult,
  type WelcomeFrame,
} from '@mobileclaw/protocol';
import { GatewayRequestError } from './gateway-request-error';
import { PhoneError } from './phone-error';
import type { DeviceDescription, PhoneExecutor } from './phone-executor';
import { GatewayRotation, type GatewayAddresses } from './gateway-rotation';
import { describeGatewayAddress, openPhoneWire, type GatewayAddress, type PhoneWire } from './phone-wire';
import { ReconnectBackoff, SYSTEM_RECONNECT_TIMERS, type ReconnectBackoffOptions, type ReconnectTimers, type ScheduledTimer } from './reconnect-backoff';

/** Misbehaviour injected into action replies, for testing the gateway. Mutable at any time. */
export interface FaultOptions {
  /** Added before every reply, in ms (pings are answered at once). Default 0. */
  latencyMs: number;
  /** Answer every action with this error instead of performing it. Default null. */
  errorReply: { code: string; message?: string } | null;
  /** Swallow actions: never perform or answer them. Default false. */
  neverReply: boolean;
  /** Send every response twice. Default false. */
  replyTwice: boolean;
  /**
   * 0 = off. Otherwise the action is performed but answered with a success response whose
   * `data.padding` string makes the frame exactly this many bytes (a TCP line's `\n` excluded), or
   * as small as possible when the number is below the frame's own size.
   */
  oversizedReplyBytes: number;
  /** Send a non-JSON frame (`%%garbage%%`: a line on TCP, a message on WebSocket) before each reply. Default false. */
  garbageLineBeforeReply: boolean;
  /** Drop the connection when an action arrives, without replying (then reconnect if enabled). Default false. */
  dropConnectionOnCommand: boolean;
}

export const DEFAULT_FAULTS: Readonly<FaultOptions> = Object.freeze({
  latencyMs: 0,
  errorReply: null,
  neverReply: false,
  replyTwice: false,
  oversizedReplyBytes: 0,
  garbageLineBeforeReply: false,
  dropConnectionOnCommand: false,
});

/** Everything a {@link PhoneLink} is given besides where its gateway is. */
export interface PhoneLinkSettings {
  /** Performs the actions and describes the device for hello. */
  executor: PhoneExecutor;
  /** Device token sent in hello. */
  token: string;
  /** 1–128 chars of `[A-Za-z0-9._:-]`, the same on every reconnect. */
  deviceId: string;
  /** `client` of hello: the phone software's name and version. */
  client: { name: string; version: string };
  /**
   * Reconnect after a lost connection, with exponential backoff and equal jitter (a delay in
   * [b/2, b], b = 1 s doubling to 60 s; reset after a connection welcomed and up ≥ 30 s, never by
   * one the gateway ended with `DEVICE_REPLACED`; see {@link ReconnectBackoff}). Default false.
   */
  reconnect?: boolean;
  /** Overrides of the reconnect backoff (first and largest backoff, when a connection counts as stable, the jitter's random source). */
  backoff?: ReconnectBackoffOptions;
  /** The reconnect schedule's clock and timer. Default: `performance.now()` and Node's `setTimeout`. */
  timers?: ReconnectTimers;
  /** Fault injection for tests of the gateway. Default: none. */
  faults?: Partial<FaultOptions>;
  /** Diagnostic output, one line per call, prefixed with `[deviceId]`. Default: none. */
  log?: (line: string) => void;
}

/**
 * A {@link PhoneLink}'s options: its settings and where the gateway is, over TCP (`host`, default
 * 127.0.0.1, and `port`, the gateway's device port, default 7397 there) or over WebSocket (`url`,
 * e.g. `ws://127.0.0.1:3000/ws/device` or `wss://gateway.example.com/ws/device`); or `gateways`, an
 * ordered list of such addresses tried in turn (see {@link GatewayRotation}).
 */
export type PhoneLinkOptions = PhoneLinkSettings & GatewayAddresses;

/** The gateway answered hello with an `error` frame (e.g. `UNAUTHORIZED`). */
export class GatewayRefusedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`gateway refused hello: ${code}${message ? ` (${message})` : ''}`);
    this.name = 'GatewayRefusedError';
  }
}

/** The phone's own limit for frames from the gateway, in bytes. */
const MAX_INCOMING_FRAME_BYTES = 16 * 1024 * 1024;
const GARBAGE_FRAME = '%%garbage%%';
/** Largest delay Node's timers take, in ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How long a phone's own request waits for its result when the caller gives no deadline, in ms (the gateway's default maximum). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

/** Options of one of the phone's own requests. */
export interface GatewayRequestOptions {
  /** How long to wait for the result, in ms (sent as `timeoutMs`; the gateway may cap it). Default {@link DEFAULT_REQUEST_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/** One of the phone's own requests waiting for its result. */
interface WaitingRequest {
  resolve(result: Record<string, unknown>): void;
  reject(err: GatewayRequestError): void;
  timer: NodeJS.Timeout;
}

/** One connection to the gateway; everything per-connection dies with it. */
interface Connection {
  wire: PhoneWire;
  established: boolean;
  welcomed: boolean;
  /** `timers.now()` at welcome; null before. */
  welcomedAt: number | null;
  /** The gateway ended this session with `error DEVICE_REPLACED` (another phone took the id). */
  replaced: boolean;
  /** Actions waiting out the latency fault, by request id (so `cancel` can abandon them). */
  delayed: Map<string, NodeJS.Timeout[]>;
  /** Actions being performed, by request id: aborted on `cancel`, on their deadline and when the connection ends. */
  running: Map<string, AbortController>;
  heartbeat: NodeJS.Timeout | null;
  lastReceived: number;
  lastSent: number;
  /** The frame limit the gateway announced in welcome, in bytes. */
  maxFrameBytes: number;
  /** The phone's own requests waiting for a result, by request id: failed when the connection ends. */
  requests: Map<string, WaitingRequest>;
}

/** The events of a {@link PhoneLink} (and of the phones built on one, which pass them on) with their listeners. */
export interface PhoneLinkEvents {
  welcome: (welcome: WelcomeFrame) => void;
  close: (hadError: boolean) => void;
  action: (action: ActionFrame) => void;
  replaced: (message: string) => void;
  reconnecting: (delayMs: number) => void;
  connecting: (address: string) => void;
}

/** Every event name of {@link PhoneLinkEvents}. */
export const PHONE_LINK_EVENTS = ['welcome', 'action', 'close', 'replaced', 'reconnecting', 'connecting'] as const satisfies readonly (keyof PhoneLinkEvents)[];

/**
 * The phone side of wire protocol v1 (docs/protocol.md) over TCP or WebSocket (the same frames,
 * one per line or one per text message; see {@link PhoneLinkOptions}): connects to the gateway,
 * says hello with the facts its {@link PhoneExecutor} describes, answers pings (and pings a quiet
 * gateway, dropping one silent for two heartbeat intervals), hands each `action` to the
 * executor with an AbortSignal for `cancel` and the deadline (`timeoutMs`), answers one `response`
 * per action, and reconnects with {@link ReconnectBackoff} when enabled. Given several gateway
 * addresses it goes through them in turn as {@link GatewayRotation} says (the next one at once after a
 * failed attempt, the backoff between rounds).
 *
 * Events: `welcome` (the {@link WelcomeFrame}), `action` (every {@link ActionFrame} received,
 * before faults apply), `close` (`hadError: boolean`, whenever an established connection ends),
 * `replaced` (the gateway's message, when it ends this session because another connection claimed
 * the same device id; `close` follows), `reconnecting` (the delay in ms, whenever a reconnect is
 * scheduled after a backoff), `connecting` (the `host:port` or URL of the address, at every attempt).
 */
export class PhoneLink extends EventEmitter {
  readonly deviceId: string;
  /** Fault injection; tests may change it at any time (read when each action arrives). */
  faults: FaultOptions;
  private readonly executor: PhoneExecutor;
  private readonly rotation: GatewayRotation;
  private readonly token: string;
  private readonly client: { name: string; version: string };
  private readonly reconnect: boolean;
  private readonly log: (line: string) => void;
  private conn: Connection | null = null;
  private welcome: WelcomeFrame | undefined;
  private stopped = true;
  private readonly backoff: ReconnectBackoff;
  private readonly timers: ReconnectTimers;
  private reconnectTimer: ScheduledTimer | null = null;
  /**
   * Prefix of this link's request ids, random per link: the gateway derives a call's `toolCallId` from
   * the request id, so ids must not repeat after the phone restarts.
   */
  private readonly requestIdPrefix = `p${randomBytes(6).toString('hex')}-`;
  private requestSequence = 0;
  private starting: { promise: Promise<void>; resolve: () => void; reject: (err: Error) => void } | null = null;

  /**
   * @throws TypeError when a gateway address is invalid (a URL that is not `ws:`/`wss:`, a port outside
   *   1–65535) or `gateways` is empty.
   */
  constructor(options: PhoneLinkOptions) {
    super();
    this.executor = options.executor;
    this.rotation = new GatewayRotation(options);
    this.token = options.token;
    this.deviceId = options.deviceId;
    this.client = { ...options.client };
    this.reconnect = options.reconnect ?? false;
    this.backoff = new ReconnectBackoff(options.backoff);
    this.timers = options.timers ?? SYSTEM_RECONNECT_TIMERS;
    this.faults = { ...DEFAULT_FAULTS, ...options.faults };
    const log = options.log;
    this.log = log ? (line) => log(`[${this.deviceId}] ${line}`) : () => undefined;
  }

  /** `host:port` or the URL of the gateway address in use: connected to, being tried, or tried next. */
  get gatewayAddress(): string {
    return describeGatewayAddress(this.rotation.current);
  }

  /** Every gateway address, in the order they are tried (defaults filled in). */
  get gatewayAddresses(): readonly GatewayAddress[] {
    return this.rotation.all;
  }

  /** The session id from the last welcome. */
  get sessionId(): string | undefined {
    return this.welcome?.sessionId;
  }

  /** The last welcome frame (heartbeat interval, frame limit). */
  get lastWelcome(): WelcomeFrame | undefined {
    return this.welcome;
  }

  /** True while welcomed on an open connection. */
  get connected(): boolean {
    return this.conn !== null && this.conn.welcomed && !this.conn.wire.closed;
  }

  /**
   * Connects, says hello and resolves on welcome. Rejects with {@link GatewayRefusedError} (its
   * message contains the gateway's code, e.g. `UNAUTHORIZED`) when the gateway answers an error
   * frame; without `reconnect` it also rejects when the connection fails or closes first, or when the
   * executor cannot describe the device (with `reconnect` it keeps trying until welcomed).
   */
  start(): Promise<void> {
    if (this.starting) return this.starting.promise;
    if (this.connected) return Promise.resolve();
    this.reconnectTimer?.cancel();
    this.reconnectTimer = null;
    // A connection still closing from an earlier run is abandoned; its close no longer matters.
    this.conn?.wire.destroy();
    this.conn = null;
    let resolve!: () => void;
    let reject!: (err: Error) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.starting = { promise, resolve, reject };
    this.stopped = false;
    this.backoff.reset();
    this.rotation.reset();
    this.connect();
    return promise;
  }

  /** Closes the connection for good (no reconnect); resolves once it is closed. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.reconnectTimer?.cancel();
    this.reconnectTimer = null;
    this.failStart(new Error(`${this.deviceId} stopped before the gateway welcomed it`));
    const conn = this.conn;
    if (!conn) return;
    conn.wire.destroy();
    await conn.wire.ended;
  }

  /** Sends an `event` frame (docs/protocol.md §6) when welcomed; returns whether it was sent. */
  sendEvent(event: string, data?: Record<string, unknown>): boolean {
    const conn = this.conn;
    if (!conn?.welcomed) return false;
    this.send(conn, data === undefined ? { type: 'event', event } : { type: 'event', event, data });
    return true;
  }

  /**
   * Calls one of the gateway's methods (docs/protocol.md §7) and resolves with its `result`. Rejects
   * with {@link GatewayRequestError}: the gateway's failure (its `code`, e.g. `METHOD_NOT_FOUND`,
   * `TOO_MANY_REQUESTS`), `TIMEOUT` when no result came within `timeoutMs`, `DEVICE_DISCONNECTED` at
   * once when not welcomed on an open connection or when the connection closes first.
   * @throws TypeError (as a rejection) when `timeoutMs` is not a positive number of at most 2 147 483 647 ms.
   */
  request(method: string, params: Record<string, unknown> = {}, options: GatewayRequestOptions = {}): Promise<Record<string, unknown>> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    if (!(timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) return Promise.reject(new TypeError(`timeoutMs must be a positive number of at most ${MAX_TIMER_MS} ms, got ${String(timeoutMs)}`));
    const conn = this.conn;
    if (!conn?.welcomed || conn.wire.closed) return Promise.reject(new GatewayRequestError('DEVICE_DISCONNECTED', `${method}: not connected to the gateway`, undefined, true));
    const requestId = this.requestIdPrefix + (++this.requestSequence).toString(36);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        conn.requests.delete(requestId);
        reject(new GatewayRequestError('TIMEOUT', `${method}: no result within ${timeoutMs} ms`, requestId, true));
      }, timeoutMs);
      conn.requests.set(requestId, { resolve, reject, timer });
      const frame: RequestFrame = { type: 'request', requestId, method, params, timeoutMs };
      this.send(conn, frame);
    });
  }

  /** The tools this phone may call (`tools.catalog`), sorted by name. Rejects as {@link request}. */
  async toolsCatalog(options: GatewayRequestOptions = {}): Promise<CatalogTool[]> {
    const result = await this.request('tools.catalog', {}, options);
    return result['tools'] as CatalogTool[];
  }

  /**
   * Calls the tool `name` with `args` (`tools.invoke`) and resolves with its result. A `toolCallId`
   * (stable across the phone's own retries) makes the call run at most once. Rejects as {@link request},
   * with the tool's failure as the code (e.g. `TOOL_NOT_FOUND`, `APPROVAL_REQUIRED`, `TOOL_FAILED`).
   */
  async invokeTool(name: string, args: Record<string, unknown> = {}, options: GatewayRequestOptions & { toolCallId?: string } = {}): Promise<ToolInvokeResult> {
    const { toolCallId, ...rest } = options;
    const params = toolCallId === undefined ? { name, arguments: args } : { name, arguments: args, toolCallId };
    return (await this.request('tools.invoke', params, rest)) as unknown as ToolInvokeResult;
  }

  override on<E extends keyof PhoneLinkEvents>(event: E, listener: PhoneLinkEvents[E]): this;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- EventEmitter's own listener type
  override on(event: string | symbol, listener: (...args: any[]) => void): this;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- EventEmitter's own listener type
  override on(event: string | symbol, listener: (...args: any[]) => void): this {
    return super.on(event, listener);
  }

  private hello(description: DeviceDescription): HelloFrame {
    return {
      type: 'hello',
      protocolVersion: PROTOCOL_VERSION,
      deviceId: this.deviceId,
      token: this.token,
      device: description.device,
      capabilities: [...description.capabilities],
      client: { ...this.client },
    };
  }

  private connect(): void {
    this.reconnectTimer = null;
    this.emit('connecting', this.gatewayAddress);
    // A wire reports nothing before this call returns, so its events may use `conn`.
    const wire = openPhoneWire(this.rotation.current, MAX_INCOMING_FRAME_BYTES, {
      open: () => {
        conn.established = true;
        this.sayHello(conn);
      },
      frame: (frame) => {
        conn.lastReceived = Date.now();
        this.onFrame(conn, frame);
      },
      close: (hadError) => this.onClose(conn, hadError),
      log: (line) => this.log(line),
    });
    const now = Date.now();
    const conn: Connection = {
      wire,
      established: false,
      welcomed: false,
      welcomedAt: null,
      replaced: false,
      delayed: new Map(),
      running: new Map(),
      heartbeat: null,
      lastReceived: now,
      lastSent: now,
      maxFrameBytes: MAX_INCOMING_FRAME_BYTES,
      requests: new Map(),
    };
    this.conn = conn;
  }

  /** Sends hello at once when the executor describes the device synchronously, else once it has. */
  private sayHello(conn: Connection): void {
    const sendHello = (description: DeviceDescription): void => {
      this.log(`connected to ${this.gatewayAddress}, saying hello`);
      this.send(conn, this.hello(description));
    };
    const cannotDescribe = (err: unknown): void => {
      const reason = err instanceof Error ? err.message : String(err);
      this.log(`cannot describe the device (${reason}); closing before hello`);
      if (!this.reconnect) this.failStart(new Error(`${this.deviceId}: cannot describe the device for hello: ${reason}`));
      conn.wire.destroy();
    };
    let description: DeviceDescription | Promise<DeviceDescription>;
    try {
      description = this.executor.describe();
    } catch (err) {
      cannotDescribe(err);
      return;
    }
    if (description instanceof Promise) {
      description.then((d) => {
        if (!conn.wire.closed) sendHello(d);
      }, cannotDescribe);
    } else {
      sendHello(description);
    }
  }

  private onFrame(conn: Connection, text: Buffer): void {
    const decoded = decodeFrame(text);
    if (!decoded.ok) {
      this.log(`ignored a bad frame from the gateway: ${decoded.reason}`);
      return;
    }
    const frame = decoded.frame;
    switch (frame.type) {
      case 'welcome':
        this.onWelcome(conn, frame);
        return;
      case 'result':
        this.onResult(conn, frame);
        return;
      case 'error':
        this.log(`gateway error ${frame.code}: ${frame.message ?? ''}`);
        // An error naming one of the phone's own requests answers it (a malformed or invalid request).
        if (frame.requestId !== undefined && this.settleRequest(conn, frame.requestId, new GatewayRequestError(frame.code, frame.message ?? '', frame.requestId))) return;
        // The gateway closes this session next; remember why, so that the backoff is not reset.
        if (frame.code === 'DEVICE_REPLACED' && conn.welcomed) {
          conn.replaced = true;
          this.emit('replaced', frame.message ?? '');
          return;
        }
        // Before welcome an error is the answer to hello: the gateway refuses us and closes.
        if (!conn.welcomed && this.starting) {
          this.failStart(new GatewayRefusedError(frame.code, frame.message ?? ''));
          conn.wire.destroy();
        }
        return;
      case 'ping':
        this.send(conn, frame.ts === undefined ? { type: 'pong' } : { type: 'pong', ts: frame.ts });
        return;
      case 'action':
        this.onAction(conn, frame);
        return;
      case 'cancel':
        this.onCancel(conn, frame.requestId);
        return;
      default:
        this.log(`ignored a ${frame.type} frame`);
    }
  }

  private onResult(conn: Connection, frame: ResultFrame): void {
    const outcome = frame.ok ? frame.result : new GatewayRequestError(frame.error.code, frame.error.message, frame.requestId, frame.error.retryable ?? false);
    if (!this.settleRequest(conn, frame.requestId, outcome)) this.log(`ignored the result of ${frame.requestId}: nobody waits for it`);
  }

  /** Settles the waiting request `requestId` with `outcome`; false when none waits. */
  private settleRequest(conn: Connection, requestId: string, outcome: Record<string, unknown> | GatewayRequestError): boolean {
    const waiting = conn.requests.get(requestId);
    if (waiting === undefined) return false;
    conn.requests.delete(requestId);
    clearTimeout(waiting.timer);
    if (outcome instanceof GatewayRequestError) waiting.reject(outcome);
    else waiting.resolve(outcome);
    return true;
  }

  private onWelcome(conn: Connection, frame: WelcomeFrame): void {
    conn.welcomed = true;
    conn.welcomedAt = this.timers.now();
    conn.maxFrameBytes = frame.maxFrameBytes;
    this.welcome = frame;
    this.log(`welcomed, session ${frame.sessionId}`);
    this.startHeartbeat(conn, frame.heartbeatIntervalMs);
    const starting = this.starting;
    this.starting = null;
    this.emit('welcome', frame);
    starting?.resolve();
  }

  /**
   * As docs/protocol.md §5 asks of phones: pings the gateway when nothing was received for an
   * interval, and drops a connection silent for two (a half-open connection never reports itself).
   */
  private startHeartbeat(conn: Connection, intervalMs: number): void {
    if (!(intervalMs > 0)) return;
    const interval = Math.min(intervalMs, MAX_TIMER_MS);
    conn.heartbeat = setInterval(
      () => {
        const now = Date.now();
        if (now - conn.lastReceived >= 2 * interval) {
          this.log(`no frame from the gateway for ${now - conn.lastReceived} ms; closing`);
          conn.wire.destroy();
        } else if (now - conn.lastReceived >= interval && now - conn.lastSent >= interval) {
          this.send(conn, { type: 'ping', ts: now });
        }
      },
      Math.max(10, Math.floor(interval / 2)),
    );
    conn.heartbeat.unref();
  }

  private onAction(conn: Connection, frame: ActionFrame): void {
    this.emit('action', frame);
    const receivedAt = performance.now();
    const faults: FaultOptions = { ...this.faults };
    if (faults.dropConnectionOnCommand) {
      this.log(`fault: dropping the connection on ${frame.command} ${frame.requestId}`);
      conn.wire.destroy();
      return;
    }
    if (faults.neverReply) {
      this.log(`fault: swallowing ${frame.command} ${frame.requestId}`);
      return;
    }
    if (faults.latencyMs > 0) {
      const timer = setTimeout(() => {
        const timers = conn.delayed.get(frame.requestId)?.filter((t) => t !== timer) ?? [];
        if (timers.length > 0) conn.delayed.set(frame.requestId, timers);
        else conn.delayed.delete(frame.requestId);
        void this.perform(conn, frame, faults, receivedAt);
      }, Math.min(faults.latencyMs, MAX_TIMER_MS));
      conn.delayed.set(frame.requestId, [...(conn.delayed.get(frame.requestId) ?? []), timer]);
      return;
    }
    void this.perform(conn, frame, faults, receivedAt);
  }

  /** `cancel`: abandons a delayed action and aborts a running one (docs/protocol.md §4: advisory, never answered). */
  private onCancel(conn: Connection, requestId: string): void {
    const timers = conn.delayed.get(requestId);
    if (timers) {
      for (const timer of timers) clearTimeout(timer);
      conn.delayed.delete(requestId);
      this.log(`abandoned ${requestId} (cancelled)`);
    }
    const running = conn.running.get(requestId);
    if (running) {
      running.abort(new Error(`request ${requestId} was cancelled by the gateway`));
      this.log(`aborted ${requestId} (cancelled)`);
    }
  }

  private async perform(conn: Connection, frame: ActionFrame, faults: FaultOptions, receivedAt: number): Promise<void> {
    const { requestId } = frame;
    let reply: { status: 'success'; data: Record<string, unknown> } | { status: 'error'; error: { code: string; message: string } } | null;
    if (faults.errorReply) {
      reply = { status: 'error', error: { code: faults.errorReply.code, message: faults.errorReply.message ?? 'injected fault' } };
    } else {
      reply = await this.execute(conn, frame, receivedAt);
      if (reply === null) {
        this.log(`${frame.command} ${requestId} was abandoned; nobody waits for its reply`);
        return;
      }
    }
    if (conn.wire.closed) {
      this.log(`connection gone; dropped the reply to ${requestId}`);
      return;
    }
    const response: ResponseFrame =
      faults.oversizedReplyBytes > 0
        ? oversizedResponse(requestId, faults.oversizedReplyBytes)
        : reply.status === 'success'
          ? { type: 'response', requestId, status: 'success', data: reply.data }
          : { type: 'response', requestId, status: 'error', error: reply.error };
    let json = JSON.stringify(response);
    // A phone does not send what the gateway would discard (docs/protocol.md, "Frame limit"); the fault does on purpose.
    const bytes = Buffer.byteLength(json, 'utf8');
    if (faults.oversizedReplyBytes === 0 && bytes > conn.maxFrameBytes) json = JSON.stringify(tooLargeResponse(requestId, bytes, conn.maxFrameBytes));
    this.sendJson(conn, json, faults.garbageLineBeforeReply);
    if (faults.replyTwice) this.sendJson(conn, json, faults.garbageLineBeforeReply);
  }

  /**
   * Runs the action on the executor under an AbortSignal that fires on `cancel`, when `timeoutMs`
   * (counted from receipt) passes, or when the connection ends. Resolves with the reply, or null when
   * the work failed after the signal fired (nobody waits for it).
   */
  private async execute(
    conn: Connection,
    frame: ActionFrame,
    receivedAt: number,
  ): Promise<{ status: 'success'; data: Record<string, unknown> } | { status: 'error'; error: { code: string; message: string } } | null> {
    const { type: _type, requestId, command, timeoutMs, frameId, ...args } = frame;
    const controller = new AbortController();
    let deadline: NodeJS.Timeout | undefined;
    let left: number | undefined;
    if (typeof timeoutMs === 'number' && timeoutMs > 0) {
      left = Math.max(1, timeoutMs - (performance.now() - receivedAt));
      deadline = setTimeout(() => controller.abort(new PhoneError('TIMEOUT', `${command} did not finish within its ${timeoutMs} ms deadline`)), Math.min(left, MAX_TIMER_MS));
      deadline.unref();
    }
    conn.running.set(requestId, controller);
    try {
      const data = await this.executor.execute({ requestId, command, args, frameId, timeoutMs: left, signal: controller.signal });
      return { status: 'success', data };
    } catch (err) {
      if (controller.signal.aborted) return null;
      if (err instanceof PhoneError) return { status: 'error', error: { code: err.code, message: err.message } };
      return { status: 'error', error: { code: 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err) } };
    } finally {
      clearTimeout(deadline);
      if (conn.running.get(requestId) === controller) conn.running.delete(requestId);
    }
  }

  private send(conn: Connection, frame: Frame): void {
    this.sendJson(conn, JSON.stringify(frame));
  }

  /** The only writer: one frame as compact JSON (optionally after a garbage frame). */
  private sendJson(conn: Connection, json: string, garbageBefore = false): void {
    if (conn.wire.closed) return;
    conn.lastSent = Date.now();
    if (garbageBefore) conn.wire.send(GARBAGE_FRAME);
    conn.wire.send(json);
  }

  private onClose(conn: Connection, hadError: boolean): void {
    if (conn.heartbeat) clearInterval(conn.heartbeat);
    for (const timers of conn.delayed.values()) for (const timer of timers) clearTimeout(timer);
    conn.delayed.clear();
    for (const controller of conn.running.values()) controller.abort(new Error('the connection to the gateway closed'));
    conn.running.clear();
    for (const requestId of [...conn.requests.keys()]) {
      this.settleRequest(conn, requestId, new GatewayRequestError('DEVICE_DISCONNECTED', 'the connection to the gateway closed before the result', requestId, true));
    }
    const current = this.conn === conn;
    if (current) this.conn = null;
    this.log(conn.welcomed ? 'connection closed' : 'connection closed before welcome');
    if (conn.established) this.emit('close', hadError);
    if (this.stopped || !current) return;
    const ended = this.gatewayAddress;
    const next = this.rotation.connectionEnded(conn.welcomed);
    if (next === 'at-once' && (this.reconnect || this.starting)) {
      this.log(`no gateway at ${ended}; trying ${this.gatewayAddress}`);
      this.connect();
      return;
    }
    if (this.starting && !this.reconnect) {
      const tried = this.rotation.all.length === 1 ? `connection to ${ended}` : `connections to ${this.rotation.describe()}`;
      this.failStart(new Error(`${tried} closed before the gateway welcomed ${this.deviceId}`));
      this.stopped = true;
      return;
    }
    if (this.reconnect) {
      this.backoff.connectionEnded(conn.welcomedAt === null ? null : this.timers.now() - conn.welcomedAt, conn.replaced);
      const delay = this.backoff.nextDelayMs();
      const to = this.rotation.all.length === 1 ? '' : ` to ${this.gatewayAddress}`;
      this.log(conn.replaced ? `another phone took device id ${this.deviceId}; reconnecting${to} in ${delay} ms` : `reconnecting${to} in ${delay} ms`);
      this.reconnectTimer = this.timers.schedule(() => this.connect(), delay);
      this.emit('reconnecting', delay);
    }
  }

  /** Rejects a pending start(); a refused phone stops trying. */
  private failStart(err: Error): void {
    const starting = this.starting;
    if (!starting) return;
    this.starting = null;
    this.stopped = true;
    starting.reject(err);
  }
}

/** A success response padded so that its frame is `bytes` long (a TCP line's `\n` excluded). */
function oversizedResponse(requestId: string, bytes: number): ResponseFrame {
  const frame: ResponseFrame = { type: 'response', requestId, status: 'success', data: { padding: '' } };
  const base = Buffer.byteLength(JSON.stringify(frame), 'utf8');
  return { ...frame, data: { padding: 'x'.repeat(Math.max(0, bytes - base)) } };
}

/** The error response sent instead of a reply of `bytes` over the gateway's `maxFrameBytes`. */
function tooLargeResponse(requestId: string, bytes: number, maxFrameBytes: number): ResponseFrame {
  return {
    type: 'response',
    requestId,
    status: 'error',
    error: { code: 'PAYLOAD_TOO_LARGE', message: `the reply is ${bytes} bytes, over the gateway's ${maxFrameBytes}-byte frame limit; ask for a smaller result (e.g. screenshot maxWidth or JPEG quality)` },
  };
}
