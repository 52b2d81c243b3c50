import { once } from 'node:events';
import net from 'node:net';
import { LineFrameDecoder } from '@mobileclaw/protocol';

/** A frame as the test gateway reads it. */
export type Json = Record<string, unknown>;

/** One phone connection as the test gateway sees it: raw lines in, JSON frames out. */
export class GatewaySide {
  private readonly lines: string[] = [];
  private waiters: Array<(line: string) => void> = [];
  readonly closed: Promise<void>;

  constructor(readonly socket: net.Socket) {
    const decoder = new LineFrameDecoder({
      maxFrameBytes: 64 * 1024 * 1024,
      onFrame: (line) => this.deliver(line.toString('utf8')),
      onOversized: () => undefined,
    });
    socket.on('data', (chunk: Buffer) => decoder.push(chunk));
    socket.on('error', () => undefined);
    this.closed = once(socket, 'close').then(() => undefined);
  }

  private deliver(line: string): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(line);
    else this.lines.push(line);
  }

  /** The next raw line from the phone. */
  nextLine(): Promise<string> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async nextFrame(): Promise<Json> {
    return JSON.parse(await this.nextLine()) as Json;
  }

  /** Lines received but not yet read. */
  get buffered(): number {
    return this.lines.length;
  }

  send(frame: Json): void {
    this.socket.write(JSON.stringify(frame) + '\n');
  }

  /** Reads the hello and answers welcome. */
  async welcome(sessionId = 'session-1'): Promise<Json> {
    const hello = await this.nextFrame();
    this.send({ type: 'welcome', sessionId, heartbeatIntervalMs: 15000, maxFrameBytes: 16 * 1024 * 1024 });
    return hello;
  }
}

/** A tiny gateway: accepts phone connections on a random loopback port. */
export class TestGateway {
  readonly server = net.createServer((socket) => this.accept(socket));
  private readonly pending: GatewaySide[] = [];
  private waiters: Array<(side: GatewaySide) => void> = [];
  private readonly sockets = new Set<net.Socket>();

  private accept(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    const side = new GatewaySide(socket);
    const waiter = this.waiters.shift();
    if (waiter) waiter(side);
    else this.pending.push(side);
  }

  async listen(): Promise<number> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return (this.server.address() as net.AddressInfo).port;
  }

  nextConnection(): Promise<GatewaySide> {
    const side = this.pending.shift();
    if (side) return Promise.resolve(side);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
