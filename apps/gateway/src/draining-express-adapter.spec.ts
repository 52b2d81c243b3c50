import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Request, Response } from 'express';
import { DrainingExpressAdapter } from './draining-express-adapter';

/** A listening adapter whose `/answer` route (any method; it never reads a body) answers when the test calls `answer()`. */
async function listening(drainMs: number) {
  const adapter = new DrainingExpressAdapter({ drainMs });
  adapter.initHttpServer({});
  let arrived!: () => void;
  const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
  const waiting: Response[] = [];
  adapter.getInstance().all('/answer', (_request: Request, response: Response) => {
    waiting.push(response);
    arrived();
  });
  adapter.getInstance().get('/now', (_request: Request, response: Response) => response.send('now'));
  await new Promise<void>((resolve) => adapter.listen(0, '127.0.0.1', () => resolve()));
  const port = (adapter.getHttpServer().address() as AddressInfo).port;
  return { adapter, port, requestArrived, answer: (text: string) => waiting.shift()!.send(text) };
}

/** A raw connection that collects what the server sends; `closed` resolves when the server ends it. */
async function rawConnection(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, received: () => text, closed };
}

describe('DrainingExpressAdapter', () => {
  it('lets a request in progress write its answer, with Connection: close, then closes', async () => {
    // A drain far longer than the test's timeout: the close must not depend on it.
    const server = await listening(600_000);
    const client = await rawConnection(server.port);
    client.socket.write('GET /answer HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await server.requestArrived;
    const closing = server.adapter.close();
    server.answer('the last answer');
    await closing;
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(client.received()).toMatch(/\r\nConnection: close\r\n/i);
    expect(client.received().endsWith('\r\n\r\nthe last answer')).toBe(true);
  });

  it('closes an idle keep-alive connection at once', async () => {
    const server = await listening(600_000);
    const client = await rawConnection(server.port);
    client.socket.write('GET /now HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await new Promise<void>((resolve) => client.socket.once('data', () => resolve()));
    expect(client.received()).toMatch(/\r\nConnection: keep-alive\r\n/i);
    await server.adapter.close();
    await client.closed;
    expect(client.received().endsWith('now')).toBe(true);
  });

  it('cuts a request whose body never comes once the drain time has passed', async () => {
    const server = await listening(50);
    const client = await rawConnection(server.port);
    client.socket.write('POST /answer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"deviceId":');
    await server.requestArrived;
    await server.adapter.close();
    await client.closed;
    expect(client.received()).toBe('');
  });

  it('no longer accepts connections once closing', async () => {
    const server = await listening(50);
    await server.adapter.close();
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(server.port, '127.0.0.1');
      socket.once('connect', () => resolve('connected'));
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });

  it('refuses a drain time that is not an integer from 0 to 600000 ms', () => {
    for (const drainMs of [-1, 1.5, 600_001, Number.NaN]) expect(() => new DrainingExpressAdapter({ drainMs })).toThrow(`drainMs must be an integer from 0 to 600000, got ${drainMs}`);
    expect(() => new DrainingExpressAdapter({ drainMs: 0 })).not.toThrow();
  });
});
