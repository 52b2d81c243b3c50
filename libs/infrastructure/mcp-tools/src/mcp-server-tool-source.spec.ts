import { once } from 'node:events';
import { filter, firstValueFrom } from 'rxjs';
import { describeToolSourceContract } from '@mobileclaw/domain/testing';
import type { ToolInvocationContext } from '@mobileclaw/domain';
import { McpServerToolSource, type McpServerToolSourceOptions } from './mcp-server-tool-source';
import { everythingHttp, everythingStdio, freePort, type EverythingHttpServer } from './testing/everything-server';
import { startFixtureMcpServer, type FixtureMcpServer } from './testing/fixture-mcp-server';

/** Retries come fast in tests, so that a restarted server is found again quickly. */
const FAST_RECONNECT: McpServerToolSourceOptions['reconnect'] = { initialMs: 20, maxMs: 200 };

function context(overrides: Partial<ToolInvocationContext> = {}): ToolInvocationContext {
  return { toolCallId: 'task-1:0', signal: new AbortController().signal, deadlineMs: 10_000, ...overrides };
}

const sources: McpServerToolSource[] = [];
const fixtures: FixtureMcpServer[] = [];
const processes: EverythingHttpServer[] = [];

async function started(options: McpServerToolSourceOptions): Promise<McpServerToolSource> {
  const source = new McpServerToolSource({ reconnect: FAST_RECONNECT, ...options });
  sources.push(source);
  await source.start();
  return source;
}

async function fixture(): Promise<FixtureMcpServer> {
  const server = await startFixtureMcpServer();
  fixtures.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(sources.splice(0).map((source) => source.close()));
  await Promise.all(fixtures.splice(0).map((server) => server.close()));
  await Promise.all(processes.splice(0).map((server) => server.kill()));
});

/** The next change announced by `source` after which its state is `state`. */
function nextChangeTo(source: McpServerToolSource, state: 'connected' | 'reconnecting'): Promise<unknown> {
  return firstValueFrom(source.changes$.pipe(filter(() => source.status().state === state)));
}

describeToolSourceContract('McpServerToolSource over stdio (server-everything)', {
  create: () => started({ server: { id: 'everything', transport: everythingStdio() } }),
  dispose: async () => {
    await Promise.all(sources.splice(0).map((source) => source.close()));
  },
});

describeToolSourceContract('McpServerToolSource over Streamable HTTP (SDK server)', {
  create: async () => started({ server: { id: 'fixture', transport: { type: 'http', url: (await fixture()).url } } }),
  change: async () => fixtures[0]!.addTool('added_by_contract'),
  dispose: async () => {
    await Promise.all(sources.splice(0).map((source) => source.close()));
    await Promise.all(fixtures.splice(0).map((server) => server.close()));
  },
});

describe('McpServerToolSource with server-everything over stdio', () => {
  it('imports the tools with their schema and description, kind from readOnlyHint, as REMOTE_PROXY of mcp:<id>', async () => {
    const source = await started({ server: { id: 'everything', transport: everythingStdio() } });
    const tools = await source.list();
    const echo = tools.find((tool) => tool.name === 'echo');
    expect(echo).toEqual({
      name: 'echo',
      description: 'Echoes back the input string',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'Message to echo' } },
        required: ['message'],
        $schema: 'http://json-schema.org/draft-07/schema#',
      },
      kind: 'OBSERVATION',
      mode: 'REMOTE_PROXY',
      source: { kind: 'mcp', id: 'everything' },
      location: `stdio ${process.execPath}`,
      eligibility: { eligible: true, missing: [] },
      available: true,
    });
    // Not annotated read-only: it may change the world.
    expect(tools.find((tool) => tool.name === 'toggle-simulated-logging')?.kind).toBe('ACTION');
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['get-sum', 'get-env', 'get-structured-content', 'trigger-long-running-operation']));
    expect(source.status()).toMatchObject({ state: 'connected', toolCount: tools.length, failedAttempts: 0, pid: expect.any(Number), stderr: expect.stringContaining('Starting default (STDIO) server') });
  });

  it('maps text and structured results to content and text', async () => {
    const source = await started({ server: { id: 'everything', transport: everythingStdio() } });
    await expect(source.invoke('echo', { message: 'hello' }, context())).resolves.toEqual({ ok: true, content: [{ type: 'text', text: 'Echo: hello' }], text: 'Echo: hello' });
    await expect(source.invoke('get-sum', { a: 2, b: 40 }, context())).resolves.toMatchObject({ ok: true, text: expect.stringContaining('42') });
    const weather = await source.invoke('get-structured-content', { location: 'Chicago' }, context());
    expect(weather).toMatchObject({ ok: true, content: { temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) } });
  });

  it('answers a tool’s error result with TOOL_FAILED and the server’s text', async () => {
    const source = await started({ server: { id: 'everything', transport: everythingStdio() } });
    const result = await source.invoke('get-sum', { a: 'two', b: 40 }, context());
    expect(result).toEqual({ ok: false, error: { code: 'TOOL_FAILED', message: expect.stringMatching(/^get-sum: .*Invalid arguments for tool get-sum/), retryable: false } });
  });

  it('refuses a result over the size limit with PAYLOAD_TOO_LARGE, giving both sizes', async () => {
    // get-env returns the process environment: 3 × 100 KiB of it exceeds 256 KiB (one variable may not exceed 128 KiB).
    const big = { BIG_1: 'a'.repeat(100 * 1024), BIG_2: 'b'.repeat(100 * 1024), BIG_3: 'c'.repeat(100 * 1024) };
    const source = await started({ server: { id: 'everything', transport: everythingStdio(big) } });
    const result = await source.invoke('get-env', {}, context());
    expect(result).toEqual({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE', message: expect.stringMatching(/^the result of get-env is \d+ bytes, over the limit of 262144 bytes$/), retryable: false } });
    const bytes = Number(/is (\d+) bytes/.exec(result.ok ? '' : result.error.message)![1]);
    expect(bytes).toBeGreaterThan(300 * 1024);
    // The same server's small results still pass.
    await expect(source.invoke('echo', { message: 'small' }, context())).resolves.toMatchObject({ ok: true, text: 'Echo: small' });
  });

  it('answers TIMEOUT when the tool does not answer within the deadline', async () => {
    const source = await started({ server: { id: 'everything', transport: everythingStdio() } });
    const result = await source.invoke('trigger-long-running-operation', { duration: 30, steps: 3 }, context({ deadlineMs: 200 }));
    expect(result).toEqual({ ok: false, error: { code: 'TIMEOUT', message: 'trigger-long-running-operation on MCP server everything did not answer within 200 ms', retryable: true } });
  });

  it('marks the tools unavailable when the process dies, and available again once it is restarted', async () => {
    const source = await started({ server: { id: 'everything', transport: everythingStdio() } });
    const firstPid = source.status().pid!;
    const seen: Promise<{ state: string; available: boolean[] }>[] = [];
    const back = nextChangeTo(source, 'connected');
    const subscription = source.changes$.subscribe(() => {
      // The state now, and the list as list() copies it now (synchronously): what a caller saw at this announcement.
      const state = source.status().state;
      seen.push(source.list().then((tools) => ({ state, available: [...new Set(tools.map((tool) => tool.available))] })));
    });
    process.kill(firstPid, 'SIGKILL');
    await back;
    subscription.unsubscribe();
    await expect(Promise.all(seen)).resolves.toEqual([
      { state: 'reconnecting', available: [false] },
      { state: 'connected', available: [true] },
    ]);
    expect(source.status().pid).not.toBe(firstPid);
    await expect(source.invoke('echo', { message: 'again' }, context())).resolves.toMatchObject({ ok: true, text: 'Echo: again' });
  });
});

describe('McpServerToolSource with server-everything over Streamable HTTP', () => {
  it('lists and calls tools, keeps them listed as unavailable while the server is down, and recovers when it is back', async () => {
    const server = await everythingHttp();
    processes.push(server);
    await server.start();
    const source = await started({ server: { id: 'everything_http', transport: { type: 'http', url: server.url } } });
    expect(source.status().state).toBe('connected');
    const before = await source.list();
    expect(before.find((tool) => tool.name === 'echo')).toMatchObject({ available: true, location: `http ${server.url}` });
    await expect(source.invoke('echo', { message: 'over http' }, context())).resolves.toMatchObject({ ok: true, text: 'Echo: over http' });

    const down = nextChangeTo(source, 'reconnecting');
    await server.kill();
    await down;
    const during = await source.list();
    expect(during.map((tool) => tool.name)).toEqual(before.map((tool) => tool.name));
    expect(during.every((tool) => !tool.available)).toBe(true);
    await expect(source.invoke('echo', { message: 'nobody there' }, context())).resolves.toEqual({
      ok: false,
      error: { code: 'TOOL_UNAVAILABLE', message: expect.stringMatching(/^echo is unavailable: MCP server everything_http is not connected \(reconnecting\)/), retryable: true },
    });

    const up = nextChangeTo(source, 'connected');
    await server.start();
    await up;
    expect((await source.list()).every((tool) => tool.available)).toBe(true);
    await expect(source.invoke('echo', { message: 'back' }, context())).resolves.toMatchObject({ ok: true, text: 'Echo: back' });
  });
});

describe('McpServerToolSource with server-everything over legacy HTTP+SSE', () => {
  it('lists and calls tools, and recovers after the server restarts', async () => {
    const server = await everythingHttp('sse');
    processes.push(server);
    await server.start();
    const source = await started({ server: { id: 'everything_sse', transport: { type: 'sse', url: server.url } } });
    expect(source.status()).toMatchObject({ state: 'connected', location: `sse ${server.url}` });
    expect((await source.list()).find((tool) => tool.name === 'get-sum')).toMatchObject({ kind: 'OBSERVATION', mode: 'REMOTE_PROXY', available: true });
    await expect(source.invoke('get-sum', { a: 1, b: 2 }, context())).resolves.toMatchObject({ ok: true, text: expect.stringContaining('3') });

    const down = nextChangeTo(source, 'reconnecting');
    await server.kill();
    await down;
    expect((await source.list()).every((tool) => !tool.available)).toBe(true);
    const up = nextChangeTo(source, 'connected');
    await server.start();
    await up;
    await expect(source.invoke('echo', { message: 'sse again' }, context())).resolves.toMatchObject({ ok: true, text: 'Echo: sse again' });
  });
});

describe('McpServerToolSource with an SDK server over Streamable HTTP', () => {
  it('re-reads the list on notifications/tools/list_changed and announces it', async () => {
    const server = await fixture();
    const source = await started({ server: { id: 'fixture', transport: { type: 'http', url: server.url } } });
    expect((await source.list()).map((tool) => tool.name)).toEqual(['lookup', 'wait']);
    const changed = firstValueFrom(source.changes$);
    server.addTool('booking.create');
    await expect(changed).resolves.toEqual({ source: { kind: 'mcp', id: 'fixture' } });
    const tools = await source.list();
    expect(tools.map((tool) => [tool.name, tool.originalName, tool.kind, tool.available])).toEqual([
      ['lookup', undefined, 'OBSERVATION', true],
      ['wait', undefined, 'ACTION', true],
      ['booking_create', 'booking.create', 'ACTION', true],
    ]);
    // The sanitised name is ours; the server is called by its own.
    await expect(source.invoke('booking_create', {}, context())).resolves.toMatchObject({ ok: true, text: 'added booking.create' });
  });

  it('cancels a call in flight when the caller’s signal fires (the server sees the cancellation)', async () => {
    const server = await fixture();
    const source = await started({ server: { id: 'fixture', transport: { type: 'http', url: server.url } } });
    const controller = new AbortController();
    const called = once(server.events, 'called');
    const canceledOnServer = once(server.events, 'canceled');
    const result = source.invoke('wait', {}, context({ signal: controller.signal }));
    await called;
    controller.abort();
    await expect(result).resolves.toEqual({ ok: false, error: { code: 'ABORTED', message: 'the call of wait was canceled', retryable: true } });
    await expect(canceledOnServer).resolves.toEqual(['wait']);
  });

  it('sends the configured headers and keeps their values out of location and status', async () => {
    const server = await fixture();
    const token = 'Bearer s3cret-token-value';
    const source = await started({ server: { id: 'fixture', transport: { type: 'http', url: server.url, headers: { Authorization: token } } } });
    await expect(source.invoke('lookup', { key: 'k1' }, context())).resolves.toMatchObject({ ok: true, text: 'found k1' });
    expect(server.authorizations.length).toBeGreaterThan(0);
    expect(new Set(server.authorizations)).toEqual(new Set([token]));
    const shown = JSON.stringify([await source.list(), source.status()]);
    expect(shown).not.toContain('s3cret');
  });
});

describe('McpServerToolSource with no server there', () => {
  it('resolves start(), lists nothing, retries, and says why without the URL’s secrets', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp?api_key=very-secret-key`;
    const source = await started({ server: { id: 'absent', transport: { type: 'http', url, headers: { 'X-Api-Key': 'another-secret' } } }, connectTimeoutMs: 2000 });
    await expect(source.list()).resolves.toEqual([]);
    const status = source.status();
    expect(status).toMatchObject({ state: 'reconnecting', location: `http http://127.0.0.1:${port}/mcp`, toolCount: 0, failedAttempts: 1, lastError: expect.any(String) });
    expect(JSON.stringify(status)).not.toMatch(/very-secret-key|another-secret/);
    await expect(source.invoke('anything', {}, context())).resolves.toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
  });

  it('refuses an invalid configuration before connecting', () => {
    expect(() => new McpServerToolSource({ server: { id: 'bad id', transport: { type: 'http', url: 'http://x/mcp' } } })).toThrow('MCP server id "bad id" must be 1–32 of [A-Za-z0-9_-]');
  });
});
