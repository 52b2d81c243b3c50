import WebSocket from 'ws';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- server messages that tests index freely
export type SocketMessage = Record<string, any> & { type: string };

/**
 * A client of the live event socket (`/ws/events`) for tests: collects every message the gateway
 * sends; `next(predicate)` waits for a matching one (already received or still to come), `request`
 * sends a message with an id and waits for its reply, `closed` resolves with the close code and reason.
 */
export class EventsSocketClient {
  readonly messages: SocketMessage[] = [];
  /** Resolves when the socket has closed. */
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: { predicate: (m: SocketMessage) => boolean; from: number; resolve: (m: SocketMessage) => void }[] = [];
  private nextId = 1;

  private constructor(readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
    socket.on('message', (data, isBinary) => {
      if (isBinary) throw new Error('the events socket sent a binary message');
      const message = JSON.parse(data.toString()) as SocketMessage;
      this.messages.push(message);
      for (const waiter of [...this.waiters]) {
        if (!waiter.predicate(message)) continue;
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    });
  }

  /** Opens `url` (ws://…/ws/events) and resolves once it is open (the gateway may still close it at once). */
  static open(url: string, options: WebSocket.ClientOptions = {}): Promise<EventsSocketClient> {
    const socket = new WebSocket(url, options);
    const client = new EventsSocketClient(socket);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(client));
      socket.once('error', reject);
    });
  }

  /** The first message matching `predicate` received after the `from`-th (default: any received so far or later). */
  next(predicate: (m: SocketMessage) => boolean, from = 0): Promise<SocketMessage> {
    const seen = this.messages.slice(from).find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ predicate, from, resolve }));
  }

  /** Sends one JSON message (or raw text / bytes as given). */
  send(message: unknown): void {
    this.socket.send(typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message));
  }

  /** Sends `message` with a fresh id and resolves with the gateway's `reply` to it. */
  async request(message: Record<string, unknown>): Promise<SocketMessage> {
    const id = `m${this.nextId++}`;
    const from = this.messages.length;
    this.send({ ...message, id });
    return this.next((m) => m.type === 'reply' && m['id'] === id, from);
  }

  /** The task events received for `taskId` (messages with a numeric `id` and that `taskId`). */
  taskEvents(taskId: string): SocketMessage[] {
    return this.messages.filter((m) => m['taskId'] === taskId && typeof m['id'] === 'number');
  }

  close(): void {
    this.socket.close();
  }
}
