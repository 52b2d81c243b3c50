import { Body, Controller, Get, Headers, Module, Post } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { MobileClawModule } from '@mobileclaw/device';
import { MobileClawWsAdapter } from './mobileclaw-ws-adapter';
import { rawHttpExchange, WsRawPhone } from './testing';
import { WsDeviceModule } from './ws-device.module';
import { WsDeviceTransport } from './ws-device-transport';

const TOKEN = 'ws-adapter-test-token-0123456789';

/** What the application saw of a request. */
@Controller('echo')
class EchoController {
  @Get()
  get(@Headers() headers: Record<string, string>): { method: string; headers: Record<string, string> } {
    return { method: 'GET', headers };
  }

  @Post()
  post(@Body() body: unknown, @Headers() headers: Record<string, string>): { method: string; body: unknown; headers: Record<string, string> } {
    return { method: 'POST', body, headers };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

const apps: INestApplication[] = [];
const phones: WsRawPhone[] = [];

afterEach(async () => {
  for (const phone of phones.splice(0)) phone.destroy();
  for (const app of apps.splice(0)) await app.close();
});

/** An app with REST routes and the device socket at /ws/device on one HTTP server; resolves with its port. */
async function start(): Promise<number> {
  const transport = new WsDeviceTransport();
  const moduleRef = await Test.createTestingModule({ imports: [MobileClawModule.forRoot({ deviceToken: TOKEN, transports: [transport] }), WsDeviceModule.forRoot(transport), EchoModule] }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  app.useWebSocketAdapter(new MobileClawWsAdapter(app));
  await app.listen(0, '127.0.0.1');
  apps.push(app);
  return (app.getHttpServer().address() as { port: number }).port;
}

/** The head Java's `HttpClient` sends by default on a new plain-HTTP connection (JDK 17). */
const H2C_UPGRADE = 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAEAAEAAAAIAAAAAAAMAAAAAAAQBAAAAAAUAAEAAAAYABgAA\r\n';

describe('MobileClawWsAdapter: upgrade requests on the application\'s HTTP server', () => {
  it('serves a GET with `Upgrade: h2c` as the plain HTTP/1.1 request, without the upgrade headers, and keeps the connection', async () => {
    const port = await start();
    const [answer, next] = await rawHttpExchange(port, [`GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\n${H2C_UPGRADE}\r\n`, 'GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Second: yes\r\n\r\n'], 2);
    expect(answer.status).toBe(200);
    expect(answer.headers['connection']).toBe('keep-alive');
    expect(answer.headers['upgrade']).toBeUndefined();
    expect(JSON.parse(answer.body)).toEqual({ method: 'GET', headers: { host: '127.0.0.1' } });
    expect({ status: next.status, body: JSON.parse(next.body) }).toEqual({ status: 200, body: { method: 'GET', headers: { host: '127.0.0.1', 'x-second': 'yes' } } });
  });

  it('reads the body of a POST with `Upgrade: h2c`, also when it comes after the head', async () => {
    const port = await start();
    const body = JSON.stringify({ goal: 'Turn on Wi-Fi', note: 'héllo' });
    const head = `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\n${H2C_UPGRADE}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const [answer] = await rawHttpExchange(port, [head, body.slice(0, 5), body.slice(5)]);
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toEqual({ method: 'POST', body: { goal: 'Turn on Wi-Fi', note: 'héllo' }, headers: { host: '127.0.0.1', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } });
  });

  it('keeps the framing headers and Host when `Connection` names them: the body stays the body, never a second request', async () => {
    const port = await start();
    const inner = 'GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Smuggled: yes\r\n\r\n';
    const head = `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, Content-Length, Transfer-Encoding, Host, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAEAAEAAAAIAAAAAAAMAAAAAAAQBAAAAAAUAAEAAAAYABgAA\r\nContent-Type: text/plain\r\nContent-Length: ${inner.length}\r\n\r\n`;
    const [answer, next] = await rawHttpExchange(port, [head + inner, 'GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Second: yes\r\n\r\n'], 2);
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body).headers).toEqual({ host: '127.0.0.1', 'content-type': 'text/plain', 'content-length': String(inner.length) });
    expect({ status: next.status, headers: JSON.parse(next.body).headers }).toEqual({ status: 200, headers: { host: '127.0.0.1', 'x-second': 'yes' } });
  });

  it('keeps a chunked body chunked when `Connection` names Transfer-Encoding', async () => {
    const port = await start();
    const inner = 'GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Smuggled: yes\r\n\r\n';
    const chunked = `${inner.length.toString(16)}\r\n${inner}\r\n0\r\n\r\n`;
    const head = 'POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, Transfer-Encoding\r\nUpgrade: h2c\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n';
    const [answer, next] = await rawHttpExchange(port, [head + chunked, 'GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Second: yes\r\n\r\n'], 2);
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body).headers).toEqual({ host: '127.0.0.1', 'content-type': 'text/plain', 'transfer-encoding': 'chunked' });
    expect({ status: next.status, headers: JSON.parse(next.body).headers }).toEqual({ status: 200, headers: { host: '127.0.0.1', 'x-second': 'yes' } });
  });

  it('answers every one of several pipelined requests with `Upgrade: h2c`, in order', async () => {
    const port = await start();
    const requests = [1, 2, 3].map((n) => `GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nX-N: ${n}\r\n${H2C_UPGRADE}\r\n`);
    const answers = await rawHttpExchange(port, [requests.join('')], 3);
    expect(answers.map((a) => ({ status: a.status, n: JSON.parse(a.body).headers['x-n'] }))).toEqual([1, 2, 3].map((n) => ({ status: 200, n: String(n) })));
  });

  it('serves any other non-WebSocket upgrade as plain HTTP, keeping `Connection: close`', async () => {
    const port = await start();
    const [answer] = await rawHttpExchange(port, ['GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close, Upgrade\r\nUpgrade: TLS/1.2\r\n\r\n']);
    expect({ status: answer.status, connection: answer.headers['connection'], body: JSON.parse(answer.body) }).toEqual({
      status: 200,
      connection: 'close',
      body: { method: 'GET', headers: { host: '127.0.0.1', connection: 'close' } },
    });
  });

  it('answers a WebSocket upgrade to a path no gateway serves with 404 problem details', async () => {
    const port = await start();
    const [answer] = await rawHttpExchange(port, [
      'GET /ws/nope?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    ]);
    expect(answer).toEqual({
      status: 404,
      headers: { connection: 'close', 'content-type': 'application/problem+json; charset=utf-8', 'content-length': expect.any(String) },
      body: JSON.stringify({ type: 'urn:mobileclaw:error:NOT_FOUND', title: 'Not found', status: 404, detail: 'no WebSocket endpoint at /ws/nope', instance: '/ws/nope', code: 'NOT_FOUND' }),
    });
    await expect(WsRawPhone.connect(`ws://127.0.0.1:${port}/ws/device/x`)).rejects.toThrow('Unexpected server response: 404');
  });

  it('still hands a WebSocket upgrade to its gateway\'s path to that gateway', async () => {
    const port = await start();
    const phone = await WsRawPhone.connect(`ws://127.0.0.1:${port}/ws/device`);
    phones.push(phone);
    expect(phone.isClosed).toBe(false);
  });
});
