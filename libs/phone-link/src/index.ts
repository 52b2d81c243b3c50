/**
 * @mobileclaw/phone-link: the phone side of wire protocol v1 (docs/protocol.md). {@link PhoneLink}
 * owns the protocol (hello, heartbeat, one response per action, cancel, deadlines, reconnects) over a
 * {@link PhoneWire} (TCP or WebSocket), to one gateway address or several in turn ({@link GatewayRotation}); a
 * {@link PhoneExecutor} performs the commands on a device (the simulator's UI, a phone over adb).
 */
export {
  PhoneLink,
  GatewayRefusedError,
  DEFAULT_FAULTS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  PHONE_LINK_EVENTS,
  type FaultOptions,
  type GatewayRequestOptions,
  type PhoneLinkEvents,
  type PhoneLinkOptions,
  type PhoneLinkSettings,
} from './phone-link';
export { GatewayRequestError } from './gateway-request-error';
export { GatewayRotation, gatewayAddressList, type GatewayAddresses, type NextAttempt } from './gateway-rotation';
export { openPhoneWire, checkGatewayAddress, describeGatewayAddress, type GatewayAddress, type PhoneWire, type PhoneWireEvents } from './phone-wire';
export type { PhoneExecutor, PhoneAction, DeviceDescription } from './phone-executor';
export { PhoneError, type PhoneErrorCode } from './phone-error';
export { FrameRegistry, type FrameGeometry } from './frame-registry';
export { ReconnectBackoff, SYSTEM_RECONNECT_TIMERS, type ReconnectBackoffOptions, type ReconnectTimers, type ScheduledTimer } from './reconnect-backoff';
export { numberArg, optionalNumberArg, stringArg, optionalBooleanArg, describeValue, type ActionArgs } from './action-args';
