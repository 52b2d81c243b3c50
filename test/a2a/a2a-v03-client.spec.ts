import { randomUUID } from 'node:crypto';
import type { RunningGateway } from '@mobileclaw/gateway';
import { ClientFactoryV03, type AgentCardV03, type MessageV03, type TaskV03 } from '../support/a2a-sdk-v03-client';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

const gateways = testGateways('mobileclaw-a2a-v03-');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

async function start(extra: Record<string, string> = {}): Promise<RunningGateway> {
  const gw = await gateways.start(extra);
  await waitOnline(gw, 'sim-1');
  return gw;
}

function userMessage(text: string): MessageV03 {
  return { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }] };
}

describe('A2A 0.3 callers (@a2a-js/sdk 0.3 client against the real gateway)', () => {
  it('serves the 0.3 card (top-level url, preferredTransport, protocolVersion) to a caller without A2A-Version, the 1.0 card to A2A-Version: 1.0', async () => {
    const gw = await start();
    const url = gatewayUrl(gw, '/.well-known/agent-card.json');
    const legacy = await fetch(url);
    expect(legacy.headers.get('vary')).toMatch(/A2A-Version/i);
    const hybrid: Json = await legacy.json();
    expect(hybrid).toMatchObject({
      name: 'MobileClaw',
      url: gatewayUrl(gw, '/a2a'),
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3',
      capabilities: { streaming: true, pushNotifications: true },
      // The 1.0 interfaces ride along: a 1.0 client given this card still finds its own.
      supportedInterfaces: [
        { url: gatewayUrl(gw, '/a2a'), protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: gatewayUrl(gw, '/a2a'), protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
      skills: [expect.objectContaining({ id: 'operate-phone' })],
    });
    expect(await (await fetch(url, { headers: { 'a2a-version': '0.3' } })).json()).toStrictEqual(hybrid);

    const modern = await fetch(url, { headers: { 'a2a-version': '1.0' } });
    expect(modern.headers.get('vary')).toMatch(/A2A-Version/i);
    const card: Json = await modern.json();
    expect(card.supportedInterfaces.map((i: Json) => i.protocolVersion)).toStrictEqual(['1.0', '0.3']);
    expect(card).not.toHaveProperty('url');
    expect(card).not.toHaveProperty('preferredTransport');
  });

  it('declares the bearer scheme in each shape when the API needs a token', async () => {
    const gw = await gateways.start({ MOBILECLAW_API_TOKEN: 'a2a-secret-token-123456' });
    const url = gatewayUrl(gw, '/.well-known/agent-card.json');
    const hybrid: Json = await (await fetch(url)).json();
    expect([hybrid.securitySchemes, hybrid.security]).toStrictEqual([{ bearer: expect.objectContaining({ type: 'http', scheme: 'Bearer' }) }, [{ bearer: [] }]]);
    const card: Json = await (await fetch(url, { headers: { 'a2a-version': '1.0' } })).json();
    expect(card.securitySchemes).toStrictEqual({ bearer: { httpAuthSecurityScheme: expect.objectContaining({ scheme: 'Bearer' }) } });
  });

  it('a 0.3 client resolves the card, sends a message, streams one and gets the task', async () => {
    const gw = await start();
    const client = await new ClientFactoryV03().createFromUrl(gatewayUrl(gw, ''));
    const card: AgentCardV03 = await client.getAgentCard();
    expect(card.url).toBe(gatewayUrl(gw, '/a2a'));

    const sent = (await client.sendMessage({ message: { ...userMessage('Turn on Wi-Fi'), contextId: 'crm-03' } })) as TaskV03;
    expect(sent).toMatchObject({ kind: 'task', contextId: 'crm-03', status: { state: 'completed' }, metadata: { deviceId: 'sim-1', goal: 'Turn on Wi-Fi' } });

    const events: Json[] = [];
    for await (const event of client.sendMessageStream({ message: userMessage('Turn on Bluetooth') })) events.push(event);
    expect(events[0]).toMatchObject({ kind: 'task', status: { state: expect.stringMatching(/^(submitted|working)$/) } });
    const taskId: string = events[0].id;
    const updates = events.slice(1);
    expect(updates.every((e) => e.kind === 'status-update' && e.taskId === taskId)).toBe(true);
    expect(updates.map((e) => e.status.state)).toContain('working');
    expect(updates[updates.length - 1]).toMatchObject({ final: true, status: { state: 'completed' } });

    const got = await client.getTask({ id: taskId });
    expect(got).toMatchObject({ kind: 'task', id: taskId, status: { state: 'completed' }, metadata: { goal: 'Turn on Bluetooth' } });
  });
});
