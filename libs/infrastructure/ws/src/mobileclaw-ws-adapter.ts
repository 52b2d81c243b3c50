import type { MessageMappingProperties } from '@nestjs/websockets';
import { WsAdapter } from '@nestjs/platform-ws';
import type { Observable } from 'rxjs';
import type { WebSocket } from 'ws';

/**
 * Nest's `ws` adapter (`WsAdapter` of `@nestjs/platform-ws`: every gateway on the application's HTTP
 * server, told apart by path) for the MobileClaw gateway. One change: a gateway without
 * `@SubscribeMessage` handlers reads its sockets itself, and its messages are not also parsed by the
 * adapter. The plain `WsAdapter` works too, but runs `JSON.parse` on every message of the device
 * socket for handlers that do not exist — a second parse of every screenshot reply.
 */
export class MobileClawWsAdapter extends WsAdapter {
  override bindMessageHandlers(client: WebSocket, handlers: MessageMappingProperties[], transform: (data: unknown) => Observable<unknown>): void {
    if (handlers.length === 0) return;
    super.bindMessageHandlers(client, handlers, transform);
  }
}
