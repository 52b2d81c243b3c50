import { createServer, STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
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
 *   HTTP/1.1 request it also is: a server may ignore `Upgrade` (RFC 9110 §7.8).
 */
export class MobileClawWsAdapter extends WsAdapter {
  override bindMessageHandlers(client: WebSocket, handlers: MessageMappingProperties[], transform: (data: unknown) => Observable<unknown>): void {
    if (handlers.length === 0) return;
    super.bindMessageHandlers(client, handlers, transform);
  }

  protected override ensureHttpServerExists(port: number, httpServer: Server = createServer()): Server | undefined {
    if (this.httpServersRegistry.has(port)) return undefined;
    this.httpServersRegistry.set(port, httpServer);
    httpServer.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => this.routeUpgrade(httpServer, port, request, socket, head));
    return httpServer;
  }

  /** Hands `request` to the WebSocket server at its path, to the application, or answers it with an error. */
  private routeUpgrade(httpServer: Server, port: number, request: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (!isWebSocketUpgrade(request)) {
      serveAsPlainRequest(httpServer, request, socket, head);
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

/** Whether `request` asks for a WebSocket (`Upgrade: websocket`, any case, possibly among other protocols). */
function isWebSocketUpgrade(request: IncomingMessage): boolean {
  return (request.headers.upgrade ?? '').split(',').some((protocol) => protocol.trim().toLowerCase() === 'websocket');
}

/** `Connection` tokens that are not names of hop-by-hop headers of the upgrade. */
const CONNECTION_OPTIONS = new Set(['close', 'keep-alive']);

/**
 * Serves an upgrade request nobody takes as a plain HTTP/1.1 request, on the same connection: its
 * head is written back without `Upgrade` and the headers `Connection` names for it (e.g. h2c's
 * `HTTP2-Settings`), and the connection is handed to the HTTP server again (its documented
 * `connection` event), whose parser reads that head, the body and any later requests.
 */
function serveAsPlainRequest(httpServer: Server, request: IncomingMessage, socket: Duplex, head: Buffer): void {
  const connection = (request.headers.connection ?? '')
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '');
  const kept = connection.filter((token) => CONNECTION_OPTIONS.has(token));
  const dropped = new Set(['upgrade', 'connection', ...connection.filter((token) => !CONNECTION_OPTIONS.has(token))]);
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
