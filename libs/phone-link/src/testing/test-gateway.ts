import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { LineFrameDecoder } from '@mobileclaw/protocol';
import type { GatewayAddress } from '../phone-wire';

/** A frame as the test gateway reads it. */
export type Json = Record<string, unknown>;

/** How phones reach a {@link TestGateway}: TCP lines or WebSocket text messages. */
export type TestTransport = 'tcp' | 'ws';

/** The largest frame the test gateway reads, in bytes (tests send oversized replies on purpose). */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** One phone connection as the test gateway sees it: raw frames in (a line or a message each), JSON frames out. */
export class GatewaySide {
  private readonly lines: string[] = [];
  private waiters: Array<(line: string) => void> = [];
  readonly closed: Promise<void>;
  /** The phone's address as the gateway sees it, e.g. `127.0.0.1`. */
  readonly remoteAddress: string | undefined;
  private readonly write: (text: string) => void;
  private readonly close: (graceful: boolean) => void;

  constructor(connection: { socket: net.Socket } | { webSocket: WebSocket; remoteAddress: string | undefined }) {
    if ('socket' in connection) {
      const { socket } = connection;
      const decoder = new LineFrameDecoder({ maxFrameBytes: MAX_FRAME_BYTES, onFrame: (line) => this.deliver(line.toString('utf8')), onOversized: () => undefined });
      socket.on('data', (chunk: Buffer) => decoder.push(chunk));
      socket.on('error', () => undefined);
      this.closed = once(socket, 'close').then(() => undefined);
      this.remoteAddress = socket.remoteAddress;
      this.write = (text) => socket.write(text + '\n');
      this.close = (graceful) => (graceful ? socket.end() : socket.destroy());
    } else {
      const { webSocket } = connection;
      webSocket.on('message', (data: Buffer) => this.deliver(data.toString('utf8')));
      webSocket.on('error', () => undefined);
      this.closed = once(webSocket, 'close').then(() => undefined);
      this.remoteAddress = connection.remoteAddress;
      this.write = (text) => webSocket.send(text);
      this.close = (graceful) => (graceful ? webSocket.close(1000) : webSocket.terminate());
    }
  }

  private deliver(line: string): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(line);
    else this.lines.push(line);
  }

  /** The next raw frame from the phone (a line without its `\n`, or a message). */
  nextLine(): Promise<string> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async nextFrame(): Promise<Json> {
    return JSON.parse(await this.nextLine()) as Json;
  }

  /** Frames received but not yet read. */
  get buffered(): number {
    return this.lines.length;
  }

  send(frame: Json): void {
    this.write(JSON.stringify(frame));
  }

  /** Sends `text` as one frame, as is (TCP: a line; WebSocket: a text message). */
  sendText(text: string): void {
    this.write(text);
  }

  /** Closes the connection politely (TCP: FIN; WebSocket: close 1000). */
  end(): void {
    this.close(true);
  }

  /** Drops the connection at once. */
  destroy(): void {
    this.close(false);
  }

  /** Reads the hello and answers welcome. */
  async welcome(sessionId = 'session-1'): Promise<Json> {
    const hello = await this.nextFrame();
    this.send({ type: 'welcome', sessionId, heartbeatIntervalMs: 15000, maxFrameBytes: 16 * 1024 * 1024 });
    return hello;
  }
}

/**
 * A tiny gateway on a loopback port: accepts phone connections over TCP (one frame per line) or
 * WebSocket (one frame per text message, at any path).
 */
export class TestGateway {
  private readonly server: net.Server;
  private readonly pending: GatewaySide[] = [];
  private waiters: Array<(side: GatewaySide) => void> = [];
  private readonly closers = new Set<() => void>();
  private port = 0;

  constructor(readonly transport: TestTransport = 'tcp') {
    if (transport === 'tcp') {
      this.server = net.createServer((socket) => {
        this.track(() => socket.destroy(), socket);
        this.accept(new GatewaySide({ socket }));
      });
    } else {
      const server = http.createServer();
      const sockets = new WebSocketServer({ server, maxPayload: MAX_FRAME_BYTES });
      sockets.on('connection', (webSocket, request) => {
        this.track(() => webSocket.terminate(), webSocket);
        this.accept(new GatewaySide({ webSocket, remoteAddress: request.socket.remoteAddress }));
      });
      this.server = server;
    }
  }

  /** Where a phone connects: `{port}` or `{url}` (`ws://127.0.0.1:<port>/ws/device`). Known once listening. */
  get address(): GatewayAddress {
    return this.transport === 'tcp' ? { port: this.port } : { url: `ws://127.0.0.1:${this.port}/ws/device` };
  }

  /** Listens on 127.0.0.1:`port` (0: a free port); resolves with the bound port. */
  async listen(port = 0): Promise<number> {
    this.server.listen(port, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  nextConnection(): Promise<GatewaySide> {
    const side = this.pending.shift();
    if (side) return Promise.resolve(side);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async close(): Promise<void> {
    for (const close of this.closers) close();
    if (this.server.listening) await new Promise((resolve) => this.server.close(resolve));
  }

  private track(close: () => void, connection: { once(event: 'close', listener: () => void): unknown }): void {
    this.closers.add(close);
    connection.once('close', () => this.closers.delete(close));
  }

  private accept(side: GatewaySide): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(side);
    else this.pending.push(side);
  }
}
