import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call the server received. */
export interface ReceivedToolCall {
  tool: unknown;
  args: unknown;
  idempotencyKey: string | undefined;
}

/**
 * A local tool server in the wire shape of OpenClaw's `/tools/invoke`, for tests: `GET /catalog`
 * answers {@link catalog}; `POST /tools/invoke {tool, args}` calls one of its tools, each showing one
 * behaviour:
 * - `echo`: `{ok: true, result: {echo: args}}`; `mcp_text`: an MCP-style `{content: [{type: "text"}]}` result;
 * - `fail`: HTTP 400 `{ok: false, error: {type: "tool_error", message}}`; `invalid`: the same with `invalid_request`;
 * - `slow`: never answers (until the client gives up); `started` resolves when it got the call;
 * - `huge`: a 300 KiB result; `not_json`: an HTML page; `wrong_shape`: JSON without `ok`;
 * any other name: HTTP 404 `{ok: false, error: {type: "not_found"}}`.
 * Every request needs `Authorization: Bearer <token>`; a wrong one gets HTTP 401 with a body that
 * echoes the header it got (as careless servers do). While {@link down}, everything answers HTTP 503.
 */
export class ToolCatalogServer {
  catalog: unknown;
  down = false;
  readonly calls: ReceivedToolCall[] = [];
  private readonly server: Server;
  private slowStarted!: () => void;
  /** Resolves when the `slow` tool got its first call. */
  readonly started = new Promise<void>((resolve) => (this.slowStarted = resolve));

  private constructor(
    private readonly token: string,
    catalog: unknown,
  ) {
    this.catalog = catalog;
    this.server = createServer((req, res) => void this.serve(req, res));
  }

  /** Starts a server on a free local port. */
  static async start(token: string, catalog: unknown): Promise<ToolCatalogServer> {
    const server = new ToolCatalogServer(token, catalog);
    await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve));
    (server as { baseUrl: string }).baseUrl = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    return server;
  }

  readonly baseUrl: string = '';

  get catalogUrl(): string {
    return `${this.baseUrl}/catalog`;
  }

  get invokeUrl(): string {
    return `${this.baseUrl}/tools/invoke`;
  }

  /** Stops listening and cuts every open connection. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (this.down) return json(res, 503, { ok: false, error: { type: 'unavailable', message: 'down for maintenance' } });
    if (req.headers.authorization !== `Bearer ${this.token}`) return json(res, 401, { ok: false, error: { type: 'unauthorized', message: `bad credentials: ${req.headers.authorization ?? 'none'}` } });
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' && path === '/catalog') return json(res, 200, this.catalog);
    if (req.method !== 'POST' || path !== '/tools/invoke') return json(res, 405, { ok: false, error: 'method not allowed' });
    const { tool, args } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { tool: unknown; args: unknown };
    const key = req.headers['idempotency-key'];
    this.calls.push({ tool, args, idempotencyKey: typeof key === 'string' ? key : undefined });
    switch (tool) {
      case 'echo':
      case 'lookup order':
        return json(res, 200, { ok: true, result: { echo: args } });
      case 'mcp_text':
        return json(res, 200, { ok: true, result: { content: [{ type: 'text', text: 'line one' }, { type: 'text', text: 'line two' }], details: { lines: 2 } } });
      case 'fail':
        return json(res, 400, { ok: false, error: { type: 'tool_error', message: 'the order does not exist' } });
      case 'invalid':
        return json(res, 400, { ok: false, error: { type: 'invalid_request', message: 'orderId is required' } });
      case 'slow':
        this.slowStarted();
        return;
      case 'huge':
        // Chunked, with no Content-Length: the client can only find out by counting.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"ok":true,"result":"');
        for (let i = 0; i < 300; i++) res.write('x'.repeat(1024));
        res.end('"}');
        return;
      case 'not_json':
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Gateway login</body></html>');
        return;
      case 'wrong_shape':
        return json(res, 200, { result: 42 });
      default:
        return json(res, 404, { ok: false, error: { type: 'not_found', message: `Tool not available: ${String(tool)}` } });
    }
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
