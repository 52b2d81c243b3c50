import type { RunningGateway } from '@mobileclaw/gateway';
import { SseClient } from '../support/sse-client';
import { gatewayUrl, testGateways } from '../support/test-gateways';
import type { Json } from './mcp-client';
import { REVISION_2026, initializeRequest, openSession, postMcp, responseOf, toolCall } from './mcp-raw';

const gateways = testGateways('mobileclaw-mcp-concurrency-');

/** The same JSON-RPC ids, used by every client at once. */
const IDS = [1, 2, 3, 4, 5, 6, 7, 8];

/** Each client asks something different, so a response that reached the wrong client shows. */
const getScreen = { name: 'get_screen', args: { includeImage: false } };
const listDevices = { name: 'list_devices', args: {} };

function expectScreen(response: Json, id: number): void {
  expect(response).toMatchObject({ id, result: { structuredContent: { frameId: expect.stringMatching(/^sim-1@\d+$/), deviceId: 'sim-1' } } });
  expect(response.result.structuredContent.devices).toBeUndefined();
}

function expectDevices(response: Json, id: number): void {
  expect(response).toMatchObject({ id, result: { structuredContent: { devices: [expect.objectContaining({ deviceId: 'sim-1' })] } } });
  expect(response.result.structuredContent.frameId).toBeUndefined();
}

/** A legacy HTTP+SSE session driven raw: POSTs answer 202, responses arrive on the stream. */
async function openSseSession(gw: RunningGateway): Promise<{ call(id: number, name: string, args: Json): Promise<Json>; close(): void }> {
  const stream = await SseClient.open(gatewayUrl(gw, '/sse'));
  const url = gatewayUrl(gw, (await stream.next((e) => e.event === 'endpoint')).data);
  const post = async (body: unknown): Promise<void> => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status).toBe(202);
    await res.text();
  };
  // Ids of the handshake are strings, so they never meet the numeric ids under test.
  await post(initializeRequest('init'));
  await stream.next((e) => e.event === 'message' && (JSON.parse(e.data) as Json).id === 'init');
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    async call(id, name, args) {
      const answered = stream.next((e) => e.event === 'message' && (JSON.parse(e.data) as Json).id === id);
      await post(toolCall(id, name, args));
      return JSON.parse((await answered).data) as Json;
    },
    close: () => stream.close(),
  };
}

describe('concurrent clients with the same JSON-RPC ids', () => {
  it('two 2025 sessions each get only their own responses', async () => {
    const gw = await gateways.start();
    const [a, b] = [await openSession(gw), await openSession(gw)];
    const answers = await Promise.all(
      IDS.flatMap((id) => [
        postMcp(gw, toolCall(id, getScreen.name, getScreen.args), { sessionId: a }).then(responseOf),
        postMcp(gw, toolCall(id, listDevices.name, listDevices.args), { sessionId: b }).then(responseOf),
      ]),
    );
    IDS.forEach((id, i) => {
      expectScreen(answers[2 * i], id);
      expectDevices(answers[2 * i + 1], id);
    });
  });

  it('two 2026-07-28 clients each get only their own responses', async () => {
    const gw = await gateways.start();
    const answers = await Promise.all(
      IDS.flatMap((id) => [
        postMcp(gw, toolCall(id, getScreen.name, getScreen.args, REVISION_2026)).then(responseOf),
        postMcp(gw, toolCall(id, listDevices.name, listDevices.args, REVISION_2026)).then(responseOf),
      ]),
    );
    IDS.forEach((id, i) => {
      expectScreen(answers[2 * i], id);
      expectDevices(answers[2 * i + 1], id);
    });
  });

  it('a 2026-07-28 client, a 2025 session and an HTTP+SSE session each get only their own responses', async () => {
    const gw = await gateways.start();
    const session = await openSession(gw);
    const sse = await openSseSession(gw);
    const answers = await Promise.all(
      IDS.flatMap((id) => [
        postMcp(gw, toolCall(id, getScreen.name, getScreen.args, REVISION_2026)).then(responseOf),
        postMcp(gw, toolCall(id, listDevices.name, listDevices.args), { sessionId: session }).then(responseOf),
        sse.call(id, 'tap', { x: 10 + id, y: 20 + id }),
      ]),
    );
    IDS.forEach((id, i) => {
      expectScreen(answers[3 * i], id);
      expectDevices(answers[3 * i + 1], id);
      expect(answers[3 * i + 2]).toMatchObject({ id, result: { structuredContent: { command: 'click', point: [10 + id, 20 + id] } } });
    });
    sse.close();
  });
});
