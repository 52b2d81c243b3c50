/**
 * @mobileclaw/transport-ws: phones over WebSocket at `/ws/device` on the gateway's HTTP server, wire
 * protocol v1 as one JSON text message per frame, through the same device sessions as TCP.
 */
export * from './ws-device-transport';
export * from './device-socket.gateway';
export * from './ws-device.module';
export * from './mobileclaw-ws-adapter';
