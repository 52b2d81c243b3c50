import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request, Response } from 'express';
import { SseStream, lastEventIdOf } from './sse-stream';

let server: Server;
let streams: SseStream[] = [];

function listen(handler: (stream: SseStream) => void, maxBufferedBytes: number): Promise<number> {
  server = createServer((req, res) => {
    const stream = new SseStream(req as unknown as Request, res as unknown as Response, { maxBufferedBytes, keepAliveMs: 60_000 });
    streams.push(stream);
    handler(stream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function connect(port: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => request({ host: '127.0.0.1', port, path: '/' }, resolve).on('error', reject).end());
}

afterEach(async () => {
  for (const s of streams) s.close();
  streams = [];
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

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

  it('drops a client that stops reading instead of buffering without bound; the producer never waits', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const port = await listen(() => undefined, 256 * 1024);
    const res = await connect(port);
    res.pause(); // never reads
    const stream = streams[0];
    const closed = new Promise<void>((resolve) => stream.onClose(resolve));
    let sent = 0;
    // Synchronous sends, as the task journal publishes: each returns at once.
    while (stream.send('big', chunk, sent) && sent < 2000) sent++;
    await closed;
    expect(stream.isClosed).toBe(true);
    // It gave up after the kernel buffers and 256 KiB filled: far less than the 128 MB offered.
    expect(sent).toBeLessThan(200);
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
