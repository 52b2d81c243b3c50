import { Module, type DynamicModule } from '@nestjs/common';
import { deviceSocketGateway } from './device-socket.gateway';
import type { WsDeviceTransport } from './ws-device-transport';

/**
 * Serves phones over WebSocket on the application's HTTP server: import
 * `WsDeviceModule.forRoot(ws)` next to `MobileClawModule.forRoot({transports: [..., ws]})` with the
 * same {@link WsDeviceTransport}, and give the app a `ws` adapter before it starts
 * (`app.useWebSocketAdapter(new MobileClawWsAdapter(app))`). Other WebSocket gateways of the app
 * (e.g. a live event socket at another path) share the same HTTP server and adapter.
 */
@Module({})
export class WsDeviceModule {
  static forRoot(transport: WsDeviceTransport): DynamicModule {
    return { module: WsDeviceModule, providers: [deviceSocketGateway(transport)] };
  }
}
