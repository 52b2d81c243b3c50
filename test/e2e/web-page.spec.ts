import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startGateway, type RunningGateway } from '../../apps/gateway/src/gateway-app';

/**
 * The live execution page in a real browser (Debian's chromium driven by playwright-core) against
 * the real gateway with its simulated phone sim-1 and the rule-based planner.
 */

const root = join(__dirname, '..', '..');
const outputDir = join(root, 'test-output');
const CHROMIUM = process.env['MOBILECLAW_CHROMIUM'] ?? '/usr/bin/chromium';
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
  document: {
    documentElement: { scrollWidth: number };
    querySelector(selector: string): { getAttribute(name: string): string | null } | null;
    querySelectorAll(selector: string): ArrayLike<PageImage>;
  };
}

let gateway: RunningGateway;
let dataDir: string;
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

async function startFromForm(page: Page, goal: string): Promise<string> {
  await page.getByLabel('Phone', { exact: true }).selectOption('sim-1');
  await page.getByLabel('Goal', { exact: true }).fill(goal);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.waitForURL(/#\/tasks\/[^/]+$/, { timeout: WAIT_MS });
  return taskIdOf(page);
}

beforeAll(async () => {
  // The gateway serves apps/web/dist: compile the page's current sources (npm test builds it too).
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'apps/web'], { cwd: root, stdio: 'inherit' });
  dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-web-'));
  gateway = await startGateway({
    MOBILECLAW_HTTP_PORT: '0',
    MOBILECLAW_DEVICE_PORT: '0',
    MOBILECLAW_DATA_DIR: dataDir,
    MOBILECLAW_LOG_LEVEL: 'silent',
    // Pings after 1 s of silence: the page gets live RTT figures within the test.
    MOBILECLAW_HEARTBEAT_INTERVAL_MS: '1000',
  });
  base = `http://127.0.0.1:${gateway.httpPort}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
  mkdirSync(outputDir, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

describe('the live execution page', () => {
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    pageErrors = [];
    expectedConsoleErrors = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !expectedConsoleErrors.some((re) => re.test(message.text()))) pageErrors.push(message.text());
    });
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
      expect(await page.getByRole('button', { name: 'Cancel task' }).isHidden()).toBe(true);
      const task = await getTask(taskId);
      expect(task.status).toBe('canceled');
      await expect(page.locator('.outcome').textContent()).resolves.toMatch(/^CANCELED: /);
      expect(await eventIds(page)).toEqual(await serverEventIds(taskId));
    } finally {
      phone.faults.neverReply = false;
    }
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
});

/** The page's timeline model, as compiled and served (`/task-timeline.js`), exercised in the browser. */
describe('TaskTimeline in the browser', () => {
  interface Timeline {
    lastEventId: number;
    status?: string;
    task?: { status: string; stepCount: number; pendingAction?: unknown };
    steps: { index: number; result?: { status?: string; verified?: boolean }; plan?: unknown; observation?: unknown }[];
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
    ['step.observed', { index: 0, observation: observation(0), timings: { captureMs: 80, transferMs: 3 } }],
    ['step.planned', { index: 0, plan: tapPlan, planningMs: 4 }],
    ['step.acted', { index: 0, result: { status: 'success' }, timings: { captureMs: 80, transferMs: 3, planningMs: 4, actionMs: 9 } }],
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
    expect(outcome.steps[0]).toMatchObject({ timings: { captureMs: 80, transferMs: 3, planningMs: 4, actionMs: 9 } });
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
