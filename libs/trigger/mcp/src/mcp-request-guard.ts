import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiTokenCheck } from '@mobileclaw/trigger-rest';
import { localhostAllowedOrigins, validateOriginHeader } from '@modelcontextprotocol/server';

/** Headers a browser client may send on MCP routes, answered to every CORS preflight whatever it asks. */
const ALLOWED_REQUEST_HEADERS = ['Content-Type', 'Accept', 'Authorization', 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'Last-Event-ID', 'Mcp-Method', 'Mcp-Name'];
/**
 * A tool argument mirrored into a header by the 2026-07-28 revision (`Mcp-Param-<Name>`, a tool's
 * `x-mcp-header` declaration): CORS has no prefix wildcard, so a preflight asking for such names gets
 * them back, and nothing else it asks for.
 */
const PARAM_HEADER = /^mcp-param-[a-z0-9-]{1,64}$/i;
/** Longest part of a client's value (an origin) quoted back in an error message, in characters. */
const ECHO_MAX_CHARS = 200;
/** Response headers a browser client must be able to read: the session id above all. */
const EXPOSED_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';

/**
 * The headers a preflight is answered with: the fixed {@link ALLOWED_REQUEST_HEADERS} and the
 * `Mcp-Param-*` names among those it asks for (`Access-Control-Request-Headers`, at most 32 of them).
 */
export function allowedRequestHeaders(requested: string | undefined): string {
  const params = (requested ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => PARAM_HEADER.test(name))
    .slice(0, 32);
  return [...ALLOWED_REQUEST_HEADERS, ...new Set(params)].join(', ');
}

/**
 * Whether a `Host` header can name this server: a host name or IP literal with an optional port,
 * nothing else (no spaces, path, user info). An absent header passes (HTTP/1.0).
 */
export function validHostHeader(host: string | undefined): boolean {
  if (host === undefined) return true;
  if (!/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(:\d{1,5})?$/.test(host)) return false;
  try {
    return new URL(`http://${host}/`).pathname === '/';
  } catch {
    return false;
  }
}

/** `text` as sent, cut to {@link ECHO_MAX_CHARS} characters with `…`: what an error message quotes of a client's input. */
export function echoOf(text: string, max = ECHO_MAX_CHARS): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max).join('')}…`;
}

/** Writes a JSON-RPC error body (id null) with an HTTP status, as the MCP transports do. */
export function writeJsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/**
 * How an allow-list entry matches a browser's `Origin`: a hostname (`app.example.com`) admits that host
 * with any scheme and port; an origin (`https://app.example.com:8443`) admits exactly that scheme, host
 * and port; `<scheme>://*` (e.g. `vscode-webview://*`) admits every origin of a non-web scheme.
 */
export type AllowedOrigin = { hostname: string } | { origin: string };

/** Parses an allow-list entry (see {@link AllowedOrigin}); an entry with `://` that is not a URL admits nothing. */
export function parseAllowedOrigin(entry: string): AllowedOrigin {
  if (!entry.includes('://') || /^[a-z][a-z\d+.-]*:\/\/\*$/i.test(entry)) return { hostname: entry };
  return { origin: originKey(entry) ?? entry };
}

/** `scheme://host[:port]` of a URL, lowercased, default port dropped (also for non-web schemes, whose `URL.origin` is `"null"`); undefined when not a URL. */
function originKey(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.origin !== 'null' ? url.origin : url.host === '' ? undefined : `${url.protocol}//${url.host}`;
  } catch {
    return undefined;
  }
}

/**
 * The checks every MCP request passes before the SDK sees it: a `Host` header that is a host (400
 * -32600 otherwise: it would fail building the request URL), the `Origin` allow-list (403, against
 * DNS rebinding), CORS for allowed browser origins (preflights answered here, `Mcp-Session-Id`
 * exposed), the bearer token (401 with `WWW-Authenticate: Bearer`) — or, with no token configured,
 * the local-only rules (403 `PROXIED_WITHOUT_API_TOKEN`: a proxy in between; 403 `HOST_NOT_ALLOWED`) —
 * and headers that keep proxies from buffering or compressing event streams. Token and local-only
 * rules are the REST API's own ({@link ApiTokenCheck}), so every face admits the same callers.
 */
export class McpRequestGuard {
  private readonly hostnames: string[];
  private readonly origins: Set<string>;
  private readonly access: ApiTokenCheck;

  /**
   * @param options.allowedOrigins allow-list entries (see {@link AllowedOrigin}); localhost hostnames are always allowed.
   * @param options.allowedHosts without `apiToken`, host names served besides loopback ones (`MOBILECLAW_ALLOWED_HOSTS`).
   */
  constructor(options: { allowedOrigins: string[]; apiToken?: string; allowedHosts?: string[] }) {
    this.access = new ApiTokenCheck(options.apiToken, options.allowedHosts ?? []);
    const entries = options.allowedOrigins.map(parseAllowedOrigin);
    this.hostnames = [...new Set([...localhostAllowedOrigins(), ...entries.flatMap((e) => ('hostname' in e ? [e.hostname] : []))])];
    this.origins = new Set(entries.flatMap((e) => ('origin' in e ? [e.origin] : [])));
  }

  /** True when the request may go on; otherwise the answer has been written. */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    res.setHeader('X-Accel-Buffering', 'no');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    if (!validHostHeader(req.headers.host)) {
      writeJsonRpcError(res, 400, -32600, 'Bad Request: invalid Host header');
      return false;
    }
    // Without a token the local-only rules come first: a refused request learns nothing about origins.
    const local = this.access.required ? undefined : this.access.refusal(req);
    if (local) {
      writeJsonRpcError(res, 403, -32000, `Forbidden (${local.code}): ${local.message}`);
      return false;
    }
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (!this.originAllowed(origin)) {
        writeJsonRpcError(res, 403, -32000, `Forbidden: origin ${JSON.stringify(echoOf(origin))} is not allowed (MOBILECLAW_MCP_ALLOWED_ORIGINS)`);
        return false;
      }
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
          'Access-Control-Allow-Headers': allowedRequestHeaders(req.headers['access-control-request-headers']),
          'Access-Control-Max-Age': '600',
        });
        res.end();
        return false;
      }
    }
    if (this.access.required && this.access.refusal(req)) {
      writeJsonRpcError(res, 401, -32001, 'Unauthorized: send the API token set in MOBILECLAW_API_TOKEN (not the device token) as Authorization: Bearer <token>', {
        'WWW-Authenticate': 'Bearer realm="mobileclaw"',
      });
      return false;
    }
    return true;
  }

  private originAllowed(origin: string): boolean {
    if (validateOriginHeader(origin, this.hostnames).ok) return true;
    const key = originKey(origin);
    return key !== undefined && this.origins.has(key);
  }
}
