import { Module, type DynamicModule } from '@nestjs/common';
import { DEFAULT_EVENTS_SOCKET_OPTIONS, EVENTS_SOCKET_OPTIONS, type EventsSocketOptions } from './events-socket.options';
import { EventsSocketGateway } from './events-socket.gateway';

/**
 * The live event socket as a Nest module. The host provides `TaskService`, `MobileClawService` and
 * `LiveScreenService` (globally), may provide `EventStreamMetrics`, and gives the app a `ws` adapter
 * before it starts (`app.useWebSocketAdapter(new MobileClawWsAdapter(app))` of `@mobileclaw/transport-ws`).
 */
@Module({})
export class EventsSocketModule {
  static forRoot(options: Partial<EventsSocketOptions> = {}): DynamicModule {
    return {
      module: EventsSocketModule,
      providers: [{ provide: EVENTS_SOCKET_OPTIONS, useValue: { ...DEFAULT_EVENTS_SOCKET_OPTIONS, ...options } }, EventsSocketGateway],
    };
  }
}
