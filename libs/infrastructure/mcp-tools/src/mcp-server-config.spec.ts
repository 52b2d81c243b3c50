import { McpServerConfigError, mcpServerLocation, validateMcpServerConfig, type McpServerConfig } from './mcp-server-config';

function refusal(config: unknown): { field: string; message: string } | undefined {
  try {
    validateMcpServerConfig(config as McpServerConfig);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(McpServerConfigError);
    return { field: (err as McpServerConfigError).field, message: (err as Error).message };
  }
}

describe('MCP server configuration', () => {
  it('accepts the three transports', () => {
    expect(refusal({ id: 'erp', transport: { type: 'http', url: 'https://erp.example/mcp', headers: { Authorization: 'Bearer t' } } })).toBeUndefined();
    expect(refusal({ id: 'old-one', transport: { type: 'sse', url: 'http://127.0.0.1:3001/sse' } })).toBeUndefined();
    expect(refusal({ id: 'files_1', transport: { type: 'stdio', command: 'npx', args: ['-y', 'server'], env: { KEY: 'v' }, cwd: '/tmp' } })).toBeUndefined();
  });

  it('names the field it refuses, never a header value', () => {
    expect(refusal({ id: 'a b', transport: { type: 'http', url: 'https://x/mcp' } })).toEqual({ field: 'id', message: 'MCP server id "a b" must be 1–32 of [A-Za-z0-9_-]' });
    expect(refusal({ id: 'x'.repeat(33), transport: { type: 'http', url: 'https://x/mcp' } })?.field).toBe('id');
    expect(refusal({ id: 'erp' })).toEqual({ field: 'transport', message: 'MCP server erp: transport is required' });
    expect(refusal({ id: 'erp', transport: { type: 'websocket', url: 'ws://x' } })).toEqual({ field: 'transport.type', message: 'MCP server erp: transport.type must be http, sse or stdio, not "websocket"' });
    expect(refusal({ id: 'erp', transport: { type: 'http', url: 'erp.example/mcp' } })).toEqual({ field: 'transport.url', message: 'MCP server erp: transport.url is not an absolute URL' });
    expect(refusal({ id: 'erp', transport: { type: 'sse', url: 'ftp://erp.example/sse' } })).toEqual({ field: 'transport.url', message: 'MCP server erp: transport.url must be http: or https:, not ftp:' });
    expect(refusal({ id: 'erp', transport: { type: 'http', url: 'https://user:pw@erp.example/mcp' } })).toEqual({
      field: 'transport.url',
      message: 'MCP server erp: transport.url must not carry credentials; put them in transport.headers',
    });
    expect(refusal({ id: 'erp', transport: { type: 'http', url: 'https://x/mcp', headers: { 'Bad Name': 'v' } } })?.field).toBe('transport.headers');
    const injected = refusal({ id: 'erp', transport: { type: 'http', url: 'https://x/mcp', headers: { Authorization: 'Bearer secret\r\nX-Evil: 1' } } });
    expect(injected).toEqual({ field: 'transport.headers.Authorization', message: 'MCP server erp: the value of header Authorization must be a string without line breaks' });
    expect(refusal({ id: 'fs', transport: { type: 'stdio', command: ' ' } })).toEqual({ field: 'transport.command', message: 'MCP server fs: transport.command is required' });
    expect(refusal({ id: 'fs', transport: { type: 'stdio', command: 'node', args: ['a', 1] } })?.field).toBe('transport.args');
    expect(refusal({ id: 'fs', transport: { type: 'stdio', command: 'node', env: { PORT: 3000 } } })?.field).toBe('transport.env.PORT');
  });

  it('shows where a server is without query strings, headers, arguments or environment', () => {
    expect(mcpServerLocation({ type: 'http', url: 'https://erp.example:8443/mcp?api_key=secret', headers: { Authorization: 'Bearer t' } })).toBe('http https://erp.example:8443/mcp');
    expect(mcpServerLocation({ type: 'sse', url: 'http://127.0.0.1:3001/sse' })).toBe('sse http://127.0.0.1:3001/sse');
    expect(mcpServerLocation({ type: 'stdio', command: 'npx', args: ['--token', 'secret'], env: { KEY: 'secret' } })).toBe('stdio npx');
  });
});
