import { isIP } from 'node:net';

/** Where phones reach the device port, as configured (`MOBILECLAW_PAIRING_ADDRESS`). */
export interface PairingAddress {
  /** Host name, IPv4 address or IPv6 address (without brackets). */
  host: string;
  /** undefined = the gateway's own device port. */
  port?: number;
  /** True for `tls://…`: a TLS-terminating proxy is in front of the device port. */
  tls: boolean;
}

/** A DNS name as the Android app accepts it: letters, digits, dots and hyphens, at most 253 characters. */
const HOST_NAME = /^[A-Za-z0-9.-]{1,253}$/;

/**
 * Reads a pairing address: `host`, `host:port`, `[ipv6]:port`, each optionally prefixed `tcp://` (the
 * default) or `tls://` (a TLS-terminating proxy in front of the device port, e.g. `tls://gw.example.org:443`).
 * The host must be a DNS name (letters, digits, `.`, `-`) or an IP address: what the phone app accepts.
 * @throws RangeError naming `what` and the value for any other form, or a port outside 1–65535.
 */
export function parsePairingAddress(value: string, what = 'MOBILECLAW_PAIRING_ADDRESS'): PairingAddress {
  const refuse = () => new RangeError(`${what} must be host, host:port or tls://host:port (port 1-65535), got ${JSON.stringify(value)}`);
  const match = /^(?:(tcp|tls):\/\/)?(\[[^\]]+\]|[^:/[\]]+|[0-9A-Fa-f:.]+)(?::(\d{1,5}))?$/i.exec(value.trim());
  if (!match) throw refuse();
  const [, scheme, rawHost, rawPort] = match;
  const bracketed = rawHost.startsWith('[');
  const host = bracketed ? rawHost.slice(1, -1) : rawHost;
  // A bare IPv6 address cannot carry a port (its last group would read as one): brackets are needed then.
  if (bracketed ? isIP(host) !== 6 : host.includes(':') ? rawPort !== undefined || isIP(host) !== 6 : !HOST_NAME.test(host)) throw refuse();
  const port = rawPort === undefined ? undefined : Number(rawPort);
  if (port !== undefined && !(port >= 1 && port <= 65535)) throw refuse();
  return { host, port, tls: scheme?.toLowerCase() === 'tls' };
}
