import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { RunningGateway } from '@mobileclaw/gateway';
import { SqliteToolCallLedger } from '@mobileclaw/store-sqlite';
import { gatewayUrl, testGateways } from '../support/test-gateways';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

/** server-everything's entry point: the MCP project's reference server, run over stdio by the gateway. */
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
const DESK_TOKEN = 'desk-secret-token-0123';

/**
 * A local tool server in the OpenClaw `/tools/invoke` shape: `GET /catalog` lists `lookup_order`,
 * `POST /tools/invoke {tool, args}` answers `{ok: true, result: {order: args.id, status: "shipped"}}`;
 * every request needs the bearer token.
 */
async function startCatalogServer(): Promise<{ server: Server; url: string; calls: Json[] }> {
  const calls: Json[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const reply = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.headers.authorization !== `Bearer ${DESK_TOKEN}`) return reply(401, { ok: false, error: { type: 'unauthorized', message: 'bad token' } });
      if (req.method === 'GET' && req.url === '/catalog') {
        return reply(200, { tools: [{ name: 'lookup_order', description: 'Look an order up.', readOnly: true, inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } }] });
      }
      const call = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
      calls.push(call);
      return reply(200, { ok: true, result: { order: call.args.id, status: 'shipped' } });
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls };
}

/** A local port nothing listens on: a server that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

async function getTools(gw: RunningGateway): Promise<{ tools: Json[]; issues: Json[] }> {
  return (await (await fetch(gatewayUrl(gw, '/api/tools'))).json()) as { tools: Json[]; issues: Json[] };
}

/** The listing once `ready` holds: remote sources connect after start-up, so the test waits for them. */
async function toolsWhen(gw: RunningGateway, ready: (listing: { tools: Json[]; issues: Json[] }) => boolean): Promise<{ tools: Json[]; issues: Json[] }> {
  for (;;) {
    const listing = await getTools(gw);
    if (ready(listing)) return listing;
    await delay(100);
  }
}

async function invoke(gw: RunningGateway, name: string, body: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(gatewayUrl(gw, `/api/tools/${name}/invoke`), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

describe('the tools config wires remote sources into a real gateway', () => {
  const gateways = testGateways('mobileclaw-tools-config-');
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  /** A config file in a fresh folder. */
  function configFile(text: string): string {
    const file = join(gateways.dataDir(), 'tools.yaml');
    writeFileSync(file, text);
    return file;
  }

  it('lists the tools of a stdio MCP server and an HTTP catalog and calls one of each; a down catalog or server does not stop the start', async () => {
    const desk = await startCatalogServer();
    servers.push(desk.server);
    const down = await closedPort();
    const file = configFile(`
mcpServers:
  everything:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(EVERYTHING)}, stdio]
  missing:
    command: /nonexistent/mcp-server
catalogs:
  desk:
    catalogUrl: ${desk.url}/catalog
    invokeUrl: ${desk.url}/tools/invoke
    token: \${DESK_TOKEN}
  offline:
    catalogUrl: http://127.0.0.1:${down}/catalog
    invokeUrl: http://127.0.0.1:${down}/tools/invoke
`);
    const gw = await gateways.start({ MOBILECLAW_TOOLS_CONFIG: file, MOBILECLAW_SIM: 'off', DESK_TOKEN });
    const { tools, issues } = await toolsWhen(
      gw,
      ({ tools: listed, issues: reported }) => listed.some((tool: Json) => tool.source.kind === 'mcp' && tool.available) && reported.some((issue: Json) => issue.source.id === 'missing'),
    );

    expect(tools.find((tool: Json) => tool.exposedName === 'echo')).toMatchObject({ mode: 'REMOTE_PROXY', source: { kind: 'mcp', id: 'everything' }, location: `stdio ${process.execPath}`, visible: true, available: true });
    expect(tools.find((tool: Json) => tool.exposedName === 'lookup_order')).toMatchObject({
      mode: 'REMOTE_PROXY',
      kind: 'OBSERVATION',
      source: { kind: 'catalog', id: 'desk' },
      location: `${desk.url}/tools/invoke`,
      available: true,
    });
    expect(tools.filter((tool: Json) => tool.source.id === 'offline' || tool.source.id === 'missing')).toEqual([]);
    expect(issues).toContainEqual({ source: { kind: 'mcp', id: 'missing' }, kind: 'unreachable', location: 'stdio /nonexistent/mcp-server', message: expect.stringContaining('ENOENT') });
    expect(issues).toContainEqual({ source: { kind: 'catalog', id: 'offline' }, kind: 'unreachable', location: `http://127.0.0.1:${down}/catalog`, message: expect.stringContaining(`the catalog http://127.0.0.1:${down}/catalog could not be read`) });
    // The token stays in the gateway.
    expect(JSON.stringify({ tools, issues })).not.toContain(DESK_TOKEN);

    expect(await invoke(gw, 'echo', { arguments: { message: 'hello' } })).toMatchObject({ status: 200, body: { ok: true, text: 'Echo: hello', replayed: false } });
    expect(await invoke(gw, 'lookup_order', { arguments: { id: 'A-17' }, toolCallId: 'c-1' })).toMatchObject({ status: 200, body: { ok: true, result: { order: 'A-17', status: 'shipped' } } });
    expect(await invoke(gw, 'lookup_order', { arguments: { id: 'A-17' }, toolCallId: 'c-1' })).toMatchObject({ status: 200, body: { ok: true, replayed: true } });
    expect(desk.calls).toEqual([{ tool: 'lookup_order', args: { id: 'A-17' } }]);
  }, 60_000);

  it('applies the configured precedence and policies: an MCP tool over a skill of the same name, the REST caller limited to one source', async () => {
    const file = configFile(`
mcpServers:
  everything:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(EVERYTHING)}, stdio]
skills:
  dirs: [skills]
precedence: [[mcp], [skills]]
policies:
  rest: { allow: [], allowSources: ['mcp:everything'] }
`);
    for (const [name, description] of [
      ['echo', 'Say it back.'],
      ['weather', 'Read the weather app.'],
    ]) {
      mkdirSync(join(dirname(file), 'skills', name), { recursive: true });
      writeFileSync(join(dirname(file), 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nDo it.\n`);
    }
    const gw = await gateways.start({ MOBILECLAW_TOOLS_CONFIG: file, MOBILECLAW_SIM: 'off' });
    const { tools } = await toolsWhen(gw, ({ tools: listed }) => listed.some((tool: Json) => tool.source.kind === 'mcp' && tool.available));
    const echoes = tools.filter((tool: Json) => tool.name === 'echo').map((tool: Json) => [tool.source.kind, tool.visible, tool.shadowedBy?.source.kind]);
    expect(echoes).toEqual([
      ['mcp', true, undefined],
      ['skills', false, 'mcp'],
    ]);
    expect(tools.find((tool: Json) => tool.name === 'weather')).toMatchObject({ source: { kind: 'skills', id: 'workspace' }, location: 'extra1:weather/SKILL.md', visible: true });
    expect(await invoke(gw, 'echo', { arguments: { message: 'mcp wins' } })).toMatchObject({ status: 200, body: { ok: true, text: 'Echo: mcp wins' } });
    // The REST caller's policy allows the MCP server's tools only.
    expect(await invoke(gw, 'weather', {})).toMatchObject({ status: 404, body: { code: 'TOOL_NOT_FOUND' } });
  }, 60_000);

  it('prunes tool call records older than MOBILECLAW_TOOL_CALL_RETENTION_MS at start-up', async () => {
    const dataDir = gateways.dataDir();
    const database = join(dataDir, 'mobileclaw.db');
    const old = SqliteToolCallLedger.open(database, () => Date.now() - 2 * 3_600_000);
    await old.begin({ caller: 'rest', toolCallId: 'old-call' }, 'weather');
    await old.close();
    const recent = SqliteToolCallLedger.open(database);
    await recent.begin({ caller: 'rest', toolCallId: 'recent-call' }, 'weather');
    await recent.close();

    const gw = await gateways.start({ MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_SIM: 'off', MOBILECLAW_TOOL_CALL_RETENTION_MS: '3600000' });
    const ledger = SqliteToolCallLedger.open(database);
    try {
      expect(await ledger.get({ caller: 'rest', toolCallId: 'old-call' })).toBeUndefined();
      expect(await ledger.get({ caller: 'rest', toolCallId: 'recent-call' })).toEqual({ caller: 'rest', toolCallId: 'recent-call', tool: 'weather' });
    } finally {
      await ledger.close();
    }
    await gw.close();
  });

  it('refuses to start on a bad tools config, naming the file and the key', async () => {
    const file = configFile('catalogs:\n  desk:\n    catalogUrl: http://127.0.0.1:9/catalog\n    invokeUrl: http://127.0.0.1:9/invoke\n    token: ${DESK_TOKEN_NOT_SET}\n');
    await expect(gateways.start({ MOBILECLAW_TOOLS_CONFIG: file })).rejects.toThrow(`tools config ${file}: catalogs.desk.token: environment variable DESK_TOKEN_NOT_SET is not set`);
  });
});
