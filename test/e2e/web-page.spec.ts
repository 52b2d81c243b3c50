import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startGateway, type RunningGateway } from '@mobileclaw/gateway';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { launchChromium, openPage, startPageGateway, type PageGateway } from '../support/browser-page';

/**
 * The live execution page in a real browser (Debian's chromium driven by playwright-core) against
 * the real gateway with its simulated phone sim-1 and the rule-based planner.
 */

const root = join(__dirname, '..', '..');
const outputDir = join(root, 'test-output');
/** Upper bound of any one page condition; the tasks below take about a second. */
const WAIT_MS = 30_000;

interface ServerStep {
  index: number;
  observation?: { screen: { width: number; height: number } };
  plan?: { type: string; action?: { command: string; x?: number; y?: number } };
}
interface ServerTask {
  taskId: string;
  status: string;
  stepCount: number;
  steps: ServerStep[];
}

/**
 * The few browser globals the page-side functions below use (this spec compiles without the DOM
 * lib; Playwright runs those functions in the page, where `globalThis` is the window).
 */
interface PageImage {
  complete: boolean;
  naturalWidth: number;
  decode(): Promise<void>;
}
interface PageWindow {
  innerWidth: number;
  innerHeight: number;
  document: {
    documentElement: { scrollWidth: number };
    querySelector(selector: string): { getAttribute(name: string): string | null; getBoundingClientRect(): { top: number } } | null;
    querySelectorAll(selector: string): ArrayLike<PageImage>;
  };
}

let served: PageGateway;
let gateway: RunningGateway;
let browser: Browser;
let base: string;
let page: Page;
let pageErrors: string[];
/** Console errors a test provokes on purpose (the browser logs every non-2xx answer). */
let expectedConsoleErrors: RegExp[];

async function getTask(taskId: string): Promise<ServerTask> {
  const response = await fetch(`${base}/api/tasks/${taskId}`);
  expect(response.status).toBe(200);
  return (await response.json()) as ServerTask;
}

/** Every event id the server has for a finished task (its stream replays them all, then ends). */
async function serverEventIds(taskId: string): Promise<number[]> {
  const text = await (await fetch(`${base}/api/tasks/${taskId}/events`)).text();
  return [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
}

const taskIdOf = (page: Page) => decodeURIComponent(/#\/tasks\/([^/]+)$/.exec(page.url())?.[1] ?? '');
const stepIndexes = (page: Page) => page.locator('li.step').evaluateAll((cards) => cards.map((c) => Number(c.getAttribute('data-step-index'))));
const eventIds = (page: Page) => page.locator('.event-log li').evaluateAll((items) => items.map((i) => Number(i.getAttribute('data-event-id'))));
const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => i + from);

/** Waits until the page shows the task as `status`. */
const statusShown = (page: Page, status: string) => page.locator(`#task-status[data-status="${status}"]`).waitFor({ timeout: WAIT_MS });

/** Waits until every screenshot on the page has loaded (and decoded to a real size). */
async function screenshotsLoaded(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const images = Array.from((globalThis as unknown as PageWindow).document.querySelectorAll('li.step img'));
      return images.length > 0 && images.every((img) => img.complete && img.naturalWidth > 0);
    },
    undefined,
    { timeout: WAIT_MS },
  );
}

/** Saves a PNG of the whole page under test-output/. */
async function saveFullPage(page: Page, file: string): Promise<void> {
  // Decoded images far below the viewport may be dropped again; a full-page capture needs them all.
  await page.locator('li.step img').evaluateAll((images) => Promise.all(images.map((img) => (img as unknown as PageImage).decode())));
  await page.screenshot({ path: join(outputDir, file), fullPage: true });
}

/** True when the page needs no horizontal scrolling at its current viewport width. */
const fitsWidth = (page: Page) =>
  page.evaluate(() => {
    const window = globalThis as unknown as PageWindow;
    return window.document.documentElement.scrollWidth <= window.innerWidth;
  });

/** Starts a task on sim-1 through the API and waits until it has ended (its event stream ends with it). */
async function runTask(baseUrl: string, goal: string, headers: Record<string, string> = {}): Promise<string> {
  const started = await fetch(`${baseUrl}/api/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ deviceId: 'sim-1', goal }) });
  expect(started.status).toBe(202);
  const { taskId } = (await started.json()) as { taskId: string };
  const events = await fetch(`${baseUrl}/api/tasks/${taskId}/events`, { headers });
  expect(events.status).toBe(200);
  await events.text();
  return taskId;
}

async function startFromForm(page: Page, goal: string): Promise<string> {
  await page.getByLabel('Phone', { exact: true }).selectOption('sim-1');
  await page.getByLabel('Goal', { exact: true }).fill(goal);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.waitForURL(/#\/tasks\/[^/]+$/, { timeout: WAIT_MS });
  return taskIdOf(page);
}

beforeAll(async () => {
  // Pings after 1 s of silence: the page gets live RTT figures within the test.
  served = await startPageGateway('mobileclaw-web-', { MOBILECLAW_HEARTBEAT_INTERVAL_MS: '1000' });
  ({ gateway, base } = served);
  browser = await launchChromium();
  mkdirSync(outputDir, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
}, 30_000);

describe('the live execution page', () => {
  beforeEach(async () => {
    expectedConsoleErrors = [];
    ({ page, errors: pageErrors } = await openPage(browser, { width: 1280, height: 900 }, expectedConsoleErrors));
  });

  afterEach(async () => {
    await page?.close();
    expect(pageErrors).toEqual([]);
  });

  it('shows sim-1 online with its RTT, runs "Turn on Wi-Fi" from the form with live steps and screenshots, and the phone has Wi-Fi on', async () => {
    const phone = gateway.simulator!;
    expect(phone.ui.state.wifi).toBe(false);
    // Each reply of the phone takes 200 ms more: the task runs for about 2 s while the page watches.
    phone.faults.latencyMs = 200;
    try {
      await page.goto(`${base}/`);
      await page.locator('.device[data-device-id="sim-1"][data-status="online"]').waitFor({ timeout: WAIT_MS });
      await page.locator('.device[data-device-id="sim-1"] .device-rtt', { hasText: /^RTT \d+ ms$/ }).waitFor({ timeout: WAIT_MS });

      const taskId = await startFromForm(page, 'Turn on Wi-Fi');
      // Live: the first step, with its screenshot, is on the page while the task still runs.
      await page.waitForFunction(
        () => {
          const { document } = globalThis as unknown as PageWindow;
          const running = document.querySelector('#task-status')?.getAttribute('data-status') === 'running';
          return running && document.querySelectorAll('li.step[data-step-index="0"] img').length === 1;
        },
        undefined,
        { timeout: WAIT_MS },
      );
      await statusShown(page, 'completed');
      await screenshotsLoaded(page);

      const task = await getTask(taskId);
      expect(task.status).toBe('completed');
      expect(phone.ui.state.wifi).toBe(true);
      expect(await stepIndexes(page)).toEqual(range(task.stepCount));
      await expect(page.locator('.outcome').textContent()).resolves.toBe('Wi-Fi is on.');
      expect(await page.locator('#task-goal').textContent()).toBe('Turn on Wi-Fi');

      // The tap on the Wi-Fi switch is marked where it lands on the displayed screenshot.
      const tap = task.steps.find((s) => s.plan?.action?.command === 'click');
      expect(tap).toBeDefined();
      const { x, y } = tap!.plan!.action as { x: number; y: number };
      const { width, height } = tap!.observation!.screen;
      const card = page.locator(`li.step[data-step-index="${tap!.index}"]`);
      await expect(card.locator('code').first().textContent()).resolves.toBe(`click (${x}, ${y})`);
      await expect(card.locator('.verified').textContent()).resolves.toBe('✓ verified');
      // The screenshot opens at full resolution in a new tab.
      const link = card.locator('a.shot-link');
      expect(await link.getAttribute('href')).toBe(`/api/tasks/${taskId}/steps/${tap!.index}/screenshot`);
      expect(await link.getAttribute('target')).toBe('_blank');
      const image = (await card.locator('img').boundingBox())!;
      const ring = (await card.locator('circle.marker-tap').boundingBox())!;
      expect(Math.abs(ring.x + ring.width / 2 - (image.x + (x / width) * image.width))).toBeLessThan(1.5);
      expect(Math.abs(ring.y + ring.height / 2 - (image.y + (y / height) * image.height))).toBeLessThan(1.5);

      // The finished task is in the history, marked as the open one.
      await page.locator(`.history li[data-task-id="${taskId}"] a[aria-current="page"]`, { hasText: 'completed' }).waitFor({ timeout: WAIT_MS });
      expect(await eventIds(page)).toEqual(await serverEventIds(taskId));
    } finally {
      phone.faults.latencyMs = 0;
    }
  }, 90_000);

  it('re-opens a task after a reload mid-task (paused for approval) and completes it without a missing or repeated step or event', async () => {
    const phone = gateway.simulator!;
    phone.faults.latencyMs = 50;
    try {
      await page.goto(`${base}/`);
      await page.locator('.device[data-device-id="sim-1"][data-status="online"]').waitFor({ timeout: WAIT_MS });
      // A message to someone who is not a contact: the planner asks before tapping Send.
      const taskId = await startFromForm(page, "send 'hi there' to Nina");
      await statusShown(page, 'input_required');
      await page.getByRole('button', { name: 'Approve' }).waitFor({ timeout: WAIT_MS });
      const paused = await getTask(taskId);
      expect(paused.status).toBe('input_required');
      expect(await stepIndexes(page)).toEqual(range(paused.stepCount));

      await page.reload();
      // The URL re-opens the task: every step so far, once, and the pending approval.
      await statusShown(page, 'input_required');
      await page.getByRole('region', { name: 'Approval needed' }).getByText('Nina').waitFor({ timeout: WAIT_MS });
      await page.locator('.event-log li').nth(paused.stepCount).waitFor({ state: 'attached', timeout: WAIT_MS });
      expect(await stepIndexes(page)).toEqual(range(paused.stepCount));
      expect(taskIdOf(page)).toBe(taskId);

      // Meanwhile the phone is busy: a task that must not wait is refused, and the page says why.
      await page.getByLabel('Goal', { exact: true }).fill('Turn off Wi-Fi');
      await page.getByLabel(/Refuse if the phone is busy/).check();
      expectedConsoleErrors.push(/status of 409 \(Conflict\)/);
      await page.getByRole('button', { name: 'Start' }).click();
      await page.locator('#form-error', { hasText: `device sim-1 is running task ${taskId}` }).waitFor({ timeout: WAIT_MS });
      expect(taskIdOf(page)).toBe(taskId);

      await page.getByRole('button', { name: 'Approve' }).click();
      await statusShown(page, 'completed');
      await screenshotsLoaded(page);

      const done = await getTask(taskId);
      expect(done.status).toBe('completed');
      expect(done.stepCount).toBeGreaterThan(paused.stepCount);
      expect(done.steps.map((s) => s.index)).toEqual(range(done.stepCount));
      expect(await stepIndexes(page)).toEqual(range(done.stepCount));
      const ids = await serverEventIds(taskId);
      expect(ids).toEqual(range(ids.length, 1));
      expect(await eventIds(page)).toEqual(ids);
      expect(phone.ui.state.conversations['Nina']).toEqual([{ from: 'me', text: 'hi there' }]);
      expect(await page.locator('.approval').isHidden()).toBe(true);

      await saveFullPage(page, 'web-page.png');
    } finally {
      phone.faults.latencyMs = 0;
    }
  }, 90_000);

  it('cancels a running task from the page: it ends canceled at once and its unfinished step shows as stopped', async () => {
    const phone = gateway.simulator!;
    // The phone swallows commands: the task stays in its first observation until it is canceled.
    phone.faults.neverReply = true;
    try {
      await page.goto(`${base}/`);
      await page.locator('.device[data-device-id="sim-1"][data-status="online"]').waitFor({ timeout: WAIT_MS });
      const taskId = await startFromForm(page, 'Turn off Wi-Fi');
      await page.locator('li.step[data-step-index="0"] .phase', { hasText: 'Observing the screen…' }).waitFor({ timeout: WAIT_MS });
      await statusShown(page, 'running');
      await page.getByRole('button', { name: 'Cancel task' }).click();
      await statusShown(page, 'canceled');
      await page.locator('li.step[data-step-index="0"] .phase', { hasText: 'Stopped' }).waitFor({ timeout: WAIT_MS });
      // It says what happened, beside a screenshot box that says why it is empty.
      await expect(page.locator('li.step[data-step-index="0"] .phase').textContent()).resolves.toBe('Stopped while observing the screen: the task was canceled (CANCELED)');
      await expect(page.locator('li.step[data-step-index="0"] .shot-empty').textContent()).resolves.toBe('the task ended before this screen was captured');
      expect(await page.getByRole('button', { name: 'Cancel task' }).isHidden()).toBe(true);
      const task = await getTask(taskId);
      expect(task.status).toBe('canceled');
      await expect(page.locator('.outcome').textContent()).resolves.toMatch(/^CANCELED: /);
      expect(await eventIds(page)).toEqual(await serverEventIds(taskId));
    } finally {
      phone.faults.neverReply = false;
    }
  }, 60_000);

  it('follows a task it has just started from its first event, without first reading a snapshot of it', async () => {
    const requested: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api/tasks/')) requested.push(path);
    });
    await page.goto(`${base}/`);
    await page.locator('.device[data-device-id="sim-1"][data-status="online"]').waitFor({ timeout: WAIT_MS });
    const taskId = await startFromForm(page, 'Open Settings');
    await statusShown(page, 'completed');
    const taskPaths = requested.filter((path) => path.startsWith(`/api/tasks/${taskId}`) && !path.includes('/screenshot'));
    expect(taskPaths[0]).toBe(`/api/tasks/${taskId}/events`);
    expect(taskPaths).not.toContain(`/api/tasks/${taskId}`);
  }, 60_000);

  it('lists the connected phones first and folds the offline ones away; only connected phones can be chosen', async () => {
    const shortLived = ['zz-gone-1', 'zz-gone-2', 'aa-gone-3'];
    for (const deviceId of shortLived) {
      const phone = new SimulatedPhone({ host: '127.0.0.1', port: gateway.devicePort, token: gateway.deviceToken, deviceId });
      await phone.start();
      await phone.stop();
    }
    await page.goto(`${base}/`);
    await page.locator('.device-offline-group summary', { hasText: '3 phones offline' }).waitFor({ timeout: WAIT_MS });
    // sim-1 stays at the top, not buried among the phones that came and went.
    await page.locator('#device-list > .device[data-device-id="sim-1"][data-status="online"]').waitFor({ timeout: WAIT_MS });
    expect(await page.locator('#device-list > li').count()).toBe(2);
    expect(await page.locator('.device-offline-group .device').evaluateAll((items) => items.map((li) => li.getAttribute('data-device-id')))).toEqual(['aa-gone-3', 'zz-gone-2', 'zz-gone-1']);
    expect(await page.locator('.device-offline-group details').getAttribute('open')).toBeNull();
    // sim-1 is the phone the page chose, so its screen is shown live: it is busy while a screenshot is taken.
    expect(await page.locator('#device option').allTextContents()).toEqual([expect.stringMatching(/^sim-1 \((online|busy)\)$/)]);
  }, 60_000);

  it('fits a narrow window: replaying a finished task from the history needs no horizontal scrolling', async () => {
    const started = await fetch(`${base}/api/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ deviceId: 'sim-1', goal: 'Open Settings' }) });
    expect(started.status).toBe(202);
    const { taskId } = (await started.json()) as { taskId: string };
    await serverEventIds(taskId); // the stream ends with the task
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/`);
    const entry = page.locator(`.history li[data-task-id="${taskId}"] a`);
    await entry.click({ timeout: WAIT_MS });
    expect(taskIdOf(page)).toBe(taskId);
    await statusShown(page, 'completed');
    await screenshotsLoaded(page);
    const task = await getTask(taskId);
    expect(await stepIndexes(page)).toEqual(range(task.stepCount));
    expect(await page.evaluate(() => {
      const window = globalThis as unknown as PageWindow;
      return window.document.documentElement.scrollWidth <= window.innerWidth;
    })).toBe(true);
    await saveFullPage(page, 'web-page-narrow.png');
  }, 60_000);
  it('keeps a 2 000-character goal inside the window at 1280 and 360 px wide, and brings the task into view after Start on a narrow window', async () => {
    const goal = `turn on Wi-Fi ${'x'.repeat(1980)}`;
    const taskId = await runTask(base, goal);
    const ended = await getTask(taskId);
    await page.goto(`${base}/#/tasks/${taskId}`);
    await statusShown(page, ended.status);
    expect(await page.locator('#task-goal').textContent()).toBe(goal);
    await page.locator(`.history li[data-task-id="${taskId}"]`).waitFor({ timeout: WAIT_MS });
    expect(await fitsWidth(page)).toBe(true);

    await page.setViewportSize({ width: 360, height: 740 });
    await page.locator(`.history li[data-task-id="${taskId}"] .history-meta`, { hasText: /· \d+ steps? ·/ }).waitFor({ timeout: WAIT_MS });
    expect(await fitsWidth(page)).toBe(true);
    await page.locator('#token-settings summary').click();
    expect(await fitsWidth(page)).toBe(true);

    // Start from the form at the top of the page: the new task is scrolled into view.
    await page.goto(`${base}/`);
    await page.locator('.device[data-device-id="sim-1"][data-status="online"]').waitFor({ timeout: WAIT_MS });
    const next = await startFromForm(page, goal);
    expect(next).not.toBe(taskId);
    await page.locator('#task-goal').waitFor({ timeout: WAIT_MS });
    await page.waitForFunction(
      () => {
        const window = globalThis as unknown as PageWindow;
        const top = window.document.querySelector('#task')?.getBoundingClientRect().top;
        return top !== undefined && top >= 0 && top < window.innerHeight / 2;
      },
      undefined,
      { timeout: WAIT_MS },
    );
    await serverEventIds(next);
    await statusShown(page, (await getTask(next)).status);
    expect(await fitsWidth(page)).toBe(true);
    await saveFullPage(page, 'web-page-long-goal-narrow.png');
  }, 90_000);
});

/** The page's timeline model, as compiled and served (`/task-timeline.js`), exercised in the browser. */
describe('TaskTimeline in the browser', () => {
  interface Timeline {
    lastEventId: number;
    status?: string;
    task?: { status: string; stepCount: number; pendingAction?: unknown };
    steps: { index: number; result?: { status?: string; verified?: boolean }; plan?: unknown; planning?: unknown; observation?: unknown }[];
    apply(event: object, changed?: number[]): string;
    loadSnapshot(snapshot: object): number[];
  }
  type TimelineClass = new (taskId: string) => Timeline;

  const task = { taskId: 't1', deviceId: 'sim-1', goal: 'Turn on Wi-Fi', maxSteps: 25, planner: 'rule-based', createdAt: '2026-01-01T00:00:00.000Z', stepCount: 0 };
  const observation = (index: number) => ({ frameId: `f${index}`, screenshotUrl: `/api/tasks/t1/steps/${index}/screenshot`, screen: { width: 1080, height: 2400 }, elementCount: 9 });
  const tapPlan = { type: 'action', action: { command: 'click', x: 964, y: 326 }, reasoning: 'tap the switch' };
  const donePlan = { type: 'done', summary: 'Wi-Fi is on.', reasoning: 'on' };
  /** A whole two-step run: tap the Wi-Fi switch (verified by the next observation), then done. */
  const run = ([
    ['task.accepted', { task: { ...task, status: 'queued' } }],
    ['task.started', {}],
    ['step.started', { index: 0 }],
    ['step.observed', { index: 0, observation: observation(0), timings: { settleMs: 210, captureMs: 80, transferMs: 3 } }],
    ['step.planned', { index: 0, plan: tapPlan, planningMs: 4 }],
    ['step.acted', { index: 0, result: { status: 'success' }, timings: { settleMs: 210, captureMs: 80, transferMs: 3, planningMs: 4, actionMs: 9 } }],
    ['step.started', { index: 1 }],
    ['step.observed', { index: 1, observation: observation(1), timings: { captureMs: 70, transferMs: 2 }, verifiedStep: { index: 0, verified: true } }],
    ['step.planned', { index: 1, plan: donePlan, planningMs: 1 }],
    ['step.acted', { index: 1, result: { status: 'success' }, timings: { captureMs: 70, transferMs: 2, planningMs: 1, actionMs: 0 } }],
    ['task.completed', { status: 'completed', summary: 'Wi-Fi is on.' }],
  ] as [string, Record<string, unknown>][]).map(([type, data], i) => ({ taskId: 't1', id: i + 1, type, at: `2026-01-01T00:00:0${i}.000Z`, data }));

  let modelPage: Page;

  beforeAll(async () => {
    modelPage = await browser.newPage();
    await modelPage.goto(`${base}/`);
    await modelPage.addScriptTag({ type: 'module', content: "import { TaskTimeline } from '/task-timeline.js'; globalThis.TaskTimeline = TaskTimeline;" });
    await modelPage.waitForFunction(() => 'TaskTimeline' in globalThis, undefined, { timeout: WAIT_MS });
  });

  afterAll(() => modelPage.close());

  it('applies each event once, in id order: a replayed id is a duplicate, a skipped one a gap', async () => {
    const outcome = await modelPage.evaluate((events) => {
      const timeline = new (globalThis as unknown as { TaskTimeline: TimelineClass }).TaskTimeline('t1');
      const first = events.slice(0, 5).map((e) => timeline.apply(e));
      const replay = events.slice(2, 5).map((e) => timeline.apply(e));
      const gap = timeline.apply(events[6]);
      const afterGap = timeline.lastEventId;
      const rest = events.slice(5).map((e) => timeline.apply(e));
      return { first, replay, gap, afterGap, rest, last: timeline.lastEventId, status: timeline.status, steps: timeline.steps };
    }, run);
    expect(outcome.first).toEqual(['applied', 'applied', 'applied', 'applied', 'applied']);
    expect(outcome.replay).toEqual(['duplicate', 'duplicate', 'duplicate']);
    expect(outcome.gap).toBe('gap');
    expect(outcome.afterGap).toBe(5);
    expect(outcome.rest).toEqual(Array(6).fill('applied'));
    expect(outcome.last).toBe(11);
    expect(outcome.status).toBe('completed');
    expect(outcome.steps.map((s) => s.index)).toEqual([0, 1]);
    expect(outcome.steps[0].result).toEqual({ status: 'success', verified: true });
    expect(outcome.steps[0]).toMatchObject({ timings: { settleMs: 210, captureMs: 80, transferMs: 3, planningMs: 4, actionMs: 9 } });
  });

  it('applies step.planning events, keeping the attempt the planner last asked its model for', async () => {
    const planning = [
      ...run.slice(0, 4),
      { taskId: 't1', id: 5, type: 'step.planning', at: '2026-01-01T00:00:04.000Z', data: { index: 0, attempt: 1, maxAttempts: 3 } },
      { taskId: 't1', id: 6, type: 'step.planning', at: '2026-01-01T00:00:05.000Z', data: { index: 0, attempt: 2, maxAttempts: 3 } },
      { ...run[4], id: 7 },
    ];
    const outcome = await modelPage.evaluate((events) => {
      const timeline = new (globalThis as unknown as { TaskTimeline: TimelineClass }).TaskTimeline('t1');
      const outcomes = events.slice(0, 6).map((e) => timeline.apply(e));
      const whilePlanning = structuredClone(timeline.steps[0]);
      outcomes.push(timeline.apply(events[6]));
      return { outcomes, whilePlanning, planned: timeline.steps[0], last: timeline.lastEventId };
    }, planning);
    expect(outcome.outcomes).toEqual(Array(7).fill('applied'));
    expect(outcome.whilePlanning).toMatchObject({ index: 0, planning: { attempt: 2, maxAttempts: 3 } });
    expect(outcome.whilePlanning.plan).toBeUndefined();
    expect(outcome.planned.plan).toEqual(tapPlan);
    expect(outcome.last).toBe(7);
  });

  it('replays the whole stream over a snapshot of the finished task without ever leaving "completed" or losing "verified"', async () => {
    const snapshot = {
      ...task,
      status: 'completed',
      stepCount: 2,
      summary: 'Wi-Fi is on.',
      steps: [
        { taskId: 't1', index: 0, startedAt: run[2].at, observation: observation(0), plan: tapPlan, result: { status: 'success', verified: true }, timings: { captureMs: 80, transferMs: 3, planningMs: 4, actionMs: 9 } },
        { taskId: 't1', index: 1, startedAt: run[6].at, observation: observation(1), plan: donePlan, result: { status: 'success' }, timings: { captureMs: 70, transferMs: 2, planningMs: 1, actionMs: 0 } },
      ],
    };
    const outcome = await modelPage.evaluate(
      ({ snapshot, events }) => {
        const timeline = new (globalThis as unknown as { TaskTimeline: TimelineClass }).TaskTimeline('t1');
        const touched = timeline.loadSnapshot(snapshot);
        const statuses = events.map((e) => (timeline.apply(e), timeline.status));
        const verified = timeline.steps[0].result?.verified;
        return { touched, statuses, verified, steps: timeline.steps.length, stepCount: timeline.task?.stepCount };
      },
      { snapshot, events: run },
    );
    expect(outcome.touched).toEqual([0, 1]);
    expect(outcome.statuses).toEqual(Array(run.length).fill('completed'));
    expect(outcome.verified).toBe(true);
    expect(outcome.steps).toBe(2);
    expect(outcome.stepCount).toBe(2);
  });

  it('holds the pending action while input_required and drops it on task.resumed', async () => {
    const pendingAction = { stepIndex: 0, action: { command: 'click', x: 938, y: 2179 }, reason: 'sending to a new recipient' };
    const events = [
      ...run.slice(0, 5),
      { taskId: 't1', id: 6, type: 'task.input_required', at: run[5].at, data: { pendingAction } },
      { taskId: 't1', id: 7, type: 'task.resumed', at: run[6].at, data: {} },
    ];
    const outcome = await modelPage.evaluate((events) => {
      const timeline = new (globalThis as unknown as { TaskTimeline: TimelineClass }).TaskTimeline('t1');
      const seen = events.map((e) => (timeline.apply(e), { status: timeline.status, pending: timeline.task?.pendingAction ?? null }));
      return seen.slice(-2);
    }, events);
    expect(outcome).toEqual([
      { status: 'input_required', pending: pendingAction },
      { status: 'running', pending: null },
    ]);
  });
});

/**
 * A gateway that requires an API token (the page is opened without one), then stops and comes back
 * on the same port while the page watches.
 */
describe('the live execution page with an API token', () => {
  const API_TOKEN = 'web-e2e-token-0123456789';
  let secured: RunningGateway | undefined;
  let securedDir: string;
  let securedBase: string;
  let securedPort: number;

  const startSecured = async (port: number) =>
    startGateway({
      MOBILECLAW_HTTP_PORT: String(port),
      MOBILECLAW_DEVICE_PORT: '0',
      MOBILECLAW_DATA_DIR: securedDir,
      MOBILECLAW_LOG_LEVEL: 'silent',
      MOBILECLAW_API_TOKEN: API_TOKEN,
      MOBILECLAW_HEARTBEAT_INTERVAL_MS: '1000',
    });

  beforeAll(async () => {
    securedDir = mkdtempSync(join(tmpdir(), 'mobileclaw-web-token-'));
    secured = await startSecured(0);
    securedPort = secured.httpPort;
    securedBase = `http://127.0.0.1:${securedPort}`;
  }, 60_000);

  afterAll(async () => {
    await secured?.close();
    rmSync(securedDir, { recursive: true, force: true });
  }, 30_000);

  beforeEach(async () => {
    // Every refused request and stream is logged by the browser.
    expectedConsoleErrors = [/401 \(Unauthorized\)/, /status 401/, /ERR_CONNECTION_REFUSED/];
    ({ page, errors: pageErrors } = await openPage(browser, { width: 1280, height: 900 }, expectedConsoleErrors));
  });

  afterEach(async () => {
    await page?.close();
    expect(pageErrors).toEqual([]);
  });

  it('opens the token panel saying a token is needed, then a wrong one is refused, and the right one shows the phones and the history', async () => {
    const taskId = await runTask(securedBase, 'Open Settings', { authorization: `Bearer ${API_TOKEN}` });
    await page.goto(`${securedBase}/`);

    const notice = page.locator('#token-notice');
    await notice.filter({ hasText: 'The gateway needs an API token. Enter it below.' }).waitFor({ timeout: WAIT_MS });
    await page.locator('#token-settings[open]').waitFor({ timeout: WAIT_MS });
    await page.locator('#devices-connection[data-state="unauthorized"]').waitFor({ timeout: WAIT_MS });
    await expect(page.locator('#device-list').textContent()).resolves.toBe('Phones hidden: the gateway needs a valid API token.');
    await page.locator('#history-list', { hasText: 'History hidden: the gateway needs a valid API token.' }).waitFor({ timeout: WAIT_MS });

    await page.getByLabel('Token', { exact: true }).fill('not-the-token-0123456789');
    await page.getByRole('button', { name: 'Save' }).click();
    // The detail in brackets is the gateway's: it differs between the header (REST) and the query (streams).
    await notice.filter({ hasText: /^The gateway refused the saved API token \(.+\)\. Enter the current one\.$/ }).waitFor({ timeout: WAIT_MS });
    await page.locator('#devices-connection[data-state="unauthorized"]').waitFor({ timeout: WAIT_MS });

    await page.getByLabel('Token', { exact: true }).fill(API_TOKEN);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.device[data-device-id="sim-1"][data-status="online"]').waitFor({ timeout: WAIT_MS });
    await page.locator('#devices-connection[data-state="open"]').waitFor({ timeout: WAIT_MS });
    await page.locator(`.history li[data-task-id="${taskId}"]`, { hasText: 'completed' }).waitFor({ timeout: WAIT_MS });
    await expect(notice.textContent()).resolves.toBe('');
    expect(await page.locator('#token-settings').getAttribute('open')).toBeNull();
  }, 60_000);

  it('shows the phones as unknown while the gateway is down, and live again with a fresh list once it is back', async () => {
    await page.goto(`${securedBase}/`);
    await page.getByLabel('Token', { exact: true }).fill(API_TOKEN);
    await page.getByRole('button', { name: 'Save' }).click();
    const phone = page.locator('.device[data-device-id="sim-1"]');
    await page.locator('.device[data-device-id="sim-1"][data-status="online"] .device-rtt', { hasText: /^RTT \d+ ms$/ }).waitFor({ timeout: WAIT_MS });

    await secured!.close();
    secured = undefined;
    await page.locator('.device[data-device-id="sim-1"][data-status="unknown"]').waitFor({ timeout: WAIT_MS });
    await expect(phone.locator('.badge').textContent()).resolves.toBe('unknown');
    await expect(phone.locator('.device-rtt').textContent()).resolves.toBe('status unknown — reconnecting');
    expect(await page.locator('#device option').allTextContents()).toEqual(['sim-1 (status unknown)']);

    secured = await startSecured(securedPort);
    await page.locator('.device[data-device-id="sim-1"][data-status="online"]').waitFor({ timeout: WAIT_MS });
    await page.locator('#devices-connection[data-state="open"]').waitFor({ timeout: WAIT_MS });
    expect(await page.locator('#device').inputValue()).toBe('sim-1');
  }, 90_000);
});
