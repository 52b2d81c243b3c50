import { startupLines } from './gateway-process';

describe('startupLines', () => {
  it('tells the live view, the REST API, the MCP endpoints and where phones connect', () => {
    expect(startupLines({ httpBase: 'http://127.0.0.1:3000', devicePort: 7397, deviceSocketPath: '/ws/device', simulator: true, mcpPath: '/mcp', ssePath: '/sse' })).toEqual([
      'live view on http://127.0.0.1:3000/ ; REST API on http://127.0.0.1:3000/api/devices',
      'MCP on http://127.0.0.1:3000/mcp (legacy SSE: http://127.0.0.1:3000/sse)',
      'phones connect to TCP port 7397 or ws://127.0.0.1:3000/ws/device; simulated phone sim-1 attached',
    ]);
    expect(startupLines({ httpBase: 'http://[::1]:8080', devicePort: 1, simulator: false, mcpPath: '/mcp', ssePath: '/sse' })[2]).toBe('phones connect to TCP port 1');
  });
});
