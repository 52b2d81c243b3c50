import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { MobileClawError, localOnlyRefusal, type LocalOnlyPolicy, type MemoryScopeGrant } from '@mobileclaw/domain';

/** What {@link ApiTokenCheck} reads of a request. */
export interface TokenBearingRequest {
  method?: string;
  headers: IncomingHttpHeaders;
  /** The path and query as received, e.g. `/api/tasks?access_token=…`. */
  url?: string;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * A token of `MOBILECLAW_SCOPED_TOKENS`: it reaches the memory API (`/api/memory…`) of the scopes it
 * names and nothing else; every other route needs the API token itself.
 */
export interface ScopedApiToken {
  /** Shown in refusals and logs instead of the token, e.g. `crm-desk`. */
  name: string;
  /** The bearer token itself, at least 16 characters; or `sha256` instead. */
  token?: string;
  /** The SHA-256 of the token (64 hex digits), so that the configuration need not hold the token. */
  sha256?: string;
  /** The memory scopes it reaches ({@link MemoryScopeGrant}): `device:sim-1`, `context:crm-*`. */
  scopes: MemoryScopeGrant;
}

/** Who a request is authorized as: `full` (the API token, or anyone the local-only rules let through when none is set) or a scoped token. */
export type ApiCaller = { kind: 'full' } | { kind: 'scoped'; name: string; scopes: MemoryScopeGrant };

const FULL_CALLER: ApiCaller = Object.freeze({ kind: 'full' });

/** The callers recorded by the guards for the request they let through ({@link recordApiCaller}). */
const callers = new WeakMap<object, ApiCaller>();

/** Records who `request` is authorized as, for {@link apiCallerOf}. */
export function recordApiCaller(request: object, caller: ApiCaller): void {
  callers.set(request, caller);
}

/**
 * Who `request` was authorized as by a guard that admits scoped tokens.
 * @throws MobileClawError `UNAUTHORIZED` when no such guard ran for it: a route that reads the caller
 *   and is not guarded is a wiring mistake, and must not fall open.
 */
export function apiCallerOf(request: object): ApiCaller {
  const caller = callers.get(request);
  if (!caller) throw new MobileClawError('UNAUTHORIZED', 'the request was not authorized');
  return caller;
}

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
  private readonly scoped: { digest: Buffer; caller: ApiCaller }[];

  /**
   * @param apiToken undefined or empty: every request the local-only rules let through is authorized.
   * @param allowedHosts host names served besides loopback ones when no token is set (`MOBILECLAW_ALLOWED_HOSTS`).
   * @param scopedTokens tokens that reach only the memory API of their scopes ({@link callerOf}).
   * @throws Error when `scopedTokens` are given without `apiToken`.
   */
  constructor(apiToken: string | undefined, allowedHosts: readonly string[] = [], scopedTokens: readonly ScopedApiToken[] = []) {
    this.expected = apiToken ? digest(apiToken) : undefined;
    this.localOnly = { apiTokenConfigured: this.expected !== undefined, allowedHosts };
    if (scopedTokens.length > 0 && this.expected === undefined) {
      throw new Error('scoped API tokens need the API token: without it the API is open to every local caller, and a scoped token would restrict nothing');
    }
    this.scoped = scopedTokens.map((each) => ({
      digest: each.sha256 !== undefined ? Buffer.from(each.sha256, 'hex') : digest(each.token ?? ''),
      caller: Object.freeze({ kind: 'scoped', name: each.name, scopes: Object.freeze([...each.scopes]) }),
    }));
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
    const caller = this.callerOf(request);
    if (caller instanceof MobileClawError) return caller;
    return caller.kind === 'scoped' ? scopedTokenRefusal(caller.name) : undefined;
  }

  /**
   * Who `request` is authorized as — the API token or a scoped token — or why it is refused, as
   * {@link refusal} says (a scoped token is not refused here: the route decides what it may reach).
   * Every configured token is compared, in constant time each, whichever matches.
   */
  callerOf(request: TokenBearingRequest): ApiCaller | MobileClawError {
    if (this.expected === undefined) return localOnlyRefusal(request.headers, this.localOnly) ?? FULL_CALLER;
    const match = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '');
    const query = !match && request.method === 'GET' ? accessTokenOf(request.url ?? '') : undefined;
    const sent = match ? match[1].trim() : query;
    if (sent) {
      const sentDigest = digest(sent);
      let caller: ApiCaller | undefined = timingSafeEqual(sentDigest, this.expected) ? FULL_CALLER : undefined;
      for (const each of this.scoped) if (timingSafeEqual(sentDigest, each.digest) && !caller) caller = each.caller;
      if (caller) return caller;
    }
    return new MobileClawError('UNAUTHORIZED', sent !== undefined ? 'invalid API token' : 'missing "Authorization: Bearer <token>" header');
  }
}

/** Why the scoped token `name` is refused where only the API token is accepted: `TOKEN_SCOPE_FORBIDDEN`, naming the token, never quoting it. */
export function scopedTokenRefusal(name: string): MobileClawError {
  return new MobileClawError('TOKEN_SCOPE_FORBIDDEN', `the API token ${JSON.stringify(name)} is scoped: it reaches only /api/memory of its scopes; this needs MOBILECLAW_API_TOKEN`);
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
