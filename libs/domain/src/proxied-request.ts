import { MobileClawError } from './errors';

/**
 * The request headers by which an HTTP proxy announces itself (RFC 7239 `Forwarded` and the de facto
 * `X-Forwarded-*`/`X-Real-IP`), lowercase as Node gives them. nginx adds them only when configured
 * to (`proxy_set_header`); Caddy, Traefik and most load balancers add `X-Forwarded-For` on their own.
 */
export const PROXY_FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip'] as const;

/** A request's headers as Node's `IncomingHttpHeaders` holds them: lowercase names, repeated ones as arrays. */
export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The first {@link PROXY_FORWARDING_HEADERS} name `headers` carries (even with an empty value), or undefined when none. */
export function forwardingHeaderOf(headers: RequestHeaders): (typeof PROXY_FORWARDING_HEADERS)[number] | undefined {
  return PROXY_FORWARDING_HEADERS.find((name) => headers[name] !== undefined);
}

/**
 * The one rule every face of the gateway (REST, SSE, the event socket, MCP) applies when no API
 * token is configured: a request that came through a proxy is refused. Without a token the gateway
 * trusts whoever reaches it, which is safe only while it listens on loopback for local clients; a
 * reverse proxy on the same machine also connects from loopback, so every stranger who reaches the
 * proxy would look local. Forwarding headers are the one sign of a proxy the gateway can see.
 * @param apiTokenConfigured true when `MOBILECLAW_API_TOKEN` is set: the token rules apply instead and this returns undefined.
 * @returns MobileClawError `PROXIED_WITHOUT_API_TOKEN` naming the header found, or undefined when the request may go on.
 */
export function proxiedRequestRefusal(headers: RequestHeaders, apiTokenConfigured: boolean): MobileClawError | undefined {
  if (apiTokenConfigured) return undefined;
  const header = forwardingHeaderOf(headers);
  if (header === undefined) return undefined;
  return new MobileClawError('PROXIED_WITHOUT_API_TOKEN', `this request came through a proxy (${forwardingHeaderLabel(header)} header); set MOBILECLAW_API_TOKEN to serve it`);
}

/** `x-forwarded-for` → `X-Forwarded-For`, `x-real-ip` → `X-Real-IP`: a forwarding header's name as people write it, for messages. */
export function forwardingHeaderLabel(header: (typeof PROXY_FORWARDING_HEADERS)[number]): string {
  if (header === 'x-real-ip') return 'X-Real-IP';
  return header.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}
