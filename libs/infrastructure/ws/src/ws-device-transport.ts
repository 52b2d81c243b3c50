import type { IncomingMessage } from 'node:http';
import { Logger } from '@nestjs/common';
import { WebSocket, type RawData } from 'ws';
import type { ErrorCode } from '@mobileclaw/domain';
import { DEVICE_GATEWAY_DEFAULTS, DeviceTransport, type DeviceConnectionAcceptor, type DeviceSession, type FrameTransport } from '@mobileclaw/device';

/** Path of the phones' WebSocket on the gateway's HTTP server when none is configured. */
export const DEFAULT_WS_DEVICE_PATH = '/ws/device';

/**
 * WebSocket close codes the device socket uses (RFC 6455 §7.4.1). After `hello` the gateway ends a
 * session with an `error` frame saying why (replaced, refused, protocol errors) and then 1000, or
 * 1001 when it shuts down; a message over {@link WsDeviceTransportOptions.maxMessageBytes} is closed
 * with 1009 by `ws` itself. A dead link (heartbeat) is dropped without a close frame: the phone sees 1006.
 */
export const WS_DEVICE_CLOSE_CODES = {
  /** The session ended; the `error` frame before it, if any, says why. */
  normal: 1000,
  /** The gateway is shutting down (the phone reconnects later, with its backoff). */
  goingAway: 1001,
  /** A message larger than `maxMessageBytes`: too big to read at all. */
  messageTooBig: 1009,
} as const;

/** Bytes of an oversized or unreadable message searched for its `requestId` (as on TCP). */
const HEAD_BYTES = 4096;
/** Grace for a closing socket to flush its last frames and close frame before it is dropped, in ms. */
const END_GRACE_MS = 2000;
/**
 * Bytes of WebSocket framing allowed before `hello` on top of the hello limit: a frame header is at
 * most 14 bytes, so this covers a hello sent in a few hundred fragments.
 */
const PRE_HELLO_FRAMING_BYTES = 4096;

/** Where the WebSocket transport accepts phones and how large a message it reads at all. */
export interface WsDeviceTransportOptions {
  /** Path of the device socket on the HTTP server. Default {@link DEFAULT_WS_DEVICE_PATH} (`/ws/device`). */
  path?: string;
  /**
   * The largest message read at all, in bytes (`ws`'s `maxPayload`); a larger one closes the
   * connection with 1009 and fails the phone's commands with `DEVICE_DISCONNECTED`. A message over
   * the session's frame limit but within this one fails only its request (`PAYLOAD_TOO_LARGE`), as
   * on TCP. Keep it above the hub's `maxFrameBytes`. Default 32 MiB, twice the default frame limit.
   */
  maxMessageBytes?: number;
}

/**
 * A phone's WebSocket as a {@link FrameTransport}: each text message is one frame (compact JSON, no
 * terminator). Messages are checked against the frame limit in force (the hello limit, then the
 * session limit) here, so that an oversized reply fails only its request; binary messages are not
 * frames and are reported as unreadable.
 */
class WsFrameTransport implements FrameTransport {
  session!: DeviceSession;
  maxFrameBytes = 0;
  /** Why `ws` failed the connection, if it did (e.g. a message over `maxPayload`). */
  failure: Error | undefined;

  constructor(
    private readonly socket: WebSocket,
    readonly remoteAddress: string | undefined,
  ) {}

  get pendingWriteBytes(): number {
    return this.socket.bufferedAmount;
  }

  send(frameJson: string): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(frameJson);
  }

  end(code: ErrorCode): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.close(code === 'SHUTTING_DOWN' ? WS_DEVICE_CLOSE_CODES.goingAway : WS_DEVICE_CLOSE_CODES.normal, code);
    // A phone that never answers the close frame is dropped after the grace.
    setTimeout(() => this.socket.terminate(), END_GRACE_MS).unref();
  }

  destroy(): void {
    this.socket.terminate();
  }

  setMaxFrameBytes(bytes: number): void {
    this.maxFrameBytes = bytes;
  }

  /** One whole message from `ws` (a Buffer: the server's `binaryType` is `nodebuffer`). */
  receive(data: Buffer, isBinary: boolean): void {
    if (isBinary) {
      this.session.receiveUnreadable(data.subarray(0, HEAD_BYTES), `binary message of ${data.length} bytes; send each frame as one text message`);
      return;
    }
    if (data.length > this.maxFrameBytes) {
      const head = data.subarray(0, HEAD_BYTES);
      this.session.frameTooLarge(head);
      this.session.frameDiscarded(head, data.length);
      return;
    }
    this.session.receive(data);
  }
}

/**
 * The WebSocket transport of wire protocol v1: phones connect to `ws[s]://<gateway>/ws/device` (the
 * gateway's HTTP port, so one port — 443 behind a TLS proxy — serves the API and the phones) and
 * speak the same protocol as over TCP, one frame per text message, through the same
 * `DeviceSession`. Register it with `MobileClawModule.forRoot({transports: [..., ws]})` and serve it
 * with `WsDeviceModule.forRoot(ws)` (the Nest gateway that hands it the upgraded sockets).
 */
export class WsDeviceTransport extends DeviceTransport {
  readonly name = 'ws';
  /** Path of the device socket, e.g. `/ws/device`. */
  readonly path: string;
  /** `ws`'s `maxPayload`, in bytes. */
  readonly maxMessageBytes: number;
  private readonly logger = new Logger('WsDeviceTransport');
  private acceptor: DeviceConnectionAcceptor | undefined;
  private readonly sockets = new Set<WebSocket>();
  /** While stopping: resolves {@link stop}'s promise once the last socket has closed. */
  private drained: (() => void) | undefined;
  private stopping: Promise<void> | undefined;

  /** @throws Error when the path does not start with `/` or `maxMessageBytes` is not a positive integer. */
  constructor(options: WsDeviceTransportOptions = {}) {
    super();
    this.path = options.path ?? DEFAULT_WS_DEVICE_PATH;
    this.maxMessageBytes = options.maxMessageBytes ?? 2 * DEVICE_GATEWAY_DEFAULTS.maxFrameBytes;
    if (!this.path.startsWith('/')) throw new Error(`MobileClaw: the device socket path must start with "/", got ${JSON.stringify(this.path)}`);
    if (!Number.isSafeInteger(this.maxMessageBytes) || this.maxMessageBytes <= 0) {
      throw new Error(`MobileClaw: maxMessageBytes must be a positive integer, got ${String(options.maxMessageBytes)}`);
    }
  }

  /** True between {@link start} and {@link stop}: upgrades are accepted, otherwise refused with 503. */
  get accepting(): boolean {
    return this.acceptor !== undefined;
  }

  /** Accepts phones for `acceptor` from now on (the HTTP server is the application's; nothing to bind). */
  start(acceptor: DeviceConnectionAcceptor): Promise<void> {
    this.acceptor = acceptor;
    this.logger.log(`accepting phones over WebSocket at ${this.path}`);
    return Promise.resolve();
  }

  /**
   * Stops accepting; resolves once every phone's socket has closed (the hub ends the sessions), those
   * still open after a 2 s grace being dropped.
   */
  stop(): Promise<void> {
    this.acceptor = undefined;
    if (this.stopping) return this.stopping;
    if (this.sockets.size === 0) return Promise.resolve();
    this.stopping = new Promise<void>((resolve) => {
      const grace = setTimeout(() => {
        for (const socket of this.sockets) socket.terminate();
      }, END_GRACE_MS);
      grace.unref();
      this.drained = () => {
        clearTimeout(grace);
        this.stopping = undefined;
        resolve();
      };
    });
    return this.stopping;
  }

  /**
   * Takes a phone's upgraded WebSocket (the device socket gateway calls this for each connection)
   * and starts its session. Before the phone's `hello` is handled, at most the hello limit plus
   * 4 KiB of framing is read from the connection — a client that sends more is refused as TCP
   * refuses an over-long first line, without buffering a whole large message first.
   */
  connect(socket: WebSocket, request: IncomingMessage): void {
    const acceptor = this.acceptor;
    if (acceptor === undefined) {
      socket.close(WS_DEVICE_CLOSE_CODES.goingAway, 'not accepting phones');
      return;
    }
    this.sockets.add(socket);
    const { remoteAddress, remotePort } = request.socket;
    const transport = new WsFrameTransport(socket, remoteAddress === undefined ? undefined : `${remoteAddress}:${remotePort}`);
    const session = acceptor.accept(transport);
    transport.session = session;

    const raw = request.socket;
    let preHelloBytes = 0;
    const countPreHello = (chunk: Buffer): void => {
      if (session.state !== 'handshake') {
        raw.off('data', countPreHello);
        return;
      }
      preHelloBytes += chunk.length;
      if (preHelloBytes > transport.maxFrameBytes + PRE_HELLO_FRAMING_BYTES) {
        raw.off('data', countPreHello);
        // Read no more of it: the refusal and the close frame still go out, then the grace drops it.
        socket.pause();
        session.frameTooLarge(Buffer.alloc(0));
      }
    };
    if (session.state === 'handshake') raw.on('data', countPreHello);

    socket.on('message', (data: RawData, isBinary: boolean) => {
      // The session ends itself when handling a frame throws; this is the last line before the process.
      try {
        transport.receive(data as Buffer, isBinary);
      } catch (err) {
        this.logger.error(`dropping the connection from ${transport.remoteAddress ?? 'unknown'}: reading its message failed: ${String(err instanceof Error ? err.message : err).slice(0, 200)}`);
        socket.terminate();
      }
    });
    socket.on('error', (err) => {
      transport.failure = err;
    });
    socket.on('close', (code: number) => {
      raw.off('data', countPreHello);
      this.sockets.delete(socket);
      const failure = transport.failure;
      session.transportClosed(
        failure && (failure as NodeJS.ErrnoException).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'
          ? `a message exceeded the ${this.maxMessageBytes}-byte WebSocket limit (close ${WS_DEVICE_CLOSE_CODES.messageTooBig})`
          : `connection closed (WebSocket close ${code})`,
      );
      if (this.sockets.size === 0 && this.drained) {
        this.drained();
        this.drained = undefined;
      }
    });
  }
}
