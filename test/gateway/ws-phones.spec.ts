import { once } from 'node:events';
import type { RunningGateway } from '@mobileclaw/gateway';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { WsRawPhone } from '@mobileclaw/transport-ws/testing';
import { SseClient } from '../support/sse-client';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

const phones: SimulatedPhone[] = [];
const streams: SseClient[] = [];
// Registered first so that phones and streams close before their gateways do.
afterEach(async () => {
  for (const s of streams.splice(0)) s.close();
  await Promise.all(phones.splice(0).map((p) => p.stop()));
});
const gateways = testGateways('mobileclaw-ws-phones-');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

/** `ws://127.0.0.1:<http port>/ws/device` of a gateway. */
const deviceSocketUrl = (gw: RunningGateway): string => `ws://127.0.0.1:${gw.httpPort}${gw.deviceSocketPath}`;

/** A simulated phone that connects to `url` over WebSocket, started (welcomed). */
async function wsPhone(gw: RunningGateway, deviceId: string, url = deviceSocketUrl(gw)): Promise<SimulatedPhone> {
  const phone = new SimulatedPhone({ url, token: gw.deviceToken, deviceId });
  phones.push(phone);
  await phone.start();
  return phone;
}

describe('phones over WebSocket on the real gateway', () => {
  it('a simulated phone on /ws/device runs "Turn on Wi-Fi" to completion', async () => {
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
    expect(gw.deviceSocketPath).toBe('/ws/device');
    const phone = await wsPhone(gw, 'ws-phone-1');
    const listed: Json = await (await fetch(gatewayUrl(gw, '/api/devices/ws-phone-1'))).json();
    expect(listed).toMatchObject({ deviceId: 'ws-phone-1', status: 'online', client: { name: 'mobileclaw-sim' } });

    const created = await fetch(gatewayUrl(gw, '/api/tasks'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ deviceId: 'ws-phone-1', goal: 'Turn on Wi-Fi' }),
    });
    expect(created.status).toBe(202);
    const { taskId } = (await created.json()) as { taskId: string };
    const stream = await SseClient.open(gatewayUrl(gw, `/api/tasks/${taskId}/events`));
    streams.push(stream);
    await stream.ended;
    expect(stream.events.at(-1)?.event).toBe('task.completed');
    const task: Json = await (await fetch(gatewayUrl(gw, `/api/tasks/${taskId}`))).json();
    expect(task).toMatchObject({ status: 'completed', deviceId: 'ws-phone-1' });
    expect(task.steps.filter((s: Json) => s.plan.type === 'action').every((s: Json) => s.result.status === 'success')).toBe(true);
    expect(phone.ui.state.wifi).toBe(true);
  });

  it('takes a phone that moves from the TCP port to the WebSocket: the WebSocket session replaces the TCP one', async () => {
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
    const overTcp = new SimulatedPhone({ port: gw.devicePort, token: gw.deviceToken, deviceId: 'mover-1' });
    phones.push(overTcp);
    await overTcp.start();
    const replaced = once(overTcp, 'replaced');
    const overWs = await wsPhone(gw, 'mover-1');
    expect((await replaced)[0]).toBe(`replaced by session ${overWs.sessionId}`);
    const device: Json = await (await fetch(gatewayUrl(gw, '/api/devices/mover-1'))).json();
    expect(device).toMatchObject({ status: 'online', sessionId: overWs.sessionId });
    const shot = await fetch(gatewayUrl(gw, '/api/devices/mover-1/screenshot'));
    expect(shot.status).toBe(200);
    expect(shot.headers.get('content-type')).toBe('image/png');
  });

  it('needs the device token, not the API token, when the API is protected', async () => {
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off', MOBILECLAW_API_TOKEN: 'api-token-0123456789abcdef' });
    await wsPhone(gw, 'ws-phone-2');
    const refused = new SimulatedPhone({ url: deviceSocketUrl(gw), token: 'api-token-0123456789abcdef', deviceId: 'ws-phone-3' });
    phones.push(refused);
    await expect(refused.start()).rejects.toThrow('gateway refused hello: UNAUTHORIZED (invalid device token)');
    const devices = await fetch(gatewayUrl(gw, '/api/devices'), { headers: { authorization: 'Bearer api-token-0123456789abcdef' } });
    expect(((await devices.json()) as Json).devices.map((d: Json) => d.deviceId)).toEqual(['ws-phone-2']);
  });

  it('serves no device socket with MOBILECLAW_DEVICE_WS=off; the embedded phone still connects over TCP', async () => {
    const gw = await gateways.start({ MOBILECLAW_DEVICE_WS: 'off' });
    await waitOnline(gw, 'sim-1');
    expect(gw.deviceSocketPath).toBeUndefined();
    await expect(WsRawPhone.connect(`ws://127.0.0.1:${gw.httpPort}/ws/device`)).rejects.toThrow('Unexpected server response: 404');
  });
});
