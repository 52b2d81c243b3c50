import type { IncomingMessage } from 'node:http';
import type { Type } from '@nestjs/common';
import { WebSocketGateway, type OnGatewayConnection } from '@nestjs/websockets';
import type { WebSocket } from 'ws';
import type { WsDeviceTransport } from './ws-device-transport';

/**
 * The Nest WebSocket gateway of the device socket, for one transport: `@WebSocketGateway` on the
 * application's HTTP server at `transport.path`, with `ws` reading messages of at most
 * `transport.maxMessageBytes` and leaving UTF-8 checks to the frame decoder (so that a frame decodes
 * exactly as it does on TCP). Upgrades are refused with 503 while the transport is not started. Each
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
    verifyClient: (_info: unknown, done: (accept: boolean, code?: number, message?: string) => void) =>
      transport.accepting ? done(true) : done(false, 503, 'not accepting phones'),
  })
  class DeviceSocketGateway implements OnGatewayConnection {
    handleConnection(socket: WebSocket, request: IncomingMessage): void {
      transport.connect(socket, request);
    }
  }
  return DeviceSocketGateway;
}
