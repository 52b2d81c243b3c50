import { request } from 'node:http';
import type { RunningGateway } from '@mobileclaw/gateway';
import { EventsSocketClient } from '../support/events-socket-client';
import { testGateways } from '../support/test-gateways';

/**
 * A real gateway against DNS rebinding: a web page that points its own domain at 127.0.0.1 reaches
 * the gateway from loopback, with its domain in `Host`. Without an API token only loopback hosts and
 * `MOBILECLAW_ALLOWED_HOSTS` are served, on every face (REST, SSE, /ws/events, MCP); with a token,
 * `Host` is not restricted.
 */

const gateways = testGateways('mobileclaw-host-check-');
const sockets: EventsSocketClient[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});

const MESSAGE = 'Host "evil.com" is not allowed: without MOBILECLAW_API_TOKEN only loopback hosts (localhost, 127.0.0.1, [::1]) and those in MOBILECLAW_ALLOWED_HOSTS are served';

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * One request to the gateway on 127.0.0.1 with the given `Host` header; an event stream (200) is
 * answered with its status and content type only, and closed.
 */
function send(gw: RunningGateway, path: string, host: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: gw.httpPort, path, method: options.method ?? 'GET', headers: { ...options.headers, host } }, (res) => {
      const contentType = String(res.headers['content-type'] ?? '');
      if (res.statusCode === 200 && contentType.startsWith('text/event-stream')) {
        resolve({ status: 200, contentType, body: '' });
        req.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const MCP_INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'host-check', version: '1' } } });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('the Host header', () => {
  describe('with no API token configured', () => {
    it('evil.com is refused 403 HOST_NOT_ALLOWED on REST (pairing included, POSTs before their body is read) and on SSE', async () => {
      const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
      const pairing = await send(gw, '/api/pairing', 'evil.com', { headers: { origin: 'http://evil.com' } });
      expect(pairing.status).toBe(403);
      expect(pairing.contentType).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(pairing.body)).toEqual({
        type: 'urn:mobileclaw:error:HOST_NOT_ALLOWED',
        title: 'Host not allowed',
        status: 403,
        detail: MESSAGE,
        instance: '/api/pairing',
        code: 'HOST_NOT_ALLOWED',
      });
      expect(pairing.body).not.toContain(gw.deviceToken);
      const post = await send(gw, '/api/tasks', 'evil.com', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
      expect([post.status, JSON.parse(post.body).code]).toEqual([403, 'HOST_NOT_ALLOWED']);
      const stream = await send(gw, '/api/devices/events', 'evil.com:80', { headers: { accept: 'text/event-stream' } });
      expect([stream.status, JSON.parse(stream.body).code]).toEqual([403, 'HOST_NOT_ALLOWED']);
      const metrics = await send(gw, '/metrics', 'evil.com');
      expect([metrics.status, JSON.parse(metrics.body).code]).toEqual([403, 'HOST_NOT_ALLOWED']);
    });

    it('evil.com is closed with 4403 on /ws/events, though its Origin equals its Host', async () => {
      const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
      const socket = await EventsSocketClient.open(`ws://127.0.0.1:${gw.httpPort}/ws/events`, { headers: { host: 'evil.com' }, origin: 'http://evil.com' });
      sockets.push(socket);
      expect(await socket.closed).toEqual({ code: 4403, reason: 'HOST_NOT_ALLOWED: host not allowed without an API token (MOBILECLAW_ALLOWED_HOSTS)' });
      expect(socket.messages).toEqual([]);
    });

    it('evil.com is refused 403 on /mcp and /sse', async () => {
      const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
      const expected = { jsonrpc: '2.0', id: null, error: { code: -32000, message: `Forbidden (HOST_NOT_ALLOWED): ${MESSAGE}` } };
      const mcp = await send(gw, '/mcp', 'evil.com', { method: 'POST', headers: MCP_HEADERS, body: MCP_INIT });
      expect([mcp.status, JSON.parse(mcp.body)]).toEqual([403, expected]);
      const sse = await send(gw, '/sse', 'evil.com', { headers: { accept: 'text/event-stream' } });
      expect([sse.status, JSON.parse(sse.body)]).toEqual([403, expected]);
    });

    it.each(['127.0.0.1:PORT', 'localhost:PORT', '[::1]:PORT'])('%s is served on REST, SSE, /ws/events and /mcp', async (template) => {
      const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
      const host = template.replace('PORT', String(gw.httpPort));
      const devices = await send(gw, '/api/devices', host);
      expect([devices.status, JSON.parse(devices.body)]).toEqual([200, { devices: [] }]);
      const pairing = await send(gw, '/api/pairing', host);
      expect(JSON.parse(pairing.body).link).toContain(`token=${gw.deviceToken}`);
      expect((await send(gw, '/api/devices/events', host, { headers: { accept: 'text/event-stream' } })).status).toBe(200);
      const mcp = await send(gw, '/mcp', host, { method: 'POST', headers: MCP_HEADERS, body: MCP_INIT });
      expect(mcp.status).toBe(200);
      const socket = await EventsSocketClient.open(`ws://127.0.0.1:${gw.httpPort}/ws/events`, { headers: { host } });
      sockets.push(socket);
      expect((await socket.next((m) => m.type === 'welcome')).type).toBe('welcome');
    });

    it('a host listed in MOBILECLAW_ALLOWED_HOSTS is served, any port; others still are not', async () => {
      const gw = await gateways.start({ MOBILECLAW_SIM: 'off', MOBILECLAW_ALLOWED_HOSTS: 'phone-gw.lan, gw.example.org' });
      const devices = await send(gw, '/api/devices', `phone-gw.lan:${gw.httpPort}`);
      expect([devices.status, JSON.parse(devices.body)]).toEqual([200, { devices: [] }]);
      const mcp = await send(gw, '/mcp', 'phone-gw.lan', { method: 'POST', headers: MCP_HEADERS, body: MCP_INIT });
      expect(mcp.status).toBe(200);
      const socket = await EventsSocketClient.open(`ws://127.0.0.1:${gw.httpPort}/ws/events`, { headers: { host: 'phone-gw.lan' }, origin: 'http://phone-gw.lan' });
      sockets.push(socket);
      expect((await socket.next((m) => m.type === 'welcome')).type).toBe('welcome');
      expect((await send(gw, '/api/devices', 'evil.com')).status).toBe(403);
    });
  });

  it('is not restricted when an API token is configured: the token is the defence', async () => {
    const token = 'host-check-api-token-0123456789';
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off', MOBILECLAW_API_TOKEN: token });
    const authorization = `Bearer ${token}`;
    const devices = await send(gw, '/api/devices', 'evil.com', { headers: { authorization } });
    expect([devices.status, JSON.parse(devices.body)]).toEqual([200, { devices: [] }]);
    expect(JSON.parse((await send(gw, '/api/devices', 'evil.com')).body).code).toBe('UNAUTHORIZED');
    expect((await send(gw, '/mcp', 'evil.com', { method: 'POST', headers: { ...MCP_HEADERS, authorization }, body: MCP_INIT })).status).toBe(200);
    const socket = await EventsSocketClient.open(`ws://127.0.0.1:${gw.httpPort}/ws/events?access_token=${token}`, { headers: { host: 'evil.com' } });
    sockets.push(socket);
    expect((await socket.next((m) => m.type === 'welcome')).type).toBe('welcome');
  });
});
