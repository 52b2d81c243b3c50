import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Subject } from 'rxjs';
import { ToolRegistry } from '@mobileclaw/case-tools';
import {
  ToolSource,
  emptyToolInputSchema,
  toolEligibility,
  toolSuccess,
  type ToolDescriptor,
  type ToolInvocationContext,
  type ToolInvocationResult,
  type ToolSourceChange,
  type ToolSourceKind,
} from '@mobileclaw/domain';
import type { RunningGateway } from '@mobileclaw/gateway';
import { DEFAULT_MCP_OPTIONS, McpHttpEndpoint, McpRegistryTools, McpServerFactory, ResourceUpdates, type McpOptions } from '@mobileclaw/trigger-mcp';
import { SseClient } from '../support/sse-client';
import { endClient, textOf, type Era, type Json } from './mcp-client';
import { REVISION_2025, openSession } from './mcp-raw';

/** A tool source for the test: the tools it is given, a change announced on {@link setTools}, calls echoed. */
class ListedToolSource extends ToolSource {
  readonly ref;
  readonly calls: { name: string; args: Record<string, unknown>; context: ToolInvocationContext }[] = [];
  private readonly changes = new Subject<ToolSourceChange>();
  readonly changes$ = this.changes.asObservable();

  constructor(kind: ToolSourceKind, id: string, private tools: ToolDescriptor[]) {
    super();
    this.ref = { kind, id };
  }

  static of(kind: ToolSourceKind, id: string, specs: [string, Partial<ToolDescriptor>?][]): ListedToolSource {
    const source = new ListedToolSource(kind, id, []);
    source.tools = specs.map(([name, overrides]) => source.tool(name, overrides));
    return source;
  }

  tool(name: string, overrides: Partial<ToolDescriptor> = {}): ToolDescriptor {
    const mode = ({ native: 'NATIVE', mcp: 'REMOTE_PROXY', catalog: 'REMOTE_PROXY', agent: 'AGENT_SESSION', skills: 'SKILL' } as const)[this.ref.kind];
    return { name, description: `${name} of ${this.ref.kind}:${this.ref.id}`, inputSchema: emptyToolInputSchema(), kind: 'OBSERVATION', mode, source: this.ref, eligibility: toolEligibility(), available: true, ...overrides };
  }

  setTools(tools: ToolDescriptor[]): void {
    this.tools = tools;
    this.changes.next({ source: this.ref });
  }

  override async list(): Promise<ToolDescriptor[]> {
    return structuredClone(this.tools);
  }

  override async invoke(name: string, args: Record<string, unknown>, context: ToolInvocationContext): Promise<ToolInvocationResult> {
    this.calls.push({ name, args, context });
    return toolSuccess({ order: args['order'] as string, status: 'shipped' }, `order ${String(args['order'])} shipped`);
  }
}

const ORDER_SCHEMA = { type: 'object' as const, properties: { order: { type: 'string', pattern: '^A-\\d+$', description: 'Order number, e.g. A-17.' } }, required: ['order'], additionalProperties: false };

/**
 * The MCP face (its real endpoint, server factory and sessions) over a real tool registry on a free
 * loopback port; phones and tasks are never reached (the registry's tools need neither).
 */
async function startFace(registry: ToolRegistry): Promise<{ url: string; gw: RunningGateway; close(): Promise<void> }> {
  const options: McpOptions = { ...DEFAULT_MCP_OPTIONS };
  const registryTools = new McpRegistryTools(options, registry);
  await registryTools.onModuleInit();
  const unused = {} as never;
  const updates = new ResourceUpdates(unused, unused);
  const factory = new McpServerFactory(options, unused, unused, unused, updates, registryTools);
  const endpoint = new McpHttpEndpoint(options, factory, updates, registryTools);
  const server: Server = createServer((req, res) =>
    endpoint.middleware(req, res, () => {
      res.statusCode = 404;
      res.end();
    }),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    gw: { httpPort: port } as RunningGateway,
    async close() {
      await endpoint.beforeApplicationShutdown();
      server.closeAllConnections();
      server.close();
      registryTools.onModuleDestroy();
      registry.close();
    },
  };
}

async function connect(url: string, era: Era): Promise<Client> {
  const client = new Client({ name: `registry-test-${era}`, version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe.each<Era>(['modern', 'legacy'])('registry tools on MCP (%s revision)', (era) => {
  let erp: ListedToolSource;
  let face: Awaited<ReturnType<typeof startFace>>;
  let client: Client;
  let warnings: string[];

  beforeEach(async () => {
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));
    erp = ListedToolSource.of('catalog', 'erp', [
      ['lookup_order', { description: 'Looks an order up.', inputSchema: ORDER_SCHEMA }],
      ['refund_order', { description: 'Refunds an order.', inputSchema: ORDER_SCHEMA, kind: 'ACTION' }],
      ['tap', { description: 'A catalog tool named like the face’s own.' }],
    ]);
    const skills = ListedToolSource.of('skills', 'workspace', [['book_table']]);
    const phone = ListedToolSource.of('native', 'phone', [['phone_click']]);
    const registry = new ToolRegistry([erp, skills, phone], { policies: { byCaller: { mcp: { allow: [], allowSources: ['catalog:erp', 'native:*'] } } } });
    face = await startFace(registry);
    client = await connect(face.url, era);
  });

  afterEach(async () => {
    await endClient(client);
    await face.close();
    jest.restoreAllMocks();
  });

  it('lists the tools the mcp policy allows, with their schema and hints; never native ones, nor one the face names', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName['lookup_order']).toMatchObject({ description: 'Looks an order up.', inputSchema: ORDER_SCHEMA, annotations: { readOnlyHint: true, destructiveHint: false } });
    expect(byName['refund_order']).toMatchObject({ annotations: { readOnlyHint: false, destructiveHint: true } });
    expect(byName).not.toHaveProperty('book_table');
    expect(byName).not.toHaveProperty('phone_click');
    expect(tools.filter((t) => t.name === 'tap')).toHaveLength(1);
    expect(byName['tap']!.description).not.toBe('A catalog tool named like the face’s own.');
    // A second client sees the same, and the collision is reported once.
    const other = await connect(face.url, era);
    expect((await other.listTools()).tools.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    await endClient(other);
    expect(warnings.filter((w) => w.includes('registry tool tap'))).toEqual(['registry tool tap (catalog:erp) is not served on MCP: the MCP face has a tool of that name']);
  });

  it('calls a tool through the registry as the mcp caller; its refusals are tool results with the catalog code', async () => {
    const looked: Json = await client.callTool({ name: 'lookup_order', arguments: { order: 'A-17' } });
    expect(looked.isError).toBeFalsy();
    expect(textOf(looked)).toBe('order A-17 shipped');
    expect(looked.structuredContent).toEqual({ order: 'A-17', status: 'shipped' });
    expect(erp.calls.map((c) => [c.name, c.args, c.context.deadlineMs])).toEqual([['lookup_order', { order: 'A-17' }, DEFAULT_MCP_OPTIONS.registryToolDeadlineMs]]);

    const invalid: Json = await client.callTool({ name: 'lookup_order', arguments: { order: 'nope' } });
    expect(invalid).toMatchObject({ isError: true, structuredContent: { error: { code: 'VALIDATION_FAILED', retryable: false } } });
    const unapproved: Json = await client.callTool({ name: 'refund_order', arguments: { order: 'A-17' } });
    expect(unapproved).toMatchObject({ isError: true, structuredContent: { error: { code: 'APPROVAL_REQUIRED' } } });
    expect(textOf(unapproved)).toMatch(/^APPROVAL_REQUIRED: tool refund_order is an ACTION: .*this MCP face cannot ask for it/);
    expect(erp.calls).toHaveLength(1);
    await expect(client.callTool({ name: 'book_table', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it('tells connected clients when the registry’s tools change, and serves the new list', async () => {
    let heard: Promise<unknown>;
    let stream: SseClient | undefined;
    if (era === 'modern') {
      let resolve!: (value: unknown) => void;
      heard = new Promise((r) => (resolve = r));
      client.setNotificationHandler('notifications/tools/list_changed', (notification) => resolve(notification));
      await client.listen({ toolsListChanged: true });
    } else {
      // The session's standalone GET stream, open before the change (the SDK client opens its own without saying when).
      const sessionId = await openSession(face.gw);
      stream = await SseClient.open(face.url, { 'mcp-session-id': sessionId, 'mcp-protocol-version': REVISION_2025 });
      heard = stream.next((e) => (JSON.parse(e.data) as Json).method === 'notifications/tools/list_changed').then((e) => JSON.parse(e.data));
    }
    erp.setTools([erp.tool('lookup_order', { inputSchema: ORDER_SCHEMA }), erp.tool('track_parcel', { description: 'Tracks a parcel.' })]);
    expect(await heard).toMatchObject({ method: 'notifications/tools/list_changed' });
    stream?.close();
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['lookup_order', 'track_parcel']));
    expect(names).not.toContain('refund_order');
    const tracked: Json = await client.callTool({ name: 'track_parcel', arguments: {} });
    expect(tracked.isError).toBeFalsy();
  });
});

describe('McpRegistryTools', () => {
  it('serves nothing without a registry', async () => {
    const tools = new McpRegistryTools({ ...DEFAULT_MCP_OPTIONS });
    await tools.onModuleInit();
    expect(tools.tools).toEqual([]);
    tools.onModuleDestroy();
  });

  it('announces a registry change only when what the mcp caller may call changed', async () => {
    const erp = ListedToolSource.of('catalog', 'erp', [['lookup_order']]);
    const skills = ListedToolSource.of('skills', 'workspace', [['book_table']]);
    const registry = new ToolRegistry([erp, skills], { policies: { byCaller: { mcp: { allow: [], allowSources: ['catalog:*'] } } } });
    const tools = new McpRegistryTools({ ...DEFAULT_MCP_OPTIONS }, registry);
    await tools.onModuleInit();
    let announced = 0;
    tools.updated$.subscribe(() => announced++);
    skills.setTools([skills.tool('book_table'), skills.tool('order_pizza')]);
    await tools.refresh();
    expect(announced).toBe(0);
    erp.setTools([erp.tool('lookup_order'), erp.tool('track_parcel')]);
    await tools.refresh();
    expect(announced).toBe(1);
    expect(tools.tools.map((t) => t.exposedName)).toEqual(['lookup_order', 'track_parcel']);
    tools.onModuleDestroy();
    registry.close();
  });
});
