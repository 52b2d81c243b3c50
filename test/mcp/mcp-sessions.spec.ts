import { McpHttpEndpoint, ResourceUpdates } from '@mobileclaw/trigger-mcp';
import { SimulatedPhone } from '@mobileclaw/simulator';
import type { ActionFrame } from '@mobileclaw/protocol';
import { SseClient } from '../support/sse-client';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';
import { connectClient, endClient, textOf, type Json } from './mcp-client';
import { REVISION_2025, REVISION_2026, initializeRequest, openSession, postMcp, responseOf, sessionRequest, toolCall } from './mcp-raw';

const gateways = testGateways('mobileclaw-mcp-sessions-');

const SCREEN_URI = 'mobileclaw://devices/sim-1/screen';

/** Opens the session's standalone GET stream. */
function openStream(gw: Parameters<typeof gatewayUrl>[0], sessionId: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return SseClient.open(gatewayUrl(gw, '/mcp'), { 'mcp-session-id': sessionId, 'mcp-protocol-version': REVISION_2025, ...headers });
}

const isScreenUpdate = (e: { data: string }): boolean => {
  const message = JSON.parse(e.data) as Json;
  return message.method === 'notifications/resources/updated' && message.params?.uri === SCREEN_URI;
};

describe('2025 sessions over Streamable HTTP', () => {
  it('answers initialize with an Mcp-Session-Id that later requests use', async () => {
    const gw = await gateways.start();
    const res = await postMcp(gw, initializeRequest(7));
    expect(res.status).toBe(200);
    const sessionId = res.headers.get('mcp-session-id')!;
    expect(sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const init = await responseOf(res);
    expect(init).toMatchObject({ id: 7, result: { protocolVersion: REVISION_2025, serverInfo: { name: 'mobileclaw' }, capabilities: { tools: {}, resources: { subscribe: true } } } });
    await postMcp(gw, { jsonrpc: '2.0', method: 'notifications/initialized' }, { sessionId });
    const listed = await responseOf(await postMcp(gw, { jsonrpc: '2.0', id: 8, method: 'tools/list' }, { sessionId }));
    expect(listed.id).toBe(8);
    expect((listed.result.tools as Json[]).map((t) => t.name)).toContain('select_device');
    expect(gw.app.get(McpHttpEndpoint).sessions.size).toBe(1);
  });

  it('answers 404 to an unknown session, 400 to a request without one, and ends a session on DELETE', async () => {
    const gw = await gateways.start();
    const unknown = await postMcp(gw, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { sessionId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001, message: expect.stringMatching(/^Session not found/) } });
    const none = await postMcp(gw, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(none.status).toBe(400);
    expect(((await none.json()) as Json).error.message).toMatch(/Mcp-Session-Id header is required/);
    const noSessionGet = await sessionRequest(gw, 'GET', undefined);
    expect(noSessionGet.status).toBe(400);
    await noSessionGet.text();

    const sessionId = await openSession(gw);
    const ended = await sessionRequest(gw, 'DELETE', sessionId);
    expect(ended.status).toBe(200);
    await ended.text();
    expect(gw.app.get(McpHttpEndpoint).sessions.size).toBe(0);
    const after = await postMcp(gw, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { sessionId });
    expect(after.status).toBe(404);
    await after.text();
    const getAfter = await sessionRequest(gw, 'GET', sessionId);
    expect(getAfter.status).toBe(404);
    await getAfter.text();
    const deleteAgain = await sessionRequest(gw, 'DELETE', sessionId);
    expect(deleteAgain.status).toBe(404);
    await deleteAgain.text();
  });

  it('pushes notifications/resources/updated on the GET stream after resources/subscribe and a tap', async () => {
    const gw = await gateways.start();
    const sessionId = await openSession(gw);
    const subscribed = await responseOf(await postMcp(gw, { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: SCREEN_URI } }, { sessionId }));
    expect(subscribed).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const stream = await openStream(gw, sessionId);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream');
    const tapped = await responseOf(await postMcp(gw, toolCall(2, 'tap', { x: 540, y: 1200 }), { sessionId }));
    expect(tapped.result.isError).toBeFalsy();
    const update = await stream.next(isScreenUpdate);
    expect(JSON.parse(update.data)).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: SCREEN_URI } });
    expect(update.id).toMatch(/^\S+_\S+$/);
    stream.close();
  });

  it('keeps nothing of an initialize the SDK rejects: no session, no server, no resource subscription', async () => {
    const gw = await gateways.start();
    const endpoint = gw.app.get(McpHttpEndpoint);
    const updates = gw.app.get(ResourceUpdates);
    // The endpoint's own subscription (2026-07-28 listen streams) is the only one without a session.
    expect(updates.subscriberCount).toBe(1);
    const rejections = [
      { accept: 'text/html' },
      { accept: 'application/json' },
      { accept: 'text/event-stream' },
    ];
    for (let i = 0; i < 30; i++) {
      const res = await postMcp(gw, initializeRequest(i), { headers: rejections[i % rejections.length] });
      expect(res.status).toBe(406);
      await res.text();
    }
    expect(endpoint.sessions.size).toBe(0);
    expect(updates.subscriberCount).toBe(1);
    // 2026-07-28 requests get a server each, which subscribes to nothing, served or rejected.
    for (let i = 0; i < 10; i++) {
      const res = await postMcp(gw, toolCall(i, 'list_devices', {}, REVISION_2026), i % 2 === 0 ? { headers: { 'mcp-name': 'tap' } } : {});
      expect(res.status).toBe(i % 2 === 0 ? 400 : 200);
      await res.text();
    }
    expect(updates.subscriberCount).toBe(1);
    // An accepted one still opens a session, with its subscription, and DELETE releases both.
    const sessionId = await openSession(gw);
    expect([endpoint.sessions.size, updates.subscriberCount]).toEqual([1, 2]);
    await (await sessionRequest(gw, 'DELETE', sessionId)).text();
    expect([endpoint.sessions.size, updates.subscriberCount]).toEqual([0, 1]);
  });

  it('replays the messages a dropped GET stream missed after Last-Event-ID', async () => {
    const gw = await gateways.start();
    const sessionId = await openSession(gw);
    await responseOf(await postMcp(gw, { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: SCREEN_URI } }, { sessionId }));
    const first = await openStream(gw, sessionId);
    await responseOf(await postMcp(gw, toolCall(2, 'tap', { x: 540, y: 1200 }), { sessionId }));
    const seen = await first.next(isScreenUpdate);
    first.close();
    // Two taps while no stream is connected: their updates wait in the session's event store.
    await responseOf(await postMcp(gw, toolCall(3, 'tap', { x: 100, y: 300 }), { sessionId }));
    await responseOf(await postMcp(gw, toolCall(4, 'press_home', {}), { sessionId }));
    const resumed = await openStream(gw, sessionId, { 'last-event-id': seen.id! });
    expect(resumed.status).toBe(200);
    await resumed.next((e) => isScreenUpdate(e) && resumed.events.filter(isScreenUpdate).length === 2);
    const [a, b] = resumed.events.filter(isScreenUpdate);
    expect([a.data, b.data].map((d) => JSON.parse(d))).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: SCREEN_URI } },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: SCREEN_URI } },
    ]);
    expect(new Set([seen.id, a.id, b.id]).size).toBe(3);
    // Nothing before the last seen event is replayed: only the two missed updates.
    expect(resumed.events.filter(isScreenUpdate)).toHaveLength(2);
    resumed.close();
  });

  it('lets a resuming GET take over a stream the gateway still holds (a half-open connection)', async () => {
    const gw = await gateways.start();
    const sessionId = await openSession(gw);
    await responseOf(await postMcp(gw, { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: SCREEN_URI } }, { sessionId }));
    const stale = await openStream(gw, sessionId);
    await responseOf(await postMcp(gw, toolCall(2, 'tap', { x: 540, y: 1200 }), { sessionId }));
    const seen = await stale.next(isScreenUpdate);
    // The client lost `stale` without the gateway noticing, and reconnects with the last id it saw.
    const resumed = await openStream(gw, sessionId, { 'last-event-id': seen.id! });
    expect(resumed.status).toBe(200);
    await stale.ended;
    await responseOf(await postMcp(gw, toolCall(3, 'press_home', {}), { sessionId }));
    const next = await resumed.next(isScreenUpdate);
    expect(next.id).not.toBe(seen.id);
    expect(stale.events.filter(isScreenUpdate)).toEqual([seen]);
    resumed.close();
  });

  it('closes a session whose client sent no message for MOBILECLAW_MCP_SESSION_IDLE_MS, open streams and all', async () => {
    const gw = await gateways.start({ MOBILECLAW_MCP_SESSION_IDLE_MS: '60000' });
    const sessions = gw.app.get(McpHttpEndpoint).sessions;
    const idle = await openSession(gw);
    const streaming = await openSession(gw);
    const stream = await openStream(gw, streaming);
    // A legacy SSE session is its stream: only keep-alives, which are the gateway's own, flow on it.
    const sse = await SseClient.open(gatewayUrl(gw, '/sse'));
    await sse.next((e) => e.event === 'endpoint');
    expect(sessions.size).toBe(3);
    expect(await sessions.sweep(Date.now())).toBe(0);
    // Sweep as of just past the idle time, instead of waiting for it.
    expect(await sessions.sweep(Date.now() + 60_001)).toBe(3);
    expect(sessions.size).toBe(0);
    await stream.ended;
    await sse.ended;
    for (const sessionId of [idle, streaming]) {
      const expired = await postMcp(gw, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { sessionId });
      expect(expired.status).toBe(404);
      await expired.text();
    }
  });

  it('answers 503 with Retry-After to one initialize more than MOBILECLAW_MCP_MAX_SESSIONS, and admits one once a session ended', async () => {
    const gw = await gateways.start({ MOBILECLAW_MCP_MAX_SESSIONS: '2' });
    const first = await openSession(gw);
    await openSession(gw);
    const third = await postMcp(gw, initializeRequest());
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).toBe('30');
    expect(await third.json()).toMatchObject({ error: { code: -32000, message: expect.stringMatching(/^Too many MCP sessions \(2 open\)/) } });
    // A legacy SSE stream is a session too, under the same bound.
    const sse = await SseClient.open(gatewayUrl(gw, '/sse'));
    expect(sse.status).toBe(503);
    sse.close();
    await (await sessionRequest(gw, 'DELETE', first)).text();
    const admitted = await postMcp(gw, initializeRequest());
    expect(admitted.status).toBe(200);
    expect(admitted.headers.get('mcp-session-id')).toBeTruthy();
    await admitted.text();
  });

  it('uses the phone picked by select_device for later calls of that session only', async () => {
    const gw = await gateways.start();
    const second = new SimulatedPhone({ host: '127.0.0.1', port: gw.devicePort, token: gw.deviceToken, deviceId: 'sim-2' });
    await second.start();
    try {
      await waitOnline(gw, 'sim-2');
      const client = await connectClient(gw, 'legacy');
      const other = await connectClient(gw, 'legacy');
      const ambiguous: Json = await client.callTool({ name: 'get_screen', arguments: { includeImage: false } });
      expect(ambiguous.structuredContent.error.code).toBe('DEVICE_AMBIGUOUS');
      expect(textOf(ambiguous)).toBe(
        'DEVICE_AMBIGUOUS: 2 phones are online (sim-1, sim-2): name one with deviceId. Or make one the default of this session with select_device.',
      );
      const missing: Json = await client.callTool({ name: 'select_device', arguments: { deviceId: 'sim-9' } });
      expect(missing.structuredContent.error.code).toBe('DEVICE_NOT_FOUND');
      const selected: Json = await client.callTool({ name: 'select_device', arguments: { deviceId: 'sim-2' } });
      expect(selected.structuredContent).toEqual({ deviceId: 'sim-2', status: 'online' });

      const screen: Json = await client.callTool({ name: 'get_screen', arguments: { includeImage: false } });
      expect(screen.structuredContent.deviceId).toBe('sim-2');
      const onSecond: ActionFrame[] = [];
      const onFirst: ActionFrame[] = [];
      second.on('action', (a) => onSecond.push(a));
      gw.simulator!.on('action', (a) => onFirst.push(a));
      const tapped: Json = await client.callTool({ name: 'tap', arguments: { x: 200, y: 400 } });
      expect(tapped.structuredContent.deviceId).toBe('sim-2');
      expect(onSecond.filter((a) => a.command === 'click')).toEqual([expect.objectContaining({ x: 200, y: 400 })]);
      expect(onFirst.filter((a) => a.command === 'click')).toEqual([]);
      // An explicit deviceId still wins over the session's choice.
      const explicit: Json = await client.callTool({ name: 'get_screen', arguments: { deviceId: 'sim-1', includeImage: false } });
      expect(explicit.structuredContent.deviceId).toBe('sim-1');

      const otherScreen: Json = await other.callTool({ name: 'get_screen', arguments: { includeImage: false } });
      expect(otherScreen.structuredContent.error.code).toBe('DEVICE_AMBIGUOUS');
      await endClient(client);
      await endClient(other);
    } finally {
      await second.stop();
    }
  });
});

describe('the 2026-07-28 revision on the same endpoint', () => {
  it('serves a request without initialize or session, and has no select_device', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, 'modern');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('select_device');
    expect(gw.app.get(McpHttpEndpoint).sessions.size).toBe(0);
    await client.close();
  });
});
