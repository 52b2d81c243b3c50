/** Test doubles for tests of the WebSocket device transport and of gateways that serve it. */
export { WsRawPhone, type ReceivedFrame } from './ws-raw-phone';
export { startWsDeviceGateway, type WsDeviceGateway } from './ws-device-gateway';
export { rawHttpExchange, type RawHttpResponse } from './raw-http';
