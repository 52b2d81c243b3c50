import { MobileClawError } from './errors';
import { proxiedRequestRefusal } from './proxied-request';

/** A request's headers as Node's `IncomingHttpHeaders` holds them: lowercase names, repeated ones as arrays. */
export type LocalOnlyHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Longest host name DNS allows, in characters (RFC 1035 §2.3.4). */
export const MAX_HOST_NAME_CHARS = 253;

/** Longest part of a client's `Host` quoted back in an error message, in characters. */
const ECHO_MAX_CHARS = 100;

/**
 * What the rules for a gateway without an API token need to know. Without a token the gateway trusts
 * whoever reaches it, which is safe only for clients on this machine; {@link localOnlyRefusal} keeps
 * it that way.
 */
export interface LocalOnlyPolicy {
  /** True when `MOBILECLAW_API_TOKEN` is set: the token is the defence, and {@link localOnlyRefusal} refuses nothing. */
  apiTokenConfigured: boolean;
  /**
   * Host names served besides loopback ones (`MOBILECLAW_ALLOWED_HOSTS`), in any form
   * {@link hostNameOf} reads; compared after that normalisation, any port.
   */
  allowedHosts: readonly string[];
}

/**
 * The host name of a `Host` header or host entry (`name[:port]`, `[v6][:port]`), normalised as a
 * browser's URL parser does: lowercase, one trailing dot dropped, IPv4 in any textual form as a
 * dotted quad (`127.1`, `0x7f000001`, `2130706433` → `127.0.0.1`), IPv6 compressed in brackets
 * (`[::ffff:127.0.0.1]` → `[::ffff:7f00:1]`).
 * @returns undefined when `header` is not a host with an optional port (a path, user info, spaces,
 *   an empty name), or its name is longer than {@link MAX_HOST_NAME_CHARS}.
 */
export function hostNameOf(header: string): string | undefined {
  if (header === '' || /[\s/\\?#@]/.test(header)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${header}/`);
  } catch {
    return undefined;
  }
  const name = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  if (name === '' || name.length > MAX_HOST_NAME_CHARS || url.pathname !== '/') return undefined;
  return name;
}

/**
 * True for a normalised host name ({@link hostNameOf}) that means "this machine" to whoever uses it
 * and that no DNS answer can redirect: `localhost` and its subdomains (RFC 6761 §6.3: browsers
 * resolve them to loopback themselves), 127.0.0.0/8, `[::1]`, and IPv4-mapped loopback
 * (`[::ffff:7f00:1]`). The unspecified addresses (`0.0.0.0`, `[::]`) are not loopback names.
 */
export function isLoopbackHostName(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name === '[::1]') return true;
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}\]$/.exec(name);
  if (mapped) return mapped[1].length === 4 && mapped[1].startsWith('7f');
  return /^\d+\.\d+\.\d+\.\d+$/.test(name) && name.startsWith('127.');
}

/**
 * Why a request must be refused for its `Host` header, or undefined when it may go on: the defence
 * against DNS rebinding (a web page that points its own domain at 127.0.0.1 reaches the gateway
 * with its domain in `Host`). Without an API token only loopback hosts ({@link isLoopbackHostName})
 * and the policy's allowed hosts are served, with any port; a request without `Host` (HTTP/1.0, not
 * a browser) passes. With a token configured, `Host` is not restricted.
 * @returns MobileClawError `HOST_NOT_ALLOWED` naming the host (cut to 100 characters) and the setting.
 */
export function hostNotAllowedRefusal(headers: LocalOnlyHeaders, policy: LocalOnlyPolicy): MobileClawError | undefined {
  if (policy.apiTokenConfigured) return undefined;
  const raw = headers['host'];
  if (raw === undefined) return undefined;
  const header = typeof raw === 'string' ? raw : raw.join(',');
  const name = hostNameOf(header);
  if (name !== undefined && (isLoopbackHostName(name) || policy.allowedHosts.some((entry) => hostNameOf(entry) === name))) return undefined;
  const shown = header.length > ECHO_MAX_CHARS ? `${header.slice(0, ECHO_MAX_CHARS)}…` : header;
  return new MobileClawError(
    'HOST_NOT_ALLOWED',
    `Host ${JSON.stringify(shown)} is not allowed: without MOBILECLAW_API_TOKEN only loopback hosts (localhost, 127.0.0.1, [::1]) and those in MOBILECLAW_ALLOWED_HOSTS are served`,
  );
}

/**
 * The rules every face of the gateway (REST, SSE, the event socket, MCP) applies to a request before
 * anything else when no API token is configured, so that only clients on this machine (or on the
 * hosts the operator allowed) are trusted: no proxy in between ({@link proxiedRequestRefusal}: a
 * reverse proxy on this machine makes every stranger look local), then the `Host` rule
 * ({@link hostNotAllowedRefusal}: against DNS rebinding).
 * Each face calls this one function, so a further rule of the same kind is added here, once.
 * @returns the first rule's refusal (a MobileClawError with a stable code), or undefined.
 */
export function localOnlyRefusal(headers: LocalOnlyHeaders, policy: LocalOnlyPolicy): MobileClawError | undefined {
  return proxiedRequestRefusal(headers, policy.apiTokenConfigured) ?? hostNotAllowedRefusal(headers, policy);
}
