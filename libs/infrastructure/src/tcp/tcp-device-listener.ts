import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Logger } from '@nestjs/common';
import { LineFrameDecoder } from '@mobileclaw/protocol';
import type { DeviceHub } from '../device/device-hub';
import type { DeviceSession } from '../device/device-session';
import type { FrameTransport } from '../device/frame-transport';

/** Grace for a closing socket to flush its last frame before it is destroyed, in ms. */
const END_GRACE_MS = 2000;

/** A phone's TCP connection as a {@link FrameTransport}: `\n`-framed lines in, lines out. */
class TcpFrameTransport implements FrameTransport {
  readonly decoder: LineFrameDecoder;
  session!: DeviceSession;

  constructor(private readonly socket: Socket) {
    this.decoder = new LineFrameDecoder({
      maxFrameBytes: 64 * 1024,
      onFrame: (line) => this.session.receive(line),
      onOversized: (head, size) => this.session.receiveOversized(head, size),
      onDiscardStart: (head) => this.session.receiveOversizedStart(head),
    });
  }

  get remoteAddress(): string | undefined {
    const { remoteAddress, remotePort } = this.socket;
    return remoteAddress === undefined ? undefined : `${remoteAddress}:${remotePort}`;
  }

  get pendingWriteBytes(): number {
    return this.socket.writableLength;
  }

  write(line: string): void {
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(line);
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
 * each to the {@link DeviceHub}. Binds all interfaces by default (phones on the LAN must reach it).
 */
export class TcpDeviceListener {
  private readonly logger = new Logger('TcpDeviceListener');
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly hub: DeviceHub) {}

  /** The bound port (useful with port 0). @throws Error before {@link listen} resolved. */
  get port(): number {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error('TcpDeviceListener is not listening');
    return address.port;
  }

  /**
   * Starts listening. @param port TCP port (0 = any free one) @param host interface, default all.
   * @throws Error (e.g. `EADDRINUSE`) when the port cannot be bound.
   */
  listen(port: number, host?: string): Promise<number> {
    const server = createServer({ noDelay: true, keepAlive: true, keepAliveInitialDelay: 60_000 }, (socket) => this.onConnection(socket));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host }, () => {
        server.off('error', reject);
        server.on('error', (err) => this.logger.error(`device listener error: ${err.message}`));
        this.logger.log(`listening for phones on ${host ?? '*'}:${this.port}`);
        resolve(this.port);
      });
    });
  }

  /** Stops accepting connections; open sessions are closed by {@link DeviceHub.shutdown}. */
  close(): Promise<void> {
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

  private onConnection(socket: Socket): void {
    this.sockets.add(socket);
    const transport = new TcpFrameTransport(socket);
    const session = this.hub.accept(transport);
    transport.session = session;
    socket.on('data', (chunk: Buffer) => transport.decoder.push(chunk));
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
