import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join, resolve } from 'node:path';
import { scopedTokensSummary, type RunningGateway } from '@mobileclaw/gateway';
import { gatewayUrl, testGateways } from '../support/test-gateways';

/**
 * Scoped API tokens on a real gateway (in-process): a token of `MOBILECLAW_SCOPED_TOKENS` reaches the
 * memory of its scopes through `/api/memory` — real files and index — and nothing else: another scope's
 * memory is 403 (by scope) or 404 (by id, as an unknown id), every other route and face refuses it, and
 * what it was refused is left as it was.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers read freely
type Json = any;

const gateways = testGateways('mobileclaw-scoped-tokens-');
const FULL = 'full-api-token-0123456789';
const CRM = 'crm-desk-token-0123456789';

async function call(gw: RunningGateway, token: string | undefined, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  const response = await fetch(gatewayUrl(gw, path), { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, body: await response.json() };
}

/** The README's example file (section "Scoped API tokens"): a token from the environment, one by its SHA-256. */
function readmeTokensFile(): string {
  const readme = readFileSync(resolve(__dirname, '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Scoped API tokens\n'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section);
  expect(block).not.toBeNull();
  return block![1];
}

/** The README's commands in that section: the start line, then each `curl` with the `# ` lines below it. */
function readmeCommands(): { start: string; calls: { line: string; shown: string[] }[] } {
  const readme = readFileSync(resolve(__dirname, '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Scoped API tokens\n'), readme.indexOf('\n## ', readme.indexOf('### Scoped API tokens\n')));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1];
  const [start, ...rest] = block.trimEnd().split('\n');
  const calls: { line: string; shown: string[] }[] = [];
  for (const line of rest) {
    if (line.startsWith('# ')) calls.at(-1)?.shown.push(line.slice(2));
    else calls.push({ line, shown: [] });
  }
  return { start, calls };
}

/** The token whose SHA-256 the README's example gives. */
const KIOSK = 'lobby-kiosk-token-change-me';

async function startWithTokens(): Promise<RunningGateway> {
  const dir = gateways.dataDir();
  writeFileSync(join(dir, 'tokens.yaml'), readmeTokensFile());
  return gateways.start({ MOBILECLAW_API_TOKEN: FULL, MOBILECLAW_SCOPED_TOKENS: join(dir, 'tokens.yaml'), CRM_DESK_TOKEN: CRM });
}

describe('scoped API tokens', () => {
  it('reach the memory of their scopes, and neither read nor delete another scope\'s', async () => {
    const gw = await startWithTokens();
    const own = await call(gw, CRM, 'POST', '/api/memory', { scope: 'context:crm-42', text: 'Customer prefers calls after 6 pm' });
    expect(own.status).toBe(201);
    const other = await call(gw, FULL, 'POST', '/api/memory', { scope: 'device:sim-1', text: 'Mom is Alice', category: 'contact' });
    expect(other.status).toBe(201);
    const otherId = other.body.records[0].id;

    const found = await call(gw, CRM, 'GET', `/api/memory?${new URLSearchParams({ scope: 'context:crm-42', q: 'calls' }).toString()}`);
    expect(found.body.hits.map((hit: Json) => hit.text)).toEqual(['Customer prefers calls after 6 pm']);

    const refused = await call(gw, CRM, 'GET', `/api/memory?${new URLSearchParams({ scope: 'device:sim-1', q: 'mom' }).toString()}`);
    expect([refused.status, refused.body.code, refused.body.detail]).toEqual([403, 'TOKEN_SCOPE_FORBIDDEN', 'the API token "crm-desk" does not reach the memory scope "device:sim-1"']);
    const byId = await call(gw, CRM, 'GET', `/api/memory/${otherId}`);
    const unknown = await call(gw, CRM, 'GET', '/api/memory/mem_ffffffffffffffffffffffff');
    expect([byId.status, byId.body.code, unknown.status, unknown.body.code]).toEqual([404, 'MEMORY_NOT_FOUND', 404, 'MEMORY_NOT_FOUND']);
    expect((await call(gw, CRM, 'DELETE', `/api/memory/${otherId}`)).status).toBe(404);
    // The kiosk's token, given by its digest, reaches its phone's memory and not the conversations'.
    expect((await call(gw, KIOSK, 'POST', '/api/memory', { scope: 'device:kiosk-1', text: 'The lobby closes at 8 pm' })).status).toBe(201);
    expect((await call(gw, KIOSK, 'GET', `/api/memory/${own.body.records[0].id}`)).status).toBe(404);

    // The memory the scoped token was refused is still there, in the index and the file.
    expect(await call(gw, FULL, 'GET', `/api/memory/${otherId}`)).toMatchObject({ status: 200, body: { text: 'Mom is Alice', scope: 'device:sim-1' } });
    const deleted = await call(gw, CRM, 'DELETE', `/api/memory/${own.body.records[0].id}`);
    expect(deleted.body.deleted.map((record: Json) => record.text)).toEqual(['Customer prefers calls after 6 pm']);
  });

  it('are refused on every other route before the body is read, and on the other faces', async () => {
    const gw = await startWithTokens();
    for (const [method, path, body] of [
      ['GET', '/api/devices'],
      ['GET', '/api/tasks'],
      ['POST', '/api/tasks', { deviceId: 'sim-1', goal: 'open Settings' }],
      ['GET', '/api/tools'],
      ['POST', '/tools/invoke', { tool: 'memory_search', args: { query: 'mom' } }],
      ['GET', '/api/memory/status'],
    ] as const) {
      const answer = await call(gw, CRM, method, path, body);
      expect([method, path, answer.status, answer.body.code]).toEqual([method, path, 403, 'TOKEN_SCOPE_FORBIDDEN']);
    }
    expect((await call(gw, FULL, 'GET', '/api/tasks')).body.tasks).toEqual([]);
    // MCP and A2A know only the API token: a scoped token is not one there.
    const mcp = await fetch(gatewayUrl(gw, '/mcp'), {
      method: 'POST',
      headers: { authorization: `Bearer ${CRM}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(401);
    const a2a = await fetch(gatewayUrl(gw, '/a2a'), {
      method: 'POST',
      headers: { authorization: `Bearer ${CRM}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'x' } }),
    });
    expect(a2a.status).toBe(401);
  });

  it("run as the README shows: its start line's settings, then its commands print what it shows", async () => {
    const { start, calls } = readmeCommands();
    const settings = Object.fromEntries([...start.matchAll(/(MOBILECLAW_[A-Z_]+|CRM_DESK_TOKEN)=(\S+)/g)].map((m) => [m[1], m[2]]));
    expect(start).toMatch(/ npm start$/);
    expect(settings['MOBILECLAW_SCOPED_TOKENS']).toBe('tokens.yaml');
    const dir = gateways.dataDir();
    writeFileSync(join(dir, 'tokens.yaml'), readmeTokensFile());
    const gw = await gateways.start({ ...settings, MOBILECLAW_SCOPED_TOKENS: join(dir, 'tokens.yaml') });
    // The start-up line the section quotes.
    expect(readFileSync(resolve(__dirname, '..', '..', 'README.md'), 'utf8')).toContain(`The start-up log says \`${scopedTokensSummary(gw.config.scopedTokens)}\`.`);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const { line, shown } of calls) {
      const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', line.replaceAll('localhost:3000', `127.0.0.1:${gw.httpPort}`)], { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8' });
      expect(stdout.trimEnd().split('\n')).toEqual(shown);
    }
  });
});
