import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { ToolRegistry } from '@mobileclaw/case-tools';
import { GatewayModule, loadGatewayConfig, validateGatewayEnvironment } from '@mobileclaw/gateway';
import { HttpToolCatalogSource } from '@mobileclaw/remote-tool-sources';
import { ToolCatalogServer } from '@mobileclaw/remote-tool-sources/testing';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { TcpDeviceTransport } from '@mobileclaw/transport-tcp';
import { MobileClawWsAdapter } from '@mobileclaw/transport-ws';
import { SseClient } from '../support/sse-client';
import { emptyMemorySummary, isMemorySummaryRequest, toolCallCompletion } from '../support/chat-completions';

/**
 * Registry tools called by a task's planner, end to end: the gateway's own modules with its tool
 * registry holding one remote HTTP tool catalog (a local server in the `/tools/invoke` wire shape),
 * the simulated phone, and the LLM planner (a local Chat Completions server) or the rule-based one.
 * Each call is a step of the task: in its steps (`GET /api/tasks/:id`) and its event stream.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire JSON the tests read freely
type Json = any;

const TOKEN = 'catalog-secret';
const DEVICE_TOKEN = 'device-token-planner-tools';
const CATALOG = {
  tools: [
    { name: 'echo', description: 'Looks an order up by its id (answers with the arguments).', inputSchema: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] }, kind: 'OBSERVATION' },
    { name: 'lookup order', description: 'Refunds an order (answers with the arguments).', inputSchema: { type: 'object', properties: { orderId: { type: 'string' } } }, kind: 'ACTION' },
  ],
};

interface Running {
  baseUrl: string;
  catalog: ToolCatalogServer;
  close(): Promise<void>;
}

/** The gateway's modules, its ToolRegistry replaced by one over the catalog server, on free ports, with the simulated phone `sim-1`. */
async function startGateway(env: Record<string, string>): Promise<Running> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-planner-tools-'));
  const catalog = await ToolCatalogServer.start(TOKEN, CATALOG);
  const source = new HttpToolCatalogSource({ id: 'erp', catalogUrl: catalog.catalogUrl, invokeUrl: catalog.invokeUrl, token: TOKEN, refreshIntervalMs: 0 });
  const config = loadGatewayConfig(
    validateGatewayEnvironment({ MOBILECLAW_HTTP_PORT: '0', MOBILECLAW_DEVICE_PORT: '0', MOBILECLAW_DEVICE_WS: 'off', MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_LOG_LEVEL: 'silent', MOBILECLAW_DEVICE_TOKEN: DEVICE_TOKEN, ...env }),
  );
  const tcp = new TcpDeviceTransport({ port: 0, host: '127.0.0.1' });
  const moduleRef = await Test.createTestingModule({ imports: [GatewayModule.forRoot(config, DEVICE_TOKEN, { tcp })] })
    .overrideProvider(ToolRegistry)
    .useValue(new ToolRegistry([source]))
    .compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: false });
  // The events socket (/ws/events) is a WebSocket gateway of the app, as in the gateway.
  app.useWebSocketAdapter(new MobileClawWsAdapter(app));
  app.useBodyParser('json');
  await app.listen(0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  const phone = new SimulatedPhone({ host: '127.0.0.1', port: tcp.port, token: DEVICE_TOKEN, deviceId: 'sim-1' });
  await phone.start();
  const devices = await SseClient.open(`${baseUrl}/api/devices/events`);
  await devices.next((e) => e.event === 'device.connected' || (e.event === 'devices' && JSON.parse(e.data).devices.length > 0));
  devices.close();
  return {
    baseUrl,
    catalog,
    close: async () => {
      await phone.stop();
      await app.close();
      await catalog.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function post(url: string, body: unknown): Promise<Json> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return res.json();
}

const getJson = async (url: string): Promise<Json> => (await fetch(url)).json();

/** Every event of a task's stream, once it ended. */
async function eventsOf(gw: Running, taskId: string): Promise<Json[]> {
  const stream = await SseClient.open(`${gw.baseUrl}/api/tasks/${taskId}/events`);
  await stream.ended;
  return stream.events.map((e) => ({ type: e.event, ...JSON.parse(e.data) }));
}

function answer(name: string, args: Record<string, unknown>): Json {
  return toolCallCompletion(name, args, 'fake');
}

/** The model: opens Settings, then calls the gateway's `echo` for order A-17, then reports what it returned. */
function decide(body: Json): Json {
  const text: string = body.messages.filter((m: Json) => m.role === 'user').pop().content;
  if (text.includes('Steps so far: none.')) return answer('open_app', { reasoning: 'Settings first', package: 'com.android.settings' });
  const returned = /gateway tool echo .* → success returned (.*?) —/.exec(text);
  if (!returned) return answer('echo', { orderId: 'A-17' });
  return answer('done', { reasoning: 'the tool answered', summary: `Order lookup returned ${returned[1]}.` });
}

describe('registry tools called by the LLM planner mid-task', () => {
  const requests: Json[] = [];
  let model: Server;
  let gw: Running;

  beforeAll(async () => {
    model = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (raw += chunk));
      req.on('end', () => {
        const body = JSON.parse(raw);
        res.writeHead(200, { 'content-type': 'application/json' });
        // The gateway summarises its sessions into memory when it stops: those requests keep nothing.
        if (isMemorySummaryRequest(body)) return void res.end(JSON.stringify(emptyMemorySummary()));
        requests.push(body);
        res.end(JSON.stringify(decide(body)));
      });
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    gw = await startGateway({ MOBILECLAW_LLM_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`, MOBILECLAW_LLM_MODEL: 'fake', MOBILECLAW_LLM_VISION: 'false' });
  });

  afterAll(async () => {
    await gw.close();
    model.closeAllConnections();
    await new Promise((resolve) => model.close(resolve));
  });

  it('offers the remote tool as a function, calls it as a step, and shows the step in the task and its stream', async () => {
    const { taskId } = await post(`${gw.baseUrl}/api/tasks`, { deviceId: 'sim-1', goal: 'Open Settings, then look up order A-17' });
    const events = await eventsOf(gw, taskId);
    const task = await getJson(`${gw.baseUrl}/api/tasks/${taskId}`);

    expect(task).toMatchObject({ status: 'completed', planner: 'llm:fake', summary: 'Order lookup returned {"echo":{"orderId":"A-17"}}.', stepCount: 3 });
    const plan = { type: 'tool_call', name: 'echo', arguments: { orderId: 'A-17' }, toolCallId: `${taskId}:1`, gatewayTool: { source: 'catalog:erp', kind: 'OBSERVATION', mode: 'REMOTE_PROXY' } };
    const result = { status: 'success', output: { echo: { orderId: 'A-17' } }, message: '{"echo":{"orderId":"A-17"}}' };
    expect(task.steps.map((s: Json) => s.plan.action?.command ?? s.plan.name ?? s.plan.type)).toEqual(['open', 'echo', 'done']);
    expect(task.steps[1]).toMatchObject({ plan, result });
    expect(task.steps[1].timings.actionMs).toBeGreaterThanOrEqual(0);
    expect(events.find((e) => e.type === 'step.planned' && e.data.index === 1).data.plan).toMatchObject(plan);
    expect(events.find((e) => e.type === 'step.acted' && e.data.index === 1).data).toMatchObject({ index: 1, result, timings: { actionMs: task.steps[1].timings.actionMs } });

    // The remote server got the call once, keyed by the step's tool call id; the model saw the tool among its functions.
    expect(gw.catalog.calls).toEqual([{ tool: 'echo', args: { orderId: 'A-17' }, idempotencyKey: `${taskId}:1` }]);
    const functions = requests[0].tools.map((t: Json) => t.function);
    expect(functions.find((f: Json) => f.name === 'echo')).toEqual({ name: 'echo', description: '[gateway tool] (OBSERVATION, REMOTE_PROXY) Looks an order up by its id (answers with the arguments).', parameters: CATALOG.tools[0].inputSchema });
    expect(functions.find((f: Json) => f.name === 'lookup_order').description).toContain('a person approves each call first');
  });
});

describe('registry tools called by the rule-based planner ($name {json})', () => {
  let gw: Running;

  beforeAll(async () => {
    gw = await startGateway({});
  });

  afterAll(() => gw.close());

  it('calls the tool the goal names, then goes on with the rest of the goal', async () => {
    const { taskId } = await post(`${gw.baseUrl}/api/tasks`, { deviceId: 'sim-1', goal: '$echo {"orderId": "A-17"} and then open Settings' });
    await eventsOf(gw, taskId);
    const task = await getJson(`${gw.baseUrl}/api/tasks/${taskId}`);
    expect(task.status).toBe('completed');
    expect(task.summary).toContain('echo returned {"echo":{"orderId":"A-17"}}');
    expect(task.steps[0]).toMatchObject({ plan: { type: 'tool_call', name: 'echo', gatewayTool: { source: 'catalog:erp' } }, result: { status: 'success', output: { echo: { orderId: 'A-17' } } } });
    expect(task.steps[1].plan).toMatchObject({ type: 'action', action: { command: 'open', app: 'com.android.settings' } });
  });

  it('waits for a person to approve an ACTION tool through POST /approval; denied, the step is denied and the task goes on', async () => {
    const { taskId } = await post(`${gw.baseUrl}/api/tasks`, { deviceId: 'sim-1', goal: '$lookup_order {"orderId": "A-18"}' });
    const stream = await SseClient.open(`${gw.baseUrl}/api/tasks/${taskId}/events`);
    const asked = JSON.parse((await stream.next((e) => e.event === 'task.input_required')).data);
    const pending = { stepIndex: 0, toolCallId: `${taskId}:0`, name: 'lookup_order', arguments: { orderId: 'A-18' }, kind: 'ACTION', mode: 'REMOTE_PROXY', source: 'catalog:erp' };
    expect(asked.data.toolApproval).toMatchObject(pending);
    expect(await getJson(`${gw.baseUrl}/api/tasks/${taskId}`)).toMatchObject({ status: 'input_required', pendingToolApproval: pending });
    expect(gw.catalog.calls.filter((c) => c.tool === 'lookup order')).toEqual([]);

    const approved = await post(`${gw.baseUrl}/api/tasks/${taskId}/approval`, { approve: true });
    expect(approved.pendingToolApproval).toBeUndefined();
    await stream.ended;
    const task = await getJson(`${gw.baseUrl}/api/tasks/${taskId}`);
    expect(task).toMatchObject({ status: 'completed', summary: 'lookup_order returned {"echo":{"orderId":"A-18"}}' });
    // The foreign name is called on the wire, once.
    expect(gw.catalog.calls.filter((c) => c.tool === 'lookup order')).toEqual([{ tool: 'lookup order', args: { orderId: 'A-18' }, idempotencyKey: `${taskId}:0` }]);

    const denied = await post(`${gw.baseUrl}/api/tasks`, { deviceId: 'sim-1', goal: '$lookup_order {"orderId": "A-19"}' });
    const deniedStream = await SseClient.open(`${gw.baseUrl}/api/tasks/${denied.taskId}/events`);
    await deniedStream.next((e) => e.event === 'task.input_required');
    expect((await post(`${gw.baseUrl}/api/tasks/${denied.taskId}/approval`, { approve: false })).status).not.toBe('canceled');
    await deniedStream.ended;
    const deniedTask = await getJson(`${gw.baseUrl}/api/tasks/${denied.taskId}`);
    expect(deniedTask.steps[0].result).toEqual({ status: 'denied', message: 'a person denied the call of lookup_order' });
    expect(deniedTask).toMatchObject({ status: 'failed', error: { code: 'GOAL_FAILED' } });
    expect(gw.catalog.calls.filter((c) => c.tool === 'lookup order')).toHaveLength(1);
  });
});
