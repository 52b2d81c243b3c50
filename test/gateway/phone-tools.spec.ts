import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningGateway } from '@mobileclaw/gateway';
import { GatewayRequestError, SimulatedPhone } from '@mobileclaw/simulator';
import { testGateways } from '../support/test-gateways';

const WEATHER = `---
name: weather
description: How to read the weather app.
---
# Weather
Open the weather app and read today's forecast.
`;

/**
 * The composition root's wiring of phone requests: a real gateway (its tool registry, SKILL.md
 * folders, SQLite ledger) answers a simulated phone's tools.catalog and tools.invoke, over TCP and
 * over WebSocket.
 */
describe('a phone calls the gateway’s tools (real gateway, simulated phone)', () => {
  const gateways = testGateways('mobileclaw-phone-tools-');
  const phones: SimulatedPhone[] = [];
  afterEach(async () => {
    await Promise.all(phones.splice(0).map((phone) => phone.stop()));
  });

  async function gatewayWithSkill(): Promise<RunningGateway> {
    const dataDir = gateways.dataDir();
    mkdirSync(join(dataDir, 'skills', 'weather'), { recursive: true });
    writeFileSync(join(dataDir, 'skills', 'weather', 'SKILL.md'), WEATHER);
    return gateways.start({ MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_SIM: 'off' });
  }

  it.each(['tcp', 'ws'] as const)('over %s: lists the skill and activates it, a refused tool failing with its code', async (transport) => {
    const gw = await gatewayWithSkill();
    const address = transport === 'tcp' ? { port: gw.devicePort } : { url: `ws://127.0.0.1:${gw.httpPort}${gw.deviceSocketPath as string}` };
    const phone = new SimulatedPhone({ token: gw.deviceToken, deviceId: `caller-${transport}`, ...address });
    phones.push(phone);
    await phone.start();

    const catalog = await phone.toolsCatalog();
    expect(catalog.find((tool) => tool.name === 'weather')).toEqual({
      name: 'weather',
      description: 'How to read the weather app.',
      inputSchema: expect.objectContaining({ type: 'object' }),
      kind: 'OBSERVATION',
      mode: 'SKILL',
      eligible: true,
      missing: [],
      available: true,
      needsApproval: false,
    });
    const result = await phone.invokeTool('weather', {}, { toolCallId: 'weather-1' });
    expect(result.text).toContain("Open the weather app and read today's forecast.");
    const missing = await phone.invokeTool('no_such_tool').catch((err: unknown) => err);
    expect(missing).toBeInstanceOf(GatewayRequestError);
    expect((missing as GatewayRequestError).code).toBe('TOOL_NOT_FOUND');
    expect(phone.connected).toBe(true);
  });
});
