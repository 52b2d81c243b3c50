import { EventEmitter } from 'node:events';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request, Response } from 'express';
import { SseStream, lastEventIdOf } from './sse-stream';

let server: Server | undefined;
let streams: SseStream[] = [];

function listen(handler: (stream: SseStream, response: ServerResponse) => void, maxBufferedBytes: number): Promise<number> {
  const listening = createServer((req, res) => {
    const stream = new SseStream(req as unknown as Request, res as unknown as Response, { maxBufferedBytes, keepAliveMs: 60_000 });
    streams.push(stream);
    handler(stream, res);
  });
  server = listening;
  return new Promise((resolve) => listening.listen(0, '127.0.0.1', () => resolve((listening.address() as AddressInfo).port)));
}

function connect(port: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => request({ host: '127.0.0.1', port, path: '/' }, resolve).on('error', reject).end());
}

afterEach(async () => {
  for (const s of streams) s.close();
  streams = [];
  if (!server) return;
  const closing = server;
  server = undefined;
  closing.closeAllConnections();
  await new Promise((resolve) => closing.close(resolve));
});

/** A response whose client never reads: every write stays buffered (`writableLength` only grows). */
class UnreadResponse extends EventEmitter {
  statusCode = 0;
  writableLength = 0;
  writableEnded = false;
  destroyed = false;
  readonly chunks: string[] = [];
  setHeader(): void {}
  flushHeaders(): void {}
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    this.writableLength += Buffer.byteLength(chunk);
    return false;
  }
  end(): void {
    this.writableEnded = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

/** The bytes of one `send(event, data, id)` record. */
function recordBytes(event: string, data: unknown, id: number): number {
  return Buffer.byteLength(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

describe('SseStream', () => {
  it('writes id/event/data records with the streaming headers', async () => {
    const port = await listen((stream) => {
      stream.send('step.observed', { index: 0, text: 'Hello 世界 👋' }, 4);
      stream.close();
    }, 1024 * 1024);
    const res = await connect(port);
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (body += chunk));
    await new Promise((resolve) => res.on('end', resolve));
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers['x-accel-buffering']).toBe('no');
    expect(res.headers['cache-control']).toBe('no-cache, no-transform');
    expect(body).toBe('retry: 2000\n\nid: 4\nevent: step.observed\ndata: {"index":0,"text":"Hello 世界 👋"}\n\n');
  });

  it('closes the stream at the first send that finds more than maxBufferedBytes unsent, and writes nothing after', () => {
    const response = new UnreadResponse();
    const stream = new SseStream(new EventEmitter() as unknown as Request, response as unknown as Response, { maxBufferedBytes: 1000, keepAliveMs: 60_000 });
    const closed = jest.fn();
    stream.onClose(closed);
    const text = 'x'.repeat(273);
    expect(recordBytes('big', text, 1)).toBe(300);
    expect(response.writableLength).toBe(Buffer.byteLength('retry: 2000\n\n'));
    // 13 bytes of retry, then 313, 613, 913 unsent: each send still goes out.
    for (let id = 1; id <= 4; id++) expect(stream.send('big', text, id)).toBe(true);
    expect(response.writableLength).toBe(13 + 4 * 300);
    expect(closed).not.toHaveBeenCalled();
    // 1213 > 1000 unsent: the fifth send drops the client instead of buffering more.
    expect(stream.send('big', text, 5)).toBe(false);
    expect(response.destroyed).toBe(true);
    expect(stream.isClosed).toBe(true);
    expect(closed).toHaveBeenCalledTimes(1);
    expect(stream.send('big', text, 6)).toBe(false);
    expect(response.chunks).toHaveLength(5);
    expect(response.writableLength).toBe(13 + 4 * 300);
  });

  it('drops a real client that stops reading instead of buffering without bound; the producer never waits', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const maxBufferedBytes = 256 * 1024;
    let response: ServerResponse | undefined;
    const port = await listen((_stream, res) => (response = res), maxBufferedBytes);
    const res = await connect(port);
    res.pause(); // never reads
    const stream = streams[0] as SseStream;
    const closed = new Promise<void>((resolve) => stream.onClose(resolve));
    // Synchronous sends, as the task journal publishes: each returns at once. However much the
    // kernel's socket buffers take, what waits in this process never exceeds the bound by more than
    // the one record that crossed it. (The loop's own cap, 128 MB offered, is a safety net only.)
    let sent = 0;
    let accepted = true;
    let peakUnsent = 0;
    while (accepted && sent < 2000) {
      accepted = stream.send('big', chunk, sent);
      if (accepted) sent++;
      peakUnsent = Math.max(peakUnsent, response?.writableLength ?? 0);
    }
    expect(accepted).toBe(false);
    await closed;
    expect(stream.isClosed).toBe(true);
    expect(sent).toBeGreaterThan(0);
    expect(peakUnsent).toBeLessThanOrEqual(maxBufferedBytes + recordBytes('big', chunk, sent));
    res.destroy();
  });

  it('reads the resume id from Last-Event-ID or ?lastEventId, rejecting junk', () => {
    const req = (headers: Record<string, string>, query: Record<string, string> = {}) => ({ headers, query }) as unknown as Request;
    expect(lastEventIdOf(req({}))).toBeUndefined();
    expect(lastEventIdOf(req({ 'last-event-id': '17' }))).toBe(17);
    expect(lastEventIdOf(req({}, { lastEventId: '5' }))).toBe(5);
    expect(lastEventIdOf(req({ 'last-event-id': '9' }, { lastEventId: '5' }))).toBe(9);
    expect(lastEventIdOf(req({ 'last-event-id': '-1' }))).toBeNull();
    expect(lastEventIdOf(req({ 'last-event-id': '1e3' }))).toBeNull();
    expect(lastEventIdOf(req({ 'last-event-id': '9999999999999999' }))).toBeNull();
  });
});
