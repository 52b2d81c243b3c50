import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { MobileClawError, proxiedRequestRefusal } from '@mobileclaw/domain';

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
 * configured, a request that came through a proxy (forwarding headers) is refused
 * ({@link proxiedRequestRefusal}): only local clients are trusted without a token.
 */
export class ApiTokenCheck {
  private readonly expected: Buffer | undefined;

  /** @param apiToken undefined or empty: every request is authorized, unless it came through a proxy. */
  constructor(apiToken: string | undefined) {
    this.expected = apiToken ? digest(apiToken) : undefined;
  }

  /** True when a token is configured. */
  get required(): boolean {
    return this.expected !== undefined;
  }

  /**
   * Why `request` is refused, or undefined when it is authorized.
   * @returns MobileClawError `UNAUTHORIZED`: "invalid API token" when one was sent (header, or
   *   `?access_token=` on a GET) and does not match, else "missing … header";
   *   `PROXIED_WITHOUT_API_TOKEN` when no token is configured and the request carries forwarding headers.
   */
  refusal(request: TokenBearingRequest): MobileClawError | undefined {
    if (this.expected === undefined) return proxiedRequestRefusal(request.headers, false);
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
