import type { Readable, Writable } from 'node:stream';
import { SdkHttpError, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { ProtocolErrorCode, isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { checkMcpEndpoint, type McpEndpointProblem } from './mcp-endpoint';

/** How `mobileclaw mcp` ends; 2 (invalid command line) belongs to the CLI. */
export const MCP_BRIDGE_EXIT = {
  /** The client closed stdin (or the bridge was stopped): the session was ended cleanly. */
  CLIENT_CLOSED: 0,
  /** No gateway answers at the URL, there is no MCP endpoint there, or the gateway went away mid-session. */
  GATEWAY_UNREACHABLE: 1,
  /** The gateway answered 401/403: the token is missing or wrong. */
  TOKEN_REJECTED: 3,
} as const;

export type McpBridgeExitCode = (typeof MCP_BRIDGE_EXIT)[keyof typeof MCP_BRIDGE_EXIT];

/** Default bound of the reachability check, ms: before relaying, and after a relay failure. */
export const GATEWAY_CHECK_TIMEOUT_MS = 5000;
/** How long ending the session (HTTP DELETE) may take when the client leaves, ms. */
const END_SESSION_TIMEOUT_MS = 2000;

export interface McpStdioBridgeOptions {
  /** The gateway's MCP endpoint (`mcpEndpointUrl`). */
  endpoint: URL;
  /** Sent as `Authorization: Bearer <token>` on every request; never logged. */
  token?: string;
  /** JSON-RPC from the client, one message a line. Default `process.stdin`. */
  stdin?: Readable;
  /** JSON-RPC to the client, and nothing else. Default `process.stdout`. */
  stdout?: Writable;
  /** One diagnostic line (no newline). Default: stderr, prefixed `mobileclaw mcp: `. */
  log?: (line: string) => void;
  /** Bound of each reachability check, ms. Default {@link GATEWAY_CHECK_TIMEOUT_MS}. */
  checkTimeoutMs?: number;
  /** Aborting it ends the bridge as the end of stdin does (the session is ended, exit code 0). */
  signal?: AbortSignal;
}

/**
 * Relays JSON-RPC between an MCP client on stdio and a gateway's Streamable HTTP endpoint, unchanged
 * in both directions (ids, notifications, the server's own requests such as elicitation and the
 * client's answers). Both protocol eras pass: for a 2025 session the HTTP side keeps the session id of
 * the `initialize` answer and sends the negotiated `MCP-Protocol-Version` from then on; 2026-07-28
 * requests carry their version in `_meta`, from which the HTTP side derives its headers.
 *
 * Checks the endpoint before reading stdin (one GET, bounded by `checkTimeoutMs`). A client request
 * the gateway can no longer answer gets a JSON-RPC error (`-32603`) on stdout, so no client waits
 * forever.
 * @returns the exit code ({@link MCP_BRIDGE_EXIT}): 0 once stdin ends (after ending the session
 *   with DELETE, if any), 1 when the gateway is unreachable at start or goes away, 3 when it rejects
 *   the token. Never rejects.
 */
export async function runMcpStdioBridge(options: McpStdioBridgeOptions): Promise<McpBridgeExitCode> {
  const log = options.log ?? ((line: string) => process.stderr.write(`mobileclaw mcp: ${line}\n`));
  const checkTimeoutMs = options.checkTimeoutMs ?? GATEWAY_CHECK_TIMEOUT_MS;
  const problem = await checkMcpEndpoint(options.endpoint, options.token, checkTimeoutMs);
  if (problem) {
    log(describeStartProblem(options.endpoint, problem, options.token !== undefined && options.token !== ''));
    return exitCodeOf(problem);
  }
  return new McpStdioRelay({ ...options, log, checkTimeoutMs }).run();
}

/** The one stderr line for an endpoint that cannot be used at start. */
function describeStartProblem(endpoint: URL, problem: McpEndpointProblem, tokenGiven: boolean): string {
  switch (problem.kind) {
    case 'unreachable':
      return `no gateway at ${endpoint.href}: ${problem.detail}`;
    case 'token-rejected':
      return tokenGiven
        ? `the gateway at ${endpoint.href} rejected the token (HTTP ${problem.httpStatus})`
        : `the gateway at ${endpoint.href} needs a token (HTTP ${problem.httpStatus}): pass --token or set MOBILECLAW_API_TOKEN`;
    case 'not-found':
      return `no MCP endpoint at ${endpoint.href} (HTTP 404): is it a MobileClaw gateway that serves MCP?`;
  }
}

function exitCodeOf(problem: McpEndpointProblem): McpBridgeExitCode {
  return problem.kind === 'token-rejected' ? MCP_BRIDGE_EXIT.TOKEN_REJECTED : MCP_BRIDGE_EXIT.GATEWAY_UNREACHABLE;
}

type RelayOptions = McpStdioBridgeOptions & Required<Pick<McpStdioBridgeOptions, 'log' | 'checkTimeoutMs'>>;

/** One client's relay, from the first stdin message to the exit code. */
class McpStdioRelay {
  private readonly stdio: StdioServerTransport;
  private readonly http: StreamableHTTPClientTransport;
  /** Ids of the client's requests the gateway has not answered yet. */
  private readonly pending = new Set<RequestId>();
  /** Id of the client's `initialize` request, whose answer names the session's protocol version. */
  private initializeId: RequestId | undefined;
  /** The check running after a relay failure; concurrent failures share it. */
  private check: Promise<McpEndpointProblem | undefined> | undefined;
  private ending = false;
  private finish!: (code: McpBridgeExitCode) => void;
  private readonly finished = new Promise<McpBridgeExitCode>((resolve) => (this.finish = resolve));

  constructor(private readonly options: RelayOptions) {
    this.stdio = new StdioServerTransport(options.stdin, options.stdout);
    const token = options.token;
    this.http = new StreamableHTTPClientTransport(options.endpoint, token ? { authProvider: { token: async () => token } } : {});
  }

  async run(): Promise<McpBridgeExitCode> {
    this.http.onmessage = (message) => this.fromGateway(message);
    // The transport reports every failure here, the standalone notification stream's included:
    // a failure with no request to answer for is how a gateway gone quiet is noticed.
    this.http.onerror = (error) => {
      if (this.ending) return;
      this.options.log(error.message);
      void this.checkGateway();
    };
    this.stdio.onmessage = (message) => this.fromClient(message);
    this.stdio.onerror = (error) => this.options.log(`stdin: ${error.message}`);
    this.stdio.onclose = () => void this.clientLeft();
    this.options.signal?.addEventListener('abort', () => void this.stdio.close(), { once: true });
    await this.http.start();
    await this.stdio.start();
    if (this.options.signal?.aborted) await this.stdio.close();
    return this.finished;
  }

  private fromClient(message: JSONRPCMessage): void {
    if (this.ending) return;
    if (!isJSONRPCRequest(message)) {
      // Notifications and the client's answers to the gateway's requests: nobody waits on stdout.
      this.http.send(message).catch((error: unknown) => this.relayFailed(undefined, error));
      return;
    }
    const { id } = message;
    this.pending.add(id);
    if (message.method === 'initialize') this.initializeId = id;
    this.http
      .send(message, { onRequestStreamEnd: () => this.answerStreamEnded(id) })
      .catch((error: unknown) => this.relayFailed(id, error));
  }

  private fromGateway(message: JSONRPCMessage): void {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      if (message.id !== undefined) this.pending.delete(message.id);
      // Before the answer reaches the client, so the client's next message already carries it.
      if (isJSONRPCResultResponse(message) && message.id === this.initializeId) {
        const version = message.result.protocolVersion;
        if (typeof version === 'string') this.http.setProtocolVersion(version);
      }
    }
    this.toClient(message);
  }

  private toClient(message: JSONRPCMessage): void {
    this.stdio.send(message).catch((error: unknown) => this.options.log(`stdout: ${errorMessage(error)}`));
  }

  /** The answer stream of request `id` closed; if it held no answer, the answer will never come. */
  private answerStreamEnded(id: RequestId): void {
    if (!this.pending.has(id)) return;
    void this.afterFailure(id, 'the gateway closed the answer stream before answering');
  }

  /** Relaying a message failed; `id` is the client's request to answer, if it was one. */
  private relayFailed(id: RequestId | undefined, error: unknown): void {
    if (this.ending) return;
    const status = error instanceof SdkHttpError ? error.status : undefined;
    if (error instanceof UnauthorizedError || status === 401 || status === 403) {
      void this.fail(MCP_BRIDGE_EXIT.TOKEN_REJECTED, `the gateway at ${this.options.endpoint.href} rejected the token (HTTP ${status ?? 401})`);
      return;
    }
    if (status === 404 && this.http.sessionId !== undefined) {
      void this.fail(MCP_BRIDGE_EXIT.GATEWAY_UNREACHABLE, `the gateway at ${this.options.endpoint.href} no longer knows session ${this.http.sessionId} (HTTP 404; restarted?)`);
      return;
    }
    if (status !== undefined) {
      // The gateway is there and refused this one message: answer it, keep relaying.
      if (id !== undefined) this.answerWithError(id, gatewayRefusal(error as SdkHttpError));
      else this.options.log(`the gateway refused a message (HTTP ${status})`);
      return;
    }
    void this.afterFailure(id, `could not reach the gateway: ${errorMessage(error)}`);
  }

  /** Answers `id` with `reason` if the gateway is still there; ends the bridge if it is not. */
  private async afterFailure(id: RequestId | undefined, reason: string): Promise<void> {
    const lost = await this.checkGateway();
    if (!lost && id !== undefined) this.answerWithError(id, { code: ProtocolErrorCode.InternalError, message: `mobileclaw mcp: ${reason}` });
  }

  /** Checks the gateway (one check at a time); ends the bridge when it is gone. True when it is. */
  private async checkGateway(): Promise<boolean> {
    if (this.ending) return true;
    this.check ??= checkMcpEndpoint(this.options.endpoint, this.options.token, this.options.checkTimeoutMs).finally(() => (this.check = undefined));
    const problem = await this.check;
    if (!problem) return false;
    const reason =
      problem.kind === 'unreachable'
        ? `the gateway at ${this.options.endpoint.href} went away: ${problem.detail}`
        : problem.kind === 'token-rejected'
          ? `the gateway at ${this.options.endpoint.href} rejected the token (HTTP ${problem.httpStatus})`
          : `the gateway at ${this.options.endpoint.href} no longer serves MCP (HTTP 404)`;
    await this.fail(exitCodeOf(problem), reason);
    return true;
  }

  private answerWithError(id: RequestId, error: { code: number; message: string; data?: unknown }): void {
    if (!this.pending.delete(id)) return;
    this.toClient({ jsonrpc: '2.0', id, error });
  }

  /** Ends the bridge with `code`: one stderr line, an error answer to every pending request. */
  private async fail(code: McpBridgeExitCode, reason: string): Promise<void> {
    if (this.ending) return;
    this.ending = true;
    this.options.log(reason);
    const answers = [...this.pending].map((id) =>
      this.stdio.send({ jsonrpc: '2.0', id, error: { code: ProtocolErrorCode.InternalError, message: `mobileclaw mcp: ${reason}` } }).catch(() => undefined),
    );
    this.pending.clear();
    await Promise.all(answers);
    await this.http.close();
    await this.stdio.close();
    this.finish(code);
  }

  /** stdin ended (or the bridge was stopped): end the session on the gateway, if any, then exit 0. */
  private async clientLeft(): Promise<void> {
    if (this.ending) return;
    this.ending = true;
    if (this.http.sessionId !== undefined) {
      const ended = this.http.terminateSession().catch((error: unknown) => this.options.log(`could not end session: ${errorMessage(error)}`));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, END_SESSION_TIMEOUT_MS)));
      await Promise.race([ended, late]);
      clearTimeout(timer);
    }
    await this.http.close(); // aborts a DELETE still under way
    this.finish(MCP_BRIDGE_EXIT.CLIENT_CLOSED);
  }
}

/**
 * The JSON-RPC error for a message the gateway refused with an HTTP status: the gateway's own
 * JSON-RPC error when the body holds one (e.g. an unsupported protocol version), else `-32603`
 * naming the status.
 */
function gatewayRefusal(error: SdkHttpError): { code: number; message: string; data?: unknown } {
  const text = (error.data as { text?: unknown }).text;
  if (typeof text === 'string') {
    try {
      const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
      if (typeof body.error?.code === 'number' && typeof body.error.message === 'string') return { code: body.error.code, message: body.error.message, ...(body.error.data === undefined ? {} : { data: body.error.data }) };
    } catch {
      // not JSON: fall through to the status
    }
  }
  return { code: ProtocolErrorCode.InternalError, message: `mobileclaw mcp: the gateway answered HTTP ${error.status}${error.statusText ? ` ${error.statusText}` : ''}` };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
