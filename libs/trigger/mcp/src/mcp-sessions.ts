import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type Transport,
} from '@modelcontextprotocol/server';
import { SSEServerTransport } from '@modelcontextprotocol/server-legacy/sse';
import { BoundedEventStore } from './bounded-event-store';
import type { McpServerFactory } from './mcp-server.factory';
import type { McpOptions } from './mcp.options';
import { writeJsonRpcError } from './mcp-request-guard';
import type { McpSessionState } from './tool-context';

interface Session {
  id: string;
  kind: 'streamable-http' | 'sse';
  transport: NodeStreamableHTTPServerTransport | SSEServerTransport;
  state: McpSessionState;
  /** When the client last sent a message (a POST), ms since the epoch. */
  lastSeen: number;
  dispose(): void;
}

/**
 * The sessionful 2025-era serving: Streamable HTTP sessions (`initialize` → `Mcp-Session-Id`; unknown
 * or ended id → 404, none → 400, `DELETE` ends it, `Last-Event-ID` replays from a bounded event
 * store) and legacy HTTP+SSE sessions (`GET /sse` → `endpoint` event; `POST /message?sessionId=`).
 * At most `maxSessions` at once (503 beyond); a session whose client sent no message (POST) for
 * `sessionIdleMs` is closed, open streams and all: their keep-alives are the gateway's own, so an
 * open stream alone says nothing of a client still there, and would hold a slot forever.
 */
export class McpSessions {
  private readonly logger = new Logger('McpSessions');
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly options: McpOptions,
    private readonly factory: McpServerFactory,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => void this.sweep(), Math.max(1000, Math.min(60_000, Math.floor(options.sessionIdleMs / 4))));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Serves a 2025-era request on `/mcp` (`body`: the parsed JSON of a POST). */
  async handleStreamableHttp(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const session = this.sessions.get(sessionId);
      if (!session || session.kind !== 'streamable-http') return writeJsonRpcError(res, 404, -32001, 'Session not found: it ended or expired; initialize a new one');
      if (req.method === 'POST') session.lastSeen = this.now();
      const transport = session.transport as NodeStreamableHTTPServerTransport;
      // A client resumes (Last-Event-ID) only a stream it lost, and the gateway may not have noticed
      // the loss yet (a half-open connection is noticed only when a write fails, minutes later): the
      // SDK would answer 409 until then. The resuming GET replaces the standalone stream instead; a
      // client that was resuming a request's stream reconnects its standalone one the same way, and
      // the event store replays whatever it missed.
      if (req.method === 'GET' && req.headers['last-event-id'] !== undefined) transport.closeStandaloneSSEStream();
      await transport.handleRequest(req, res, body);
      return;
    }
    if (req.method === 'POST' && !Array.isArray(body) && !isJSONRPCRequest(body)) {
      // A response or notification answers or tells something within a session; without one it has no place.
      const message = isJSONRPCNotification(body)
        ? 'Invalid Request: a notification needs the Mcp-Session-Id of its session (2025 revisions) or the _meta envelope (2026-07-28)'
        : isJSONRPCResultResponse(body) || isJSONRPCErrorResponse(body)
          ? 'Invalid Request: a JSON-RPC response answers a request this server sent within a session; send it with that Mcp-Session-Id'
          : 'Bad Request: the request body is not a valid JSON-RPC message';
      return writeJsonRpcError(res, 400, -32600, message);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return writeJsonRpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required (send initialize first to open a session)');
    }
    if (!this.admitNew(res)) return;
    const state: McpSessionState = {};
    const built = this.factory.create(state);
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(this.options.eventsPerSession),
      keepAliveMs: this.options.keepAliveMs,
      onsessioninitialized: (id) => {
        this.sessions.set(id, { id, kind: 'streamable-http', transport, state, lastSeen: this.now(), dispose: built.dispose });
      },
      onsessionclosed: (id) => this.forget(id),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.forget(transport.sessionId);
    };
    await built.server.connect(transport as Transport);
    try {
      await transport.handleRequest(req, res, body);
    } finally {
      // The SDK registers the session only once it accepted the initialize request; a rejected one
      // (406 for a wrong Accept, 400 for a bad version, a failure) leaves a server, a transport and a
      // resource subscription that nothing would ever release.
      if (transport.sessionId === undefined || this.sessions.get(transport.sessionId)?.transport !== transport) {
        built.dispose();
        await built.server.close().catch(() => undefined);
      }
    }
  }

  /** `GET <ssePath>`: opens a legacy SSE session; `endpoint` is the message URL announced to the client. */
  async openSse(res: ServerResponse, endpoint: string): Promise<void> {
    if (!this.admitNew(res)) return;
    const state: McpSessionState = {};
    const built = this.factory.create(state);
    const transport = new SSEServerTransport(endpoint, res);
    const session: Session = { id: transport.sessionId, kind: 'sse', transport, state, lastSeen: this.now(), dispose: built.dispose };
    this.sessions.set(session.id, session);
    // The HTTP+SSE transport has no keep-alive of its own; a comment line keeps proxies from closing the stream.
    const keepAlive = setInterval(() => {
      if (!res.writableEnded) res.write(': keep-alive\n\n');
    }, this.options.keepAliveMs);
    keepAlive.unref();
    res.on('close', () => {
      clearInterval(keepAlive);
      void transport.close().catch(() => undefined);
      this.forget(session.id);
    });
    transport.onclose = () => this.forget(session.id);
    await built.server.connect(transport as Transport);
  }

  /** `POST <messagePath>?sessionId=…`: one client message of a legacy SSE session; answered 202, the reply goes on the stream. */
  async postSseMessage(req: IncomingMessage, res: ServerResponse, sessionId: string | undefined, body: unknown): Promise<void> {
    if (!sessionId) return writeJsonRpcError(res, 400, -32000, 'Bad Request: the sessionId query parameter is required');
    const session = this.sessions.get(sessionId);
    if (!session || session.kind !== 'sse') return writeJsonRpcError(res, 404, -32001, 'Session not found: it ended or expired; open a new stream');
    session.lastSeen = this.now();
    await (session.transport as SSEServerTransport).handlePostMessage(req, res, body);
  }

  /** Closes every session (gateway shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.sessions.values()].map((s) => this.end(s)));
  }

  /**
   * Closes the sessions idle longer than `sessionIdleMs` as of `at` (ms since the epoch; default now):
   * no message from the client since, whether or not a stream is open (it is closed with the session).
   * The periodic sweep calls it every quarter of the idle time.
   * @returns how many sessions it closed.
   */
  async sweep(at: number = this.now()): Promise<number> {
    const cutoff = at - this.options.sessionIdleMs;
    const idle = [...this.sessions.values()].filter((s) => s.lastSeen <= cutoff);
    for (const session of idle) {
      this.logger.log(`closing MCP session ${session.id}: idle for ${Math.round((at - session.lastSeen) / 1000)} s`);
      await this.end(session);
    }
    return idle.length;
  }

  private admitNew(res: ServerResponse): boolean {
    if (this.closed) {
      writeJsonRpcError(res, 503, -32000, 'The gateway is shutting down');
      return false;
    }
    if (this.sessions.size >= this.options.maxSessions) {
      writeJsonRpcError(res, 503, -32000, `Too many MCP sessions (${this.options.maxSessions} open): close one, or retry when an idle one has expired`, {
        'Retry-After': '30',
      });
      return false;
    }
    return true;
  }

  private async end(session: Session): Promise<void> {
    this.forget(session.id);
    await session.transport.close().catch(() => undefined);
  }

  private forget(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    session.dispose();
  }
}
