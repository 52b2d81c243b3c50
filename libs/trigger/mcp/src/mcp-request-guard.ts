import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { localhostAllowedOrigins, validateOriginHeader } from '@modelcontextprotocol/server';

/** Headers a browser client may send on MCP routes, answered to CORS preflights. */
const ALLOWED_REQUEST_HEADERS = 'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID';
/** Response headers a browser client must be able to read: the session id above all. */
const EXPOSED_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';

/** Writes a JSON-RPC error body (id null) with an HTTP status, as the MCP transports do. */
export function writeJsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** The hostname of an allow-list entry: `app.example.com` stays, `https://app.example.com:8443` becomes `app.example.com`. */
export function originHostname(entry: string): string {
  try {
    if (entry.includes('://')) return new URL(entry).hostname;
  } catch {
    // not a URL: taken as a hostname
  }
  return entry;
}

/**
 * The checks every MCP request passes before the SDK sees it: the `Origin` allow-list (403, against
 * DNS rebinding), CORS for allowed browser origins (preflights answered here, `Mcp-Session-Id`
 * exposed), the bearer token (401 with `WWW-Authenticate: Bearer`), and headers that keep proxies
 * from buffering or compressing event streams.
 */
export class McpRequestGuard {
  private readonly hostnames: string[];
  private readonly token?: Buffer;

  constructor(options: { allowedOrigins: string[]; apiToken?: string }) {
    this.hostnames = [...new Set([...localhostAllowedOrigins(), ...options.allowedOrigins.map(originHostname)])];
    if (options.apiToken) this.token = Buffer.from(options.apiToken, 'utf8');
  }

  /** True when the request may go on; otherwise the answer has been written. */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    res.setHeader('X-Accel-Buffering', 'no');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    const origin = req.headers.origin;
    if (origin !== undefined) {
      const verdict = validateOriginHeader(origin, this.hostnames);
      if (!verdict.ok) {
        writeJsonRpcError(res, 403, -32000, `Forbidden: origin ${JSON.stringify(origin)} is not allowed (MOBILECLAW_MCP_ALLOWED_ORIGINS)`);
        return false;
      }
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
          'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? ALLOWED_REQUEST_HEADERS,
          'Access-Control-Max-Age': '600',
        });
        res.end();
        return false;
      }
    }
    if (this.token && !this.tokenMatches(req.headers.authorization)) {
      writeJsonRpcError(res, 401, -32001, 'Unauthorized: send the gateway API token as Authorization: Bearer <token>', {
        'WWW-Authenticate': 'Bearer realm="mobileclaw"',
      });
      return false;
    }
    return true;
  }

  private tokenMatches(header: string | undefined): boolean {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    if (!match || !this.token) return false;
    const given = Buffer.from(match[1], 'utf8');
    return given.length === this.token.length && timingSafeEqual(given, this.token);
  }
}
