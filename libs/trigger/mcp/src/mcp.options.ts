/** Settings of the MCP face. Durations in ms, sizes in px and bytes. */
export interface McpOptions {
  /** Streamable HTTP endpoint (both revisions). Default `/mcp`. */
  path: string;
  /** Legacy HTTP+SSE transport: the stream (`GET`) and the message endpoint (`POST ?sessionId=`). Defaults `/sse`, `/message`. */
  ssePath: string;
  messagePath: string;
  /** Bearer token required on every MCP request when set (the REST API's token). */
  apiToken?: string;
  /**
   * Browser origins allowed to call: hostnames (`app.example.com`, any scheme and port), origins
   * (`https://app.example.com:8443`, exactly that scheme, host and port) or `<scheme>://*` for a non-web
   * scheme (`vscode-webview://*`); a request whose `Origin` is not among them gets 403 (DNS-rebinding
   * protection). Requests without `Origin` (non-browser clients) pass. Localhost origins are always allowed.
   */
  allowedOrigins: string[];
  /** Without `apiToken`, host names served besides loopback ones (`MOBILECLAW_ALLOWED_HOSTS`); others get 403 (`HOST_NOT_ALLOWED`). */
  allowedHosts?: string[];
  /**
   * A 2025-era session (Streamable HTTP or SSE) whose client sent no message (POST) for this long is
   * closed, with its open streams: a client that only listens sends a `ping` now and then. Default 30 min.
   */
  sessionIdleMs: number;
  /** Open 2025-era sessions at most; one more `initialize` or `GET /sse` gets 503. Default 100. */
  maxSessions: number;
  /** SSE comment sent on idle streams this often, so proxies keep them open. Default 15 000. */
  keepAliveMs: number;
  /** Messages kept per session for `Last-Event-ID` resumption. Default 1000. */
  eventsPerSession: number;
  /**
   * Screen images in `get_screen` results and screen resources: longest side (default 1568 px) and
   * size of the base64 data as sent (default 800 KiB, so a JPEG of at most 600 KiB): with the element
   * list the whole result stays under MCP clients' 1 MB cap.
   */
  image: { maxLongSidePx: number; maxBytes: number };
  /**
   * How long a call of a tool registry tool may take, in ms (the registry's `deadlineMs`; the source
   * answers `TIMEOUT` past it). Default 120 000, the longest a delegation to another agent waits.
   */
  registryToolDeadlineMs: number;
  /** Name and version the server announces. */
  serverInfo: { name: string; version: string };
  /**
   * Test only: also serve the fixture tools, resources and prompts the MCP conformance suite calls
   * (`test_simple_text`, `test://static-text`, …; conformance-fixtures.ts). Default false.
   */
  conformanceFixtures: boolean;
}

export const DEFAULT_MCP_OPTIONS: McpOptions = {
  path: '/mcp',
  ssePath: '/sse',
  messagePath: '/message',
  allowedOrigins: [],
  sessionIdleMs: 30 * 60_000,
  maxSessions: 100,
  keepAliveMs: 15_000,
  eventsPerSession: 1000,
  image: { maxLongSidePx: 1568, maxBytes: 800 * 1024 },
  registryToolDeadlineMs: 120_000,
  serverInfo: { name: 'mobileclaw', version: '0.1.0' },
  conformanceFixtures: false,
};

/** DI token of the {@link McpOptions}. */
export const MCP_OPTIONS = Symbol('MCP_OPTIONS');
