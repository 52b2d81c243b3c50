import { request, type IncomingMessage } from 'node:http';

/** One parsed Server-Sent Event. */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * A minimal `text/event-stream` reader for tests (WHATWG HTML §9.2 parsing rules: fields, comments,
 * blank-line dispatch). Collects every event; `next(predicate)` waits for a matching one.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  status = 0;
  headers: IncomingMessage['headers'] = {};
  private response?: IncomingMessage;
  private waiters: { predicate: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = [];
  private commentWaiters: { predicate: (c: string) => boolean; resolve: (c: string) => void }[] = [];
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  private resolveEnded!: () => void;

  private constructor() {
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
  }

  /** Opens `url`; resolves once the response headers arrived (any status). */
  static open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const client = new SseClient();
    return new Promise((resolve, reject) => {
      const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        client.response = res;
        client.status = res.statusCode ?? 0;
        client.headers = res.headers;
        res.setEncoding('utf8');
        let buffer = '';
        let current: Partial<SseEvent> & { data?: string } = {};
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let newline: number;
          while ((newline = buffer.indexOf('\n')) !== -1) {
            const line = buffer.slice(0, newline).replace(/\r$/, '');
            buffer = buffer.slice(newline + 1);
            if (line === '') {
              if (current.data !== undefined) client.dispatch({ id: current.id, event: current.event ?? 'message', data: current.data });
              current = {};
            } else if (line.startsWith(':')) {
              client.dispatchComment(line.slice(1).trim());
            } else {
              const colon = line.indexOf(':');
              const field = colon === -1 ? line : line.slice(0, colon);
              const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
              if (field === 'data') current.data = current.data === undefined ? value : `${current.data}\n${value}`;
              else if (field === 'event') current.event = value;
              else if (field === 'id') current.id = value;
            }
          }
        });
        res.on('end', () => client.resolveEnded());
        res.on('close', () => client.resolveEnded());
        resolve(client);
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** Waits for the first event (already received or future) that matches. */
  next(predicate: (e: SseEvent) => boolean): Promise<SseEvent> {
    const seen = this.events.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ predicate, resolve }));
  }

  /** Waits for the first comment line (`: text`, already received or future) whose text matches. */
  nextComment(predicate: (c: string) => boolean): Promise<string> {
    const seen = this.comments.find(predicate);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => this.commentWaiters.push({ predicate, resolve }));
  }

  /** Parsed `data` JSON of every event, in order. */
  json<T = Record<string, unknown>>(): T[] {
    return this.events.map((e) => JSON.parse(e.data) as T);
  }

  close(): void {
    this.response?.destroy();
  }

  private dispatchComment(comment: string): void {
    this.comments.push(comment);
    const ready = this.commentWaiters.filter((w) => w.predicate(comment));
    this.commentWaiters = this.commentWaiters.filter((w) => !w.predicate(comment));
    for (const w of ready) w.resolve(comment);
  }

  private dispatch(event: SseEvent): void {
    this.events.push(event);
    const ready = this.waiters.filter((w) => w.predicate(event));
    this.waiters = this.waiters.filter((w) => !w.predicate(event));
    for (const w of ready) w.resolve(event);
  }
}
