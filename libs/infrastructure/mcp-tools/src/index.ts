/**
 * @mobileclaw/mcp-tool-source: remote MCP servers as `ToolSource`s of execution mode `REMOTE_PROXY`
 * ({@link McpServerToolSource}, one per configured server), through the MCP SDK's client over
 * Streamable HTTP, legacy HTTP+SSE or a stdio command.
 */
export * from './mcp-server-tool-source';
export * from './mcp-server-config';
export * from './mcp-tool-import';
export * from './mcp-call-result';
export * from './reconnect-backoff';
export * from './stderr-tail';
