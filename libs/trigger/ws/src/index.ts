/**
 * @mobileclaw/trigger-ws: the live event socket for browsers and frontends at `/ws/events` — device
 * and task events as the SSE streams send them, the live screen, `cancel` and `approve`.
 */
export * from './events-socket.options';
export * from './events-socket.messages';
export * from './events-socket-access';
export * from './events-socket.session';
export * from './events-socket.gateway';
export * from './events-socket.module';
