import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { MessageMappingProperties } from '@nestjs/websockets';
import { WsAdapter } from '@nestjs/platform-ws';
import type { Observable } from 'rxjs';
import type { WebSocket, WebSocketServer } from 'ws';

/** What an upgrade request for a path no gateway serves is answered: a plain 404, as Express answers an unknown route. */
const NOT_FOUND = 'HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/**
 * Nest's `ws` adapter (`WsAdapter` of `@nestjs/platform-ws`: every gateway on the application's HTTP
 * server, told apart by path) for the MobileClaw gateway. Two changes:
 * - a gateway without `@SubscribeMessage` handlers reads its sockets itself, and its messages are not
 *   also parsed by the adapter. The plain `WsAdapter` works too, but runs `JSON.parse` on every
 *   message of the device socket for handlers that do not exist — a second parse of every screenshot reply;
 * - an upgrade request for a path no gateway serves (e.g. `/ws/device` with the phones' socket
 *   turned off) is answered 404 instead of having its connection dropped, so a client learns why.
 */
export class MobileClawWsAdapter extends WsAdapter {
  override bindMessageHandlers(client: WebSocket, handlers: MessageMappingProperties[], transform: (data: unknown) => Observable<unknown>): void {
    if (handlers.length === 0) return;
    super.bindMessageHandlers(client, handlers, transform);
  }

  protected override ensureHttpServerExists(port: number, httpServer: Server = createServer()): Server | undefined {
    if (this.httpServersRegistry.has(port)) return undefined;
    this.httpServersRegistry.set(port, httpServer);
    httpServer.on('upgrade', (request, socket: Duplex, head: Buffer) => {
      let pathname: string;
      try {
        pathname = new URL(request.url ?? '/', 'ws://localhost/').pathname;
      } catch {
        socket.end(NOT_FOUND);
        return;
      }
      const servers = (this.wsServersRegistry.get(port) ?? []) as (WebSocketServer & { path: string })[];
      const server = servers.find((s) => s.path === pathname);
      if (!server) {
        socket.end(NOT_FOUND);
        return;
      }
      server.handleUpgrade(request, socket, head, (ws) => server.emit('connection', ws, request));
    });
    return httpServer;
  }
}
