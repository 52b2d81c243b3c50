import { request } from 'node:http';
import { Logger } from '@nestjs/common';
import type { RunningGateway } from '@mobileclaw/gateway';
import { SseClient } from '../support/sse-client';
import { gatewayUrl, testGateways } from '../support/test-gateways';
import type { Json } from './mcp-client';
import { REVISION_2026, openSession, postMcp, responseOf } from './mcp-raw';

const gateways = testGateways('mobileclaw-mcp-malformed-');

/** Sends a request with exactly these headers (fetch would set its own Host). */
function rawRequest(gw: RunningGateway, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: gw.httpPort, path, method, headers, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Opens `GET /sse` and returns the message URL it announces. */
async function sseEndpoint(gw: RunningGateway): Promise<{ stream: SseClient; url: string }> {
  const stream = await SseClient.open(gatewayUrl(gw, '/sse'));
  return { stream, url: gatewayUrl(gw, (await stream.next((e) => e.event === 'endpoint')).data) };
}

afterEach(() => jest.restoreAllMocks());

describe('MCP routes answer malformed requests with JSON-RPC errors', () => {
  it('answers 400 -32600 to a malformed Host header on /mcp, /sse and /message, logging no error', async () => {
    const gw = await gateways.start();
    const errors = jest.spyOn(Logger.prototype, 'error');
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    for (const [method, path] of [
      ['POST', '/mcp'],
      ['GET', '/sse'],
      ['POST', '/message?sessionId=x'],
    ]) {
      const answer = await rawRequest(gw, method, path, { Host: 'a b[', 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, method === 'POST' ? body : undefined);
      expect({ path, status: answer.status, body: JSON.parse(answer.body) as Json }).toEqual({
        path,
        status: 400,
        body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Bad Request: invalid Host header' } },
      });
    }
    expect(errors).not.toHaveBeenCalled();
  });

  it.each([
    ['null', 'null'],
    ['an empty batch', '[]'],
    ['a batch', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]'],
    ['a number', '42'],
    ['an object that is no message', '{"hello":"world"}'],
  ])('answers 400 -32600 to %s posted to a legacy SSE session, revealing nothing internal', async (_, body) => {
    const gw = await gateways.start();
    const { stream, url } = await sseEndpoint(gw);
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: the body must be one JSON-RPC 2.0 message (request, notification or response)' },
    });
    // The session still serves a good message afterwards.
    const ping = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }) });
    expect(ping.status).toBe(202);
    await ping.text();
    stream.close();
  });

  it.each(['PUT', 'PATCH'])('answers %s /mcp with 405 and Allow: GET, POST, DELETE, OPTIONS, with or without a session', async (method) => {
    const gw = await gateways.start();
    const sessionId = await openSession(gw);
    for (const headers of [{}, { 'mcp-session-id': sessionId }] as Record<string, string>[]) {
      const res = await fetch(gatewayUrl(gw, '/mcp'), { method, headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, POST, DELETE, OPTIONS');
      expect(await res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed: use GET, POST, DELETE, OPTIONS' } });
    }
  });

  it('answers a response or notification posted without a session with -32600 saying why', async () => {
    const gw = await gateways.start();
    const response = 'Invalid Request: a JSON-RPC response answers a request this server sent within a session; send it with that Mcp-Session-Id';
    const notMessage = 'Bad Request: the request body is not a valid JSON-RPC message';
    const cases: [unknown, Record<string, string>, string][] = [
      // A response sent as if it were a 2026-07-28 request (the revision header, no session).
      [{ jsonrpc: '2.0', id: 1, result: {} }, { 'mcp-protocol-version': REVISION_2026 }, response],
      [{ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'no' } }, { 'mcp-protocol-version': REVISION_2026 }, response],
      [{ jsonrpc: '2.0', id: 1, result: {} }, {}, response],
      [{ jsonrpc: '2.0', method: 'notifications/initialized' }, {}, 'Invalid Request: a notification needs the Mcp-Session-Id of its session (2025 revisions) or the _meta envelope (2026-07-28)'],
      [{ hello: 'world' }, {}, notMessage],
      [null, {}, notMessage],
    ];
    for (const [message, headers, expected] of cases) {
      const res = await postMcp(gw, JSON.stringify(message), { headers });
      expect({ message, status: res.status, body: (await res.json()) as Json }).toEqual({ message, status: 400, body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: expected } } });
    }
    // A request without a session still gets the session hint.
    const request = await postMcp(gw, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect((await responseOf(request)).error.message).toMatch(/^Bad Request: Mcp-Session-Id header is required/);
  });
});
