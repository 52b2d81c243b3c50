import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/client';
import { MCP_BRIDGE_EXIT } from '@mobileclaw/gateway';
import { bridgeClientTransport, runMobileclaw, spawnRawBridge, type RawBridge } from '../support/mcp-bridge-process';
import { startMcpTestServer, type McpTestServer, type McpTestServerOptions } from '../support/mcp-test-server';

/**
 * `mobileclaw mcp` as a desktop client runs it: a child process on stdio, relaying to a real MCP
 * server over HTTP (the SDK's own, so the bridge is proven against the reference implementation
 * of both protocol eras before the gateway's /mcp exists).
 */
const servers: McpTestServer[] = [];
const clients: Client[] = [];
const bridges: RawBridge[] = [];

async function server(options: McpTestServerOptions): Promise<McpTestServer> {
  const started = await startMcpTestServer(options);
  servers.push(started);
  return started;
}

function raw(url: string, options?: Parameters<typeof spawnRawBridge>[1]): RawBridge {
  const bridge = spawnRawBridge(url, options);
  bridges.push(bridge);
  return bridge;
}

async function connect(url: string, client: Client, options?: Parameters<typeof bridgeClientTransport>[1]): Promise<{ client: Client; stderr: () => string }> {
  const { transport, stderr } = bridgeClientTransport(url, options);
  clients.push(client);
  await client.connect(transport);
  return { client, stderr };
}

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const bridge of bridges.splice(0)) {
    if (bridge.child.exitCode === null && bridge.child.signalCode === null) bridge.child.kill('SIGKILL');
    await bridge.exited;
  }
  for (const s of servers.splice(0)) await s.close();
});

const INITIALIZE = { method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-client', version: '1.0.0' } } };
const textOf = (result: unknown): string => (result as { content: { text: string }[] }).content[0].text;

describe('mobileclaw mcp: 2025 session clients', () => {
  it('lists and calls tools with progress for a default (initialize) client', async () => {
    const mcp = await server({ legacy: 'sessions' });
    const { client } = await connect(mcp.baseUrl, new Client({ name: 'desktop', version: '1.0.0' }));

    expect(client.getProtocolEra()).toBe('legacy');
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['confirm', 'count', 'echo', 'wait']);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hello' } }))).toBe('hello (legacy)');
    // Paced: the SDK client hands progress to onprogress later than the answer read in the same chunk
    // (and drops it once the call is answered), so each update waits until the client has seen it.
    const progress: unknown[] = [];
    const counted = await client.callTool({ name: 'count', arguments: { to: 3, paced: true } }, {
        onprogress: (p) => {
          progress.push(p);
          mcp.events.emit('progressSeen');
        },
      });
    expect(textOf(counted)).toBe('counted to 3');
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
  });

  it('relays the server’s elicitation request and the client’s answer', async () => {
    const mcp = await server({ legacy: 'sessions' });
    const client = new Client({ name: 'desktop', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    const questions: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      questions.push(request.params.message);
      return { action: 'accept', content: { ok: true } };
    });
    await connect(mcp.baseUrl, client);

    expect(textOf(await client.callTool({ name: 'confirm', arguments: { question: 'Send the message?' } }))).toBe('accept: {"ok":true}');
    expect(questions).toEqual(['Send the message?']);
  });

  it('keeps ids, carries the session id and negotiated version, and ends the session when stdin ends', async () => {
    const mcp = await server({ legacy: 'sessions' });
    const bridge = raw(mcp.baseUrl);

    bridge.send({ jsonrpc: '2.0', id: 'init-1', ...INITIALIZE });
    const initialized = await bridge.next();
    expect(initialized.id).toBe('init-1');
    const version = initialized.result.protocolVersion;
    expect(version).toBe('2025-11-25');
    bridge.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    bridge.send({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
    expect((await bridge.next()).id).toBe(7);

    const [sessionId] = [...mcp.sessions.keys()];
    expect(sessionId).toEqual(expect.any(String));
    bridge.child.stdin.end();
    expect(await bridge.exited).toBe(MCP_BRIDGE_EXIT.CLIENT_CLOSED);

    const afterInitialize = mcp.seen.filter((r) => r.httpMethod !== 'GET' || r.sessionId !== undefined).slice(1);
    expect(afterInitialize.map((r) => [r.httpMethod, r.rpcMethod, r.sessionId, r.protocolVersion])).toEqual(
      expect.arrayContaining([
        ['POST', 'notifications/initialized', sessionId, version],
        ['POST', 'tools/list', sessionId, version],
        ['DELETE', undefined, sessionId, version],
      ]),
    );
    expect(afterInitialize.every((r) => r.sessionId === sessionId && r.protocolVersion === version)).toBe(true);
    expect(mcp.sessions.size).toBe(0);
    expect(bridge.stderr()).toBe('');
  });

  it('serves a stateless 2025 endpoint (no session id, GET and DELETE refused)', async () => {
    const mcp = await server({ legacy: 'stateless' });
    const { client, stderr } = await connect(mcp.baseUrl, new Client({ name: 'desktop', version: '1.0.0' }));

    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi (legacy)');
    expect(mcp.seen.every((r) => r.sessionId === undefined)).toBe(true);
    expect(stderr()).not.toContain('went away');
  });
});

describe('mobileclaw mcp: 2026-07-28 clients', () => {
  it('serves a client pinned to 2026-07-28 (server/discover, version in _meta), given the full /mcp URL', async () => {
    const mcp = await server({ legacy: 'sessions' });
    const { client } = await connect(`${mcp.baseUrl}/mcp`, new Client({ name: 'desktop', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }));

    expect(client.getProtocolEra()).toBe('modern');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hello' } }))).toBe('hello (modern)');

    const posts = mcp.seen.filter((r) => r.httpMethod === 'POST');
    expect(posts.map((r) => r.rpcMethod)).toEqual(expect.arrayContaining(['server/discover', 'tools/list', 'tools/call']));
    expect(posts.every((r) => r.protocolVersion === '2026-07-28' && r.sessionId === undefined)).toBe(true);
    expect(mcp.sessions.size).toBe(0);
  });

  it('relays 2026-07-28 requests and their progress notifications byte for byte', async () => {
    // Raw lines: the SDK client (2.4) does not hand 2026-era progress received over stdio to onprogress.
    const mcp = await server({ legacy: 'sessions' });
    const bridge = raw(mcp.baseUrl);
    const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw-client', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };

    bridge.send({ jsonrpc: '2.0', id: 'call-1', method: 'tools/call', params: { name: 'count', arguments: { to: 2 }, _meta: { ...envelope, progressToken: 'p-1' } } });
    const answer = await bridge.next((m) => m.id === 'call-1');

    expect(bridge.received.slice(0, 2)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p-1', progress: 1, total: 2, message: 'step 1' } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p-1', progress: 2, total: 2, message: 'step 2' } },
    ]);
    expect(textOf(answer.result)).toBe('counted to 2');
    expect(mcp.seen.filter((r) => r.httpMethod === 'POST')).toEqual([{ httpMethod: 'POST', rpcMethod: 'tools/call', protocolVersion: '2026-07-28' }]);
    bridge.child.stdin.end();
    expect(await bridge.exited).toBe(MCP_BRIDGE_EXIT.CLIENT_CLOSED);
  });
});

describe('mobileclaw mcp: the API token', () => {
  const TOKEN = 'bridge-test-token-0123456789';

  it('sends MOBILECLAW_API_TOKEN as the bearer token on every request', async () => {
    const mcp = await server({ legacy: 'sessions', token: TOKEN });
    const { client } = await connect(mcp.baseUrl, new Client({ name: 'desktop', version: '1.0.0' }), { env: { MOBILECLAW_API_TOKEN: TOKEN } });

    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi (legacy)');
    expect(mcp.seen.length).toBeGreaterThan(2);
    expect(mcp.seen.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('exits 3 naming the rejected token when --token is wrong, before reading stdin', async () => {
    const mcp = await server({ legacy: 'sessions', token: TOKEN });
    const bridge = raw(mcp.baseUrl, { token: 'not-the-token-0123456789' });

    expect(await bridge.exited).toBe(MCP_BRIDGE_EXIT.TOKEN_REJECTED);
    expect(bridge.stderr()).toBe(`mobileclaw mcp: the gateway at ${mcp.baseUrl}/mcp rejected the token (HTTP 401)\n`);
    expect(bridge.received).toEqual([]);
  });

  it('exits 3 saying how to pass a token when none is given', async () => {
    const mcp = await server({ legacy: 'sessions', token: TOKEN });
    const bridge = raw(mcp.baseUrl);

    expect(await bridge.exited).toBe(MCP_BRIDGE_EXIT.TOKEN_REJECTED);
    expect(bridge.stderr()).toBe(`mobileclaw mcp: the gateway at ${mcp.baseUrl}/mcp needs a token (HTTP 401): pass --token or set MOBILECLAW_API_TOKEN\n`);
  });
});

describe('mobileclaw mcp: no gateway', () => {
  it('exits 1 with one stderr line when nothing listens at the URL', async () => {
    const port = await freePort();
    const bridge = raw(`http://127.0.0.1:${port}`);

    expect(await bridge.exited).toBe(MCP_BRIDGE_EXIT.GATEWAY_UNREACHABLE);
    expect(bridge.stderr()).toBe(`mobileclaw mcp: no gateway at http://127.0.0.1:${port}/mcp: connection refused\n`);
    expect(bridge.received).toEqual([]);
  });

  it('answers the pending call with an error and exits 1 when the gateway goes away mid-session', async () => {
    const mcp = await server({ legacy: 'sessions' });
    const bridge = raw(mcp.baseUrl);
    bridge.send({ jsonrpc: '2.0', id: 1, ...INITIALIZE });
    await bridge.next();
    bridge.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const called = once(mcp.events, 'toolCalled');
    bridge.send({ jsonrpc: '2.0', id: 'call-2', method: 'tools/call', params: { name: 'wait', arguments: {} } });
    await called;

    await mcp.close();

    const answer = await bridge.next((m) => m.id === 'call-2');
    expect(answer).toEqual({ jsonrpc: '2.0', id: 'call-2', error: { code: -32603, message: `mobileclaw mcp: the gateway at ${mcp.baseUrl}/mcp went away: connection refused` } });
    expect(await bridge.exited).toBe(MCP_BRIDGE_EXIT.GATEWAY_UNREACHABLE);
    expect(bridge.stderr()).toContain(`mobileclaw mcp: the gateway at ${mcp.baseUrl}/mcp went away: connection refused\n`);
  });
});

describe('mobileclaw mcp: the command line', () => {
  it('documents the options and exit codes in --help', async () => {
    const { code, stdout } = await runMobileclaw(['mcp', '--help']);
    const help = stdout.replace(/\s+/g, ' '); // commander wraps to the terminal width
    expect(code).toBe(0);
    expect(help).toContain('Usage: mobileclaw mcp [options]');
    expect(help).toContain('(default: http://127.0.0.1:3000)');
    expect(help).toContain('(env: MOBILECLAW_API_TOKEN)');
    expect(help).toContain('3 the gateway rejected the token (HTTP 401/403)');
  });

  it('exits 2 on a URL that is not http(s), before any request', async () => {
    const { code, stdout, stderr } = await runMobileclaw(['mcp', '--url', 'ftp://claw.example']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`mobileclaw mcp: option '--url <url>' argument 'ftp://claw.example' is invalid. not an http:// or https:// URL: "ftp://claw.example" (run \`mobileclaw mcp --help\` for usage)\n`);
  });
});

/** A port nothing listens on: bound by the OS, then released. */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
