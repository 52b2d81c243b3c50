import { Client } from '@modelcontextprotocol/client';
import type { ActionFrame } from '@mobileclaw/protocol';
import { bridgeClientTransport } from '../support/mcp-bridge-process';
import { gatewayUrl, testGateways } from '../support/test-gateways';
import { elementLine, textOf, type Json } from './mcp-client';

const gateways = testGateways('mobileclaw-mcp-stdio-');
const TOKEN = 'stdio-bridge-token-0123456789';

describe.each([
  ['a 2025 client', {}],
  ['a 2026-07-28 client', { versionNegotiation: { mode: { pin: '2026-07-28' } } }],
] as const)('mobileclaw mcp bridging %s to the gateway', (_label, clientOptions) => {
  it('lists the tools, reads a screen and taps Settings through stdio, with the API token', async () => {
    const gw = await gateways.start({ MOBILECLAW_API_TOKEN: TOKEN });
    const { transport, stderr } = bridgeClientTransport(gatewayUrl(gw, ''), { token: TOKEN });
    const client = new Client({ name: 'stdio-desktop', version: '1.0.0' }, clientOptions);
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['get_screen', 'tap', 'run_task']));
    const screen: Json = await client.callTool({ name: 'get_screen', arguments: { includeImage: false } });
    const actions: ActionFrame[] = [];
    gw.simulator!.on('action', (a) => actions.push(a));
    const tapped: Json = await client.callTool({ name: 'tap', arguments: { frameId: screen.structuredContent.frameId, element: elementLine(textOf(screen), 'Settings').index } });
    expect(tapped.isError).toBeFalsy();
    expect(actions.filter((a) => a.command === 'click')).toEqual([expect.objectContaining({ x: tapped.structuredContent.point[0], y: tapped.structuredContent.point[1] })]);
    await client.close();
    expect(stderr()).not.toContain('mobileclaw mcp:');
  });
});
