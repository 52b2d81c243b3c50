/**
 * @mobileclaw/device: device sessions independent of the transport (handshake, request-id
 * correlation, per-phone queue, deadlines, heartbeat), the {@link DeviceHub} that implements the
 * `MobileClawService` port, the `DeviceTransport` seam transports plug into, and `MobileClawModule`.
 */
export * from './options';
export * from './frame-transport';
export * from './pending-request';
export * from './device-session';
export * from './device-hub';
export * from './replacement-flap-detector';
export * from './mobileclaw.module-definition';
export * from './mobileclaw.module';
export * from './phone-requests';
