import { EventsSocketClient } from '../support/events-socket-client';
import { SseClient } from '../support/sse-client';
import { gatewayUrl, testGateways } from '../support/test-gateways';

/**
 * A real gateway behind a reverse proxy on the same machine: every request reaches it from loopback,
 * so without an API token only the proxy's forwarding headers tell a stranger from a local client.
 * With no token such requests are refused on every face (REST, SSE, /ws/events, MCP); with a token
 * the token rules apply as to any request.
 */

const gateways = testGateways('mobileclaw-proxied-');
const sockets: EventsSocketClient[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});

const PROXIED = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'gateway.example.com' };
const MESSAGE = 'this request came through a proxy (X-Forwarded-For header); set MOBILECLAW_API_TOKEN to serve it';

describe('a request that came through a proxy', () => {
  describe('with no API token configured', () => {
    it('is refused 403 PROXIED_WITHOUT_API_TOKEN on the REST API, pairing included; without forwarding headers it is served', async () => {
      const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
      const refused = await fetch(gatewayUrl(gw, '/api/devices'), { headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await refused.json()).toEqual({
        type: 'urn:mobileclaw:error:PROXIED_WITHOUT_API_TOKEN',
        title: 'A proxied request needs an API token',
        status: 403,
        detail: MESSAGE,
        instance: '/api/devices',
        code: 'PROXIED_WITHOUT_API_TOKEN',
      });
      const pairing = await fetch(gatewayUrl(gw, '/api/pairing'), { headers: { 'x-real-ip': '203.0.113.7' } });
      expect(pairing.status).toBe(403);
      expect(JSON.stringify(await pairing.json())).not.toContain(gw.deviceToken);
      // A POST is refused before its body is read, like a request without its token.
      const post = await fetch(gatewayUrl(gw, '/api/tasks'), { method: 'POST', headers: { forwarded: 'for=203.0.113.7', 'content-type': 'application/json' }, body: '{not json' });
      expect(((await post.json()) as { code: string }).code).toBe('PROXIED_WITHOUT_API_TOKEN');

      const local = await fetch(gatewayUrl(gw, '/api/devices'));
      expect(local.status).toBe(200);
      expect(await local.json()).toEqual({ devices: [] });
    });

    it('is refused on the SSE streams', async () => {
      const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
      const stream = await fetch(gatewayUrl(gw, '/api/devices/events'), { headers: { accept: 'text/event-stream', ...PROXIED } });
      expect(stream.status).toBe(403);
      expect(((await stream.json()) as { code: string }).code).toBe('PROXIED_WITHOUT_API_TOKEN');
      const local = await SseClient.open(gatewayUrl(gw, '/api/devices/events'));
      expect((await local.next((e) => e.event === 'devices')).event).toBe('devices');
      local.close();
    });

    it('closes /ws/events with 4403', async () => {
      const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
      const proxied = await EventsSocketClient.open(`ws://127.0.0.1:${gw.httpPort}/ws/events`, { headers: PROXIED });
      sockets.push(proxied);
      expect(await proxied.closed).toEqual({ code: 4403, reason: MESSAGE });
      expect(proxied.messages).toEqual([]);
      const local = await EventsSocketClient.open(`ws://127.0.0.1:${gw.httpPort}/ws/events`);
      sockets.push(local);
      expect((await local.next((m) => m.type === 'welcome')).type).toBe('welcome');
    });

    it('is refused 403 on /mcp and /sse', async () => {
      const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
      const expected = { jsonrpc: '2.0', id: null, error: { code: -32000, message: `Forbidden (PROXIED_WITHOUT_API_TOKEN): ${MESSAGE}` } };
      const mcp = await fetch(gatewayUrl(gw, '/mcp'), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...PROXIED }, body: '{}' });
      expect(mcp.status).toBe(403);
      expect(await mcp.json()).toEqual(expected);
      const sse = await fetch(gatewayUrl(gw, '/sse'), { headers: { accept: 'text/event-stream', ...PROXIED } });
      expect(sse.status).toBe(403);
      expect(await sse.json()).toEqual(expected);
    });
  });

  describe('with an API token configured', () => {
    const TOKEN = 'proxied-api-token-0123456789';

    it('follows the token rules: 401 without it, served with it', async () => {
      const gw = await gateways.start({ MOBILECLAW_SIM: 'off', MOBILECLAW_API_TOKEN: TOKEN });
      const missing = await fetch(gatewayUrl(gw, '/api/devices'), { headers: PROXIED });
      expect(missing.status).toBe(401);
      expect(((await missing.json()) as { code: string }).code).toBe('UNAUTHORIZED');
      const served = await fetch(gatewayUrl(gw, '/api/devices'), { headers: { ...PROXIED, authorization: `Bearer ${TOKEN}` } });
      expect(served.status).toBe(200);
      expect(await served.json()).toEqual({ devices: [] });
      const socket = await EventsSocketClient.open(`ws://127.0.0.1:${gw.httpPort}/ws/events?access_token=${TOKEN}`, { headers: PROXIED });
      sockets.push(socket);
      expect((await socket.next((m) => m.type === 'welcome')).type).toBe('welcome');
    });

    it('pairs from X-Forwarded-Host and warns that an HTTP proxy does not carry the device port', async () => {
      const gw = await gateways.start({ MOBILECLAW_SIM: 'off', MOBILECLAW_API_TOKEN: TOKEN });
      const response = await fetch(gatewayUrl(gw, '/api/pairing'), { headers: { ...PROXIED, authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(200);
      const pairing = (await response.json()) as { link: string; hostSource: string; warnings: string[] };
      expect(pairing.link).toBe(`mobileclaw://pair?host=gateway.example.com&port=${gw.devicePort}&token=${gw.deviceToken}`);
      expect(pairing.hostSource).toBe('request');
      expect(pairing.warnings).toEqual([
        `This page came through a proxy (X-Forwarded-For header): phones connect to the device port (${gw.devicePort}) over raw TCP, which an HTTP proxy does not forward, ` +
          `so the link works only if gateway.example.com:${gw.devicePort} reaches this gateway directly. Behind a TCP/TLS stream proxy, set MOBILECLAW_PAIRING_ADDRESS to its address (e.g. tls://gateway.example.com:${gw.devicePort}).`,
      ]);
    });
  });
});
