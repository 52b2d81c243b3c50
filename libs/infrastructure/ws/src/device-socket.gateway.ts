import type { IncomingMessage } from 'node:http';
import type { Type } from '@nestjs/common';
import { WebSocketGateway, type OnGatewayConnection } from '@nestjs/websockets';
import type { WebSocket } from 'ws';
import type { WsDeviceTransport } from './ws-device-transport';

/**
 * The Nest WebSocket gateway of the device socket, for one transport: `@WebSocketGateway` on the
 * application's HTTP server at `transport.path`, with `ws` reading messages of at most
 * `transport.maxMessageBytes` and leaving UTF-8 checks to the frame decoder (so that a frame decodes
 * exactly as it does on TCP). Upgrades are refused with 503 while the transport is not started, and
 * with 403 when they carry an `Origin` header: phones never send one, every browser page does, so a
 * web page the user visits cannot open a phone's socket to the gateway (cross-site WebSocket
 * hijacking) even where it could guess a device token. Each
 * upgraded socket goes to {@link WsDeviceTransport.connect}; the gateway has no message handlers, the
 * session reads the socket.
 *
 * Gateway options are decorator metadata, fixed when the class is declared: a class per transport
 * carries that transport's limits.
 */
export function deviceSocketGateway(transport: WsDeviceTransport): Type<OnGatewayConnection> {
  @WebSocketGateway({
    path: transport.path,
    maxPayload: transport.maxMessageBytes,
    skipUTF8Validation: true,
    perMessageDeflate: false,
    verifyClient: (info: { origin?: string }, done: (accept: boolean, code?: number, message?: string) => void) => {
      if (!transport.accepting) return done(false, 503, 'not accepting phones');
      if (info.origin !== undefined && info.origin !== '') return done(false, 403, 'a browser page cannot connect as a phone');
      done(true);
    },
  })
  class DeviceSocketGateway implements OnGatewayConnection {
    handleConnection(socket: WebSocket, request: IncomingMessage): void {
      transport.connect(socket, request);
    }
  }
  return DeviceSocketGateway;
}
