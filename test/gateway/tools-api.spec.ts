import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type RunningGateway } from '@mobileclaw/gateway';
import { gatewayUrl } from '../support/test-gateways';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

const WEATHER = `---
name: weather
description: How to read the weather app.
---
# Weather
Open the weather app and read today's forecast.
`;

const BOOKING = `---
name: book-table
description: Book a table in the restaurant app.
metadata:
  mobileclaw:
    kind: ACTION
    inputSchema:
      type: object
      properties:
        party: { type: integer, minimum: 1 }
      required: [party]
---
Open the restaurant app, pick a slot, confirm.
`;

const NEEDS_KEY = `---
name: translate
description: Translate with the company account.
metadata:
  mobileclaw:
    requires:
      env: MOBILECLAW_TEST_TRANSLATE_KEY_NOT_SET
---
Use the translation service.
`;

/** A data folder whose `skills/` holds a skill, a nested one, an ineligible one and an invalid file. */
function dataDirWithSkills(root: string): string {
  const dataDir = join(root, 'data');
  const skills = join(dataDir, 'skills');
  for (const [path, text] of [
    ['weather/SKILL.md', WEATHER],
    ['travel/booking/SKILL.md', BOOKING],
    ['translate/SKILL.md', NEEDS_KEY],
    ['broken/SKILL.md', '---\nname: broken\n---\nno description\n'],
  ]) {
    mkdirSync(join(skills, path, '..'), { recursive: true });
    writeFileSync(join(skills, path), text);
  }
  return dataDir;
}

describe('the tool registry over HTTP (real gateway, SKILL.md folders, SQLite ledger)', () => {
  let root: string;
  let dataDir: string;
  const running: RunningGateway[] = [];

  async function start(extra: Record<string, string> = {}): Promise<RunningGateway> {
    const gw = await startGateway({ MOBILECLAW_HTTP_PORT: '0', MOBILECLAW_DEVICE_PORT: '0', MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_LOG_LEVEL: 'silent', MOBILECLAW_SIM: 'off', ...extra });
    running.push(gw);
    return gw;
  }

  async function post(gw: RunningGateway, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Json; type: string | null }> {
    const res = await fetch(gatewayUrl(gw, path), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json(), type: res.headers.get('content-type') };
  }

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'mobileclaw-tools-'));
    dataDir = dataDirWithSkills(root);
  });

  afterEach(async () => {
    for (const gw of running.splice(0)) await gw.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('lists the skills (nested and ineligible ones included) and reports the invalid file', async () => {
    const extra = join(root, 'extra');
    mkdirSync(join(extra, 'weather'), { recursive: true });
    writeFileSync(join(extra, 'weather', 'SKILL.md'), WEATHER.replace('How to read', 'Another way to read'));
    const gw = await start({ MOBILECLAW_SKILLS_DIRS: extra });
    const res = await fetch(gatewayUrl(gw, '/api/tools'));
    expect(res.status).toBe(200);
    const { tools: all, issues } = (await res.json()) as Json;
    // The native tools are listed beside the skills: the phone's commands, list_devices and the memory tools.
    expect(all.filter((t: Json) => t.source.kind === 'native').map((t: Json) => t.exposedName)).toEqual([
      'list_devices',
      'memory_search',
      'memory_store',
      'phone_back',
      'phone_click',
      'phone_home',
      'phone_input',
      'phone_long_press',
      'phone_open',
      'phone_screenshot',
      'phone_swipe',
      'phone_ui_tree',
    ]);
    const tools = all.filter((t: Json) => t.source.kind === 'skills');
    expect(tools.map((t: Json) => [t.exposedName, t.mode, t.kind, t.location, t.visible, t.eligibility.eligible, t.available])).toEqual([
      ['book-table', 'SKILL', 'ACTION', 'workspace:travel/booking/SKILL.md', true, true, true],
      ['translate', 'SKILL', 'OBSERVATION', 'workspace:translate/SKILL.md', true, false, true],
      ['weather', 'SKILL', 'OBSERVATION', 'workspace:weather/SKILL.md', true, true, true],
    ]);
    expect(tools[1].eligibility.missing).toEqual(['env:MOBILECLAW_TEST_TRANSLATE_KEY_NOT_SET']);
    expect(tools[2]).toMatchObject({ source: { kind: 'skills', id: 'workspace' }, description: 'How to read the weather app.', shadows: [] });
    expect(issues.map((i: Json) => [i.source.kind, i.kind, i.location])).toEqual(
      expect.arrayContaining([
        ['skills', 'invalid', 'workspace:broken/SKILL.md'],
        ['skills', 'shadowed', 'extra1:weather/SKILL.md'],
      ]),
    );
    // No absolute paths leave the gateway.
    expect(JSON.stringify(issues)).not.toContain(root);
  });

  it('invokes a skill: its body, the duration, and at most once per toolCallId, across a restart', async () => {
    const gw = await start();
    const first = await post(gw, '/api/tools/weather/invoke', { toolCallId: 'c-1' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ok: true, result: { name: 'weather', body: "# Weather\nOpen the weather app and read today's forecast.", truncated: false, missing: [] }, replayed: false });
    expect(first.body.durationMs).toBeGreaterThanOrEqual(0);

    await gw.close();
    writeFileSync(join(dataDir, 'skills', 'weather', 'SKILL.md'), WEATHER.replace('read today', 'read tomorrow'));
    const restarted = await start();
    const again = await post(restarted, '/api/tools/weather/invoke', { toolCallId: 'c-1' });
    expect(again.body).toEqual({ ...first.body, replayed: true });
    const fresh = await post(restarted, '/api/tools/weather/invoke', { toolCallId: 'c-2' });
    expect(fresh.body.result.body).toContain('read tomorrow');
  });

  it('refuses before any call: unknown tool 404, bad arguments 400, an ACTION without approval 403', async () => {
    const gw = await start();
    const unknown = await post(gw, '/api/tools/nothing/invoke', {});
    expect(unknown).toMatchObject({ status: 404, body: { code: 'TOOL_NOT_FOUND', detail: 'no tool nothing' } });
    expect(unknown.type).toMatch(/^application\/problem\+json/);
    const bad = await post(gw, '/api/tools/book-table/invoke', { arguments: { party: 'four' }, approved: true });
    expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', detail: 'tool book-table: arguments/party must be integer' } });
    const notObject = await post(gw, '/api/tools/weather/invoke', { arguments: 'x' });
    expect(notObject).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    const unapproved = await post(gw, '/api/tools/book-table/invoke', { arguments: { party: 4 } });
    expect(unapproved).toMatchObject({ status: 403, body: { code: 'APPROVAL_REQUIRED' } });
    const approved = await post(gw, '/api/tools/book-table/invoke', { arguments: { party: 4 }, approved: true });
    expect(approved).toMatchObject({ status: 200, body: { ok: true, result: { name: 'book-table' } } });
  });

  it('speaks the OpenClaw shape on /tools/invoke', async () => {
    const gw = await start();
    const ok = await post(gw, '/tools/invoke', { tool: 'weather', args: {} });
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body).sort()).toEqual(['ok', 'result']);
    expect(ok.body).toMatchObject({ ok: true, result: { name: 'weather', truncated: false } });
    expect(await post(gw, '/tools/invoke', { tool: 'nothing' })).toMatchObject({ status: 404, body: { ok: false, error: { code: 'TOOL_NOT_FOUND', type: 'not_found', message: 'no tool nothing' } } });
    expect(await post(gw, '/tools/invoke', { args: {} })).toMatchObject({ status: 400, body: { ok: false, error: { code: 'VALIDATION_FAILED', type: 'invalid_request' } } });
    expect(await post(gw, '/tools/invoke', { tool: 'book-table', args: { party: 0 } })).toMatchObject({
      status: 400,
      body: { ok: false, error: { code: 'VALIDATION_FAILED', type: 'invalid_request', message: 'tool book-table: arguments/party must be >= 1' } },
    });
    // No approval travels in OpenClaw's shape: an ACTION needs the caller's policy.
    expect(await post(gw, '/tools/invoke', { tool: 'book-table', args: { party: 2 } })).toMatchObject({ status: 400, body: { ok: false, error: { code: 'APPROVAL_REQUIRED', type: 'tool_error' } } });
  });

  it('guards /tools like /api: the API token is required', async () => {
    const gw = await start({ MOBILECLAW_API_TOKEN: 'tools-token-0123456789' });
    const refused = await post(gw, '/tools/invoke', { tool: 'weather' });
    expect(refused).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    expect((await fetch(gatewayUrl(gw, '/api/tools'))).status).toBe(401);
    const allowed = await post(gw, '/tools/invoke', { tool: 'weather' }, { authorization: 'Bearer tools-token-0123456789' });
    expect(allowed).toMatchObject({ status: 200, body: { ok: true } });
  });
});
