/** Test doubles for tests of phone-side links and of gateways they talk to. */
export { ManualReconnectTimers } from './manual-reconnect-timers';
export { TestGateway, GatewaySide, type Json, type TestTransport } from './test-gateway';
