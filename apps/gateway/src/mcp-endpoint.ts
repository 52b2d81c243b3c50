/** Where a gateway's MCP endpoint is, and whether it answers. No MCP message is sent here. */

/** Thrown by {@link mcpEndpointUrl} for a value that is not an http(s) URL. */
export class InvalidGatewayUrlError extends Error {
  readonly code = 'INVALID_GATEWAY_URL';
  constructor(readonly value: string) {
    super(`not an http:// or https:// URL: ${JSON.stringify(value)}`);
    this.name = 'InvalidGatewayUrlError';
  }
}

/**
 * The MCP endpoint for a gateway URL given either way: the base URL (`http://host:3000`, or a path
 * prefix behind a proxy, `https://host/claw`) gets `/mcp` appended; a URL whose path already ends in
 * `/mcp` is kept. Query and fragment are dropped.
 * @throws InvalidGatewayUrlError when `value` does not parse or is not http/https.
 */
export function mcpEndpointUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidGatewayUrlError(value);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidGatewayUrlError(value);
  url.search = '';
  url.hash = '';
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/mcp') ? path : `${path}/mcp`;
  return url;
}

/** Why the endpoint cannot be used: nothing answers, the token is refused, or there is no MCP there. */
export type McpEndpointProblem =
  | { kind: 'unreachable'; detail: string }
  | { kind: 'token-rejected'; httpStatus: 401 | 403 }
  | { kind: 'not-found' };

/** The network error codes worth a plain word; any other is shown as Node reports it. */
const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** Statuses a reverse proxy answers in place of a gateway that is down. */
const PROXY_DOWN_STATUSES = new Set([502, 503, 504]);

/**
 * One `GET <endpoint>` (`Accept: text/event-stream`, the bearer token if any), bounded by `timeoutMs`:
 * the request a 2025 client opens its notification stream with, so it creates nothing on the server
 * (without a session it is refused with 400/405, or a stream opens and is dropped at once). Any
 * answer proves the endpoint reachable except 401/403 (token), 404 (no MCP endpoint) and 502/503/504
 * (a proxy in front of a gateway that is down).
 * @returns undefined when the endpoint answers; the problem otherwise. Never throws.
 */
export async function checkMcpEndpoint(endpoint: URL, token: string | undefined, timeoutMs: number): Promise<McpEndpointProblem | undefined> {
  const problem = await checkOnce(endpoint, token, timeoutMs);
  // A kept-alive connection the gateway closed says nothing about the gateway itself (fetch reuses
  // pooled sockets): only an answer, or the lack of one, on a new connection does.
  if (problem?.kind === 'unreachable' && problem.detail === STALE_CONNECTION) return checkOnce(endpoint, token, timeoutMs);
  return problem;
}

/** undici's code for a pooled socket the other side closed. */
const STALE_CONNECTION = 'UND_ERR_SOCKET';

async function checkOnce(endpoint: URL, token: string | undefined, timeoutMs: number): Promise<McpEndpointProblem | undefined> {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (token) headers.authorization = `Bearer ${token}`;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const response = await fetch(endpoint, { method: 'GET', headers, signal: abort.signal, redirect: 'manual' });
    abort.abort(); // the answer's status is all that counts: drop any body or opened stream
    if (response.status === 401 || response.status === 403) return { kind: 'token-rejected', httpStatus: response.status };
    if (response.status === 404) return { kind: 'not-found' };
    if (PROXY_DOWN_STATUSES.has(response.status)) return { kind: 'unreachable', detail: `HTTP ${response.status} ${response.statusText}`.trim() };
    return undefined;
  } catch (error) {
    if (abort.signal.aborted) return { kind: 'unreachable', detail: `no answer within ${timeoutMs} ms` };
    return { kind: 'unreachable', detail: networkErrorDetail(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `connection refused`, `host not found`, … from fetch's `TypeError('fetch failed', { cause })`. Read by
 * shape, not `instanceof`: the error may come from another realm (a test sandbox).
 */
export function networkErrorDetail(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause ?? error;
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return NETWORK_ERRORS[code] ?? code;
  const message = (cause as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(cause);
}
