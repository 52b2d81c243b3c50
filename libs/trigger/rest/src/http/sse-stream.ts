import type { Request, Response } from 'express';

/** Settings of one Server-Sent Events response. */
export interface SseStreamOptions {
  /** Interval of `: keep-alive` comments, in ms. Default 15 000. */
  keepAliveMs?: number;
  /**
   * Bytes the socket may hold unsent before the client counts as too slow; the stream is then
   * closed (the client resumes with `Last-Event-ID` from the store). Default 1 MiB.
   */
  maxBufferedBytes?: number;
  /** Reconnection delay suggested to EventSource, in ms. Default 2000. */
  retryMs?: number;
}

/**
 * One `text/event-stream` response (WHATWG HTML §9.2 Server-sent events): `id`/`event`/`data` records,
 * keep-alive comments, no proxy buffering (`X-Accel-Buffering: no`), never compressed
 * (`Cache-Control: no-transform`). A slow client never blocks the producer: writes are not awaited,
 * and once more than `maxBufferedBytes` wait in the socket the stream ends.
 */
export class SseStream {
  private readonly keepAlive: NodeJS.Timeout;
  private readonly maxBufferedBytes: number;
  private closed = false;
  private readonly onCloseHandlers: (() => void)[] = [];

  constructor(
    request: Request,
    private readonly response: Response,
    options: SseStreamOptions = {},
  ) {
    this.maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
    response.statusCode = 200;
    response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    response.setHeader('Cache-Control', 'no-cache, no-transform');
    response.setHeader('Connection', 'keep-alive');
    response.setHeader('X-Accel-Buffering', 'no');
    response.setHeader('Content-Encoding', 'identity');
    response.flushHeaders();
    response.socket?.setNoDelay(true);
    response.write(`retry: ${options.retryMs ?? 2000}\n\n`);
    this.keepAlive = setInterval(() => this.write(': keep-alive\n\n'), options.keepAliveMs ?? 15_000);
    this.keepAlive.unref();
    request.on('close', () => this.close());
    response.on('close', () => this.close());
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Runs `handler` once, when the client goes away or the stream ends. */
  onClose(handler: () => void): void {
    if (this.closed) handler();
    else this.onCloseHandlers.push(handler);
  }

  /** Sends one event; `data` is serialized as one JSON line. Returns false once the stream is closed. */
  send(event: string, data: unknown, id?: number | string): boolean {
    const lines = [];
    if (id !== undefined) lines.push(`id: ${id}`);
    lines.push(`event: ${event}`, `data: ${JSON.stringify(data)}`, '', '');
    return this.write(lines.join('\n'));
  }

  /** Ends the stream (after the terminal event, or on the producer's error). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    if (!this.response.writableEnded) this.response.end();
    for (const handler of this.onCloseHandlers.splice(0)) handler();
  }

  private write(chunk: string): boolean {
    if (this.closed) return false;
    if (this.response.writableLength > this.maxBufferedBytes) {
      // Too slow: drop it rather than buffer without bound; EventSource reconnects with Last-Event-ID.
      this.response.destroy();
      this.close();
      return false;
    }
    this.response.write(chunk);
    return true;
  }
}

/**
 * The id to resume after: the `Last-Event-ID` header (EventSource sends it on reconnect) or the
 * `lastEventId` query parameter (first connection of a page). Undefined when neither is given.
 * @returns a non-negative integer, or `null` when the value is not one.
 */
export function lastEventIdOf(request: Request): number | null | undefined {
  const header = request.headers['last-event-id'];
  const query = request.query['lastEventId'];
  // Two values (repeated header joined by a comma, repeated query key as an array) are ambiguous.
  if (Array.isArray(query) || (query !== undefined && typeof query !== 'string')) return null;
  const raw = typeof header === 'string' && header !== '' ? header : typeof query === 'string' && query !== '' ? query : undefined;
  if (raw === undefined) return undefined;
  return /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : null;
}
