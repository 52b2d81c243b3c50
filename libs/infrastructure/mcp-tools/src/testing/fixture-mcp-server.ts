import { randomUUID } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer, isInitializeRequest } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

/** A real MCP server (the SDK's) over Streamable HTTP in this process, whose tool list a test changes. */
export interface FixtureMcpServer {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** Every `Authorization` header received, in order. */
  authorizations: (string | undefined)[];
  /**
   * Emits `called` (tool name) when a tool handler starts and `canceled` (tool name) when a call's
   * signal fires on the server (the client sent `notifications/cancelled`).
   */
  events: EventEmitter;
  /** Adds a tool `name` (returns `added <name>`) to every session, which announces `notifications/tools/list_changed`. */
  addTool(name: string): void;
  /** Stops listening and cuts every connection. */
  close(): Promise<void>;
}

/**
 * Starts a 2025-revision, sessionful Streamable HTTP MCP server on 127.0.0.1 (a free port) built with
 * `@modelcontextprotocol/server`, with tools `lookup` (read-only: `found <key>`), `wait` (answers only
 * when canceled) and whatever {@link FixtureMcpServer.addTool} adds.
 */
export async function startFixtureMcpServer(): Promise<FixtureMcpServer> {
  const events = new EventEmitter();
  const servers: McpServer[] = [];
  const extraTools: string[] = [];
  const registerAdded = (server: McpServer, name: string) =>
    server.registerTool(name, { description: `Added tool ${name}` }, async () => ({ content: [{ type: 'text', text: `added ${name}` }] }));
  const build = () => {
    const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
    server.registerTool('lookup', { description: 'Looks a key up', inputSchema: z.object({ key: z.string() }), annotations: { readOnlyHint: true } }, async ({ key }) => {
      events.emit('called', 'lookup');
      return { content: [{ type: 'text', text: `found ${key}` }] };
    });
    server.registerTool('wait', { description: 'Answers only when canceled' }, async (ctx) => {
      events.emit('called', 'wait');
      const signal = ctx.mcpReq.signal;
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      events.emit('canceled', 'wait');
      return { content: [{ type: 'text', text: 'canceled' }] };
    });
    for (const name of extraTools) registerAdded(server, name);
    servers.push(server);
    return server;
  };
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  const authorizations: (string | undefined)[] = [];
  const http: Server = createServer((req, res) => {
    void (async () => {
      authorizations.push(req.headers.authorization);
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body: unknown = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      const sid = req.headers['mcp-session-id'] as string | undefined;
      const session = sid === undefined ? undefined : sessions.get(sid);
      if (session) return session.handleRequest(req, res, body);
      if (sid === undefined && isInitializeRequest(body)) {
        const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, transport) });
        transport.onclose = () => void (transport.sessionId && sessions.delete(transport.sessionId));
        await build().connect(transport);
        return transport.handleRequest(req, res, body);
      }
      res.writeHead(sid === undefined ? 400 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: sid === undefined ? 'Session ID required' : 'Session not found' }, id: null }));
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    events,
    addTool: (name) => {
      extraTools.push(name);
      for (const server of servers) if (server.isConnected()) registerAdded(server, name);
    },
    close: async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close().catch(() => undefined)));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
