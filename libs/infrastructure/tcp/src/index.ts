/** @mobileclaw/transport-tcp: phones over TCP, wire protocol v1 as `\n`-terminated JSON lines. */
export * from './tcp-device-transport';
