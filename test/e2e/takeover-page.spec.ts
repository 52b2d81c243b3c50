import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startGateway, type RunningGateway } from '@mobileclaw/gateway';

/**
 * Taking a phone over from the page, in a real browser (Debian's chromium driven by playwright-core)
 * against the real gateway with its simulated phone sim-1: clicks on the screen image tap the phone
 * at the device pixels under the pointer, and the task the takeover pauses shows them as steps by the person.
 */

const root = join(__dirname, '..', '..');
const CHROMIUM = process.env['MOBILECLAW_CHROMIUM'] ?? '/usr/bin/chromium';
/** Upper bound of any one page condition. */
const WAIT_MS = 30_000;

interface Node {
  text?: string;
  desc?: string;
  class?: string;
  bounds: [number, number, number, number];
  children?: Node[];
}

let gateway: RunningGateway;
let dataDir: string;
let browser: Browser;
let base: string;
let page: Page;
let pageErrors: string[];

/** The bounds (device px) of the first node, depth-first, that `match` accepts on sim-1's current screen. */
async function boundsOf(match: (node: Node) => boolean): Promise<[number, number, number, number]> {
  const response = await fetch(`${base}/api/devices/sim-1/commands`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ command: 'ui_tree' }) });
  expect(response.status).toBe(200);
  const stack = [...((await response.json()) as { data: { nodes: Node[] } }).data.nodes];
  while (stack.length > 0) {
    const node = stack.shift()!;
    if (match(node)) return node.bounds;
    stack.unshift(...(node.children ?? []));
  }
  throw new Error('no such node on the screen');
}

/**
 * Clicks the page where device pixel (`x`, `y`) of sim-1 is drawn in the screen image, computed here
 * from the image's rendered box (the image is shown whole, centred: object-fit contain).
 */
async function clickDevicePoint(x: number, y: number): Promise<void> {
  const image = page.locator('img.screen-image');
  await image.scrollIntoViewIfNeeded();
  const box = (await image.boundingBox())!;
  const width = Number(await image.getAttribute('data-device-width'));
  const height = Number(await image.getAttribute('data-device-height'));
  const scale = Math.min(box.width / width, box.height / height);
  const left = box.x + (box.width - width * scale) / 2;
  const top = box.y + (box.height - height * scale) / 2;
  await page.mouse.click(left + (x + 0.5) * scale, top + (y + 0.5) * scale);
}

/** Waits until the screen image shows a loaded screenshot. */
async function screenLoaded(): Promise<void> {
  await page.waitForFunction(
    () => {
      const image = (globalThis as unknown as { document: { querySelector(s: string): { complete: boolean; naturalWidth: number } | null } }).document.querySelector('img.screen-image');
      return image !== null && image.complete && image.naturalWidth > 0;
    },
    undefined,
    { timeout: WAIT_MS },
  );
}

beforeAll(async () => {
  // The gateway serves apps/web/dist: compile the page's current sources (npm test builds it too).
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'apps/web'], { cwd: root, stdio: 'inherit' });
  dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-takeover-page-'));
  gateway = await startGateway({ MOBILECLAW_HTTP_PORT: '0', MOBILECLAW_DEVICE_PORT: '0', MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_LOG_LEVEL: 'silent' });
  base = `http://127.0.0.1:${gateway.httpPort}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

beforeEach(async () => {
  // 700 px high: the screen image is bounded by its max-height (70vh), so it is letterboxed left and right.
  page = await browser.newPage({ viewport: { width: 1280, height: 700 } });
  pageErrors = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
});

afterEach(async () => {
  await page?.close();
  expect(pageErrors).toEqual([]);
});

describe('taking a phone over from the page', () => {
  it('maps a point of the screen image to device px exactly, stretched or letterboxed', async () => {
    await page.goto(`${base}/`);
    // The page's own compiled module, as the browser loads it.
    await page.addScriptTag({ type: 'module', content: "import * as screenPoint from '/screen-point.js'; globalThis.screenPoint = screenPoint;" });
    await page.waitForFunction(() => 'screenPoint' in globalThis, undefined, { timeout: WAIT_MS });
    const results = await page.evaluate(() => {
      type Box = { left: number; top: number; width: number; height: number };
      type Size = { width: number; height: number };
      const { devicePointAt, pagePointOf } = (
        globalThis as unknown as {
          screenPoint: {
            devicePointAt(clientX: number, clientY: number, box: Box, device: Size, fit?: 'fill' | 'contain'): { x: number; y: number } | undefined;
            pagePointOf(x: number, y: number, box: Box, device: Size, fit?: 'fill' | 'contain'): { clientX: number; clientY: number };
          };
        }
      ).screenPoint;
      const phone = { width: 1080, height: 2400 };
      // Stretched over 270 × 600 CSS px at (10, 20): 0.25 CSS px per device px.
      const fill = { left: 10, top: 20, width: 270, height: 600 };
      // 400 × 600 CSS px, contain: drawn 270 × 600 (scale 0.25), bars of 65 px left and right.
      const boxed = { left: 0, top: 0, width: 400, height: 600 };
      return {
        fillCentre: devicePointAt(145, 320, fill, phone, 'fill'),
        fillCorner: devicePointAt(10, 20, fill, phone, 'fill'),
        fillLast: devicePointAt(279.99, 619.99, fill, phone, 'fill'),
        fillOutside: devicePointAt(280, 100, fill, phone, 'fill') ?? null,
        boxedCentre: devicePointAt(200, 300, boxed, phone, 'contain'),
        boxedFirst: devicePointAt(65, 0, boxed, phone, 'contain'),
        boxedLast: devicePointAt(334.99, 599.99, boxed, phone, 'contain'),
        leftBar: devicePointAt(64.99, 300, boxed, phone, 'contain') ?? null,
        rightBar: devicePointAt(335, 300, boxed, phone, 'contain') ?? null,
        // 1 CSS px = 4 device px: the pixel a point lies in, not the nearest.
        quarter: devicePointAt(65.24, 0.76, boxed, phone, 'contain'),
        inverse: pagePointOf(540, 1200, boxed, phone, 'contain'),
        noArea: devicePointAt(1, 1, { left: 0, top: 0, width: 0, height: 0 }, phone) ?? null,
      };
    });
    expect(results).toEqual({
      fillCentre: { x: 540, y: 1200 },
      fillCorner: { x: 0, y: 0 },
      fillLast: { x: 1079, y: 2399 },
      fillOutside: null,
      boxedCentre: { x: 540, y: 1200 },
      boxedFirst: { x: 0, y: 0 },
      boxedLast: { x: 1079, y: 2399 },
      leftBar: null,
      rightBar: null,
      quarter: { x: 0, y: 3 },
      inverse: { clientX: 200.125, clientY: 300.125 },
      noArea: null,
    });
  });

  it('takes sim-1 over, taps what is under the pointer, records the taps as steps by the person in the paused task, and hands back', async () => {
    const phone = gateway.simulator!;
    expect(phone.ui.state.wifi).toBe(false);
    await page.goto(`${base}/`);
    await page.locator('.device[data-device-id="sim-1"][data-status="online"]').waitFor({ timeout: WAIT_MS });
    await page.getByLabel('Phone', { exact: true }).selectOption('sim-1');
    await page.getByLabel('Your name').fill('Ada');
    await page.getByRole('button', { name: 'Take over' }).click();
    await screenLoaded();
    const image = page.locator('img.screen-image');
    expect(await image.getAttribute('data-device-id')).toBe('sim-1');
    expect([await image.getAttribute('data-device-width'), await image.getAttribute('data-device-height')]).toEqual(['1080', '2400']);
    // The image is letterboxed: its box is wider than the screen drawn in it.
    const box = (await image.boundingBox())!;
    expect(box.width / box.height).toBeGreaterThan(1080 / 2400);
    const device = (await (await fetch(`${base}/api/devices/sim-1`)).json()) as { controller?: { holder: string } };
    expect(device.controller?.holder).toBe('Ada');

    // A task started now waits for the person; the page follows it.
    const started = await fetch(`${base}/api/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ deviceId: 'sim-1', goal: 'Turn on Wi-Fi' }) });
    const { taskId } = (await started.json()) as { taskId: string };
    await page.evaluate((id) => ((globalThis as unknown as { location: { hash: string } }).location.hash = `#/tasks/${id}`), taskId);
    await page.locator('#task-status[data-status="input_required"]').waitFor({ timeout: WAIT_MS });
    await expect(page.locator('#task-takeover').textContent()).resolves.toMatch(/^Paused: Ada took the phone over at /);

    // Tap the launcher's Settings icon, then the Wi-Fi switch, each at the centre of its bounds.
    const settings = await boundsOf((n) => n.text === 'Settings');
    await clickDevicePoint(Math.floor((settings[0] + settings[2]) / 2), Math.floor((settings[1] + settings[3]) / 2));
    await page.locator('li.step[data-actor="human"]').first().locator('.result-success').waitFor({ timeout: WAIT_MS });
    expect(phone.ui.state.screen).toBe('settings');
    await screenLoaded();
    const wifi = await boundsOf((n) => n.class === 'android.widget.Switch' && n.desc === 'Wi-Fi');
    const wifiCentre = { x: Math.floor((wifi[0] + wifi[2]) / 2), y: Math.floor((wifi[1] + wifi[3]) / 2) };
    await clickDevicePoint(wifiCentre.x, wifiCentre.y);
    await page.locator('li.step[data-actor="human"]').nth(1).locator('.result-success').waitFor({ timeout: WAIT_MS });
    expect(phone.ui.state.wifi).toBe(true);

    const task = (await (await fetch(`${base}/api/tasks/${taskId}`)).json()) as { steps: { actor?: string; holder?: string; plan: { action: { command: string; x: number; y: number } } }[] };
    const human = task.steps.filter((s) => s.actor === 'human');
    expect(human.map((s) => [s.holder, s.plan.action])).toEqual([
      ['Ada', { command: 'click', x: Math.floor((settings[0] + settings[2]) / 2), y: Math.floor((settings[1] + settings[3]) / 2) }],
      ['Ada', { command: 'click', ...wifiCentre }],
    ]);
    await expect(page.locator('li.step[data-actor="human"] .step-actor').allTextContents()).resolves.toEqual([' · by Ada', ' · by Ada']);
    await screenLoaded();
    mkdirSync(join(root, 'test-output'), { recursive: true });
    await page.screenshot({ path: join(root, 'test-output', 'takeover-page.png') });

    await page.getByRole('button', { name: 'Hand back' }).click();
    await page.locator('#task-status[data-status="completed"]').waitFor({ timeout: WAIT_MS });
    await page.getByRole('button', { name: 'Take over' }).waitFor({ timeout: WAIT_MS });
    const after = (await (await fetch(`${base}/api/devices/sim-1`)).json()) as { controller?: unknown };
    expect(after.controller).toBeUndefined();
  }, 60_000);
});
