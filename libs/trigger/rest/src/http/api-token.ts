import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { MobileClawError, localOnlyRefusal, type LocalOnlyPolicy } from '@mobileclaw/domain';

/** What {@link ApiTokenCheck} reads of a request. */
export interface TokenBearingRequest {
  method?: string;
  headers: IncomingHttpHeaders;
  /** The path and query as received, e.g. `/api/tasks?access_token=…`. */
  url?: string;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** The query parameter that carries the API token where headers cannot be set (RFC 6750 §2.3). */
export const ACCESS_TOKEN_PARAM = 'access_token';

/**
 * "Is this request authorized": the one bearer-token rule of the REST API, shared by the middleware
 * that runs before the body is read ({@link apiTokenMiddleware}) and the controllers' guard. The
 * token is compared in constant time (SHA-256 digests of equal length). GETs may carry it as
 * `?access_token=` instead of the header: EventSource and `<img>` cannot send headers. With no token
 * configured, the gateway's local-only rules apply instead ({@link localOnlyRefusal}: no proxy in between, and
 * a `Host` that is loopback or allowed, against DNS rebinding).
 */
export class ApiTokenCheck {
  private readonly expected: Buffer | undefined;
  private readonly localOnly: LocalOnlyPolicy;

  /**
   * @param apiToken undefined or empty: every request the local-only rules let through is authorized.
   * @param allowedHosts host names served besides loopback ones when no token is set (`MOBILECLAW_ALLOWED_HOSTS`).
   */
  constructor(apiToken: string | undefined, allowedHosts: readonly string[] = []) {
    this.expected = apiToken ? digest(apiToken) : undefined;
    this.localOnly = { apiTokenConfigured: this.expected !== undefined, allowedHosts };
  }

  /** True when a token is configured. */
  get required(): boolean {
    return this.expected !== undefined;
  }

  /**
   * Why `request` is refused, or undefined when it is authorized.
   * @returns MobileClawError `UNAUTHORIZED`: "invalid API token" when one was sent (header, or
   *   `?access_token=` on a GET) and does not match, else "missing … header"; with no token
   *   configured, `PROXIED_WITHOUT_API_TOKEN` when the request carries forwarding headers and
   *   `HOST_NOT_ALLOWED` when `Host` is neither loopback nor allowed.
   */
  refusal(request: TokenBearingRequest): MobileClawError | undefined {
    if (this.expected === undefined) return localOnlyRefusal(request.headers, this.localOnly);
    const match = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '');
    const query = !match && request.method === 'GET' ? accessTokenOf(request.url ?? '') : undefined;
    const sent = match ? match[1].trim() : query;
    if (sent && timingSafeEqual(digest(sent), this.expected)) return undefined;
    return new MobileClawError('UNAUTHORIZED', sent !== undefined ? 'invalid API token' : 'missing "Authorization: Bearer <token>" header');
  }
}

/** The `access_token` query parameter of `url`: undefined when absent, `''` (matches nothing) when repeated. */
function accessTokenOf(url: string): string | undefined {
  const start = url.indexOf('?');
  if (start < 0) return undefined;
  const values = new URLSearchParams(url.slice(start + 1)).getAll(ACCESS_TOKEN_PARAM);
  if (values.length === 0) return undefined;
  return values.length === 1 ? values[0] : '';
}

/**
 * `url` (a path with an optional query, as in `request.originalUrl`) without its `access_token`
 * parameters, so that a credential is never echoed in answers or logs. Other parameters keep their
 * order and spelling; a query left empty loses its `?`.
 */
export function withoutAccessToken(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const hash = url.indexOf('#', start);
  const query = url.slice(start + 1, hash < 0 ? undefined : hash);
  const kept = query.split('&').filter((pair) => decodeName(pair.split('=')[0]) !== ACCESS_TOKEN_PARAM);
  if (kept.length === query.split('&').length) return url;
  return url.slice(0, start) + (kept.length > 0 ? `?${kept.join('&')}` : '') + (hash < 0 ? '' : url.slice(hash));
}

/** A query parameter name as `URLSearchParams` reads it (`+` is a space, `%xx` decoded). */
function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}
