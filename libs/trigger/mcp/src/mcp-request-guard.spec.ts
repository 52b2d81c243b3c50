import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpRequestGuard, allowedRequestHeaders, echoOf, parseAllowedOrigin, validHostHeader } from './mcp-request-guard';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local HTTP server that admits through `guard`, answering 200 "admitted" to what passes. */
async function serve(guard: McpRequestGuard): Promise<{ send: (method: string, headers?: Record<string, string>, path?: string) => Promise<Answer>; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (guard.admit(req, res)) res.end('admitted');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const send = (method: string, headers: Record<string, string> = {}, path = '/mcp') =>
    new Promise<Answer>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
  return { send, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function guarded(options: { allowedOrigins?: string[]; apiToken?: string; allowedHosts?: string[] } = {}) {
  const server = await serve(new McpRequestGuard({ allowedOrigins: options.allowedOrigins ?? [], apiToken: options.apiToken, allowedHosts: options.allowedHosts }));
  close = server.close;
  return server.send;
}

describe('McpRequestGuard: origins', () => {
  it('admits a request without Origin (a non-browser client), with headers that keep proxies from buffering', async () => {
    const send = await guarded();
    const answer = await send('POST');
    expect([answer.status, answer.body]).toEqual([200, 'admitted']);
    expect(answer.headers['x-accel-buffering']).toBe('no');
    expect(answer.headers['cache-control']).toBe('no-cache, no-transform');
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it.each(['http://localhost:5173', 'http://127.0.0.1', 'https://[::1]:8443'])('always admits the localhost origin %s, with CORS headers', async (origin) => {
    const send = await guarded();
    const answer = await send('POST', { Origin: origin });
    expect([answer.status, answer.body]).toEqual([200, 'admitted']);
    expect(answer.headers['access-control-allow-origin']).toBe(origin);
    expect(answer.headers['vary']).toBe('Origin');
    expect(answer.headers['access-control-expose-headers']).toBe('Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate');
  });

  it('answers 403 with a JSON-RPC error to an origin not on the list', async () => {
    const send = await guarded({ allowedOrigins: ['app.example.com'] });
    const answer = await send('POST', { Origin: 'https://evil.example' });
    expect(answer.status).toBe(403);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(JSON.parse(answer.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Forbidden: origin "https://evil.example" is not allowed (MOBILECLAW_MCP_ALLOWED_ORIGINS)' },
      id: null,
    });
  });

  it('quotes at most 200 characters of a refused origin', async () => {
    const send = await guarded();
    const origin = `https://${'a'.repeat(5000)}.example`;
    const answer = await send('POST', { Origin: origin });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).error.message).toBe(`Forbidden: origin ${JSON.stringify(`${origin.slice(0, 200)}…`)} is not allowed (MOBILECLAW_MCP_ALLOWED_ORIGINS)`);
  });

  it.each(['null', 'not a url', 'file://'])('answers 403 to the unusable origin %j', async (origin) => {
    const send = await guarded({ allowedOrigins: ['app.example.com'] });
    expect((await send('POST', { Origin: origin })).status).toBe(403);
  });

  it('admits any scheme and port of a hostname entry', async () => {
    const send = await guarded({ allowedOrigins: ['app.example.com'] });
    for (const origin of ['https://app.example.com', 'http://app.example.com:8080']) expect((await send('POST', { Origin: origin })).status).toBe(200);
    expect((await send('POST', { Origin: 'https://sub.app.example.com' })).status).toBe(403);
  });

  it('admits exactly the scheme, host and port of an origin entry', async () => {
    const send = await guarded({ allowedOrigins: ['https://console.example.org:8443', 'https://App.Example.net/'] });
    const status = async (origin: string) => (await send('POST', { Origin: origin })).status;
    expect(await status('https://console.example.org:8443')).toBe(200);
    expect(await status('https://app.example.net')).toBe(200);
    expect(await status('https://app.example.net:443')).toBe(200);
    expect(await status('http://console.example.org:8443')).toBe(403);
    expect(await status('https://console.example.org')).toBe(403);
    expect(await status('http://app.example.net')).toBe(403);
  });

  it('admits origins of a non-web scheme by exact entry or by <scheme>://*', async () => {
    const send = await guarded({ allowedOrigins: ['chrome-extension://abcdef', 'vscode-webview://*'] });
    const status = async (origin: string) => (await send('POST', { Origin: origin })).status;
    expect(await status('chrome-extension://abcdef')).toBe(200);
    expect(await status('chrome-extension://other')).toBe(403);
    expect(await status('vscode-webview://1234')).toBe(200);
  });

  const FIXED_HEADERS = 'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, Mcp-Method, Mcp-Name';

  it('answers a preflight from an allowed origin itself: 204, methods, its fixed headers, no token needed', async () => {
    const send = await guarded({ allowedOrigins: ['app.example.com'], apiToken: 'secret' });
    const answer = await send('OPTIONS', { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, mcp-session-id' });
    expect([answer.status, answer.body]).toEqual([204, '']);
    expect(answer.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(answer.headers['access-control-allow-methods']).toBe('GET, POST, DELETE, OPTIONS');
    expect(answer.headers['access-control-allow-headers']).toBe(FIXED_HEADERS);
    expect(answer.headers['access-control-max-age']).toBe('600');
  });

  it('lists its own allowed headers in a preflight that names none', async () => {
    const send = await guarded();
    const answer = await send('OPTIONS', { Origin: 'http://localhost:3000' });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-headers']).toBe(FIXED_HEADERS);
  });

  it('never echoes a header a preflight asks for, except the Mcp-Param-* names of the 2026-07-28 revision', async () => {
    const send = await guarded();
    const answer = await send('OPTIONS', { Origin: 'http://localhost:3000', 'Access-Control-Request-Headers': 'x-evil, cookie, mcp-param-region, Mcp-Param-Region, mcp-param-' });
    expect(answer.headers['access-control-allow-headers']).toBe(`${FIXED_HEADERS}, mcp-param-region, Mcp-Param-Region`);
    expect(allowedRequestHeaders(Array.from({ length: 40 }, (_, i) => `mcp-param-p${i}`).join(','))).toBe(
      [FIXED_HEADERS, ...Array.from({ length: 32 }, (_, i) => `mcp-param-p${i}`)].join(', '),
    );
  });

  it('refuses a preflight from an origin not on the list', async () => {
    const send = await guarded();
    expect((await send('OPTIONS', { Origin: 'https://evil.example' })).status).toBe(403);
  });
});

describe('McpRequestGuard: token', () => {
  it('admits the right bearer token, whatever the case of "Bearer" and surrounding spaces', async () => {
    const send = await guarded({ apiToken: 's3cret-token' });
    for (const authorization of ['Bearer s3cret-token', 'bearer   s3cret-token  ']) expect((await send('POST', { Authorization: authorization })).status).toBe(200);
  });

  it('takes the token as ?access_token= on a GET (an EventSource on the legacy /sse cannot send headers), as the REST API does, never on a POST', async () => {
    const send = await guarded({ apiToken: 's3cret-token' });
    expect((await send('GET', {}, '/sse?access_token=s3cret-token')).status).toBe(200);
    expect((await send('GET', {}, '/sse?access_token=s3cret')).status).toBe(401);
    expect((await send('POST', {}, '/mcp?access_token=s3cret-token')).status).toBe(401);
  });

  it.each([
    ['no header', undefined],
    ['another token', 'Bearer s3cret'],
    ['a longer token', 'Bearer s3cret-token-and-more'],
    ['an empty token', 'Bearer  '],
    ['another scheme', 'Basic s3cret-token'],
    ['two words', 'Bearer s3cret-token extra'],
  ])('answers 401 with WWW-Authenticate to %s', async (_, authorization) => {
    const send = await guarded({ apiToken: 's3cret-token' });
    const answer = await send('POST', authorization === undefined ? {} : { Authorization: authorization });
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Bearer realm="mobileclaw"');
    expect(JSON.parse(answer.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Unauthorized: send the API token set in MOBILECLAW_API_TOKEN (not the device token) as Authorization: Bearer <token>' },
      id: null,
    });
  });

  it('without a token, answers 403 to a request that came through a proxy, and admits one that did not', async () => {
    const send = await guarded({});
    const answer = await send('POST', { 'X-Forwarded-For': '203.0.113.7' });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Forbidden (PROXIED_WITHOUT_API_TOKEN): this request came through a proxy (X-Forwarded-For header); set MOBILECLAW_API_TOKEN to serve it' },
      id: null,
    });
    expect((await send('POST', { Forwarded: 'for=203.0.113.7' })).status).toBe(403);
    expect((await send('POST')).status).toBe(200);
  });

  it('with a token, applies the token rules to a request that came through a proxy', async () => {
    const send = await guarded({ apiToken: 's3cret-token' });
    expect((await send('POST', { 'X-Forwarded-For': '203.0.113.7', Authorization: 'Bearer s3cret-token' })).status).toBe(200);
    expect((await send('POST', { 'X-Forwarded-For': '203.0.113.7' })).status).toBe(401);
  });

  it('checks the origin before the token', async () => {
    const send = await guarded({ apiToken: 's3cret-token' });
    expect((await send('POST', { Origin: 'https://evil.example', Authorization: 'Bearer s3cret-token' })).status).toBe(403);
  });

  it('labels a 401 to an allowed browser origin with CORS headers, so the page can read it', async () => {
    const send = await guarded({ apiToken: 's3cret-token' });
    const answer = await send('POST', { Origin: 'http://localhost:5173' });
    expect(answer.status).toBe(401);
    expect(answer.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });
});

describe('parseAllowedOrigin', () => {
  it.each([
    ['app.example.com', { hostname: 'app.example.com' }],
    ['https://App.example.com:8443/path', { origin: 'https://app.example.com:8443' }],
    ['http://app.example.com:80', { origin: 'http://app.example.com' }],
    ['vscode-webview://*', { hostname: 'vscode-webview://*' }],
    ['chrome-extension://ABC', { origin: 'chrome-extension://ABC' }],
    ['https://', { origin: 'https://' }],
  ])('reads %j as %j', (entry, expected) => {
    expect(parseAllowedOrigin(entry)).toEqual(expected);
  });
});

describe('McpRequestGuard: Host', () => {
  it.each(['a b[', 'example.com/path', 'user@example.com', 'example.com:port', '[zz::1]'])('answers 400 -32600 to the Host header %j, before origin and token', async (host) => {
    const send = await guarded({ apiToken: 's3cret-token' });
    const answer = await send('POST', { Host: host, Origin: 'https://evil.example' });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Bad Request: invalid Host header' }, id: null });
  });

  it.each(['localhost:3000', '127.0.0.1', '[::1]:3000', 'gateway.example.com', 'xn--bcher-kva.example'])('admits the Host header %j', (host) => {
    expect(validHostHeader(host)).toBe(true);
  });
});

describe('echoOf', () => {
  it('keeps a short text and cuts a long one at 200 code points with …', () => {
    expect(echoOf('com.android.settings')).toBe('com.android.settings');
    expect(echoOf('🚀'.repeat(300))).toBe(`${'🚀'.repeat(200)}…`);
  });
});

describe('McpRequestGuard: Host without an API token', () => {
  it('answers 403 HOST_NOT_ALLOWED to a Host that is neither loopback nor allowed, preflights included', async () => {
    const send = await guarded({ allowedHosts: ['phone-gw.lan'] });
    const message = 'Forbidden (HOST_NOT_ALLOWED): Host "evil.com" is not allowed: without MOBILECLAW_API_TOKEN only loopback hosts (localhost, 127.0.0.1, [::1]) and those in MOBILECLAW_ALLOWED_HOSTS are served';
    for (const method of ['POST', 'OPTIONS']) {
      const answer = await send(method, { Host: 'evil.com', Origin: 'http://evil.com' });
      expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual({ status: 403, body: { jsonrpc: '2.0', error: { code: -32000, message }, id: null } });
    }
    for (const host of ['localhost:3000', '127.0.0.1', '[::1]:3000', 'phone-gw.lan:3000']) {
      expect((await send('POST', { Host: host })).body).toBe('admitted');
    }
  });

  it('leaves Host alone once a token is configured', async () => {
    const send = await guarded({ apiToken: 'api-token-0123456789' });
    expect((await send('POST', { Host: 'evil.com', Authorization: 'Bearer api-token-0123456789' })).body).toBe('admitted');
  });
});
