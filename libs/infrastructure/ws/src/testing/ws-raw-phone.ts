import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';

/** A frame as the test phone received it (parsed JSON, or the raw text when not JSON). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary JSON that tests index freely
export type ReceivedFrame = Record<string, any>;

/**
 * A hand-driven phone over a real WebSocket, for adapter tests: every message the gateway sends is
 * one frame, queued and awaited with {@link next}; the test decides each message the phone sends.
 */
export class WsRawPhone {
  private readonly frames: ReceivedFrame[] = [];
  private readonly waiters: { match: (f: ReceivedFrame) => boolean; resolve: (f: ReceivedFrame) => void }[] = [];
  /** Resolves with the close code and reason once the connection is closed. */
  readonly closed: Promise<{ code: number; reason: string }>;
  isClosed = false;
  /** `host:port` this phone's connection comes from, as the gateway sees it (known once open). */
  localAddress = '';

  private constructor(readonly socket: WebSocket) {
    socket.once('upgrade', (response: IncomingMessage) => {
      this.localAddress = `${response.socket.localAddress}:${response.socket.localPort}`;
    });
    socket.on('message', (data: Buffer, isBinary: boolean) => this.onMessage(data, isBinary));
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once('close', (code: number, reason: Buffer) => {
        this.isClosed = true;
        resolve({ code, reason: reason.toString('utf8') });
      }),
    );
  }

  /** Opens `url` (e.g. `ws://127.0.0.1:3000/ws/device`). @throws Error when the upgrade is refused (e.g. `Unexpected server response: 503`). */
  /** @param headers extra upgrade request headers, e.g. an `Origin` a browser would send. */
  static async connect(url: string, headers: Record<string, string> = {}): Promise<WsRawPhone> {
    const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024, headers });
    const phone = new WsRawPhone(socket);
    await Promise.race([
      once(socket, 'open'),
      once(socket, 'error').then(([err]: Error[]) => {
        throw err;
      }),
    ]);
    return phone;
  }

  /** Connects and completes the handshake; resolves with the `welcome` frame. */
  static async hello(url: string, deviceId: string, token: string, extra: Record<string, unknown> = {}): Promise<{ phone: WsRawPhone; welcome: ReceivedFrame }> {
    const phone = await WsRawPhone.connect(url);
    phone.send({ type: 'hello', protocolVersion: 1, deviceId, token, device: { model: 'Raw', android: '14', screen: { width: 1080, height: 2400, rotation: 0 } }, ...extra });
    const welcome = await phone.next();
    if (welcome['type'] !== 'welcome') throw new Error(`expected welcome, got ${JSON.stringify(welcome)}`);
    return { phone, welcome };
  }

  /** Sends `frame` as one text message. */
  send(frame: Record<string, unknown>): void {
    this.socket.send(JSON.stringify(frame));
  }

  /** Sends `text` as one text message, as is. */
  sendText(text: string | Buffer): void {
    this.socket.send(text, { binary: false });
  }

  /** Sends `bytes` as one binary message. */
  sendBinary(bytes: Buffer): void {
    this.socket.send(bytes, { binary: true });
  }

  reply(action: ReceivedFrame, data: Record<string, unknown> = {}): void {
    this.send({ type: 'response', requestId: action['requestId'], status: 'success', data });
  }

  /** The next received frame matching `match` (default: any), in arrival order. */
  next(match: (f: ReceivedFrame) => boolean = () => true): Promise<ReceivedFrame> {
    const index = this.frames.findIndex(match);
    if (index >= 0) return Promise.resolve(this.frames.splice(index, 1)[0]);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  nextOfType(type: string): Promise<ReceivedFrame> {
    return this.next((f) => f['type'] === type);
  }

  /** Frames received and not yet taken. */
  get unread(): ReceivedFrame[] {
    return [...this.frames];
  }

  /** Stops reading from the connection (the gateway's writes then pile up). */
  pauseReading(): void {
    this.socket.pause();
  }

  /** Drops the connection without a close frame (as a phone that loses its network). */
  destroy(): void {
    this.socket.terminate();
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    const text = data.toString('utf8');
    let frame: ReceivedFrame;
    try {
      frame = isBinary ? { type: '<binary>', text } : JSON.parse(text);
    } catch {
      frame = { type: '<raw>', line: text };
    }
    const waiter = this.waiters.findIndex((w) => w.match(frame));
    if (waiter >= 0) this.waiters.splice(waiter, 1)[0].resolve(frame);
    else this.frames.push(frame);
  }
}
