import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Logger } from '@nestjs/common';
import { DeviceTransport, type DeviceConnectionAcceptor, type DeviceSession, type FrameTransport } from '@mobileclaw/device';
import { LineFrameDecoder } from '@mobileclaw/protocol';

/** Port phones connect to when none is configured. */
export const DEFAULT_TCP_DEVICE_PORT = 7397;

/** Grace for a closing socket to flush its last frame before it is destroyed, in ms. */
const END_GRACE_MS = 2000;

/** Where the TCP transport listens. */
export interface TcpDeviceTransportOptions {
  /** TCP port. Default {@link DEFAULT_TCP_DEVICE_PORT} (7397); 0 picks a free port (read it from {@link TcpDeviceTransport.port}). */
  port?: number;
  /** Interface to bind. Default: all interfaces (phones on the LAN must reach it). */
  host?: string;
}

/**
 * A phone's TCP connection as a {@link FrameTransport}: wire protocol v1 frames as `\n`-terminated
 * lines of compact JSON, split by a {@link LineFrameDecoder} that never buffers more than the frame
 * limit in force (the session sets it: the hello limit first, then the session limit).
 */
class TcpFrameTransport implements FrameTransport {
  readonly decoder: LineFrameDecoder;
  session!: DeviceSession;

  constructor(private readonly socket: Socket) {
    this.decoder = new LineFrameDecoder({
      // Replaced before the first byte is read: the new session sets the hello limit at once.
      maxFrameBytes: 1,
      onFrame: (line) => this.session.receive(line),
      onDiscardStart: (head) => this.session.frameTooLarge(head),
      onOversized: (head, size) => this.session.frameDiscarded(head, size),
    });
  }

  get remoteAddress(): string | undefined {
    const { remoteAddress, remotePort } = this.socket;
    return remoteAddress === undefined ? undefined : `${remoteAddress}:${remotePort}`;
  }

  get pendingWriteBytes(): number {
    return this.socket.writableLength;
  }

  send(frameJson: string): void {
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(frameJson + '\n');
  }

  end(): void {
    if (this.socket.destroyed) return;
    this.socket.end();
    setTimeout(() => this.socket.destroy(), END_GRACE_MS).unref();
  }

  destroy(): void {
    this.socket.destroy();
  }

  setMaxFrameBytes(bytes: number): void {
    this.decoder.maxFrameBytes = bytes;
  }
}

/**
 * The TCP transport of wire protocol v1: accepts phone connections on the device port and hands
 * each to the hub. Register it with `MobileClawModule.forRoot({transports: [new TcpDeviceTransport()]})`.
 */
export class TcpDeviceTransport extends DeviceTransport {
  readonly name = 'tcp';
  private readonly logger = new Logger('TcpDeviceTransport');
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly options: TcpDeviceTransportOptions = {}) {
    super();
    const port = options.port ?? DEFAULT_TCP_DEVICE_PORT;
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`MobileClaw: TCP device port must be an integer 0-65535, got ${String(options.port)}`);
  }

  /** The bound port (useful with port 0). @throws Error before {@link start} resolved. */
  get port(): number {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error('TcpDeviceTransport is not listening');
    return address.port;
  }

  /**
   * Binds the port and accepts phones for `acceptor`; resolves once bound (see {@link port}).
   * @throws Error (e.g. `EADDRINUSE`) when the port cannot be bound.
   */
  start(acceptor: DeviceConnectionAcceptor): Promise<void> {
    const { host } = this.options;
    const port = this.options.port ?? DEFAULT_TCP_DEVICE_PORT;
    const server = createServer({ noDelay: true, keepAlive: true, keepAliveInitialDelay: 60_000 }, (socket) => this.onConnection(socket, acceptor));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host }, () => {
        server.off('error', reject);
        server.on('error', (err) => this.logger.error(`device listener error: ${err.message}`));
        this.logger.log(`listening for phones on ${host ?? '*'}:${this.port}`);
        resolve();
      });
    });
  }

  /** Stops accepting connections; sockets still open after a 2 s grace are dropped. */
  stop(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => {
      server.close(() => resolve());
      // Sessions end their sockets gracefully; anything still open after the grace is dropped.
      setTimeout(() => {
        for (const socket of this.sockets) socket.destroy();
      }, END_GRACE_MS).unref();
    });
  }

  private onConnection(socket: Socket, acceptor: DeviceConnectionAcceptor): void {
    this.sockets.add(socket);
    const transport = new TcpFrameTransport(socket);
    const session = acceptor.accept(transport);
    transport.session = session;
    socket.on('data', (chunk: Buffer) => {
      // The session ends itself when handling a frame throws; this is the last line before the process.
      try {
        transport.decoder.push(chunk);
      } catch (err) {
        this.logger.error(`dropping the connection from ${transport.remoteAddress ?? 'unknown'}: reading its data failed: ${String(err instanceof Error ? err.message : err).slice(0, 200)}`);
        socket.destroy();
      }
    });
    socket.on('error', () => {
      // ECONNRESET and friends end in 'close', which fails the session's callers.
    });
    socket.on('close', () => {
      this.sockets.delete(socket);
      transport.decoder.reset();
      session.transportClosed();
    });
  }
}
