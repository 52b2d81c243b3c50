/** A TCP address: host name or IP address, and port. */
export interface HostPort {
  host: string;
  port: number;
}

/**
 * Reads `host:port` (an IPv6 address in brackets, `[::1]:5037`; the host may be omitted, `:5037`,
 * for `defaultHost`).
 * @throws RangeError naming `what` for any other form or a port outside 1–65535.
 */
export function parseHostPort(value: string, what: string, defaultHost = '127.0.0.1'): HostPort {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]\s]*):(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || !(port >= 1 && port <= 65535)) throw new RangeError(`${what} must be host:port (port 1-65535), got ${JSON.stringify(value)}`);
  const host = match[1] === '' ? defaultHost : match[1].replace(/^\[(.*)\]$/, '$1');
  return { host, port };
}
