import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { launchChromium, openPage, startPageGateway, type PageGateway } from '../support/browser-page';

/**
 * The page's Tools panel and its skill buttons in a real browser (Debian's chromium driven by
 * playwright-core) against a real gateway whose registry reads two SKILL.md roots: the data folder's
 * `skills/` and one more folder (`MOBILECLAW_SKILLS_DIRS`). The save-as-skill and replay endpoints
 * are answered by the browser itself (`page.route`) with the answers the learned-skills API documents.
 */

const root = join(__dirname, '..', '..');
const WAIT_MS = 30_000;
/** Required by the `translate` skill and set nowhere: the skill is listed ineligible. */
const UNSET_ENV = 'MOBILECLAW_E2E_TOOLS_PANEL_UNSET_KEY';
const MISSING_PROGRAM = 'mobileclaw-e2e-no-such-program';
const INJECTION = '<img src="x" onerror="globalThis.toolsPanelInjected = true"> <b>not bold</b>';

interface ServerToolEntry {
  exposedName: string;
  source: { kind: string; id: string };
  description: string;
  visible: boolean;
  eligibility: { eligible: boolean; missing: string[] };
}
interface ServerToolList {
  tools: ServerToolEntry[];
  issues: { source: { kind: string; id: string }; kind: string; location: string; message: string }[];
}

let served: PageGateway;
let base: string;
let browser: Browser;
let page: Page;
let pageErrors: string[];
/** Console errors a test provokes on purpose (the browser logs every non-2xx answer). */
let expectedConsoleErrors: RegExp[];
let scratch: string;
let workspaceSkills: string;
let extraSkills: string;

function writeSkill(folder: string, frontMatter: string, body = 'Follow the steps.'): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'SKILL.md'), `---\n${frontMatter}\n---\n${body}\n`);
}

async function listTools(): Promise<ServerToolList> {
  const response = await fetch(`${base}/api/tools`);
  expect(response.status).toBe(200);
  return (await response.json()) as ServerToolList;
}

/** Resolves once the gateway's registry lists `exposedName` (the skills folders are rescanned on change, after a quiet time). */
async function registryLists(exposedName: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await listTools()).tools.some((tool) => tool.exposedName === exposedName)) {
    if (Date.now() > deadline) throw new Error(`the registry never listed ${exposedName}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts a task on sim-1 through the API and waits until it has ended (its event stream ends with it). */
async function runTask(goal: string): Promise<{ taskId: string; status: string }> {
  const started = await fetch(`${base}/api/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ deviceId: 'sim-1', goal }) });
  expect(started.status).toBe(202);
  const { taskId } = (await started.json()) as { taskId: string };
  await (await fetch(`${base}/api/tasks/${taskId}/events`)).text();
  return (await (await fetch(`${base}/api/tasks/${taskId}`)).json()) as { taskId: string; status: string };
}

/** A problem-details answer as the gateway's filter writes it. */
function problem(route: Route, status: number, code: string, title: string, detail: string): Promise<void> {
  const path = new URL(route.request().url()).pathname;
  return route.fulfill({ status, contentType: 'application/problem+json', body: JSON.stringify({ type: `urn:mobileclaw:error:${code}`, title, status, detail, instance: path, code }) });
}

const tool = (page: Page, exposedName: string) => page.locator(`#tools li.tool[data-tool="${exposedName}"]`);

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'mobileclaw-tools-web-'));
  const dataDir = join(scratch, 'data');
  workspaceSkills = join(dataDir, 'skills');
  extraSkills = join(scratch, 'extra-skills');
  // The workspace root wins a name over the extra root: extra1's weather is shadowed.
  writeSkill(join(workspaceSkills, 'weather'), 'name: weather\ndescription: The workspace weather report.');
  writeSkill(join(extraSkills, 'weather'), 'name: weather\ndescription: The extra root weather report.');
  writeSkill(join(extraSkills, 'travel', 'booking'), 'name: book-table\ndescription: Book a table in the restaurant app.\nmetadata:\n  mobileclaw:\n    kind: ACTION');
  writeSkill(join(extraSkills, 'translate'), `name: translate\ndescription: Translate a text.\nmetadata:\n  mobileclaw:\n    requires:\n      env: ${UNSET_ENV}\n      bins: ${MISSING_PROGRAM}`);
  writeSkill(join(extraSkills, 'broken'), 'name: broken');
  writeSkill(join(workspaceSkills, 'injected'), `name: injected\ndescription: '${INJECTION}'`);
  // A link out of its root is skipped and reported.
  writeSkill(join(scratch, 'outside', 'secret'), 'name: secret\ndescription: Outside every root.');
  symlinkSync(join(scratch, 'outside', 'secret'), join(extraSkills, 'escape'));
  // The gateway checks requirements against its own process's environment: this one.
  delete process.env[UNSET_ENV];
  served = await startPageGateway('mobileclaw-tools-web-', { MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_SKILLS_DIRS: [extraSkills].join(delimiter) });
  ({ base } = served);
  browser = await launchChromium();
  mkdirSync(join(root, 'test-output'), { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}, 30_000);

beforeEach(async () => {
  expectedConsoleErrors = [];
  ({ page, errors: pageErrors } = await openPage(browser, { width: 1280, height: 1400 }, expectedConsoleErrors));
});

afterEach(async () => {
  await page?.close();
  expect(pageErrors).toEqual([]);
});

describe('the Tools panel', () => {
  it('lists the skills of both roots as the registry does: the workspace one wins a name, an ineligible one says what it misses, an ACTION is marked; the sources\' problems below', async () => {
    const expected = await listTools();
    await page.goto(`${base}/`);
    await tool(page, 'weather').waitFor({ timeout: WAIT_MS });

    expect(await page.locator('#tools li.tool').evaluateAll((items) => items.map((item) => item.getAttribute('data-tool')))).toEqual(expected.tools.map((entry) => entry.exposedName));
    // The skills of both roots, between the gateway's native tools (the phone's commands, list_devices, the memory tools).
    expect(expected.tools.map((entry) => entry.exposedName)).toEqual([
      'book-table',
      'injected',
      'list_devices',
      'memory_search',
      'memory_store',
      ...['back', 'click', 'home', 'input', 'long_press', 'open', 'screenshot', 'swipe', 'ui_tree'].map((command) => `phone_${command}`),
      'translate',
      'weather',
    ]);
    await expect(page.locator('#tools .tools-summary').textContent()).resolves.toBe('16 tools');

    const weather = tool(page, 'weather');
    await expect(weather.locator('h3').textContent()).resolves.toBe('weather');
    await expect(weather.locator('.tool-description').textContent()).resolves.toBe('The workspace weather report.');
    await expect(weather.locator('.tool-meta').textContent()).resolves.toBe('SKILL · OBSERVATION · skills:workspace · workspace:weather/SKILL.md');
    expect(await weather.locator('.tool-state').count()).toBe(0);

    await expect(tool(page, 'book-table').locator('.tool-meta').textContent()).resolves.toBe('SKILL · ACTION · skills:workspace · extra1:travel/booking/SKILL.md');
    await expect(tool(page, 'book-table').locator('strong.tool-action').textContent()).resolves.toBe('ACTION');

    const translate = tool(page, 'translate');
    expect(await translate.getAttribute('data-states')).toBe('ineligible');
    await expect(translate.locator('.tool-state').allTextContents()).resolves.toEqual([`missing: env:${UNSET_ENV}, bin:${MISSING_PROGRAM}`]);

    // Problems in the sources: the duplicate name, the invalid file, the escaping link — each where and why.
    const issues = page.locator('#tools li.tool-issue');
    expect(await issues.evaluateAll((items) => items.map((item) => [item.getAttribute('data-kind'), item.querySelector('.tool-issue-location')?.textContent]))).toEqual(
      expected.issues.map((issue) => [issue.kind, issue.location]),
    );
    expect(expected.issues.filter((issue) => issue.source.kind === 'skills').map((issue) => [issue.kind, issue.location]).sort()).toEqual(
      [
        ['invalid', 'extra1:broken/SKILL.md'],
        ['shadowed', 'extra1:weather/SKILL.md'],
        ['symlink_escapes_root', 'extra1:escape'],
      ].sort(),
    );
    const shadowed = page.locator('#tools li.tool-issue[data-kind="shadowed"]');
    await expect(shadowed.locator('.tool-issue-kind').textContent()).resolves.toBe('shadowed');
    await expect(shadowed.locator('.tool-issue-message').textContent()).resolves.toBe(expected.issues.find((issue) => issue.kind === 'shadowed')!.message);
    expect(await shadowed.locator('.tool-issue-message').textContent()).toContain('workspace:weather/SKILL.md');
    await expect(page.getByRole('heading', { name: 'Problems in the sources' }).isVisible()).resolves.toBe(true);

    await page.locator('#tools').screenshot({ path: join(root, 'test-output', 'tools-panel.png') });
  }, 60_000);

  it('shows a description written as HTML as its text: nothing of it runs or renders', async () => {
    await page.goto(`${base}/`);
    const injected = tool(page, 'injected');
    await injected.waitFor({ timeout: WAIT_MS });
    await expect(injected.locator('.tool-description').textContent()).resolves.toBe(INJECTION);
    expect(await page.locator('#tools img, #tools b').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as unknown as { toolsPanelInjected?: boolean }).toolsPanelInjected)).toBeUndefined();
  }, 60_000);

  it('loads the tools again on Refresh and when the page regains focus', async () => {
    await page.goto(`${base}/`);
    await tool(page, 'weather').waitFor({ timeout: WAIT_MS });

    writeSkill(join(workspaceSkills, 'fresh'), 'name: fresh\ndescription: Written while the page was open.');
    await registryLists('fresh');
    expect(await tool(page, 'fresh').count()).toBe(0);
    await page.locator('#tools-refresh').click();
    await tool(page, 'fresh').waitFor({ timeout: WAIT_MS });

    writeSkill(join(workspaceSkills, 'focused'), 'name: focused\ndescription: Written while the page was in the background.');
    await registryLists('focused');
    expect(await tool(page, 'focused').count()).toBe(0);
    // What the browser sends when the user comes back to the page's window.
    await page.evaluate(() => {
      const window = globalThis as unknown as { dispatchEvent(event: object): boolean; Event: new (type: string) => object };
      window.dispatchEvent(new window.Event('focus'));
    });
    await tool(page, 'focused').waitFor({ timeout: WAIT_MS });
  }, 60_000);

  it('shows what the merge decided across sources: shadowed (greyed, with the winner), prefixed, unavailable', async () => {
    // One skills folder cannot shadow across sources: the registry's answer for several sources, as GET /api/tools gives it.
    const source = (kind: string, id: string) => ({ kind, id });
    const entry = (overrides: Record<string, unknown>) => ({
      description: 'A tool.',
      inputSchema: { type: 'object', properties: {} },
      kind: 'OBSERVATION',
      mode: 'REMOTE_PROXY',
      eligibility: { eligible: true, missing: [] },
      available: true,
      visible: true,
      shadows: [],
      ...overrides,
    });
    const answer = {
      tools: [
        entry({ name: 'weather', exposedName: 'weather', mode: 'SKILL', source: source('skills', 'workspace'), shadows: [{ source: source('mcp', 'erp'), name: 'weather' }] }),
        entry({ name: 'weather', exposedName: 'weather', source: source('mcp', 'erp'), visible: false, shadowedBy: { source: source('skills', 'workspace'), name: 'weather' } }),
        entry({ name: 'a_b', originalName: 'a b', exposedName: 'erp_a_b', source: source('mcp', 'erp'), kind: 'ACTION', nameTakenBy: { source: source('catalog', 'crm'), name: 'a_b' } }),
        entry({ name: 'a_b', originalName: 'a.b', exposedName: 'a_b', source: source('catalog', 'crm'), available: false }),
      ],
      issues: [],
    };
    await page.route('**/api/tools', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) }));
    await page.goto(`${base}/`);
    const shadowed = page.locator('#tools li.tool-shadowed');
    await shadowed.waitFor({ timeout: WAIT_MS });

    await expect(page.locator('#tools .tools-summary').textContent()).resolves.toBe('4 tools, 1 shadowed');
    await expect(shadowed.locator('.tool-meta').textContent()).resolves.toBe('REMOTE_PROXY · OBSERVATION · mcp:erp');
    await expect(shadowed.locator('.tool-state').allTextContents()).resolves.toEqual(['shadowed by skills:workspace/weather']);
    expect(Number(await shadowed.evaluate((item) => (globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } }).getComputedStyle(item).opacity))).toBeLessThan(1);
    await expect(page.locator('#tools li.tool[data-tool="weather"]:not(.tool-shadowed) .tool-state').allTextContents()).resolves.toEqual(['shadows mcp:erp/weather']);
    await expect(tool(page, 'erp_a_b').locator('.tool-state').allTextContents()).resolves.toEqual(['named erp_a_b: a_b is taken by catalog:crm/a_b']);
    await expect(tool(page, 'erp_a_b').locator('.tool-action').textContent()).resolves.toBe('ACTION');
    await expect(tool(page, 'a_b').locator('.tool-state').allTextContents()).resolves.toEqual(['unavailable: its source cannot be reached now']);
    // Only a visible SKILL tool offers a replay.
    expect(await page.locator('#tools button.tool-replay').evaluateAll((buttons) => buttons.map((button) => button.closest('li')?.getAttribute('data-tool')))).toEqual(['weather']);
    await expect(page.locator('#tools-title').isVisible()).resolves.toBe(true);
    expect(await page.locator('#tools .tool-issues-title').isHidden()).toBe(true);
  }, 60_000);
});

describe('skills from tasks on the page', () => {
  it('saves a completed task as a skill from its view: asks the name inline, shows SKILL_EXISTS as text, then the saved skill', async () => {
    const task = await runTask('Turn on Wi-Fi');
    expect(task.status).toBe('completed');
    expectedConsoleErrors.push(/status of 409/);
    const requests: unknown[] = [];
    await page.route(`**/api/tasks/${task.taskId}/skill`, async (route) => {
      const body = route.request().postDataJSON() as { name: string };
      requests.push({ method: route.request().method(), body });
      if (body.name === 'wifi-on') return problem(route, 409, 'SKILL_EXISTS', 'Skill exists', 'a skill named wifi-on already exists at workspace:learned/wifi-on/SKILL.md');
      return route.fulfill({
        status: 201,
        contentType: 'application/json',
        body: JSON.stringify({ skill: { name: body.name, description: 'Turn on Wi-Fi', location: `workspace:learned/${body.name}/SKILL.md`, parameters: [], steps: 2 } }),
      });
    });
    await page.goto(`${base}/#/tasks/${encodeURIComponent(task.taskId)}`);
    await page.locator('#task-status[data-status="completed"]').waitFor({ timeout: WAIT_MS });

    const nameField = page.getByLabel('Skill name', { exact: true });
    expect(await nameField.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Save as skill' }).click();
    await nameField.fill('wifi-on');
    await page.getByRole('form', { name: 'Save as skill' }).getByRole('button', { name: 'Save' }).click();
    const result = page.locator('.save-skill-result');
    await result.filter({ hasText: /^Not saved: / }).waitFor({ timeout: WAIT_MS });
    await expect(result.textContent()).resolves.toBe('Not saved: SKILL_EXISTS: a skill named wifi-on already exists at workspace:learned/wifi-on/SKILL.md');
    expect(await nameField.isVisible()).toBe(true);
    await page.locator('.save-skill').screenshot({ path: join(root, 'test-output', 'save-skill-exists.png') });

    await nameField.fill('wifi-on-2');
    await page.getByRole('form', { name: 'Save as skill' }).getByRole('button', { name: 'Save' }).click();
    await result.filter({ hasText: /^Saved/ }).waitFor({ timeout: WAIT_MS });
    await expect(result.textContent()).resolves.toBe('Saved as skill wifi-on-2 (2 steps) at workspace:learned/wifi-on-2/SKILL.md.');
    expect(await nameField.isVisible()).toBe(false);
    expect(requests).toEqual([
      { method: 'POST', body: { name: 'wifi-on' } },
      { method: 'POST', body: { name: 'wifi-on-2' } },
    ]);
  }, 60_000);

  it('offers no "Save as skill" on a task that did not complete', async () => {
    // The rule-based planner knows no way to this goal: the task fails.
    const task = await runTask('Water the plants');
    expect(task.status).toBe('failed');
    await page.goto(`${base}/#/tasks/${encodeURIComponent(task.taskId)}`);
    await page.locator('#task-status[data-status="failed"]').waitFor({ timeout: WAIT_MS });
    expect(await page.getByRole('button', { name: 'Save as skill' }).count()).toBe(0);
  }, 60_000);

  it('replays a skill on the picked phone and opens the task it created; a skill the replay refuses shows why', async () => {
    const created = await runTask('Turn on Wi-Fi');
    expectedConsoleErrors.push(/status of 404/);
    const requests: unknown[] = [];
    await page.route('**/api/skills/*/replay', async (route) => {
      const name = decodeURIComponent(new URL(route.request().url()).pathname.split('/')[3]);
      requests.push({ name, body: route.request().postDataJSON() });
      if (name !== 'weather') return problem(route, 404, 'TOOL_NOT_FOUND', 'Tool not found', `no learned skill named ${name}`);
      const task = (await (await fetch(`${base}/api/tasks/${created.taskId}`)).json()) as Record<string, unknown>;
      delete task['steps'];
      return route.fulfill({ status: 202, contentType: 'application/json', body: JSON.stringify({ ...task, planner: 'replay:weather' }) });
    });
    await page.goto(`${base}/`);
    await page.locator('.device[data-device-id="sim-1"][data-status="online"]').waitFor({ timeout: WAIT_MS });
    await page.getByLabel('Phone', { exact: true }).selectOption('sim-1');

    await tool(page, 'translate').getByRole('button', { name: 'Replay on sim-1' }).click();
    const message = page.locator('#tools .tools-message');
    await message.filter({ hasText: /failed/ }).waitFor({ timeout: WAIT_MS });
    await expect(message.textContent()).resolves.toBe('Replay of translate failed: TOOL_NOT_FOUND: no learned skill named translate');
    expect(page.url()).toBe(`${base}/`);

    await tool(page, 'weather').getByRole('button', { name: 'Replay on sim-1' }).click();
    await page.waitForURL(`${base}/#/tasks/${encodeURIComponent(created.taskId)}`, { timeout: WAIT_MS });
    await page.locator('#task-status[data-status="completed"]').waitFor({ timeout: WAIT_MS });
    await expect(message.textContent()).resolves.toBe(`Replay of weather started task ${created.taskId} on sim-1.`);
    expect(requests).toEqual([
      { name: 'translate', body: { deviceId: 'sim-1' } },
      { name: 'weather', body: { deviceId: 'sim-1' } },
    ]);
  }, 60_000);
});

describe('skills and gateway tools on the page, against the real API', () => {
  it('saves a completed task as a skill, lists it after Refresh, and replays it on the picked phone', async () => {
    // Wi-Fi off first, so that turning it on takes an action there is something to learn from.
    expect((await runTask('Turn off Wi-Fi')).status).toBe('completed');
    const task = await runTask('Turn on Wi-Fi');
    expect(task.status).toBe('completed');
    await page.goto(`${base}/#/tasks/${encodeURIComponent(task.taskId)}`);
    await page.locator('#task-status[data-status="completed"]').waitFor({ timeout: WAIT_MS });
    await page.getByRole('button', { name: 'Save as skill' }).click();
    await page.getByLabel('Skill name', { exact: true }).fill('wifi-on-real');
    await page.getByRole('form', { name: 'Save as skill' }).getByRole('button', { name: 'Save' }).click();
    const result = page.locator('.save-skill-result');
    await result.filter({ hasText: /^(Saved|Not saved)/ }).waitFor({ timeout: WAIT_MS });
    await expect(result.textContent()).resolves.toMatch(/^Saved as skill wifi-on-real \(\d+ steps?\) at workspace:wifi-on-real\/SKILL\.md\.$/);

    await registryLists('wifi-on-real');
    // Off again: the replay finds the screens it learned.
    expect((await runTask('Turn off Wi-Fi')).status).toBe('completed');
    await page.goto(`${base}/`);
    await page.locator('.device[data-device-id="sim-1"][data-status="online"]').waitFor({ timeout: WAIT_MS });
    await page.locator('#tools-refresh').click();
    await tool(page, 'wifi-on-real').waitFor({ timeout: WAIT_MS });
    await page.getByLabel('Phone', { exact: true }).selectOption('sim-1');
    await tool(page, 'wifi-on-real').getByRole('button', { name: 'Replay on sim-1' }).click();
    await page.waitForURL(/#\/tasks\//, { timeout: WAIT_MS });
    const replayId = decodeURIComponent(new URL(page.url()).hash.slice('#/tasks/'.length));
    await page.locator('#task-status[data-status="completed"]').waitFor({ timeout: WAIT_MS });
    const replayed = (await (await fetch(`${base}/api/tasks/${encodeURIComponent(replayId)}`)).json()) as { planner: string; status: string };
    expect(replayed).toMatchObject({ planner: 'replay:wifi-on-real', status: 'completed' });
  }, 90_000);

  it('asks a person before the planner calls an ACTION tool, and goes on once approved', async () => {
    const started = await fetch(`${base}/api/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ deviceId: 'sim-1', goal: '$book-table {"party": 2}' }),
    });
    expect(started.status).toBe(202);
    const { taskId } = (await started.json()) as { taskId: string };
    await page.goto(`${base}/#/tasks/${encodeURIComponent(taskId)}`);
    await page.getByRole('button', { name: 'Approve' }).waitFor({ timeout: WAIT_MS });
    await expect(page.getByRole('region', { name: 'Approval needed' }).textContent()).resolves.toContain('The agent wants to call the tool book-table (skills:');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.locator('#task-status:not([data-status="input_required"])').waitFor({ timeout: WAIT_MS });
    await (await fetch(`${base}/api/tasks/${taskId}/events`)).text();
    const steps = ((await (await fetch(`${base}/api/tasks/${taskId}`)).json()) as { steps: { plan?: { type: string; name?: string }; result?: { status: string } }[] }).steps;
    expect(steps[0]).toMatchObject({ plan: { type: 'tool_call', name: 'book-table' }, result: { status: 'success' } });
  }, 90_000);
});

describe('the tools panel\'s text, in the page (tool-list.js)', () => {
  interface ToolListModule {
    shortDescription(description: string, max?: number): string;
    toolStates(tool: object): { state: string; text: string }[];
  }

  beforeEach(async () => {
    await page.goto(`${base}/`);
    await page.addScriptTag({ type: 'module', content: "import * as toolList from '/tool-list.js'; globalThis.toolList = toolList;" });
    await page.waitForFunction(() => 'toolList' in globalThis, undefined, { timeout: WAIT_MS });
  });

  it('cuts a description to its first line and 160 characters', async () => {
    const cut = await page.evaluate(() => {
      const { shortDescription } = (globalThis as unknown as { toolList: ToolListModule }).toolList;
      return [shortDescription('  Book a table.\nThen confirm it.  '), shortDescription('x'.repeat(200)), shortDescription('a'.repeat(160)), shortDescription('abc def', 5), shortDescription('')];
    });
    expect(cut).toEqual(['Book a table.', `${'x'.repeat(159)}…`, 'a'.repeat(160), 'abc…', '']);
  });

  it('writes every state out, in a fixed order, and none for a plain tool', async () => {
    const states = await page.evaluate(() => {
      const { toolStates } = (globalThis as unknown as { toolList: ToolListModule }).toolList;
      const skills = { kind: 'skills', id: 'workspace' };
      const plain = { name: 'a', exposedName: 'a', visible: true, shadows: [], eligibility: { eligible: true, missing: [] }, available: true, source: skills };
      const everything = {
        ...plain,
        name: 'a_b',
        exposedName: 'erp_a_b',
        source: { kind: 'mcp', id: 'erp' },
        visible: false,
        shadowedBy: { source: skills, name: 'erp_a_b' },
        nameTakenBy: { source: { kind: 'catalog', id: 'crm' }, name: 'a_b' },
        eligibility: { eligible: false, missing: ['env:ERP_TOKEN', 'bin:erp-cli'] },
        available: false,
        shadows: [{ source: { kind: 'agent', id: 'pc' }, name: 'a_b' }, { source: { kind: 'mcp', id: 'old' }, name: 'a_b' }],
      };
      return [toolStates(plain), toolStates(everything), toolStates({ ...plain, visible: false })];
    });
    expect(states).toEqual([
      [],
      [
        { state: 'shadowed', text: 'shadowed by skills:workspace/erp_a_b' },
        { state: 'prefixed', text: 'named erp_a_b: a_b is taken by catalog:crm/a_b' },
        { state: 'ineligible', text: 'missing: env:ERP_TOKEN, bin:erp-cli' },
        { state: 'unavailable', text: 'unavailable: its source cannot be reached now' },
        { state: 'shadows', text: 'shadows agent:pc/a_b, mcp:old/a_b' },
      ],
      [{ state: 'shadowed', text: 'shadowed' }],
    ]);
  });
});
