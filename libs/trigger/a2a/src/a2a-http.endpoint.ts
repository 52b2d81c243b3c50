import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { MobileClawService, PushNotificationConfigStore } from '@mobileclaw/domain';
import { IdempotentCreation, TaskService } from '@mobileclaw/case-tasks';
import { MemoryService } from '@mobileclaw/case-memory';
import { AgentCardCodec, UserBuilder, jsonRpcHandler, legacyAgentCardRouter } from './a2a-sdk';
import { A2aTaskHandler } from './a2a-task-handler';
import { A2A_BODY_LIMIT_BYTES, A2A_OPTIONS, type A2aOptions } from './a2a.options';
import { AGENT_CARD_PATH, agentCard } from './agent-card';
import { judgeEnvelope, type JsonRpcErrorReply } from './json-rpc-envelope';
import { ApiTokenCheck, HTTP_STATUS_BY_CODE } from '@mobileclaw/trigger-rest';
import { PushNotificationDispatcher } from './push-notification-dispatcher';

type Next = (err?: unknown) => void;
type ExpressHandler = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

/**
 * The A2A face on the gateway's HTTP server, mounted before the REST middleware (it checks its own
 * token and reads its own body):
 * - `GET /.well-known/agent-card.json`: the agent card, public, naming the JSON-RPC endpoint on the
 *   configured public URL or the request's own scheme and host, in the shape the caller's
 *   `A2A-Version` asks for ({@link A2aHttpEndpoint.serveCard});
 * - `POST <path>` (default `/a2a`): A2A JSON-RPC over HTTP, answers as JSON or Server-Sent Events
 *   (`SendStreamingMessage`, `SubscribeToTask`), behind the API token when one is set. The body is
 *   judged first ({@link judgeEnvelope}: JSON-RPC 2.0 errors, notifications get 204), then served by
 *   the SDK's `jsonRpcHandler` over {@link A2aTaskHandler}, v0.3 method names through its
 *   `legacyCompat` layer (the version follows the method name when `A2A-Version` is absent).
 * Other paths go to `next`.
 */
@Injectable()
export class A2aHttpEndpoint {
  private readonly logger = new Logger('A2a');
  private readonly path: string;
  private readonly token: ApiTokenCheck;
  private readonly handler: A2aTaskHandler;
  private readonly rpc: ExpressHandler;

  constructor(
    @Inject(A2A_OPTIONS) private readonly options: A2aOptions,
    tasks: TaskService,
    devices: MobileClawService,
    idempotency: IdempotentCreation,
    pushConfigs: PushNotificationConfigStore,
    push: PushNotificationDispatcher,
    @Optional() memory?: MemoryService,
  ) {
    this.path = options.path ?? '/a2a';
    this.token = new ApiTokenCheck(options.apiToken, options.allowedHosts);
    this.handler = new A2aTaskHandler(tasks, devices, idempotency, pushConfigs, () => this.card(options.publicUrl ?? 'http://localhost'), (config) => push.registered(config), memory);
    this.rpc = jsonRpcHandler({ requestHandler: this.handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true } }) as unknown as ExpressHandler;
  }

  /** Express-compatible middleware: `app.use(endpoint.middleware)`. */
  readonly middleware = (req: IncomingMessage, res: ServerResponse, next: Next): void => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === AGENT_CARD_PATH) return this.serveCard(req, res, next);
    if (path !== this.path) return next();
    this.serveRpc(req, res, next).catch((err: unknown) => {
      this.logger.error(`A2A ${req.method} ${path} failed: ${err instanceof Error ? err.stack : String(err)}`);
      if (!res.headersSent) reply(res, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } });
      else res.end();
    });
  };

  private card(baseUrl: string) {
    return agentCard(baseUrl, this.path, this.options.version, this.token.required);
  }

  /**
   * The agent card, negotiated by the `A2A-Version` request header (`Vary: A2A-Version`):
   * - 1.0 and later: the A2A 1.0 card (`supportedInterfaces`, ProtoJSON);
   * - 0.3.x or no header (the spec reads a missing version as 0.3, and 0.3 clients send none): the
   *   SDK's hybrid card — the 0.3 top-level `url`, `preferredTransport: "JSONRPC"`,
   *   `protocolVersion: "0.3"` and `additionalInterfaces`, 0.3-shaped `securitySchemes`/`security`,
   *   with the 1.0 `supportedInterfaces` embedded, which 1.0 clients prefer.
   * Both are served fresh (`Cache-Control: no-cache`, an `ETag` on the 0.3 card) and readable
   * cross-origin.
   */
  private serveCard(req: IncomingMessage, res: ServerResponse, next: Next): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const card = this.card(this.options.publicUrl ?? requestBaseUrl(req));
    res.setHeader('Access-Control-Allow-Origin', '*');
    // The SDK's router answers legacy versions and passes the others on; it serves `GET /` of where it is mounted.
    const url = req.url;
    req.url = '/';
    const legacy = legacyAgentCardRouter({ agentCardProvider: () => Promise.resolve(card), cache: { maxAge: 0 } }) as unknown as ExpressHandler;
    legacy(req, res, (err?: unknown) => {
      req.url = url;
      if (err) return next(err);
      res.statusCode = 200;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('Vary', 'A2A-Version');
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify(AgentCardCodec.toJSON(card)));
    });
  }

  private async serveRpc(req: IncomingMessage, res: ServerResponse, next: Next): Promise<void> {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return reply(res, 405, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: send JSON-RPC requests with POST' } });
    }
    // The REST API's access rule, whole: the bearer token, and without one only local, unproxied clients.
    const refusal = this.token.refusal(req);
    if (refusal) {
      if (refusal.code === 'UNAUTHORIZED') res.setHeader('WWW-Authenticate', 'Bearer');
      return reply(res, HTTP_STATUS_BY_CODE[refusal.code], { jsonrpc: '2.0', id: null, error: { code: -32001, message: `${refusal.code}: ${refusal.message}`, data: { code: refusal.code } } });
    }
    const body = await readBody(req, A2A_BODY_LIMIT_BYTES);
    if (body === undefined) return reply(res, 413, { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: the body exceeds ${A2A_BODY_LIMIT_BYTES} bytes` } });
    const verdict = judgeEnvelope(body);
    if (verdict.kind === 'error') return reply(res, 200, verdict.reply);
    if (verdict.kind === 'notification') {
      res.statusCode = 204;
      res.end();
      return;
    }
    // The SDK reads the version from the header (absent = 0.3); a v1.0 method name without one is v1.0.
    if (req.headers['a2a-version'] === undefined) req.headers['a2a-version'] = verdict.protocolVersion;
    const parsed = req as IncomingMessage & { body?: unknown };
    parsed.body = verdict.request;
    // The body is consumed: the SDK's own JSON parser sees a finished request and keeps `body`. Its
    // router serves `POST /` of wherever it is mounted.
    const url = req.url;
    req.url = '/';
    this.rpc(req, res, (err?: unknown) => {
      req.url = url;
      next(err);
    });
  }
}

function reply(res: ServerResponse, status: number, body: JsonRpcErrorReply): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(body));
}

/** The body as UTF-8 text, or undefined when it exceeds `limit` bytes (the rest is drained). */
async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) tooLarge = true;
    else chunks.push(chunk as Buffer);
  }
  return tooLarge ? undefined : Buffer.concat(chunks).toString('utf8');
}

/** `http(s)://host[:port]` as the caller addressed this gateway (`X-Forwarded-Proto` honoured for the scheme). */
function requestBaseUrl(req: IncomingMessage): string {
  const forwarded = req.headers['x-forwarded-proto'];
  const proto = typeof forwarded === 'string' && /^https?$/.test(forwarded.split(',')[0].trim()) ? forwarded.split(',')[0].trim() : 'encrypted' in req.socket ? 'https' : 'http';
  return `${proto}://${req.headers.host ?? 'localhost'}`;
}
