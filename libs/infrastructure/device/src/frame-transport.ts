import type { ErrorCode } from '@mobileclaw/domain';
import type { DeviceSession } from './device-session';

/**
 * One phone connection as a device session sees it: frames out, close. The transport owns the
 * framing (TCP: one JSON text per `\n`-terminated line; WebSocket: one JSON text per message) and
 * delivers frames in through {@link DeviceSession.receive}, so one session implementation serves
 * every transport.
 */
export interface FrameTransport {
  /** Sends one frame: `frameJson` is compact JSON without a terminator; the transport frames it. */
  send(frameJson: string): void;
  /** Bytes accepted by {@link send} but not yet handed to the OS (backpressure signal). */
  readonly pendingWriteBytes: number;
  /**
   * Flushes what was sent, then closes. `code` is why the session ended (`DEVICE_DISCONNECTED`,
   * `DEVICE_REPLACED` or `SHUTTING_DOWN`); a transport with close codes tells the peer (WebSocket:
   * 1001 for `SHUTTING_DOWN`, else 1000), a byte stream has nothing to say it with.
   */
  end(code: ErrorCode): void;
  /** Closes at once, dropping unsent bytes (dead or misbehaving peer). */
  destroy(): void;
  /** Changes the largest incoming frame the transport accepts, in bytes (handshake → session limit). */
  setMaxFrameBytes(bytes: number): void;
  /** `host:port` of the peer, when the transport knows it. */
  readonly remoteAddress?: string;
}

/** What a device transport hands its connections to: the {@link DeviceHub}. */
export interface DeviceConnectionAcceptor {
  /** Starts the handshake of a new connection; the session receives its frames from now on. */
  accept(transport: FrameTransport): DeviceSession;
}

/**
 * Where the host a phone is attached to (e.g. an ADB device watcher) reports a phone it sees but that
 * cannot connect, and why: it is then listed offline with that `statusReason` instead of missing.
 */
export interface DeviceReachabilityReports {
  /** Lists `deviceId` offline with `reason` (one line, e.g. `adb: unauthorized — …`) until cleared or it connects. */
  reportUnreachable(deviceId: string, reason: string): void;
  /** Withdraws the reason: the phone is listed as a plain offline phone (as one that went away) until it connects. */
  clearUnreachable(deviceId: string): void;
}

/**
 * A way for phones to reach the gateway (TCP, WebSocket, …): accepts connections and hands each
 * to the hub as a {@link FrameTransport}. Registered with `MobileClawModule.forRoot({transports})`;
 * started on application bootstrap, stopped on shutdown (after which the hub closes the sessions).
 */
export abstract class DeviceTransport {
  /** Short name for logs and device listings, e.g. `tcp`. */
  abstract readonly name: string;
  /**
   * Starts accepting connections for `acceptor`.
   * @throws Error when the transport cannot start (e.g. `EADDRINUSE`).
   */
  abstract start(acceptor: DeviceConnectionAcceptor): Promise<void>;
  /** Stops accepting connections; resolves once it no longer accepts (open sessions end separately). */
  abstract stop(): Promise<void>;
}
