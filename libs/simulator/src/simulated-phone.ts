import { EventEmitter } from 'node:events';
import net from 'node:net';
import { decodeFrame, encodeFrame, LineFrameDecoder, PROTOCOL_VERSION, type ActionFrame, type Frame, type HelloFrame, type ResponseFrame, type WelcomeFrame } from '@mobileclaw/protocol';
import { type UiTreeXml } from '@mobileclaw/ui-hierarchy';
import { COMMANDS, runCommand, type CommandReply } from './commands';
import { PhoneUi, type Rotation } from './phone-ui';
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
   * `data.padding` string makes the line exactly this many bytes (`\n` excluded), or as small
   * as possible when the number is below the frame's own size.
   */
  oversizedReplyBytes: number;
  /** Write a non-JSON line (`%%garbage%%`) before each reply. Default false. */
  garbageLineBeforeReply: boolean;
  /** Destroy the socket when an action arrives, without replying (then reconnect if enabled). Default false. */
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

export interface SimulatedPhoneOptions {
  /** Gateway host. Default 127.0.0.1. */
  host?: string;
  /** Gateway device port (the gateway's default is 7397). */
  port: number;
  /** Device token sent in hello. */
  token: string;
  /** 1–128 chars of `[A-Za-z0-9._:-]`. Default 'sim-1'. */
  deviceId?: string;
  /** Default 'MobileClaw Sim'. */
  model?: string;
  /** Natural (portrait) size in px and density. Default 1080x2400 @ 420 dpi. */
  screen?: { width: number; height: number; densityDpi?: number };
  /**
   * Replay mode: show this recorded screen (from `parseUiHierarchyXml`) as a static screen; its size
   * and rotation replace `screen.width`/`height` (see `PhoneUiOptions.replay`).
   */
  replay?: UiTreeXml;
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
  faults?: Partial<FaultOptions>;
  /** Diagnostic output, one line per call. Default: none. */
  log?: (line: string) => void;
}

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

export const CLIENT_INFO = { name: 'mobileclaw-sim', version: '0.1.0' } as const;

/** The phone's own limit for frames from the gateway, in bytes. */
const MAX_INCOMING_FRAME_BYTES = 16 * 1024 * 1024;
const GARBAGE_LINE = '%%garbage%%\n';

/** One TCP connection to the gateway; everything per-connection dies with it. */
interface Connection {
  socket: net.Socket;
  established: boolean;
  welcomed: boolean;
  /** `timers.now()` at welcome; null before. */
  welcomedAt: number | null;
  /** The gateway ended this session with `error DEVICE_REPLACED` (another phone took the id). */
  replaced: boolean;
  /** Actions waiting out the latency fault, by request id (so `cancel` can abandon them). */
  delayed: Map<string, NodeJS.Timeout[]>;
  heartbeat: NodeJS.Timeout | null;
  lastReceived: number;
  lastSent: number;
}

/**
 * A virtual Android phone speaking wire protocol v1 over a real TCP socket: it connects to the
 * gateway, says hello, and performs `action`s on its {@link PhoneUi}.
 *
 * Events: `welcome` (the {@link WelcomeFrame}), `action` (every {@link ActionFrame} received,
 * before faults apply), `close` (`hadError: boolean`, whenever an established connection ends),
 * `replaced` (the gateway's message, when it ends this session because another connection claimed
 * the same device id; `close` follows), `reconnecting` (the delay in ms, whenever a reconnect is scheduled).
 */
export class SimulatedPhone extends EventEmitter {
  readonly deviceId: string;
  readonly ui: PhoneUi;
  /** Fault injection; tests may change it at any time (read when each action arrives). */
  faults: FaultOptions;
  private readonly host: string;
  private readonly port: number;
  private readonly token: string;
  private readonly model: string;
  private readonly reconnect: boolean;
  private readonly log: (line: string) => void;
  private conn: Connection | null = null;
  private welcome: WelcomeFrame | undefined;
  private stopped = true;
  private readonly backoff: ReconnectBackoff;
  private readonly timers: ReconnectTimers;
  private reconnectTimer: ScheduledTimer | null = null;
  private starting: { promise: Promise<void>; resolve: () => void; reject: (err: Error) => void } | null = null;

  constructor(options: SimulatedPhoneOptions) {
    super();
    this.host = options.host ?? '127.0.0.1';
    this.port = options.port;
    this.token = options.token;
    this.deviceId = options.deviceId ?? 'sim-1';
    this.model = options.model ?? 'MobileClaw Sim';
    this.reconnect = options.reconnect ?? false;
    this.backoff = new ReconnectBackoff(options.backoff);
    this.timers = options.timers ?? SYSTEM_RECONNECT_TIMERS;
    this.faults = { ...DEFAULT_FAULTS, ...options.faults };
    const screen = options.screen ?? { width: 1080, height: 2400 };
    this.ui = new PhoneUi({ width: screen.width, height: screen.height, densityDpi: screen.densityDpi ?? 420, ...(options.replay ? { replay: options.replay } : {}) });
    const log = options.log;
    this.log = log ? (line) => log(`[${this.deviceId}] ${line}`) : () => undefined;
  }

  /** The session id from the last welcome. */
  get sessionId(): string | undefined {
    return this.welcome?.sessionId;
  }

  /** The last welcome frame (heartbeat interval, frame limit). */
  get lastWelcome(): WelcomeFrame | undefined {
    return this.welcome;
  }

  /** True while welcomed on an open socket. */
  get connected(): boolean {
    return this.conn !== null && this.conn.welcomed && !this.conn.socket.destroyed;
  }

  /**
   * Connects, says hello and resolves on welcome. Rejects with {@link GatewayRefusedError} (its
   * message contains the gateway's code, e.g. `UNAUTHORIZED`) when the gateway answers an error
   * frame; without `reconnect` it also rejects when the connection fails or closes first (with
   * `reconnect` it keeps trying until welcomed).
   */
  start(): Promise<void> {
    if (this.starting) return this.starting.promise;
    if (this.connected) return Promise.resolve();
    this.reconnectTimer?.cancel();
    this.reconnectTimer = null;
    // A socket still closing from an earlier run is abandoned; its close no longer matters.
    this.conn?.socket.destroy();
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
    this.connect();
    return promise;
  }

  /** Closes the connection for good (no reconnect); resolves once the socket is closed. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.reconnectTimer?.cancel();
    this.reconnectTimer = null;
    this.failStart(new Error(`${this.deviceId} stopped before the gateway welcomed it`));
    const conn = this.conn;
    if (!conn) return;
    await new Promise<void>((resolve) => {
      conn.socket.once('close', () => resolve());
      conn.socket.destroy();
    });
  }

  /**
   * Rotates the screen (1 and 3 swap width and height; the layout is recomputed and older frame
   * ids become stale). A connected phone reports it with an `event` frame `screen_changed`.
   */
  rotate(rotation: Rotation): void {
    this.ui.rotate(rotation);
    const conn = this.conn;
    if (conn?.welcomed) {
      const { width, height, densityDpi, rotation: r } = this.ui.screen;
      this.send(conn, { type: 'event', event: 'screen_changed', data: { screen: { width, height, densityDpi, rotation: r } } });
    }
  }

  override on(event: 'welcome', listener: (welcome: WelcomeFrame) => void): this;
  override on(event: 'close', listener: (hadError: boolean) => void): this;
  override on(event: 'action', listener: (action: ActionFrame) => void): this;
  override on(event: 'replaced', listener: (message: string) => void): this;
  override on(event: 'reconnecting', listener: (delayMs: number) => void): this;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- EventEmitter's own listener type
  override on(event: string | symbol, listener: (...args: any[]) => void): this;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- EventEmitter's own listener type
  override on(event: string | symbol, listener: (...args: any[]) => void): this {
    return super.on(event, listener);
  }

  private hello(): HelloFrame {
    const { width, height, densityDpi, rotation } = this.ui.screen;
    return {
      type: 'hello',
      protocolVersion: PROTOCOL_VERSION,
      deviceId: this.deviceId,
      token: this.token,
      device: { model: this.model, manufacturer: 'MobileClaw', android: '14', screen: { width, height, densityDpi, rotation } },
      capabilities: [...COMMANDS],
      client: { ...CLIENT_INFO },
    };
  }

  private connect(): void {
    this.reconnectTimer = null;
    const socket = net.connect({ host: this.host, port: this.port });
    socket.setNoDelay(true);
    const now = Date.now();
    const conn: Connection = { socket, established: false, welcomed: false, welcomedAt: null, replaced: false, delayed: new Map(), heartbeat: null, lastReceived: now, lastSent: now };
    this.conn = conn;
    const decoder = new LineFrameDecoder({
      maxFrameBytes: MAX_INCOMING_FRAME_BYTES,
      onFrame: (line) => this.onLine(conn, line),
      onOversized: (_head, size) => this.log(`dropped a ${size}-byte frame from the gateway (limit ${MAX_INCOMING_FRAME_BYTES})`),
    });
    socket.on('connect', () => {
      conn.established = true;
      this.log(`connected to ${this.host}:${this.port}, saying hello`);
      this.send(conn, this.hello());
    });
    socket.on('data', (chunk: Buffer) => {
      conn.lastReceived = Date.now();
      decoder.push(chunk);
    });
    socket.on('error', (err) => this.log(`socket error: ${err.message}`));
    socket.on('close', (hadError) => this.onClose(conn, hadError));
  }

  private onLine(conn: Connection, line: Buffer): void {
    const decoded = decodeFrame(line);
    if (!decoded.ok) {
      this.log(`ignored a bad frame from the gateway: ${decoded.reason}`);
      return;
    }
    const frame = decoded.frame;
    switch (frame.type) {
      case 'welcome':
        this.onWelcome(conn, frame);
        return;
      case 'error':
        this.log(`gateway error ${frame.code}: ${frame.message ?? ''}`);
        // The gateway closes this session next; remember why, so that the backoff is not reset.
        if (frame.code === 'DEVICE_REPLACED' && conn.welcomed) {
          conn.replaced = true;
          this.emit('replaced', frame.message ?? '');
          return;
        }
        // Before welcome an error is the answer to hello: the gateway refuses us and closes.
        if (!conn.welcomed && this.starting) {
          this.failStart(new GatewayRefusedError(frame.code, frame.message ?? ''));
          conn.socket.destroy();
        }
        return;
      case 'ping':
        this.send(conn, frame.ts === undefined ? { type: 'pong' } : { type: 'pong', ts: frame.ts });
        return;
      case 'action':
        this.onAction(conn, frame);
        return;
      case 'cancel': {
        const timers = conn.delayed.get(frame.requestId);
        if (timers) {
          for (const timer of timers) clearTimeout(timer);
          conn.delayed.delete(frame.requestId);
          this.log(`abandoned ${frame.requestId} (cancelled)`);
        }
        return;
      }
      default:
        this.log(`ignored a ${frame.type} frame`);
    }
  }

  private onWelcome(conn: Connection, frame: WelcomeFrame): void {
    conn.welcomed = true;
    conn.welcomedAt = this.timers.now();
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
   * interval, and drops a connection silent for two (a half-open TCP connection never reports itself).
   */
  private startHeartbeat(conn: Connection, intervalMs: number): void {
    if (!(intervalMs > 0)) return;
    const interval = Math.min(intervalMs, 2 ** 31 - 1);
    conn.heartbeat = setInterval(
      () => {
        const now = Date.now();
        if (now - conn.lastReceived >= 2 * interval) {
          this.log(`no frame from the gateway for ${now - conn.lastReceived} ms; closing`);
          conn.socket.destroy();
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
    const faults: FaultOptions = { ...this.faults };
    if (faults.dropConnectionOnCommand) {
      this.log(`fault: dropping the connection on ${frame.command} ${frame.requestId}`);
      conn.socket.destroy();
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
        void this.perform(conn, frame, faults);
      }, Math.min(faults.latencyMs, 2 ** 31 - 1));
      conn.delayed.set(frame.requestId, [...(conn.delayed.get(frame.requestId) ?? []), timer]);
      return;
    }
    void this.perform(conn, frame, faults);
  }

  private async perform(conn: Connection, frame: ActionFrame, faults: FaultOptions): Promise<void> {
    const { requestId } = frame;
    const reply: CommandReply = faults.errorReply
      ? { status: 'error', error: { code: faults.errorReply.code, message: faults.errorReply.message ?? 'injected fault' } }
      : await runCommand(this.ui, frame);
    if (conn.socket.destroyed) {
      this.log(`connection gone; dropped the reply to ${requestId}`);
      return;
    }
    const response: ResponseFrame =
      faults.oversizedReplyBytes > 0
        ? oversizedResponse(requestId, faults.oversizedReplyBytes)
        : reply.status === 'success'
          ? { type: 'response', requestId, status: 'success', data: reply.data }
          : { type: 'response', requestId, status: 'error', error: reply.error };
    this.send(conn, response, faults.garbageLineBeforeReply);
    if (faults.replyTwice) this.send(conn, response, faults.garbageLineBeforeReply);
  }

  /** The only writer: one encoded frame (optionally after a garbage line). */
  private send(conn: Connection, frame: Frame, garbageBefore = false): void {
    const socket = conn.socket;
    if (socket.destroyed || !socket.writable) return;
    conn.lastSent = Date.now();
    socket.write(garbageBefore ? GARBAGE_LINE + encodeFrame(frame) : encodeFrame(frame));
  }

  private onClose(conn: Connection, hadError: boolean): void {
    if (conn.heartbeat) clearInterval(conn.heartbeat);
    for (const timers of conn.delayed.values()) for (const timer of timers) clearTimeout(timer);
    conn.delayed.clear();
    const current = this.conn === conn;
    if (current) this.conn = null;
    this.log(conn.welcomed ? 'connection closed' : 'connection closed before welcome');
    if (conn.established) this.emit('close', hadError);
    if (this.stopped || !current) return;
    if (this.starting && !this.reconnect) {
      this.failStart(new Error(`connection to ${this.host}:${this.port} closed before the gateway welcomed ${this.deviceId}`));
      this.stopped = true;
      return;
    }
    if (this.reconnect) {
      this.backoff.connectionEnded(conn.welcomedAt === null ? null : this.timers.now() - conn.welcomedAt, conn.replaced);
      const delay = this.backoff.nextDelayMs();
      this.log(conn.replaced ? `another phone took device id ${this.deviceId}; reconnecting in ${delay} ms` : `reconnecting in ${delay} ms`);
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

/** A success response padded so that its line is `bytes` long (`\n` excluded). */
function oversizedResponse(requestId: string, bytes: number): ResponseFrame {
  const frame: ResponseFrame = { type: 'response', requestId, status: 'success', data: { padding: '' } };
  const base = Buffer.byteLength(JSON.stringify(frame), 'utf8');
  return { ...frame, data: { padding: 'x'.repeat(Math.max(0, bytes - base)) } };
}
