import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { toNodeHandler, toWebRequest, type NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  isLegacyRequest,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { McpServerFactory } from './mcp-server.factory';
import { MCP_OPTIONS, type McpOptions } from './mcp.options';
import { McpRequestGuard, writeJsonRpcError } from './mcp-request-guard';
import { McpSessions } from './mcp-sessions';
import { McpRegistryTools } from './registry-tools';
import { ResourceUpdates } from './resource-updates';

/** Largest MCP request body read, in bytes (4 MiB, the SDK transports' own bound). */
export const MCP_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

type Next = (err?: unknown) => void;

/** A reverse proxy's path prefix (`X-Forwarded-Prefix: /phones`), kept only when it is a plain absolute path. */
export function forwardedPrefix(header: string | string[] | undefined): string {
  const value = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim() ?? '';
  if (!/^\/[A-Za-z0-9._~!$&'()*+;=:@%/-]*$/.test(value) || value.startsWith('//')) return '';
  return value.replace(/\/+$/, '');
}

/**
 * The MCP routes as one Node/Express middleware, mounted before any body parser: `<path>` (Streamable
 * HTTP: 2026-07-28 requests served per request by the SDK's `createMcpHandler`, 2025-era traffic by
 * {@link McpSessions}), `<ssePath>` and `<messagePath>` (legacy HTTP+SSE). Other paths go to `next`.
 * Every MCP request passes the {@link McpRequestGuard} first (origin, CORS, token).
 */
@Injectable()
export class McpHttpEndpoint implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Mcp');
  private readonly guard: McpRequestGuard;
  private readonly modern: McpHttpHandler;
  private readonly modernNode: NodeMcpRequestHandler;
  readonly sessions: McpSessions;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpOptions,
    factory: McpServerFactory,
    updates: ResourceUpdates,
    registryTools: McpRegistryTools,
  ) {
    this.guard = new McpRequestGuard(options);
    const onerror = (err: Error) => this.logger.debug(`MCP request rejected: ${err.message}`);
    this.modern = createMcpHandler(() => factory.create().server, { legacy: 'reject', keepAliveMs: options.keepAliveMs, maxRequestBodySize: MCP_BODY_LIMIT_BYTES, onerror });
    this.modernNode = toNodeHandler(this.modern, { onerror });
    this.sessions = new McpSessions(options, factory);
    updates.changes$.subscribe((uri) => void this.modern.notify.resourceUpdated(uri));
    // Sessions' servers announce their own changes; 2026-07-28 listen streams hear it here.
    registryTools.updated$.subscribe(() => this.modern.notify.toolsChanged());
  }

  /** Express-compatible middleware: `app.use(endpoint.middleware)`. */
  readonly middleware = (req: IncomingMessage, res: ServerResponse, next: Next): void => {
    const path = (req.url ?? '/').split('?')[0];
    const route = path === this.options.path ? 'mcp' : path === this.options.ssePath ? 'sse' : path === this.options.messagePath ? 'message' : undefined;
    if (route === undefined) return next();
    this.serve(route, req, res).catch((err: unknown) => {
      this.logger.error(`MCP ${req.method} ${path} failed: ${err instanceof Error ? err.stack : String(err)}`);
      writeJsonRpcError(res, 500, -32603, 'Internal error');
    });
  };

  /** Ends every MCP session and in-flight exchange before the HTTP server closes (it waits for open streams). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.sessions.close();
    await this.modern.close();
  }

  private async serve(route: 'mcp' | 'sse' | 'message', req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.guard.admit(req, res)) return;
    if (route === 'sse') {
      if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
      return this.sessions.openSse(res, `${forwardedPrefix(req.headers['x-forwarded-prefix'])}${this.options.messagePath}`);
    }
    if (route === 'message') {
      if (req.method !== 'POST') return methodNotAllowed(res, 'POST');
      const body = await readJsonBody(req, res);
      if (body === NO_BODY) return;
      // The HTTP+SSE transport takes one message per POST; anything else it would answer with its
      // own internal error text (or try to read the consumed stream again, for `null`).
      if (!isJsonRpcMessage(body)) {
        return writeJsonRpcError(res, 400, -32600, 'Invalid Request: the body must be one JSON-RPC 2.0 message (request, notification or response)');
      }
      const sessionId = new URL(req.url ?? '/', 'http://localhost').searchParams.get('sessionId') ?? undefined;
      return this.sessions.postSseMessage(req, res, sessionId, body);
    }
    if (!MCP_METHODS.includes(req.method ?? '')) return methodNotAllowed(res, MCP_METHODS.join(', '));
    // A preflight without Origin (no browser sent it): the guard answers only browser preflights.
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { Allow: MCP_METHODS.join(', ') });
      res.end();
      return;
    }
    let body: unknown;
    if (req.method === 'POST') {
      body = await readJsonBody(req, res);
      if (body === NO_BODY) return;
    }
    if (await isLegacyRequest(await toWebRequest(req, body), body)) return this.sessions.handleStreamableHttp(req, res, body);
    return this.modernNode(req, res, body);
  }
}

const NO_BODY = Symbol('no body');

/** The methods `<path>` serves; any other gets 405 with them in `Allow`. */
const MCP_METHODS = ['GET', 'POST', 'DELETE', 'OPTIONS'];

/** One JSON-RPC 2.0 message: a request, a notification, a result or an error response. */
export function isJsonRpcMessage(body: unknown): boolean {
  return isJSONRPCRequest(body) || isJSONRPCNotification(body) || isJSONRPCResultResponse(body) || isJSONRPCErrorResponse(body);
}

function methodNotAllowed(res: ServerResponse, allow: string): void {
  writeJsonRpcError(res, 405, -32000, `Method not allowed: use ${allow}`, { Allow: allow });
}

/**
 * Reads and parses a POST body: JSON only (415 otherwise), at most {@link MCP_BODY_LIMIT_BYTES} (413),
 * valid UTF-8 JSON (400 with JSON-RPC -32700). A body already parsed by a host's body parser is taken as is.
 * @returns the parsed value, or `NO_BODY` when the error answer has been written.
 */
async function readJsonBody(req: IncomingMessage & { body?: unknown }, res: ServerResponse): Promise<unknown> {
  if (req.body !== undefined && (req as { _body?: boolean })._body) return req.body;
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') {
    writeJsonRpcError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    return NO_BODY;
  }
  const raw = await readBody(req, MCP_BODY_LIMIT_BYTES);
  if (raw === undefined) {
    writeJsonRpcError(res, 413, -32000, `Payload Too Large: a message is at most ${MCP_BODY_LIMIT_BYTES} bytes`);
    return NO_BODY;
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    writeJsonRpcError(res, 400, -32700, 'Parse error: the body is not valid UTF-8 JSON');
    return NO_BODY;
  }
}

/**
 * The request body, or undefined once it grows past `limit` bytes. The rest of a body too large is
 * read and dropped, not cut off: leaving a `for await` loop early destroys the request and with it
 * the connection, so the client saw a reset instead of the 413 (or lost its next request on that
 * keep-alive connection).
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      req.off('end', onEnd);
      req.resume();
      resolve(undefined);
    };
    const onEnd = (): void => resolve(Buffer.concat(chunks));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
  });
}
