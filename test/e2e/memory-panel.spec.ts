import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { launchChromium, openPage, startPageGateway, type PageGateway } from '../support/browser-page';

/**
 * The page's Memory panel in a real browser (Debian's chromium driven by playwright-core): against the
 * gateway's real memory (rule-based summariser, no embeddings endpoint) — remember, search, delete —
 * and, for the states a local gateway cannot reach on demand (semantic search degraded, a failing
 * summariser), against answers the browser gives itself (`page.route`) as the memory API documents them.
 */

const root = join(__dirname, '..', '..');
const WAIT_MS = 30_000;
const DAY_MS = 86_400_000;

let served: PageGateway;
let base: string;
let dataDir: string;
let browser: Browser;
let page: Page;
let pageErrors: string[];
let expectedConsoleErrors: RegExp[];

const panel = (page: Page) => page.locator('#memory');

/** Opens the page and picks sim-1: its memory (`device:sim-1`) is shown. */
async function openOnSim(page: Page): Promise<void> {
  await page.goto(`${base}/`);
  await page.locator('.device[data-device-id="sim-1"][data-status="online"]').waitFor({ timeout: WAIT_MS });
  await page.getByLabel('Phone', { exact: true }).selectOption('sim-1');
  await panel(page).locator('.memory-scope-line', { hasText: 'device:sim-1' }).waitFor({ timeout: WAIT_MS });
}

/** A problem-details answer as the gateway's filter writes it. */
function problem(route: Route, status: number, code: string, title: string, detail: string): Promise<void> {
  const path = new URL(route.request().url()).pathname;
  return route.fulfill({ status, contentType: 'application/problem+json', body: JSON.stringify({ type: `urn:mobileclaw:error:${code}`, title, status, detail, instance: path, code }) });
}

const json = (route: Route, body: unknown, status = 200) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });

beforeAll(async () => {
  served = await startPageGateway('mobileclaw-memory-web-');
  ({ base } = served);
  dataDir = served.gateway.config.dataDir;
  browser = await launchChromium();
  mkdirSync(join(root, 'test-output'), { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
}, 30_000);

beforeEach(async () => {
  expectedConsoleErrors = [];
  ({ page, errors: pageErrors } = await openPage(browser, { width: 1280, height: 1600 }, expectedConsoleErrors));
});

afterEach(async () => {
  await page?.close();
  expect(pageErrors).toEqual([]);
});

describe('the Memory panel against the gateway\'s memory', () => {
  it('shows the picked phone\'s memory; remembers, finds with source and score parts, and deletes from the file', async () => {
    await openOnSim(page);
    const memory = panel(page);
    await expect(memory.locator('.memory-semantic').textContent()).resolves.toBe('Semantic search off, lexical only: no embeddings endpoint configured (MOBILECLAW_EMBEDDINGS_BASE_URL)');

    await page.getByLabel('Remember', { exact: true }).fill('Mom is Alice');
    await memory.getByRole('button', { name: 'Remember', exact: true }).click();
    await memory.locator('.memory-message[data-outcome="ok"]').waitFor({ timeout: WAIT_MS });
    await expect(memory.locator('.memory-message').textContent()).resolves.toBe('Remembered in daily: Mom is Alice');
    const record = memory.locator('.memory-daily li.memory-record');
    await expect(record.locator('.memory-text').allTextContents()).resolves.toEqual(['Mom is Alice']);
    const day = new Date().toISOString().slice(0, 10);
    const source = await record.locator('.memory-source').textContent();
    expect(source).toMatch(new RegExp(`^device/sim-1/${day}\\.md:\\d+$`));
    await expect(memory.locator('h3#memory-daily-title').textContent()).resolves.toBe('Daily (1)');

    await page.getByLabel('Search memory').fill('mom');
    await memory.getByRole('button', { name: 'Search', exact: true }).click();
    const hit = memory.locator('.memory-hits li.memory-hit[data-layer="daily"]');
    await hit.waitFor({ timeout: WAIT_MS });
    await expect(hit.locator('.memory-text').textContent()).resolves.toBe('Mom is Alice');
    await expect(hit.locator('.memory-source').textContent()).resolves.toBe(source);
    await expect(hit.locator('.memory-score').textContent()).resolves.toMatch(/^score \d\.\d\d · lexical \d\.\d\d · semantic — · decay \d\.\d\d$/);
    await expect(hit.locator('.memory-age').textContent()).resolves.toMatch(/^(just now|\d+ min ago)$/);
    await expect(memory.locator('.memory-semantic').textContent()).resolves.toMatch(/^Semantic search off: .*lexical search only/);
    await page.locator('#memory').screenshot({ path: join(root, 'test-output', 'memory-panel.png') });

    await record.getByRole('button', { name: 'Delete' }).click();
    await memory.locator('.memory-message', { hasText: 'Forgot' }).waitFor({ timeout: WAIT_MS });
    await expect(memory.locator('.memory-message').textContent()).resolves.toBe('Forgot “Mom is Alice” (1 record removed).');
    await expect(memory.locator('.memory-daily li').allTextContents()).resolves.toEqual(['No daily memories.']);
    expect(readFileSync(join(dataDir, 'memory', source!.replace(/:\d+$/, '')), 'utf8')).not.toContain('Mom is Alice');
  }, 60_000);

  it('shows a typed scope instead of the phone\'s, and a bad one as the gateway\'s refusal', async () => {
    expectedConsoleErrors.push(/status of 400/);
    await openOnSim(page);
    const memory = panel(page);
    await page.getByLabel('Memory scope').fill('context:trip-planning');
    await page.getByLabel('Memory scope').press('Enter');
    await memory.locator('.memory-scope-line', { hasText: 'context:trip-planning' }).waitFor({ timeout: WAIT_MS });
    await expect(memory.locator('.memory-scope-line').textContent()).resolves.toBe('Showing the memory of context:trip-planning.');

    await page.getByLabel('Memory scope').fill('user:bob');
    await page.getByLabel('Memory scope').press('Enter');
    await memory.locator('.memory-error', { hasText: 'VALIDATION_FAILED' }).waitFor({ timeout: WAIT_MS });
    await expect(memory.locator('.memory-error').textContent()).resolves.toMatch(/^Memory unavailable: VALIDATION_FAILED: invalid request: scope: memory scope must be context:<id> or device:<id>/);
  }, 60_000);
});

describe('the Memory panel\'s states, from documented answers', () => {
  const record = (id: string, layer: 'daily' | 'curated', text: string, ageMs: number, line: number) => ({
    id,
    scope: 'device:sim-1',
    layer,
    text,
    category: layer === 'curated' ? 'preference' : 'fact',
    priority: layer === 'curated' ? 9 : 5,
    createdAt: new Date(Date.now() - ageMs).toISOString(),
    source: { file: layer === 'curated' ? 'device/sim-1/MEMORY.md' : 'device/sim-1/2026-11-20.md', line },
    contentHash: 'a'.repeat(64),
    embedding: 'missing',
  });

  it('shows a degraded search with its notice, each hit\'s parts, and what Flush and Organize stored or why they failed', async () => {
    expectedConsoleErrors.push(/status of 502/);
    const requests: string[] = [];
    const daily = record('mem_00000000000000000000000a', 'daily', 'Office Wi-Fi is ACME-5G', 3 * DAY_MS + 3_600_000, 3);
    const curated = record('mem_00000000000000000000000b', 'curated', 'Prefers dark mode', 12 * DAY_MS, 2);
    let flushes = 0;
    await page.route('**/api/memory**', async (route) => {
      const url = new URL(route.request().url());
      requests.push(`${route.request().method()} ${url.pathname}${url.search}`);
      if (url.pathname === '/api/memory/status') return json(route, { semantic: 'on', embeddingModel: 'text-embedding-3-small', summarizer: 'rule-based', records: 2, missingEmbeddings: 2 });
      if (url.pathname === '/api/memory/records') {
        const layer = url.searchParams.get('layer');
        return json(route, { records: [layer === 'daily' ? daily : curated], total: 1 });
      }
      if (url.pathname === '/api/memory' && route.request().method() === 'GET') {
        return json(route, {
          scope: 'device:sim-1',
          query: url.searchParams.get('q'),
          hits: [
            { layer: 'session', text: 'connect to the office Wi-Fi', createdAt: new Date().toISOString(), ageDays: 0, score: 1, parts: { lexical: null, semantic: null, relevance: 1, decay: 1 } },
            { layer: 'curated', id: curated.id, text: curated.text, source: curated.source, createdAt: curated.createdAt, ageDays: 12.2, score: 0.8, parts: { lexical: 0.8, semantic: null, relevance: 0.8, decay: 1 } },
            { layer: 'daily', id: daily.id, text: daily.text, source: daily.source, createdAt: daily.createdAt, ageDays: 3.05, score: 0.4662, parts: { lexical: 1, semantic: null, relevance: 0.5, decay: 0.9324 } },
          ],
          semantic: 'degraded',
          notice: 'the embeddings endpoint failed (TIMEOUT): lexical search only this time',
        });
      }
      if (url.pathname === '/api/memory/flush') {
        flushes += 1;
        if (flushes === 1) return problem(route, 502, 'PLANNER_ERROR', 'Planner error', 'the model did not answer');
        return json(route, { turns: 12, stored: [daily] });
      }
      if (url.pathname === '/api/memory/organize') return json(route, { days: 3, stored: [curated] });
      return route.continue();
    });
    await openOnSim(page);
    const memory = panel(page);
    await memory.locator('.memory-semantic[data-state="on"]').waitFor({ timeout: WAIT_MS });
    await expect(memory.locator('.memory-semantic').textContent()).resolves.toBe('Semantic search on (text-embedding-3-small)');
    await expect(memory.locator('.memory-daily li.memory-record .memory-meta').textContent()).resolves.toBe('fact · p5 · device/sim-1/2026-11-20.md:3 · 3 days ago · embedding pending');
    await expect(memory.locator('.memory-curated li.memory-record .memory-meta').textContent()).resolves.toBe('preference · p9 · device/sim-1/MEMORY.md:2 · 12 days ago · embedding pending');

    await page.getByLabel('Search memory').fill('wifi');
    await memory.getByRole('button', { name: 'Search', exact: true }).click();
    await memory.locator('.memory-semantic[data-state="degraded"]').waitFor({ timeout: WAIT_MS });
    await expect(memory.locator('.memory-semantic').textContent()).resolves.toBe('Semantic search degraded: the embeddings endpoint failed (TIMEOUT): lexical search only this time');
    expect(await memory.locator('.memory-hits li.memory-hit').evaluateAll((items) => items.map((item) => [item.getAttribute('data-layer'), item.querySelector('.memory-text')?.textContent, item.querySelector('.memory-meta')?.textContent]))).toEqual([
      ['session', 'connect to the office Wi-Fi', 'this session · score 1.00 · lexical — · semantic — · decay 1.00 · just now'],
      ['curated', 'Prefers dark mode', 'device/sim-1/MEMORY.md:2 · score 0.80 · lexical 0.80 · semantic — · decay 1.00 · 12 days ago'],
      ['daily', 'Office Wi-Fi is ACME-5G', 'device/sim-1/2026-11-20.md:3 · score 0.47 · lexical 1.00 · semantic — · decay 0.93 · 3 days ago'],
    ]);

    const message = memory.locator('.memory-message');
    await memory.getByRole('button', { name: 'Flush session' }).click();
    await memory.locator('.memory-message[data-outcome="error"]').waitFor({ timeout: WAIT_MS });
    await expect(message.textContent()).resolves.toBe('Flush failed: PLANNER_ERROR: the model did not answer');
    await memory.getByRole('button', { name: 'Flush session' }).click();
    await memory.locator('.memory-message[data-outcome="ok"]').waitFor({ timeout: WAIT_MS });
    await expect(message.textContent()).resolves.toBe('Flushed 12 turns: 1 memory stored.');
    await memory.getByRole('button', { name: 'Organize long-term memory' }).click();
    await memory.locator('.memory-message', { hasText: 'Organized' }).waitFor({ timeout: WAIT_MS });
    await expect(message.textContent()).resolves.toBe('Organized 3 days: 1 lasting memory kept: Prefers dark mode.');
    expect(requests.filter((request) => request.startsWith('POST'))).toEqual(['POST /api/memory/flush', 'POST /api/memory/flush', 'POST /api/memory/organize']);
    expect(requests).toContain('GET /api/memory?scope=device%3Asim-1&q=wifi');
  }, 60_000);
});
