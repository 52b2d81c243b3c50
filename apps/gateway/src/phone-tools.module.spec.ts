import { Global, Module, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ToolRegistry, type ToolPolicies } from '@mobileclaw/case-tools';
import { FakeToolSource } from '@mobileclaw/case-tools/testing';
import { MobileClawModule } from '@mobileclaw/device';
import { toolFailure, toolSuccess } from '@mobileclaw/domain';
import { GatewayRequestError, SimulatedPhone } from '@mobileclaw/simulator';
import { TcpDeviceTransport } from '@mobileclaw/transport-tcp';
import { MobileClawWsAdapter, WsDeviceModule, WsDeviceTransport } from '@mobileclaw/transport-ws';
import { PhoneToolRequestsModule } from './phone-tools.module';

const DEVICE_TOKEN = 'phone-tools-token-0123456789';

/** The gateway's policies of the tools contract: phones reach skills, MCP servers, catalogs and agents, never native tools. */
const POLICIES: ToolPolicies = {
  defaultPolicy: { allow: '*', allowActionSourcesWithoutApproval: ['native:*'] },
  byCaller: { 'phone:*': { allow: [], allowSources: ['skills:*', 'mcp:*', 'catalog:*', 'agent:*'] } },
};

const WEATHER_SCHEMA = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };

describe('phones as callers of the tool registry, over TCP and WebSocket', () => {
  let app: INestApplication;
  let tcp: TcpDeviceTransport;
  let wsUrl: string;
  let native: FakeToolSource;
  let erp: FakeToolSource;
  const phones: SimulatedPhone[] = [];

  beforeAll(async () => {
    native = new FakeToolSource('native', 'phone').with(['phone_click', { kind: 'ACTION' }]);
    native.answer = async () => toolSuccess('clicked');
    erp = new FakeToolSource('mcp', 'erp').with(['weather', { inputSchema: WEATHER_SCHEMA, description: 'Current weather in a city' }], ['refund', { kind: 'ACTION' }]);
    erp.answer = async ({ name, args }) =>
      name === 'weather' ? toolSuccess({ city: args['city'] as string, temp: 21 }, `21 °C in ${String(args['city'])}`) : toolFailure('TOOL_FAILED', 'refunds are closed');
    const registry = new ToolRegistry([native, erp], { policies: POLICIES });

    @Global()
    @Module({ providers: [{ provide: ToolRegistry, useValue: registry }], exports: [ToolRegistry] })
    class TestToolsModule {}

    tcp = new TcpDeviceTransport({ port: 0, host: '127.0.0.1' });
    const ws = new WsDeviceTransport();
    const moduleRef = await Test.createTestingModule({
      imports: [MobileClawModule.forRoot({ isGlobal: true, deviceToken: DEVICE_TOKEN, transports: [tcp, ws] }), TestToolsModule, PhoneToolRequestsModule, WsDeviceModule.forRoot(ws)],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    app.useWebSocketAdapter(new MobileClawWsAdapter(app));
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    wsUrl = `ws://127.0.0.1:${port}${ws.path}`;
  });

  afterEach(async () => {
    await Promise.all(phones.splice(0).map((phone) => phone.stop()));
    native.calls.length = 0;
    erp.calls.length = 0;
  });

  afterAll(() => app.close());

  const connect = async (transport: 'tcp' | 'ws', deviceId: string): Promise<SimulatedPhone> => {
    const address = transport === 'tcp' ? { port: tcp.port } : { url: wsUrl };
    const phone = new SimulatedPhone({ token: DEVICE_TOKEN, deviceId, ...address });
    phones.push(phone);
    await phone.start();
    return phone;
  };

  describe.each(['tcp', 'ws'] as const)('over %s', (transport) => {
    it('lists the tools the phone’s policy allows, never a native tool', async () => {
      const phone = await connect(transport, `catalog-${transport}`);
      expect(await phone.toolsCatalog()).toEqual([
        { name: 'refund', description: 'refund of mcp:erp', inputSchema: { type: 'object', properties: {} }, kind: 'ACTION', mode: 'REMOTE_PROXY', eligible: true, missing: [], available: true, needsApproval: true },
        { name: 'weather', description: 'Current weather in a city', inputSchema: WEATHER_SCHEMA, kind: 'OBSERVATION', mode: 'REMOTE_PROXY', eligible: true, missing: [], available: true, needsApproval: false },
      ]);
    });

    it('has the gateway run a tool and gets its result; a retried call runs once', async () => {
      const phone = await connect(transport, `invoke-${transport}`);
      const result = await phone.invokeTool('weather', { city: 'Lyon' }, { toolCallId: 'lyon-1' });
      expect(result).toEqual({ content: { city: 'Lyon', temp: 21 }, text: '21 °C in Lyon' });
      expect(await phone.invokeTool('weather', { city: 'Lyon' }, { toolCallId: 'lyon-1' })).toEqual(result);
      expect(erp.calls.map((call) => [call.name, call.args, call.context.toolCallId])).toEqual([['weather', { city: 'Lyon' }, 'lyon-1']]);
      // Without a toolCallId each request is a call of its own, named after the phone and its request id.
      await phone.invokeTool('weather', { city: 'Nice' });
      expect(erp.calls[1].context.toolCallId).toMatch(new RegExp(`^phone:invoke-${transport}:p[0-9a-f]{12}-3$`));
    });

    it('gets the registry’s refusals as failures with their codes, and the phone’s session stays up', async () => {
      const phone = await connect(transport, `refused-${transport}`);
      const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (err: GatewayRequestError) => [err.code, err.retryable]);
      expect(await failure(phone.invokeTool('phone_click', { deviceId: 'other', x: 1, y: 1 }))).toEqual(['TOOL_NOT_FOUND', false]);
      expect(await failure(phone.invokeTool('weather', { town: 'Lyon' }))).toEqual(['VALIDATION_FAILED', false]);
      expect(await failure(phone.invokeTool('refund'))).toEqual(['APPROVAL_REQUIRED', false]);
      expect(await failure(phone.invokeTool(''))).toEqual(['VALIDATION_FAILED', false]);
      expect(native.calls).toEqual([]);
      expect(erp.calls).toEqual([]);
      expect(phone.connected).toBe(true);
      expect((await phone.toolsCatalog()).map((tool) => tool.name)).toEqual(['refund', 'weather']);
    });
  });
});
