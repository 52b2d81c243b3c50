import type { IncomingMessage } from 'node:http';
import { Inject, Optional, type OnModuleDestroy } from '@nestjs/common';
import { WebSocketGateway, type OnGatewayConnection } from '@nestjs/websockets';
import type { WebSocket } from 'ws';
import { LiveScreenService } from '@mobileclaw/case-device-control';
import { TaskService } from '@mobileclaw/case-tasks';
import { EventStreamMetrics, MobileClawService, NoEventStreamMetrics } from '@mobileclaw/domain';
import { EventsSocketAccess } from './events-socket-access';
import { EVENTS_SOCKET_MAX_MESSAGE_BYTES, EVENTS_SOCKET_OPTIONS, EVENTS_SOCKET_PATH, type EventsSocketOptions } from './events-socket.options';
import { EventsSocketSession } from './events-socket.session';

/** How often a screen frame held back by a backed-up socket is tried again, ms. */
const FRAME_RETRY_MS = 50;

/**
 * The live event socket, `/ws/events`: a Nest `@WebSocketGateway` on the application's HTTP server
 * and `ws` adapter (the one the phones' socket uses). Each upgraded socket passes the origin and token
 * checks ({@link EventsSocketAccess}; refused: closed at once with 4403 or 4401 and a reason), then
 * becomes an {@link EventsSocketSession}. The gateway has no `@SubscribeMessage` handlers: sessions
 * read their sockets (JSON messages of their own schema, not Nest's `{event, data}`). Clients are
 * counted as event-stream clients of kind `socket`, pinged every `pingIntervalMs`, and dropped when
 * they miss a pong.
 */
@WebSocketGateway({ path: EVENTS_SOCKET_PATH, maxPayload: EVENTS_SOCKET_MAX_MESSAGE_BYTES, perMessageDeflate: false })
export class EventsSocketGateway implements OnGatewayConnection, OnModuleDestroy {
  private readonly access: EventsSocketAccess;
  private readonly alive = new Map<WebSocket, boolean>();
  private readonly ping: NodeJS.Timeout;

  constructor(
    @Inject(EVENTS_SOCKET_OPTIONS) private readonly options: EventsSocketOptions,
    private readonly tasks: TaskService,
    private readonly phones: MobileClawService,
    private readonly screens: LiveScreenService,
    @Optional() private readonly metrics: EventStreamMetrics = new NoEventStreamMetrics(),
  ) {
    this.access = new EventsSocketAccess(options);
    this.ping = setInterval(() => this.pingClients(), options.pingIntervalMs);
    this.ping.unref();
  }

  handleConnection(socket: WebSocket, request: IncomingMessage): void {
    const refusal = this.access.refusal(request);
    if (refusal) {
      socket.close(refusal.code, refusal.reason);
      return;
    }
    this.metrics.clientConnected('socket');
    this.alive.set(socket, true);
    socket.on('pong', () => this.alive.set(socket, true));
    const session = new EventsSocketSession(socket, { tasks: this.tasks, phones: this.phones, screens: this.screens }, {
      maxMessageBytes: EVENTS_SOCKET_MAX_MESSAGE_BYTES,
      maxBufferedBytes: this.options.maxBufferedBytes,
      frameRetryMs: FRAME_RETRY_MS,
    });
    socket.on('close', () => {
      session.close();
      this.alive.delete(socket);
      this.metrics.clientDisconnected('socket');
    });
  }

  onModuleDestroy(): void {
    clearInterval(this.ping);
  }

  private pingClients(): void {
    for (const [socket, answered] of this.alive) {
      if (!answered) {
        socket.terminate();
        continue;
      }
      this.alive.set(socket, false);
      socket.ping();
    }
  }
}
