import { Client, INVALID_PARAMS, ProtocolError, SSEClientTransport, SdkError, SdkErrorCode, SdkHttpError, StreamableHTTPClientTransport, type Tool, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { Subject, type Observable } from 'rxjs';
import {
  ToolSource,
  toolFailure,
  type ToolDescriptor,
  type ToolInvocationContext,
  type ToolInvocationResult,
  type ToolSourceChange,
  type ToolSourceRef,
} from '@mobileclaw/domain';
import { mcpCallResultToInvocationResult } from './mcp-call-result';
import { mcpServerLocation, validateMcpServerConfig, type McpServerConfig } from './mcp-server-config';
import { importMcpTools, type ImportedMcpTool } from './mcp-tool-import';
import { RECONNECT_BACKOFF_DEFAULTS, reconnectDelayMs, type ReconnectBackoff } from './reconnect-backoff';
import { StderrTail } from './stderr-tail';

/** Defaults of {@link McpServerToolSourceOptions}. */
export const MCP_SERVER_TOOL_SOURCE_DEFAULTS = {
  /** 256 KiB of result JSON: a generous tool answer, still small enough for a model's context and a timeline step. */
  maxResultBytes: 256 * 1024,
  /** Time for the handshake plus the first `tools/list`, in ms. */
  connectTimeoutMs: 10_000,
  /** How often an HTTP or SSE server is pinged to notice it went away, in ms (0: never). */
  pingIntervalMs: 15_000,
  /** Quiet time after a `notifications/tools/list_changed` before the list is fetched again, in ms. */
  listChangedDebounceMs: 100,
  /** Bytes of a stdio server's stderr kept for {@link McpServerToolSource.status}. */
  maxStderrBytes: 16 * 1024,
} as const;

/** How a {@link McpServerToolSource} reaches its server. */
export interface McpServerToolSourceOptions {
  server: McpServerConfig;
  /** Largest result accepted, in bytes of its JSON; a larger one answers `PAYLOAD_TOO_LARGE`. Default 256 KiB. */
  maxResultBytes?: number;
  /** Deadline of a connection attempt (handshake and `tools/list`), in ms; default 10,000. */
  connectTimeoutMs?: number;
  /** Health ping period of HTTP and SSE servers, in ms; 0 turns it off. Default 15,000. A stdio server's exit is seen at once. */
  pingIntervalMs?: number;
  /** Debounce of `notifications/tools/list_changed`, in ms; default 100. */
  listChangedDebounceMs?: number;
  /** Reconnection delays; defaults in `RECONNECT_BACKOFF_DEFAULTS` (0.5 s doubling to 30 s, 20 % jitter). */
  reconnect?: Partial<ReconnectBackoff>;
  /** Bytes of a stdio server's stderr kept; default 16 KiB. */
  maxStderrBytes?: number;
  /** Source of randomness for the jitter, returning [0, 1); default `Math.random`. */
  random?: () => number;
}

/**
 * Where the connection stands: `idle` before {@link McpServerToolSource.start}, `connecting` during the
 * first attempt, `connected`, `reconnecting` after a loss or a failed attempt (tools listed as
 * unavailable), `closed` after {@link McpServerToolSource.close}.
 */
export type McpServerState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'closed';

/** What a status page shows about one server. Carries no header value, argument or environment value. */
export interface McpServerStatus {
  source: ToolSourceRef;
  state: McpServerState;
  /** As in every descriptor's `location`, e.g. `http https://erp.example/mcp`. */
  location: string;
  /** Tools listed now (available or not). */
  toolCount: number;
  /** Why the last attempt failed or the connection was lost, secrets removed; absent once connected. */
  lastError?: string;
  /** Failed attempts since the last success. */
  failedAttempts: number;
  /** A stdio server's process id while it runs. */
  pid?: number;
  /** The end of a stdio server's stderr (bounded), for people; never logged by the source. */
  stderr?: string;
}

interface Connection {
  generation: number;
  client: Client;
  transport: Transport;
  ping?: NodeJS.Timeout;
}

/** The `_meta` key a call's `toolCallId` travels under, so that a server can drop a repeated call. */
export const TOOL_CALL_ID_META_KEY = 'io.mobileclaw/toolCallId';

/**
 * One configured remote MCP server as a {@link ToolSource} (execution mode `REMOTE_PROXY`, source
 * `mcp:<id>`), through the MCP SDK's client over Streamable HTTP, legacy HTTP+SSE or a stdio command.
 *
 * - {@link start} connects (never rejects); the tools of `tools/list` are imported as
 *   `importMcpTools` says and re-read on `notifications/tools/list_changed`.
 * - When the server goes away (a stdio process exits, a ping or a call cannot reach it) its last known
 *   tools stay listed with `available: false`, calls answer `TOOL_UNAVAILABLE`, and the source
 *   reconnects with bounded, jittered exponential backoff; back, the tools are available again.
 *   Each of these changes is announced on {@link changes$}.
 * - {@link invoke} sends `tools/call` with the server's own tool name, the deadline as the request
 *   timeout and the caller's signal for cancellation (the SDK sends `notifications/cancelled`).
 *
 * Header values, URL query strings, command arguments and environment values never appear in
 * messages, `location` or {@link status}: errors are reported with them replaced by `[redacted]`.
 */
export class McpServerToolSource extends ToolSource {
  readonly ref: ToolSourceRef;
  private readonly changes = new Subject<ToolSourceChange>();
  readonly changes$: Observable<ToolSourceChange> = this.changes.asObservable();

  private readonly server: McpServerConfig;
  private readonly location: string;
  private readonly limits: Required<Omit<McpServerToolSourceOptions, 'server' | 'reconnect' | 'random'>>;
  private readonly backoff: ReconnectBackoff;
  private readonly random: () => number;
  private readonly secrets: string[];
  private readonly stderrTail: StderrTail;

  private state: McpServerState = 'idle';
  private tools: ImportedMcpTool[] = [];
  private connection: Connection | undefined;
  private generation = 0;
  private failedAttempts = 0;
  private lastError: string | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private started: Promise<void> | undefined;

  /** @throws McpServerConfigError when `options.server` is not a valid configuration (see `validateMcpServerConfig`). */
  constructor(options: McpServerToolSourceOptions) {
    super();
    validateMcpServerConfig(options.server);
    this.server = options.server;
    this.ref = { kind: 'mcp', id: options.server.id };
    this.location = mcpServerLocation(options.server.transport);
    this.limits = {
      maxResultBytes: options.maxResultBytes ?? MCP_SERVER_TOOL_SOURCE_DEFAULTS.maxResultBytes,
      connectTimeoutMs: options.connectTimeoutMs ?? MCP_SERVER_TOOL_SOURCE_DEFAULTS.connectTimeoutMs,
      pingIntervalMs: options.pingIntervalMs ?? MCP_SERVER_TOOL_SOURCE_DEFAULTS.pingIntervalMs,
      listChangedDebounceMs: options.listChangedDebounceMs ?? MCP_SERVER_TOOL_SOURCE_DEFAULTS.listChangedDebounceMs,
      maxStderrBytes: options.maxStderrBytes ?? MCP_SERVER_TOOL_SOURCE_DEFAULTS.maxStderrBytes,
    };
    this.backoff = { ...RECONNECT_BACKOFF_DEFAULTS, ...options.reconnect };
    this.random = options.random ?? Math.random;
    this.secrets = secretsOf(options.server);
    this.stderrTail = new StderrTail(this.limits.maxStderrBytes);
  }

  /**
   * Connects for the first time; resolves once that attempt succeeded (tools listed) or failed (then
   * retries run in the background, and {@link status} says why). Never rejects; calling it again
   * returns the same promise.
   */
  start(): Promise<void> {
    if (this.started === undefined) {
      if (this.state === 'closed') return (this.started = Promise.resolve());
      this.state = 'connecting';
      this.started = this.attempt();
    }
    return this.started;
  }

  /** Disconnects (a stdio server's process is ended), stops retrying and completes {@link changes$}. Idempotent. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.reconnectTimer);
    const connection = this.connection;
    this.connection = undefined;
    this.generation++;
    if (connection) await this.dispose(connection);
    this.changes.complete();
  }

  /** The last known tools in the server's order; `available: false` unless connected. Empty before the first success. */
  async list(): Promise<ToolDescriptor[]> {
    const available = this.state === 'connected';
    return this.tools.map(({ descriptor }) => ({
      ...descriptor,
      inputSchema: structuredClone(descriptor.inputSchema),
      source: { ...descriptor.source },
      eligibility: { eligible: descriptor.eligibility.eligible, missing: [...descriptor.eligibility.missing] },
      available,
    }));
  }

  /** The connection's state, for a status page or a health check. */
  status(): McpServerStatus {
    const transport = this.connection?.transport;
    const pid = transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
    const stderr = this.server.transport.type === 'stdio' ? this.redact(this.stderrTail.text()) : undefined;
    return {
      source: { ...this.ref },
      state: this.state,
      location: this.location,
      toolCount: this.tools.length,
      ...(this.lastError === undefined ? {} : { lastError: this.lastError }),
      failedAttempts: this.failedAttempts,
      ...(pid === undefined ? {} : { pid }),
      ...(stderr === undefined ? {} : { stderr }),
    };
  }

  /**
   * Calls `tools/call` on the server. Answers, never rejects: `TOOL_NOT_FOUND` (not listed),
   * `ABORTED` (the signal fired, before or during the call), `TOOL_UNAVAILABLE` (not connected, or the
   * connection broke during the call), `TIMEOUT` (no answer within `deadlineMs`), `VALIDATION_FAILED`
   * (the server refused the arguments: JSON-RPC `-32602`), `TOOL_FAILED` (an `isError` result, another
   * JSON-RPC error or an answer the client cannot use, with the server's message), `PAYLOAD_TOO_LARGE`
   * (over `maxResultBytes`). The call carries `toolCallId` in `_meta` under {@link TOOL_CALL_ID_META_KEY}.
   */
  async invoke(name: string, args: Record<string, unknown>, context: ToolInvocationContext): Promise<ToolInvocationResult> {
    if (context.signal.aborted) return toolFailure('ABORTED', `the call of ${name} was canceled before it started`);
    const tool = this.tools.find((entry) => entry.descriptor.name === name);
    if (tool === undefined) return toolFailure('TOOL_NOT_FOUND', `MCP server ${this.ref.id} has no tool ${JSON.stringify(name)}`);
    const connection = this.connection;
    if (this.state !== 'connected' || connection === undefined) return this.unavailable(name);
    try {
      const result = await connection.client.callTool(
        { name: tool.wireName, arguments: args, _meta: { [TOOL_CALL_ID_META_KEY]: context.toolCallId } },
        { timeout: context.deadlineMs, maxTotalTimeout: context.deadlineMs, signal: context.signal },
      );
      return mcpCallResultToInvocationResult(result, name, this.limits.maxResultBytes);
    } catch (err) {
      if (context.signal.aborted) return toolFailure('ABORTED', `the call of ${name} was canceled`);
      if (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout) return toolFailure('TIMEOUT', `${name} on MCP server ${this.ref.id} did not answer within ${context.deadlineMs} ms`);
      const message = `${name} on MCP server ${this.ref.id}: ${this.describe(err)}`;
      if (err instanceof ProtocolError) return toolFailure(err.code === INVALID_PARAMS /* the server refused the arguments */ ? 'VALIDATION_FAILED' : 'TOOL_FAILED', message);
      // The server answered, but with something this client cannot use (a result failing the tool's output schema, an unknown result type).
      if (err instanceof SdkError && !(err instanceof SdkHttpError) && !CONNECTION_FAILURES.has(err.code)) return toolFailure('TOOL_FAILED', message);
      // Anything else is the connection failing under the call (process gone, network down, session lost).
      this.lost(connection.generation, err);
      return this.unavailable(name);
    }
  }

  private unavailable(name: string): ToolInvocationResult {
    const why = this.lastError === undefined ? '' : `: ${this.lastError}`;
    return toolFailure('TOOL_UNAVAILABLE', `${name} is unavailable: MCP server ${this.ref.id} is not connected (${this.state})${why}`);
  }

  /** One connection attempt; on failure schedules the next one. */
  private async attempt(): Promise<void> {
    const generation = ++this.generation;
    const transport = this.createTransport();
    const client = new Client(
      { name: 'mobileclaw-gateway', version: '0.1.0' },
      {
        listChanged: {
          tools: { debounceMs: this.limits.listChangedDebounceMs, onChanged: (error, tools) => this.toolsChanged(generation, error, tools) },
        },
      },
    );
    const connection: Connection = { generation, client, transport };
    client.onclose = () => this.lost(generation, new Error('the connection closed'));
    client.onerror = (err) => this.probe(generation, err);
    try {
      await client.connect(transport, { timeout: this.limits.connectTimeoutMs });
      const { tools } = await client.listTools(undefined, { timeout: this.limits.connectTimeoutMs, cacheMode: 'refresh' });
      if (generation !== this.generation || this.state === 'closed') {
        await this.dispose(connection);
        return;
      }
      this.connection = connection;
      this.tools = importMcpTools(tools, this.ref, this.location);
      this.state = 'connected';
      this.failedAttempts = 0;
      this.lastError = undefined;
      if (this.limits.pingIntervalMs > 0 && this.server.transport.type !== 'stdio') {
        connection.ping = setInterval(() => this.probe(generation), this.limits.pingIntervalMs);
        connection.ping.unref();
      }
      this.announce();
    } catch (err) {
      await this.dispose(connection);
      if (generation !== this.generation || this.state === 'closed') return;
      this.failedAttempts++;
      this.lastError = this.describe(err);
      this.state = 'reconnecting';
      this.scheduleReconnect();
    }
  }

  private toolsChanged(generation: number, error: Error | null, tools: Tool[] | null): void {
    if (generation !== this.generation || this.state !== 'connected') return;
    if (error !== null || tools === null) {
      // A refresh that failed says nothing about the list; the connection check decides about the server.
      this.probe(generation, error ?? undefined);
      return;
    }
    this.tools = importMcpTools(tools, this.ref, this.location);
    this.announce();
  }

  /** Pings the server after a transport error or on the health period; no answer means it is lost. */
  private probe(generation: number, cause?: unknown): void {
    const connection = this.connection;
    if (connection === undefined || connection.generation !== generation || this.state !== 'connected') return;
    connection.client.ping({ timeout: this.limits.connectTimeoutMs }).then(
      () => undefined,
      (err: unknown) => this.lost(generation, cause ?? err),
    );
  }

  /** The connection of `generation` is gone: tools become unavailable, and reconnection starts. */
  private lost(generation: number, cause: unknown): void {
    const connection = this.connection;
    if (connection === undefined || connection.generation !== generation || this.state !== 'connected') return;
    this.connection = undefined;
    this.state = 'reconnecting';
    this.lastError = this.describe(cause);
    void this.dispose(connection);
    this.announce();
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    clearTimeout(this.reconnectTimer);
    const delay = reconnectDelayMs(this.backoff, Math.max(0, this.failedAttempts - 1), this.random);
    this.reconnectTimer = setTimeout(() => void this.attempt(), delay);
    this.reconnectTimer.unref();
  }

  private async dispose(connection: Connection): Promise<void> {
    clearInterval(connection.ping);
    connection.client.onclose = undefined;
    connection.client.onerror = undefined;
    await connection.client.close().catch(() => undefined);
  }

  private announce(): void {
    if (this.state !== 'closed') this.changes.next({ source: { ...this.ref } });
  }

  private createTransport(): Transport {
    const config = this.server.transport;
    switch (config.type) {
      case 'http':
        return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: { ...config.headers } } });
      case 'sse':
        return new SSEClientTransport(new URL(config.url), { requestInit: { headers: { ...config.headers } } });
      case 'stdio': {
        const transport = new StdioClientTransport({
          command: config.command,
          args: config.args ?? [],
          env: { ...getDefaultEnvironment(), ...config.env },
          ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
          stderr: 'pipe',
        });
        transport.stderr?.on('data', (chunk: Buffer) => this.stderrTail.push(chunk));
        return transport;
      }
    }
  }

  private describe(err: unknown): string {
    return this.redact(err instanceof Error ? err.message : String(err));
  }

  /** `message` with every configured secret (header and environment values, arguments, query strings) replaced. */
  private redact(message: string): string {
    let redacted = message;
    for (const secret of this.secrets) redacted = redacted.split(secret).join('[redacted]');
    return redacted;
  }
}

/** SDK errors that mean the connection, not the call, failed. */
const CONNECTION_FAILURES: ReadonlySet<SdkErrorCode> = new Set([SdkErrorCode.ConnectionClosed, SdkErrorCode.NotConnected, SdkErrorCode.SendFailed]);

/** The strings of `config` that may be secret, longest first (so a value containing another is replaced whole). */
function secretsOf(config: McpServerConfig): string[] {
  const transport = config.transport;
  const values: string[] = [];
  if (transport.type === 'stdio') {
    values.push(...Object.values(transport.env ?? {}), ...(transport.args ?? []));
  } else {
    values.push(...Object.values(transport.headers ?? {}));
    const url = new URL(transport.url);
    if (url.search !== '') values.push(url.search.slice(1));
    for (const value of url.searchParams.values()) values.push(value);
  }
  // Short values (a flag like `-y`, a port) would shred every message and protect nothing.
  return [...new Set(values.filter((value) => value.length >= 6))].sort((a, b) => b.length - a.length);
}
