import { firstValueFrom } from 'rxjs';
import { describeToolSourceContract } from '@mobileclaw/domain/testing';
import type { ToolInvocationContext } from '@mobileclaw/domain';
import { HttpToolCatalogSource } from './http-tool-catalog-source';
import { ToolCatalogServer } from './testing/tool-catalog-server';

const TOKEN = 'catalog-secret-7f3a';

const CATALOG = {
  tools: [
    { name: 'echo', description: 'Answers with its arguments.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, readOnly: true },
    { name: 'lookup order', description: 'Finds an order.', parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] }, kind: 'observation' },
    { name: 'mcp_text', description: 'Answers MCP-style text.', annotations: { readOnlyHint: true } },
    { name: 'fail', description: 'Always fails.', input_schema: { type: 'object' } },
    { name: 'invalid', description: 'Refuses its arguments.' },
    { name: 'slow', description: 'Never answers.' },
    { name: 'huge', description: 'Answers 300 KiB.' },
    { name: 'not_json', description: 'Answers HTML.' },
    { name: 'wrong_shape', description: 'Answers JSON without ok.' },
    { name: 'gone', description: 'Listed, but the server no longer offers it.' },
    { description: 'no name' },
    { name: 'bad_schema', inputSchema: { type: 'string' } },
    { name: 'echo', description: 'A second echo: the first wins.' },
  ],
};

function context(overrides: Partial<ToolInvocationContext> = {}): ToolInvocationContext {
  return { toolCallId: 'task-1:0', signal: new AbortController().signal, deadlineMs: 5000, ...overrides };
}

describe('HttpToolCatalogSource (a local server in the /tools/invoke wire shape)', () => {
  let server: ToolCatalogServer;
  let source: HttpToolCatalogSource;

  beforeEach(async () => {
    server = await ToolCatalogServer.start(TOKEN, structuredClone(CATALOG));
    source = new HttpToolCatalogSource({ id: 'erp', catalogUrl: server.catalogUrl, invokeUrl: `${server.invokeUrl}?tenant=acme`, token: TOKEN, refreshIntervalMs: 0 });
  });

  afterEach(async () => {
    source.close();
    await server.close();
  });

  it('lists the catalog’s tools: names sanitised, schemas under any of their spellings, kinds from kind / readOnly / readOnlyHint, unusable entries reported', async () => {
    const tools = await source.list();
    expect(tools.map((tool) => [tool.name, tool.kind])).toEqual([
      ['echo', 'OBSERVATION'], ['lookup_order', 'OBSERVATION'], ['mcp_text', 'OBSERVATION'], ['fail', 'ACTION'], ['invalid', 'ACTION'], ['slow', 'ACTION'],
      ['huge', 'ACTION'], ['not_json', 'ACTION'], ['wrong_shape', 'ACTION'], ['gone', 'ACTION'],
    ]);
    expect(tools[1]).toEqual({
      name: 'lookup_order',
      originalName: 'lookup order',
      description: 'Finds an order.',
      inputSchema: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
      kind: 'OBSERVATION',
      mode: 'REMOTE_PROXY',
      source: { kind: 'catalog', id: 'erp' },
      location: server.invokeUrl,
      eligibility: { eligible: true, missing: [] },
      available: true,
    });
    expect(tools[2]!.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: true });
    expect(tools[3]!.inputSchema).toEqual({ type: 'object' });
    expect(source.issues()).toEqual([
      'tools[10]: name must be a non-empty string',
      'tools[11]: bad_schema: the input schema must be a JSON Schema object with type "object"',
      'echo: its name echo is taken by an earlier entry; skipped',
    ]);
    expect(source.status()).toMatchObject({ reachable: true });
  });

  it('takes a bare array as the catalog too', async () => {
    server.catalog = [{ name: 'echo', description: 'Echo.' }];
    expect((await source.list()).map((tool) => tool.name)).toEqual(['echo']);
  });

  it('says why a catalog of the wrong shape or not JSON cannot be used, and lists nothing from it', async () => {
    server.catalog = { items: [] };
    expect(await source.list()).toEqual([]);
    expect(source.status()).toMatchObject({ reachable: false, error: `the catalog ${server.catalogUrl}: the catalog is neither an array of tools nor an object with a "tools" array` });
  });

  it('calls a tool with POST {tool, args}, the remote name, the bearer token and the call id as Idempotency-Key', async () => {
    expect(await source.invoke('lookup_order', { orderId: 'A-17' }, context())).toEqual({ ok: true, content: { echo: { orderId: 'A-17' } }, text: '{"echo":{"orderId":"A-17"}}' });
    expect(server.calls).toEqual([{ tool: 'lookup order', args: { orderId: 'A-17' }, idempotencyKey: 'task-1:0' }]);
  });

  it('shows an MCP-style result’s text items as its text', async () => {
    const result = await source.invoke('mcp_text', {}, context());
    expect(result).toMatchObject({ ok: true, text: 'line one\nline two', content: { details: { lines: 2 } } });
  });

  it('answers the tool’s own failure as TOOL_FAILED, refused arguments as VALIDATION_FAILED', async () => {
    expect(await source.invoke('fail', {}, context())).toEqual({ ok: false, error: { code: 'TOOL_FAILED', message: 'fail failed [tool_error]: the order does not exist', retryable: false } });
    expect(await source.invoke('invalid', {}, context())).toEqual({ ok: false, error: { code: 'VALIDATION_FAILED', message: 'invalid failed [invalid_request]: orderId is required', retryable: false } });
  });

  it('answers a tool the server no longer offers (HTTP 404) as TOOL_UNAVAILABLE', async () => {
    expect(await source.invoke('gone', {}, context())).toEqual({ ok: false, error: { code: 'TOOL_UNAVAILABLE', message: 'the tool server does not offer gone now (HTTP 404): Tool not available: gone', retryable: true } });
  });

  it('answers HTML and JSON without ok as TOOL_BAD_RESPONSE', async () => {
    expect(await source.invoke('not_json', {}, context())).toEqual({
      ok: false,
      error: { code: 'TOOL_BAD_RESPONSE', message: 'the tool server answered not_json with HTTP 200 and a body that is not JSON: <html><body>Gateway login</body></html>', retryable: false },
    });
    expect(await source.invoke('wrong_shape', {}, context())).toEqual({
      ok: false,
      error: { code: 'TOOL_BAD_RESPONSE', message: 'the tool server answered wrong_shape with HTTP 200 and JSON without a boolean "ok": {"result":42}', retryable: false },
    });
  });

  it('stops reading an answer past maxResponseBytes (chunked, no Content-Length): PAYLOAD_TOO_LARGE', async () => {
    expect(await source.invoke('huge', {}, context())).toEqual({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE', message: 'the answer to huge exceeds 262144 bytes', retryable: false } });
  });

  it('answers TIMEOUT when the server does not answer within the deadline, ABORTED when the caller gives up mid-call', async () => {
    expect(await source.invoke('slow', {}, context({ deadlineMs: 100 }))).toEqual({ ok: false, error: { code: 'TIMEOUT', message: 'the call of slow did not answer within 100 ms', retryable: true } });
    const controller = new AbortController();
    const call = source.invoke('slow', {}, context({ signal: controller.signal }));
    await server.started;
    controller.abort();
    expect(await call).toEqual({ ok: false, error: { code: 'ABORTED', message: 'the call of slow was given up by its caller', retryable: true } });
  });

  it('keeps the last tools listed unavailable while the catalog is down, answers TOOL_UNAVAILABLE, and is back after a refresh', async () => {
    const before = await source.list();
    server.down = true;
    const announced = firstValueFrom(source.changes$);
    await source.refresh();
    await announced;
    const during = await source.list();
    expect(during.map((tool) => tool.name)).toEqual(before.map((tool) => tool.name));
    expect(during.every((tool) => !tool.available)).toBe(true);
    expect(source.status()).toMatchObject({ reachable: false, error: `the catalog ${server.catalogUrl} answered HTTP 503` });
    expect(await source.invoke('echo', {}, context())).toEqual({ ok: false, error: { code: 'TOOL_UNAVAILABLE', message: `echo is unavailable: the catalog ${server.catalogUrl} answered HTTP 503`, retryable: true } });
    server.down = false;
    await source.refresh();
    expect(await source.list()).toEqual(before);
  });

  it('lists unavailable when the server is gone altogether, and says why', async () => {
    await source.list();
    await server.close();
    await source.refresh();
    expect((await source.list()).every((tool) => !tool.available)).toBe(true);
    expect(source.status().error).toMatch(new RegExp(`^the catalog ${server.catalogUrl} could not be read: fetch failed: .*ECONNREFUSED`));
    server = await ToolCatalogServer.start(TOKEN, CATALOG);
  });

  it('never shows the token: a refused token (HTTP 401 echoing it) is TOOL_UNAVAILABLE without it, and the status says refused', async () => {
    await source.list();
    const wrong = new HttpToolCatalogSource({ id: 'erp', catalogUrl: server.catalogUrl, invokeUrl: server.invokeUrl, token: 'wrong-token-123', refreshIntervalMs: 0 });
    await wrong.refresh();
    expect(wrong.status()).toMatchObject({ reachable: false, error: `the catalog ${server.catalogUrl} refused the credentials (HTTP 401)` });
    expect(await wrong.list()).toEqual([]);
    // An invoke endpoint that takes another token: the call is refused, and the echoing body does not leak ours.
    const other = await ToolCatalogServer.start('another-token', CATALOG);
    const misdirected = new HttpToolCatalogSource({ id: 'erp', catalogUrl: server.catalogUrl, invokeUrl: other.invokeUrl, token: TOKEN, refreshIntervalMs: 0 });
    const result = await misdirected.invoke('fail', {}, context());
    await other.close();
    expect(result).toEqual({ ok: false, error: { code: 'TOOL_UNAVAILABLE', message: 'the tool server refused the credentials for fail (HTTP 401)', retryable: true } });
    expect(JSON.stringify([result, misdirected.status(), await misdirected.list(), wrong.status()])).not.toContain(TOKEN);
  });

  it('refuses a bad source id or a URL that is not http(s), and reports nothing before the first read', () => {
    expect(source.status()).toEqual({ reachable: false });
    expect(() => new HttpToolCatalogSource({ id: 'no spaces', catalogUrl: server.catalogUrl, invokeUrl: server.invokeUrl })).toThrow('catalog source id "no spaces" must be 1–32 of [A-Za-z0-9_-]');
    expect(() => new HttpToolCatalogSource({ id: 'erp', catalogUrl: 'file:///etc/passwd', invokeUrl: server.invokeUrl })).toThrow('catalogUrl must be an absolute http(s) URL, not file:');
  });

  it('polls the catalog after start() and announces what changed', async () => {
    const polled = new HttpToolCatalogSource({ id: 'erp', catalogUrl: server.catalogUrl, invokeUrl: server.invokeUrl, token: TOKEN, refreshIntervalMs: 20 });
    await polled.start();
    const announced = firstValueFrom(polled.changes$);
    server.catalog = [{ name: 'echo', description: 'Echo, now alone.' }];
    await announced;
    expect((await polled.list()).map((tool) => tool.description)).toEqual(['Echo, now alone.']);
    polled.close();
  });
});

let contractServer: ToolCatalogServer | undefined;
let contractSource: HttpToolCatalogSource | undefined;

describeToolSourceContract('HttpToolCatalogSource', {
  async create() {
    contractServer = await ToolCatalogServer.start(TOKEN, structuredClone(CATALOG));
    contractSource = new HttpToolCatalogSource({ id: 'erp', catalogUrl: contractServer.catalogUrl, invokeUrl: contractServer.invokeUrl, token: TOKEN, refreshIntervalMs: 0 });
    return contractSource;
  },
  async change(source) {
    contractServer!.catalog = [{ name: 'echo', description: 'The only tool left.' }];
    await (source as HttpToolCatalogSource).refresh();
  },
  async dispose() {
    contractSource?.close();
    await contractServer?.close();
  },
});
