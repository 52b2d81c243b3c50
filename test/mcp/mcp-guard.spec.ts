import { Client, SSEClientTransport } from '@modelcontextprotocol/client';
import { SseClient } from '../support/sse-client';
import { gatewayUrl, testGateways } from '../support/test-gateways';
import { connectClient, endClient, type Era, type Json } from './mcp-client';
import { initializeRequest, openSession, postMcp, responseOf, toolCall } from './mcp-raw';

const gateways = testGateways('mobileclaw-mcp-guard-');

const TOKEN = 'mcp-guard-test-token-0123456789';
const ALLOWED = 'https://app.example.com';

describe('MCP request guard', () => {
  it('refuses a disallowed Origin with 403 on /mcp, /sse and /message', async () => {
    const gw = await gateways.start({ MOBILECLAW_MCP_ALLOWED_ORIGINS: ALLOWED });
    const evil = { origin: 'https://evil.example' };
    const mcp = await postMcp(gw, initializeRequest(), { headers: evil });
    expect(mcp.status).toBe(403);
    expect(mcp.headers.get('access-control-allow-origin')).toBeNull();
    expect(await mcp.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden: origin "https://evil.example" is not allowed (MOBILECLAW_MCP_ALLOWED_ORIGINS)' } });
    const sse = await SseClient.open(gatewayUrl(gw, '/sse'), evil);
    expect(sse.status).toBe(403);
    sse.close();
    const message = await fetch(gatewayUrl(gw, '/message?sessionId=x'), { method: 'POST', headers: { 'content-type': 'application/json', ...evil }, body: '{}' });
    expect(message.status).toBe(403);
    await message.text();
    // A look-alike host is not the allowed one.
    const lookalike = await postMcp(gw, initializeRequest(), { headers: { origin: 'https://app.example.com.evil.example' } });
    expect(lookalike.status).toBe(403);
    await lookalike.text();
  });

  it('gives an allowed origin CORS headers exposing Mcp-Session-Id, and answers its preflight 204', async () => {
    const gw = await gateways.start({ MOBILECLAW_MCP_ALLOWED_ORIGINS: ALLOWED });
    const preflight = await fetch(gatewayUrl(gw, '/mcp'), {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-session-id, mcp-protocol-version' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, Mcp-Method, Mcp-Name');
    const res = await postMcp(gw, initializeRequest(), { headers: { origin: ALLOWED } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('vary')).toMatch(/Origin/);
    expect(res.headers.get('access-control-expose-headers')!.split(/,\s*/)).toEqual(expect.arrayContaining(['Mcp-Session-Id', 'Mcp-Protocol-Version']));
    expect(res.headers.get('mcp-session-id')).toBeTruthy();
    await res.text();
    // Localhost origins are always allowed (a local page, an inspector).
    const local = await postMcp(gw, initializeRequest(), { headers: { origin: 'http://localhost:5173' } });
    expect(local.status).toBe(200);
    await local.text();
  });

  describe('with MOBILECLAW_API_TOKEN', () => {
    it('answers 401 with WWW-Authenticate to no or a wrong bearer token, on every MCP route', async () => {
      const gw = await gateways.start({ MOBILECLAW_API_TOKEN: TOKEN });
      for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token-0' }, { authorization: `Basic ${TOKEN}` }] as Record<string, string>[]) {
        const res = await postMcp(gw, initializeRequest(), { headers });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="mobileclaw"');
        expect(res.headers.get('content-type')).toBe('application/json');
        expect(((await res.json()) as Json).error.code).toBe(-32001);
      }
      const sse = await SseClient.open(gatewayUrl(gw, '/sse'));
      expect(sse.status).toBe(401);
      sse.close();
      const message = await fetch(gatewayUrl(gw, '/message?sessionId=x'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(message.status).toBe(401);
      await message.text();
    });

    it.each<Era>(['modern', 'legacy'])('serves the %s revision with the right token', async (era) => {
      const gw = await gateways.start({ MOBILECLAW_API_TOKEN: TOKEN });
      const client = await connectClient(gw, era, { token: TOKEN });
      const listed: Json = await client.callTool({ name: 'list_devices', arguments: {} });
      expect(listed.structuredContent.devices).toEqual([expect.objectContaining({ deviceId: 'sim-1' })]);
      await endClient(client);
    });

    it('serves the HTTP+SSE transport with the right token', async () => {
      const gw = await gateways.start({ MOBILECLAW_API_TOKEN: TOKEN });
      const client = new Client({ name: 'mobileclaw-test-sse', version: '1.0.0' });
      await client.connect(new SSEClientTransport(new URL(gatewayUrl(gw, '/sse')), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
      const listed: Json = await client.callTool({ name: 'list_devices', arguments: {} });
      expect(listed.structuredContent.devices).toEqual([expect.objectContaining({ deviceId: 'sim-1' })]);
      await client.close();
    });
  });

  it('reads MCP bodies itself: neither the REST body limit nor its problem+json answers apply', async () => {
    const gw = await gateways.start({ MOBILECLAW_API_TOKEN: TOKEN });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const sessionId = await openSession(gw, auth);
    // 3 MB: three times the REST API's 1 MiB limit, under the MCP transports' 4 MiB.
    const padding = 'x'.repeat(3 * 1024 * 1024);
    const big = await postMcp(gw, { jsonrpc: '2.0', id: 9, method: 'ping', params: { _meta: { padding } } }, { sessionId, headers: auth });
    expect(big.status).toBe(200);
    expect(await responseOf(big)).toEqual({ jsonrpc: '2.0', id: 9, result: {} });
    const typed: Json = await responseOf(await postMcp(gw, toolCall(10, 'input_text', { text: 'x'.repeat(10_001) }), { sessionId, headers: auth }));
    expect(typed.result.isError).toBe(true);

    const tooBig = await postMcp(gw, { jsonrpc: '2.0', id: 11, method: 'ping', params: { _meta: { padding: 'x'.repeat(5 * 1024 * 1024) } } }, { sessionId, headers: auth });
    expect(tooBig.status).toBe(413);
    expect(tooBig.headers.get('content-type')).toBe('application/json');
    expect(((await tooBig.json()) as Json).error).toEqual({ code: -32000, message: 'Payload Too Large: a message is at most 4194304 bytes' });

    const text = await postMcp(gw, 'ping', { sessionId, headers: { ...auth, 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.headers.get('content-type')).toBe('application/json');
    expect(await text.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' } });

    const garbled = await postMcp(gw, '{"jsonrpc": "2.0", "id": 1, "method": "pi', { sessionId, headers: auth });
    expect(garbled.status).toBe(400);
    expect(((await garbled.json()) as Json).error.code).toBe(-32700);

    // The REST API keeps its own limit next door: the same 3 MB is too large there.
    const rest = await fetch(gatewayUrl(gw, '/api/tasks'), { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ goal: padding }) });
    expect(rest.status).toBe(413);
    expect(rest.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    await rest.text();
  });

  it('marks every MCP answer X-Accel-Buffering: no, errors included', async () => {
    const gw = await gateways.start({ MOBILECLAW_MCP_ALLOWED_ORIGINS: ALLOWED });
    const answers = [
      await postMcp(gw, initializeRequest()),
      await postMcp(gw, toolCall(1, 'list_devices', {}, '2026-07-28')),
      await postMcp(gw, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { sessionId: 'nope' }),
      await postMcp(gw, initializeRequest(), { headers: { origin: 'https://evil.example' } }),
      await fetch(gatewayUrl(gw, '/sse'), { method: 'POST' }),
    ];
    expect(answers.map((r) => [r.status, r.headers.get('x-accel-buffering')])).toEqual([
      [200, 'no'],
      [200, 'no'],
      [404, 'no'],
      [403, 'no'],
      [405, 'no'],
    ]);
    for (const r of answers) await r.text();
  });
});
