import { connect, type Socket } from 'node:net';
import { once } from 'node:events';

/** A frame as the test phone received it (parsed JSON, or the raw text when not JSON). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary JSON that tests index freely
export type ReceivedFrame = Record<string, any>;

/**
 * A hand-driven phone over a real loopback socket, for adapter tests: every frame the gateway
 * sends is queued and awaited with {@link next}; the test decides each byte the phone writes.
 */
export class RawPhone {
  private buffer = Buffer.alloc(0);
  private readonly frames: ReceivedFrame[] = [];
  private readonly waiters: { match: (f: ReceivedFrame) => boolean; resolve: (f: ReceivedFrame) => void }[] = [];
  readonly closed: Promise<void>;
  isClosed = false;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.isClosed = true;
        resolve();
      }),
    );
  }

  static async connect(port: number): Promise<RawPhone> {
    const socket = connect({ port, host: '127.0.0.1', noDelay: true });
    await once(socket, 'connect');
    return new RawPhone(socket);
  }

  /** Connects and completes the handshake; resolves with the `welcome` frame. */
  static async hello(port: number, deviceId: string, token: string, extra: Record<string, unknown> = {}): Promise<{ phone: RawPhone; welcome: ReceivedFrame }> {
    const phone = await RawPhone.connect(port);
    phone.send({ type: 'hello', protocolVersion: 1, deviceId, token, device: { model: 'Raw', android: '14', screen: { width: 1080, height: 2400, rotation: 0 } }, ...extra });
    const welcome = await phone.next();
    if (welcome['type'] !== 'welcome') throw new Error(`expected welcome, got ${JSON.stringify(welcome)}`);
    return { phone, welcome };
  }

  send(frame: Record<string, unknown>): void {
    this.socket.write(JSON.stringify(frame) + '\n');
  }

  /** Sends `text` as one line: the text as is, then `\n`. */
  sendText(text: string): void {
    this.socket.write(text + '\n');
  }

  write(bytes: string | Buffer): void {
    this.socket.write(bytes);
  }

  /** Writes `bytes` one byte per write call, waiting for each to be flushed. */
  async writeBytewise(bytes: Buffer): Promise<void> {
    for (const byte of bytes) {
      await new Promise<void>((resolve, reject) => this.socket.write(Buffer.from([byte]), (err) => (err ? reject(err) : resolve())));
    }
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

  /** Stops reading from the socket (the gateway's writes then pile up). */
  pauseReading(): void {
    this.socket.pause();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    let nl: number;
    while ((nl = this.buffer.indexOf(10)) >= 0) {
      const line = this.buffer.subarray(0, nl).toString('utf8');
      this.buffer = this.buffer.subarray(nl + 1);
      let frame: ReceivedFrame;
      try {
        frame = JSON.parse(line);
      } catch {
        frame = { type: '<raw>', line };
      }
      const waiter = this.waiters.findIndex((w) => w.match(frame));
      if (waiter >= 0) this.waiters.splice(waiter, 1)[0].resolve(frame);
      else this.frames.push(frame);
    }
  }
}
