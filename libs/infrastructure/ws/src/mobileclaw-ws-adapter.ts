import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { MessageMappingProperties } from '@nestjs/websockets';
import { WsAdapter } from '@nestjs/platform-ws';
import { ERROR_CATALOG, type ErrorCode } from '@mobileclaw/domain';
import type { Observable } from 'rxjs';
import type { WebSocket, WebSocketServer } from 'ws';

/**
 * Nest's `ws` adapter (`WsAdapter` of `@nestjs/platform-ws`: every gateway on the application's HTTP
 * server, told apart by path) for the MobileClaw gateway. Two changes:
 *
 * - A gateway without `@SubscribeMessage` handlers reads its sockets itself, and its messages are not
 *   also parsed by the adapter. The plain `WsAdapter` runs `JSON.parse` on every message of the
 *   device socket for handlers that do not exist — a second parse of every screenshot reply.
 * - Upgrade requests it does not take are answered, never dropped. Once anything listens for
 *   `upgrade`, Node hands it every request with `Connection: upgrade`; the plain adapter destroys
 *   the socket of those no gateway serves. Here a WebSocket upgrade to a path no gateway serves gets
 *   `404` (problem details, `NOT_FOUND`), a malformed request target `400`, and any other upgrade
 *   (`Upgrade: h2c`, which Java's `HttpClient` sends by default) is served by the application as the
 *   HTTP/1.1 request it also is: a server may ignore `Upgrade` (RFC 9110 §7.8). Its framing headers
 *   and `Host` are kept even when `Connection` names them, and such requests pipelined on one
 *   connection are each answered, in order.
 */
export class MobileClawWsAdapter extends WsAdapter {
  override bindMessageHandlers(client: WebSocket, handlers: MessageMappingProperties[], transform: (data: unknown) => Observable<unknown>): void {
    if (handlers.length === 0) return;
    super.bindMessageHandlers(client, handlers, transform);
  }

  protected override ensureHttpServerExists(port: number, httpServer: Server = createServer()): Server | undefined {
    if (this.httpServersRegistry.has(port)) return undefined;
    this.httpServersRegistry.set(port, httpServer);
    const responses = new ConnectionResponses();
    httpServer.on('request', (request: IncomingMessage, response: ServerResponse) => responses.track(request.socket, response));
    httpServer.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => this.routeUpgrade(httpServer, port, request, socket, head, responses));
    return httpServer;
  }

  /** Hands `request` to the WebSocket server at its path, to the application, or answers it with an error. */
  private routeUpgrade(httpServer: Server, port: number, request: IncomingMessage, socket: Duplex, head: Buffer, responses: ConnectionResponses): void {
    if (!isWebSocketUpgrade(request)) {
      // A request pipelined behind others on the connection is served once their answers are out:
      // HTTP/1.1 answers in order, and a connection carries one response at a time.
      responses.whenIdle(socket, () => {
        if (!socket.destroyed) serveAsPlainRequest(httpServer, request, socket, head);
      });
      return;
    }
    let pathname: string;
    try {
      pathname = new URL(request.url ?? '', 'ws://localhost').pathname;
    } catch {
      refuseUpgrade(socket, 400, 'VALIDATION_FAILED', `not a request target: ${JSON.stringify(request.url)}`, request.url ?? '');
      return;
    }
    // Only a normalised origin-form target (`/ws/events?…`) reaches a socket: `/api/../ws/events` or an
    // absolute-form `http://host/ws/events` would pass path rules of a proxy in front, which HTTP routes do not normalise either.
    if (!request.url?.startsWith('/') || request.url.split('?')[0] !== pathname) {
      refuseUpgrade(socket, 400, 'VALIDATION_FAILED', `not a normalised request target: ${JSON.stringify(request.url?.slice(0, 200))}`, pathname);
      return;
    }
    const servers = (this.wsServersRegistry.get(port) ?? []) as (WebSocketServer & { path: string })[];
    const server = servers.find((candidate) => candidate.path === pathname);
    if (!server) {
      refuseUpgrade(socket, 404, 'NOT_FOUND', `no WebSocket endpoint at ${pathname}`, pathname);
      return;
    }
    server.handleUpgrade(request, socket, head, (client) => server.emit('connection', client, request));
  }
}

/**
 * The responses of each connection still being written. Node's HTTP server hands an upgrade request
 * over as soon as its head is read, also when it was pipelined behind a request whose response is not
 * written yet; serving it then would start a second response on the connection while the first still
 * holds it.
 */
class ConnectionResponses {
  private readonly open = new WeakMap<Duplex, number>();
  private readonly waiting = new WeakMap<Duplex, (() => void)[]>();

  track(socket: Duplex, response: ServerResponse): void {
    this.open.set(socket, (this.open.get(socket) ?? 0) + 1);
    let done = false;
    const end = (): void => {
      if (done) return;
      done = true;
      const left = (this.open.get(socket) ?? 1) - 1;
      this.open.set(socket, left);
      if (left > 0) return;
      const waiting = this.waiting.get(socket) ?? [];
      this.waiting.delete(socket);
      for (const run of waiting) run();
    };
    // Registered after the server's own `finish` listener, which frees the connection for the next response.
    response.once('finish', end);
    response.once('close', end);
  }

  /** Runs `run` now when no response of `socket` is being written, else once the last one is. */
  whenIdle(socket: Duplex, run: () => void): void {
    if ((this.open.get(socket) ?? 0) === 0) {
      run();
      return;
    }
    const waiting = this.waiting.get(socket) ?? [];
    waiting.push(run);
    this.waiting.set(socket, waiting);
  }
}

/** Whether `request` asks for a WebSocket (`Upgrade: websocket`, any case, possibly among other protocols). */
function isWebSocketUpgrade(request: IncomingMessage): boolean {
  return (request.headers.upgrade ?? '').split(',').some((protocol) => protocol.trim().toLowerCase() === 'websocket');
}

/** `Connection` tokens that are not names of hop-by-hop headers of the upgrade. */
const CONNECTION_OPTIONS = new Set(['close', 'keep-alive']);

/**
 * The only headers dropped with `Upgrade` and `Connection` when `Connection` names them: hop-by-hop
 * headers of the upgrade itself. Anything else `Connection` names is kept as sent — above all the
 * framing headers (`Content-Length`, `Transfer-Encoding`) and `Host`: without them the body would be
 * read as a second request (request smuggling).
 */
const UPGRADE_HEADERS = new Set(['http2-settings', 'keep-alive']);

/**
 * Serves an upgrade request nobody takes as a plain HTTP/1.1 request, on the same connection: its
 * head is written back without `Upgrade`, `Connection` and the upgrade's own hop-by-hop headers
 * ({@link UPGRADE_HEADERS}, e.g. h2c's `HTTP2-Settings`), and the connection is handed to the HTTP
 * server again (its documented `connection` event), whose parser reads that head, the body and any
 * later requests.
 */
function serveAsPlainRequest(httpServer: Server, request: IncomingMessage, socket: Duplex, head: Buffer): void {
  const connection = (request.headers.connection ?? '')
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '');
  const kept = connection.filter((token) => CONNECTION_OPTIONS.has(token));
  const dropped = new Set(['upgrade', 'connection', ...connection.filter((token) => UPGRADE_HEADERS.has(token))]);
  const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    if (!dropped.has(request.rawHeaders[i].toLowerCase())) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
  }
  if (kept.length > 0) lines.push(`Connection: ${kept.join(', ')}`);
  socket.unshift(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  httpServer.emit('connection', socket);
}

/** Answers an upgrade request with `status` and a problem-details body (as the REST API words errors), then closes the connection. */
function refuseUpgrade(socket: Duplex, status: number, code: ErrorCode, detail: string, instance: string): void {
  const body = JSON.stringify({ type: `urn:mobileclaw:error:${code}`, title: ERROR_CATALOG[code].title, status, detail, instance, code });
  // The client may already be gone: a reset must not become an unhandled 'error' event.
  socket.on('error', () => socket.destroy());
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
