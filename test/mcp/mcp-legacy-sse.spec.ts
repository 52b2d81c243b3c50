import { Client, SSEClientTransport } from '@modelcontextprotocol/client';
import type { RunningGateway } from '@mobileclaw/gateway';
import type { ActionFrame } from '@mobileclaw/protocol';
import { SseClient, type SseEvent } from '../support/sse-client';
import { gatewayUrl, testGateways } from '../support/test-gateways';
import { elementLine, textOf, type Json } from './mcp-client';
import { initializeRequest, postMcp } from './mcp-raw';

const gateways = testGateways('mobileclaw-mcp-sse-');

/** An SDK client on the legacy HTTP+SSE transport (`GET /sse`, then `POST` to the announced endpoint). */
async function connectSseClient(gw: RunningGateway, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'mobileclaw-test-sse', version: '1.0.0' });
  await client.connect(new SSEClientTransport(new URL(gatewayUrl(gw, '/sse')), { requestInit: { headers } }));
  return client;
}

/** Opens `GET /sse` raw and waits for its `endpoint` event. */
async function openSse(gw: RunningGateway, headers: Record<string, string> = {}): Promise<{ stream: SseClient; endpoint: string }> {
  const stream = await SseClient.open(gatewayUrl(gw, '/sse'), headers);
  const endpoint = await stream.next((e) => e.event === 'endpoint');
  return { stream, endpoint: endpoint.data };
}

const message = (e: SseEvent): Json => JSON.parse(e.data) as Json;

describe('legacy HTTP+SSE transport', () => {
  it('serves the SDK SSEClientTransport: tools, get_screen, tap', async () => {
    const gw = await gateways.start();
    const client = await connectSseClient(gw);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['get_screen', 'tap', 'run_task', 'select_device']));
    const screen: Json = await client.callTool({ name: 'get_screen', arguments: {} });
    expect(screen.isError).toBeFalsy();
    expect(screen.structuredContent).toMatchObject({ deviceId: 'sim-1', screen: { width: 1080, height: 2400 }, image: { mimeType: 'image/jpeg', width: 706, height: 1568 } });
    expect((screen.content as Json[]).map((c) => c.type)).toEqual(['text', 'image']);
    const actions: ActionFrame[] = [];
    gw.simulator!.on('action', (a) => actions.push(a));
    const tapped: Json = await client.callTool({ name: 'tap', arguments: { frameId: screen.structuredContent.frameId, element: elementLine(textOf(screen), 'Settings').index } });
    expect(tapped.isError).toBeFalsy();
    expect(tapped.structuredContent.element.text).toBe('Settings');
    expect(actions.filter((a) => a.command === 'click')).toEqual([expect.objectContaining({ x: tapped.structuredContent.point[0], y: tapped.structuredContent.point[1] })]);
    await client.close();
  });

  it('announces the message endpoint first, keeping X-Forwarded-Prefix', async () => {
    const gw = await gateways.start();
    const plain = await SseClient.open(gatewayUrl(gw, '/sse'));
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(plain.headers['x-accel-buffering']).toBe('no');
    const first = await plain.next(() => true);
    expect(first.event).toBe('endpoint');
    expect(first.data).toMatch(/^\/message\?sessionId=[0-9a-f-]{36}$/);
    const { endpoint } = await openSse(gw, { 'x-forwarded-prefix': '/phones' });
    expect(endpoint).toMatch(/^\/phones\/message\?sessionId=[0-9a-f-]{36}$/);
    // Anything but a plain absolute path is not echoed into the URL the client follows.
    const { endpoint: refused } = await openSse(gw, { 'x-forwarded-prefix': '//evil.example/x' });
    expect(refused).toMatch(/^\/message\?sessionId=/);
    plain.close();
  });

  it('answers a POST 202 and the response on the stream; a notification gets no response; an unknown session 404', async () => {
    const gw = await gateways.start();
    const { stream, endpoint } = await openSse(gw);
    const url = gatewayUrl(gw, endpoint);
    const post = (body: unknown): Promise<Response> => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const init = await post(initializeRequest(1));
    expect(init.status).toBe(202);
    await init.text();
    expect(message(await stream.next((e) => e.event === 'message' && message(e).id === 1))).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'mobileclaw' } } });
    const initialized = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(initialized.status).toBe(202);
    await initialized.text();
    const ping = await post({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(ping.status).toBe(202);
    await ping.text();
    await stream.next((e) => e.event === 'message' && message(e).id === 2);
    // Messages are handled in order: by the time the ping's answer arrived, the notification had been handled, and answered nothing.
    expect(stream.events.map((e) => [e.event, e.event === 'message' ? message(e).id : undefined])).toEqual([
      ['endpoint', undefined],
      ['message', 1],
      ['message', 2],
    ]);
    expect(message(stream.events[2])).toEqual({ jsonrpc: '2.0', id: 2, result: {} });

    const unknown = await fetch(gatewayUrl(gw, '/message?sessionId=00000000-0000-4000-8000-000000000000'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }) });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
    const missing = await fetch(gatewayUrl(gw, '/message'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(missing.status).toBe(400);
    await missing.text();
    const wrongMethod = await fetch(url);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    await wrongMethod.text();
    // A Streamable HTTP session id is not an SSE session (and the other way round).
    const sseIdOnMcp = await postMcp(gw, { jsonrpc: '2.0', id: 4, method: 'ping' }, { sessionId: new URL(url).searchParams.get('sessionId')! });
    expect(sseIdOnMcp.status).toBe(404);
    await sseIdOnMcp.text();
    stream.close();
  });

  it('sends keep-alive comment lines on an idle stream every MOBILECLAW_MCP_KEEP_ALIVE_MS', async () => {
    const gw = await gateways.start({ MOBILECLAW_MCP_KEEP_ALIVE_MS: '20' });
    const { stream } = await openSse(gw);
    expect(await stream.nextComment((c) => c === 'keep-alive')).toBe('keep-alive');
    // Comments are not events: the stream still holds only the endpoint event.
    expect(stream.events.map((e) => e.event)).toEqual(['endpoint']);
    stream.close();
  });
});
