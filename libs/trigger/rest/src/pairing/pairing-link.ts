/** The scheme and host of a pairing link: the Android app's intent filter opens `mobileclaw://pair`. */
export const PAIRING_LINK_PREFIX = 'mobileclaw://pair';

/** What a phone needs to connect: the gateway's device port, its device token, and whether TLS wraps the link. */
export interface PairingTarget {
  /** Host name, IPv4 address or IPv6 address (without brackets) the phone connects to. */
  host: string;
  /** TCP port, 1–65535. */
  port: number;
  /** The gateway's device token. */
  token: string;
  /** True when a TLS-terminating proxy is in front of the device port (the app then speaks TLS). */
  tls: boolean;
}

/**
 * The pairing link the Android app accepts (`PairingLink.parse` in `android/core`):
 * `mobileclaw://pair?host=<host>&port=<port>&token=<token>`, then `&tls=1` when `tls`. Values are
 * form-encoded (WHATWG `application/x-www-form-urlencoded`, a space as `%20`), which is exactly the
 * app's own canonical form (`PairingLink.toUri()`, Java's `URLEncoder`): `docs/pairing-link-vectors.json`
 * holds the cases both sides check.
 */
export function pairingLink(target: PairingTarget): string {
  const params = new URLSearchParams({ host: target.host, port: String(target.port), token: target.token });
  if (target.tls) params.set('tls', '1');
  // URLSearchParams writes a space as `+`; `%20` reads the same everywhere, `+` only in form decoders.
  return `${PAIRING_LINK_PREFIX}?${params.toString().replace(/\+/g, '%20')}`;
}
