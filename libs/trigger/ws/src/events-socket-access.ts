import type { IncomingMessage } from 'node:http';
import { ApiTokenCheck } from '@mobileclaw/trigger-rest';

/** Close code of a socket whose API token is missing or wrong (as HTTP 401). */
export const CLOSE_UNAUTHORIZED = 4401;
/**
 * Close code of a socket refused whatever token it sends (as HTTP 403): opened by a page of an origin
 * that is not allowed, or through a proxy while no API token is configured.
 */
export const CLOSE_FORBIDDEN_ORIGIN = 4403;

/** Why a socket is closed right after its upgrade: a close code and a reason (at most 123 bytes, as RFC 6455 allows). */
export interface SocketRefusal {
  code: typeof CLOSE_UNAUTHORIZED | typeof CLOSE_FORBIDDEN_ORIGIN;
  reason: string;
}

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** `scheme://host[:port]` of `text` (lowercase, default port dropped), or undefined when not a URL. */
function originOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * Who may open the event socket. Browsers cannot set headers on a WebSocket, and any page can open
 * one to any host, so two checks apply at the upgrade:
 * - without an API token, the local-only rules first ({@link ApiTokenCheck}): no proxy in between,
 *   else closed with 4403 and the `PROXIED_WITHOUT_API_TOKEN` message; a `Host` that is loopback or
 *   in `allowedHosts`, else closed with 4403 and the reason `HOST_NOT_ALLOWED: host not allowed …`;
 * - the `Origin` a browser sends (against cross-site WebSocket hijacking): no `Origin` (not a
 *   browser), the gateway's own origin (the page it serves: `Origin` names the `Host` the request
 *   was sent to, a `Host` the rule above has checked when there is no token), a loopback host name,
 *   or an entry of `allowedOrigins` — a host name (any scheme and port) or an origin
 *   (`https://app.example.com:8443`, exactly);
 * - the API token, by the REST API's rule ({@link ApiTokenCheck}): `Authorization: Bearer <token>`,
 *   or `?access_token=<token>` on the upgrade URL (a GET) for browsers. Open when no token is set.
 */
export class EventsSocketAccess {
  private readonly token: ApiTokenCheck;
  private readonly hostnames: Set<string>;
  private readonly origins: Set<string>;

  constructor(options: { apiToken?: string; allowedOrigins?: string[]; allowedHosts?: string[] }) {
    this.token = new ApiTokenCheck(options.apiToken, options.allowedHosts);
    const entries = options.allowedOrigins ?? [];
    this.hostnames = new Set([...LOOPBACK_HOSTNAMES, ...entries.filter((e) => !e.includes('://')).map((e) => e.toLowerCase())]);
    this.origins = new Set(entries.flatMap((e) => (e.includes('://') ? [originOf(e)?.origin ?? e] : [])));
  }

  /** Why the upgrade `request` must be refused, or undefined when it may go on. */
  refusal(request: Pick<IncomingMessage, 'headers' | 'url' | 'method'>): SocketRefusal | undefined {
    // Without a token, the local-only rules go first: the "gateway's own origin" below trusts `Host`,
    // which only a host check makes trustworthy (a DNS-rebinding page sends its own name in both).
    // One check, read two ways: without a token its refusals are the local-only rules', with one the token's.
    const refused = this.token.refusal({ method: request.method ?? 'GET', headers: request.headers, url: request.url });
    const local = this.token.required ? undefined : refused;
    if (local) {
      // A close reason holds at most 123 bytes: the host rule's own message quotes the host, so it gets a fixed text.
      return { code: CLOSE_FORBIDDEN_ORIGIN, reason: local.code === 'HOST_NOT_ALLOWED' ? `${local.code}: host not allowed without an API token (MOBILECLAW_ALLOWED_HOSTS)` : local.message };
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !this.originAllowed(origin, request.headers.host)) {
      return { code: CLOSE_FORBIDDEN_ORIGIN, reason: 'origin not allowed (MOBILECLAW_CORS_ORIGINS)' };
    }
    if (refused) return { code: CLOSE_UNAUTHORIZED, reason: `unauthorized: ${refused.message.replace('"Authorization: Bearer <token>" header', 'API token (Bearer header or access_token)')}` };
    return undefined;
  }

  private originAllowed(origin: string, host: string | undefined): boolean {
    const url = originOf(origin);
    if (!url) return false;
    if (host !== undefined && url.host === host.toLowerCase()) return true;
    return this.hostnames.has(url.hostname) || this.origins.has(url.origin);
  }
}
