import { randomUUID } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isInitializeRequest, isLegacyRequest, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

/** One HTTP request as the server saw it: what a bridge is expected to send. */
export interface SeenRequest {
  httpMethod: string;
  /** The JSON-RPC method of a POSTed request or notification. */
  rpcMethod?: string;
  sessionId?: string;
  protocolVersion?: string;
  authorization?: string;
}

export interface McpTestServer {
  /** `http://127.0.0.1:<port>`: the base URL, as a user would give it. */
  baseUrl: string;
  /** Every HTTP request to `/mcp`, in arrival order. */
  seen: SeenRequest[];
  /** Open 2025 sessions by id (sessionful servers only). */
  sessions: Map<string, NodeStreamableHTTPServerTransport>;
  /** Emits `toolCalled` (tool name) when a tool handler starts; paced `count` listens for `progressSeen`. */
  events: EventEmitter;
  /** Stops listening and cuts every open connection: the gateway vanishing. */
  close(): Promise<void>;
}

export interface McpTestServerOptions {
  /** When set, every request needs `Authorization: Bearer <token>` (else 401). */
  token?: string;
  /**
   * How 2025-era clients are served: `sessions` (a session per `initialize`, GET stream, DELETE), as
   * a sessionful gateway does, or `stateless` (createMcpHandler's default: no session, GET/DELETE 405).
   */
  legacy: 'sessions' | 'stateless';
}

/**
 * A real MCP server over HTTP on 127.0.0.1 (free port), built with the SDK: tools `echo` (text back),
 * `count` (progress notifications 1…to, then the total; `paced`: each
 * update waits for an `events.emit('progressSeen')` from the test), `confirm` (asks the client through
 * elicitation, 2025 sessions) and `wait` (never answers: a call in flight). 2026-07-28 requests go to
 * `createMcpHandler` (strict), 2025 ones as `legacy` says.
 */
export async function startMcpTestServer(options: McpTestServerOptions): Promise<McpTestServer> {
  const events = new EventEmitter();
  const build = (era: string) => {
    const server = new McpServer({ name: 'bridge-test', version: '1.0.0' });
    server.registerTool('echo', { description: 'Returns the text', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => {
      events.emit('toolCalled', 'echo');
      return { content: [{ type: 'text', text: `${text} (${era})` }] };
    });
    server.registerTool('count', { description: 'Counts with progress', inputSchema: z.object({ to: z.number().int(), paced: z.boolean().optional() }) }, async ({ to, paced }, ctx) => {
      events.emit('toolCalled', 'count');
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= to; i++) {
        const seen = paced ? once(events, 'progressSeen') : undefined;
        if (progressToken !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: i, total: to, message: `step ${i}` } });
        await seen;
      }
      return { content: [{ type: 'text', text: `counted to ${to}` }] };
    });
    server.registerTool('confirm', { description: 'Asks the user', inputSchema: z.object({ question: z.string() }) }, async ({ question }, ctx) => {
      events.emit('toolCalled', 'confirm');
      // Tied to the call so that it travels on the call's answer stream: without relatedRequestId the
      // SDK sends it on the session's GET stream, and a question asked before that stream is open is lost.
      const answer = await ctx.mcpReq.elicitInput(
        { mode: 'form', message: question, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
        { relatedRequestId: ctx.mcpReq.id },
      );
      return { content: [{ type: 'text', text: `${answer.action}: ${JSON.stringify(answer.content ?? {})}` }] };
    });
    server.registerTool('wait', { description: 'Never answers' }, async () => {
      events.emit('toolCalled', 'wait');
      return new Promise<never>(() => undefined);
    });
    return server;
  };
  const modern = toNodeHandler(createMcpHandler(({ era }) => build(era), { legacy: options.legacy === 'sessions' ? 'reject' : 'stateless' }));
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  const seen: SeenRequest[] = [];

  // The SDK's routing for a sessionful 2025 deployment beside a strict modern entry (docs: legacy clients).
  const serveLegacy = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const sid = req.headers['mcp-session-id'] as string | undefined;
    const session = sid === undefined ? undefined : sessions.get(sid);
    if (session) return session.handleRequest(req, res, body);
    if (sid === undefined && isInitializeRequest(body)) {
      const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, transport) });
      transport.onclose = () => void (transport.sessionId && sessions.delete(transport.sessionId));
      await build('legacy').connect(transport);
      return transport.handleRequest(req, res, body);
    }
    res.writeHead(sid === undefined ? 400 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: sid === undefined ? 'Session ID required' : 'Session not found' }, id: null }));
  };

  const http: Server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body: unknown = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      seen.push({
        httpMethod: req.method ?? '',
        rpcMethod: (body as { method?: string } | undefined)?.method,
        sessionId: req.headers['mcp-session-id'] as string | undefined,
        protocolVersion: req.headers['mcp-protocol-version'] as string | undefined,
        authorization: req.headers.authorization,
      });
      if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') {
        res.writeHead(404).end();
        return;
      }
      if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
        res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' }).end('{"error":"invalid_token"}');
        return;
      }
      const legacy = options.legacy === 'sessions' && (req.method !== 'POST' || (await isLegacyRequest(await toWebRequest(req, body), body)));
      await (legacy ? serveLegacy(req, res, body) : modern(req, res, body));
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    sessions,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
