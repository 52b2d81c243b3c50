import { TOOL_SOURCE_ID_PATTERN } from '@mobileclaw/domain';

/** A server reached over Streamable HTTP (MCP 2025-03-26 and later; the 2026-07-28 revision included). */
export interface McpHttpTransportConfig {
  type: 'http';
  /** The server's MCP endpoint, `http:` or `https:`, e.g. `https://erp.example/mcp`. */
  url: string;
  /** Extra request headers, e.g. `{Authorization: 'Bearer …'}`; their values never appear in errors, logs or `location`. */
  headers?: Record<string, string>;
}

/** A server reached over the legacy HTTP+SSE transport (MCP 2024-11-05): `GET url` opens the event stream. */
export interface McpSseTransportConfig {
  type: 'sse';
  /** The server's SSE endpoint, `http:` or `https:`, e.g. `https://old.example/sse`. */
  url: string;
  /** As for {@link McpHttpTransportConfig.headers}. */
  headers?: Record<string, string>;
}

/** A server run as a child process speaking MCP over its stdin/stdout. */
export interface McpStdioTransportConfig {
  type: 'stdio';
  /** The program, looked up on `PATH` when not a path, e.g. `npx` or `/usr/bin/node`. */
  command: string;
  args?: string[];
  /**
   * Environment of the process, on top of the SDK's safe default (`HOME`, `PATH`, `USER`, … — not the
   * gateway's whole environment). Values are never logged.
   */
  env?: Record<string, string>;
  /** Working folder of the process; default the gateway's. */
  cwd?: string;
}

/** How to reach one server. */
export type McpTransportConfig = McpHttpTransportConfig | McpSseTransportConfig | McpStdioTransportConfig;

/** One configured remote MCP server: what a config loader hands to {@link McpServerToolSource}. */
export interface McpServerConfig {
  /** The source id (`mcp:<id>`), 1–32 of `[A-Za-z0-9_-]`, unique among the configured servers. */
  id: string;
  transport: McpTransportConfig;
}

/** A configuration {@link validateMcpServerConfig} refused; `field` names the offending entry, e.g. `transport.url`. */
export class McpServerConfigError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'McpServerConfigError';
  }
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Checks `config` before anything connects: the id's form, the transport's type, an absolute
 * `http:`/`https:` URL, header names that HTTP accepts and string values, a non-empty command,
 * string arguments and environment values. Messages name the field, never a header's value.
 * @throws McpServerConfigError for the first problem found.
 */
export function validateMcpServerConfig(config: McpServerConfig): void {
  if (typeof config.id !== 'string' || !TOOL_SOURCE_ID_PATTERN.test(config.id)) {
    throw new McpServerConfigError('id', `MCP server id ${JSON.stringify(config.id)} must be 1–32 of [A-Za-z0-9_-]`);
  }
  const transport = config.transport as McpTransportConfig | undefined;
  const where = `MCP server ${config.id}`;
  if (transport === undefined || transport === null || typeof transport !== 'object') throw new McpServerConfigError('transport', `${where}: transport is required`);
  switch (transport.type) {
    case 'http':
    case 'sse': {
      let url: URL;
      try {
        url = new URL(transport.url);
      } catch {
        throw new McpServerConfigError('transport.url', `${where}: transport.url is not an absolute URL`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new McpServerConfigError('transport.url', `${where}: transport.url must be http: or https:, not ${url.protocol}`);
      if (url.username !== '' || url.password !== '') throw new McpServerConfigError('transport.url', `${where}: transport.url must not carry credentials; put them in transport.headers`);
      for (const [name, value] of Object.entries(transport.headers ?? {})) {
        if (!HEADER_NAME.test(name)) throw new McpServerConfigError('transport.headers', `${where}: header name ${JSON.stringify(name)} is not a valid HTTP header name`);
        if (typeof value !== 'string' || /[\r\n\0]/.test(value)) throw new McpServerConfigError(`transport.headers.${name}`, `${where}: the value of header ${name} must be a string without line breaks`);
      }
      return;
    }
    case 'stdio':
      if (typeof transport.command !== 'string' || transport.command.trim() === '') throw new McpServerConfigError('transport.command', `${where}: transport.command is required`);
      if (transport.args !== undefined && (!Array.isArray(transport.args) || transport.args.some((arg) => typeof arg !== 'string'))) {
        throw new McpServerConfigError('transport.args', `${where}: transport.args must be strings`);
      }
      for (const [name, value] of Object.entries(transport.env ?? {})) {
        if (typeof value !== 'string') throw new McpServerConfigError(`transport.env.${name}`, `${where}: environment variable ${name} must be a string`);
      }
      if (transport.cwd !== undefined && typeof transport.cwd !== 'string') throw new McpServerConfigError('transport.cwd', `${where}: transport.cwd must be a string`);
      return;
    default:
      throw new McpServerConfigError('transport.type', `${where}: transport.type must be http, sse or stdio, not ${JSON.stringify((transport as { type?: unknown }).type)}`);
  }
}

/**
 * Where the server is, for people, without secrets: `http <origin><path>` / `sse <origin><path>`
 * (no query string, which may carry a key, no headers) or `stdio <command>` (no arguments or
 * environment, which may carry tokens).
 */
export function mcpServerLocation(transport: McpTransportConfig): string {
  if (transport.type === 'stdio') return `stdio ${transport.command}`;
  const url = new URL(transport.url);
  return `${transport.type} ${url.origin}${url.pathname}`;
}
