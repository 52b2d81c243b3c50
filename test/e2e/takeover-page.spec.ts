import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { RunningGateway } from '@mobileclaw/gateway';
import { launchChromium, openPage, startPageGateway, type PageGateway } from '../support/browser-page';
import { findScreenNode, type ScreenNode } from '../support/screen-nodes';

/**
 * Taking a phone over from the page, in a real browser (Debian's chromium driven by playwright-core)
 * against the real gateway with its simulated phone sim-1: while the page holds the phone, clicks on
 * its live screen image (`#live-screen-image`) tap the phone at the device pixels under the pointer,
 * and the task the takeover pauses shows them as steps by the person. Not held, the image takes no clicks.
 */

const root = join(__dirname, '..', '..');
/** Upper bound of any one page condition. */
const WAIT_MS = 30_000;

let served: PageGateway;
let gateway: RunningGateway;
let browser: Browser;
let base: string;
let page: Page;
let pageErrors: string[];

/** The bounds (device px) of the first node, depth-first, that `match` accepts on sim-1's current screen. */
async function boundsOf(match: (node: ScreenNode) => boolean): Promise<[number, number, number, number]> {
  return (await findScreenNode(base, 'sim-1', match)).bounds;
}

/** What the page's live screen image says about the frame it shows (this spec compiles without the DOM lib). */
interface PageImage {
  hidden: boolean;
  complete: boolean;
  naturalWidth: number;
  dataset: Record<string, string | undefined>;
  classList: { contains(name: string): boolean };
}

const LIVE_IMAGE = '#live-screen-image';

/**
 * Clicks the page where device pixel (`x`, `y`) of sim-1 is drawn in the live screen image, computed
 * here from the image's content box (its rendered box less border and padding, read from its computed
 * style), over which the whole screen is stretched.
 */
async function clickDevicePoint(x: number, y: number): Promise<void> {
  const image = page.locator(LIVE_IMAGE);
  await image.scrollIntoViewIfNeeded();
  const box = (await image.boundingBox())!;
  const insets = await image.evaluate((element) => {
    const style = (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(element);
    const px = (name: string) => parseFloat(style[name]!);
    return {
      left: px('borderLeftWidth') + px('paddingLeft'),
      top: px('borderTopWidth') + px('paddingTop'),
      right: px('borderRightWidth') + px('paddingRight'),
      bottom: px('borderBottomWidth') + px('paddingBottom'),
    };
  });
  const width = Number(await image.getAttribute('data-device-width'));
  const height = Number(await image.getAttribute('data-device-height'));
  const scaleX = (box.width - insets.left - insets.right) / width;
  const scaleY = (box.height - insets.top - insets.bottom) / height;
  await page.mouse.click(box.x + insets.left + (x + 0.5) * scaleX, box.y + insets.top + (y + 0.5) * scaleY);
}

/** Waits until the live screen image shows a loaded frame of sim-1 numbered after `afterSeq`; returns its number. */
async function frameShown(afterSeq = 0): Promise<number> {
  const handle = await page.waitForFunction(
    (afterSeq) => {
      const image = (globalThis as unknown as { document: { getElementById(id: string): PageImage | null } }).document.getElementById('live-screen-image');
      if (!image || image.hidden || !image.complete || image.naturalWidth === 0 || image.dataset['deviceId'] !== 'sim-1') return false;
      const seq = Number(image.dataset['seq']);
      return seq > afterSeq ? seq : false;
    },
    afterSeq,
    { timeout: WAIT_MS },
  );
  return (await handle.jsonValue()) as number;
}

/** The number of the frame the live screen image shows now. */
async function shownSeq(): Promise<number> {
  return Number(await page.locator(LIVE_IMAGE).getAttribute('data-seq'));
}

/** The live screen image's computed cursor, and whether it carries the held class. */
async function heldLook(): Promise<{ cursor: string; held: boolean }> {
  return page.locator(LIVE_IMAGE).evaluate((element) => ({
    cursor: (globalThis as unknown as { getComputedStyle(e: unknown): { cursor: string } }).getComputedStyle(element).cursor,
    held: (element as unknown as PageImage).classList.contains('screen-held'),
  }));
}

beforeAll(async () => {
  served = await startPageGateway('mobileclaw-takeover-page-');
  ({ gateway, base } = served);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
}, 30_000);

beforeEach(async () => {
  // 700 px high: the live screen image is bounded by its max-height (70vh), so it is drawn smaller than the frame.
  ({ page, errors: pageErrors } = await openPage(browser, { width: 1280, height: 700 }));
});

afterEach(async () => {
  await page?.close();
  expect(pageErrors).toEqual([]);
});

describe('taking a phone over from the page', () => {
  it('maps a point of the screen image to device px exactly, stretched or letterboxed, inside the border and padding', async () => {
    await page.goto(`${base}/`);
    // The page's own compiled module, as the browser loads it.
    await page.addScriptTag({ type: 'module', content: "import * as screenPoint from '/screen-point.js'; globalThis.screenPoint = screenPoint;" });
    await page.waitForFunction(() => 'screenPoint' in globalThis, undefined, { timeout: WAIT_MS });
    const results = await page.evaluate(() => {
      type Box = { left: number; top: number; width: number; height: number };
      type Size = { width: number; height: number };
      type Insets = { top: number; right: number; bottom: number; left: number };
      const { contentBoxOf, devicePointAt, pagePointOf } = (
        globalThis as unknown as {
          screenPoint: {
            contentBoxOf(box: Box, insets: Insets): Box;
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
      // The fill box above inside a 1 px border (getBoundingClientRect's box): its content box is the picture.
      const bordered = { left: 9, top: 19, width: 272, height: 602 };
      const framed = contentBoxOf(bordered, { top: 1, right: 1, bottom: 1, left: 1 });
      return {
        framed,
        framedCorner: devicePointAt(10.1, 20.1, framed, phone, 'fill'),
        framedFarCorner: devicePointAt(279.9, 619.9, framed, phone, 'fill'),
        framedOnBorder: devicePointAt(9.5, 19.5, framed, phone, 'fill') ?? null,
        // Mapped through the border box instead, the same points miss by several device px.
        borderBoxCorner: devicePointAt(10.1, 20.1, bordered, phone, 'fill'),
        tooNarrow: contentBoxOf({ left: 0, top: 0, width: 4, height: 4 }, { top: 3, right: 3, bottom: 3, left: 3 }),
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
      framed: { left: 10, top: 20, width: 270, height: 600 },
      framedCorner: { x: 0, y: 0 },
      framedFarCorner: { x: 1079, y: 2399 },
      framedOnBorder: null,
      borderBoxCorner: { x: 4, y: 4 },
      tooNarrow: { left: 3, top: 3, width: 0, height: 0 },
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

  it('takes sim-1 over, taps what is under the pointer on the live screen, records the taps as steps by the person in the paused task, and hands back', async () => {
    const phone = gateway.simulator!;
    expect(phone.ui.state.wifi).toBe(false);
    const actionRequests: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/api/devices/sim-1/takeover')) actionRequests.push(new URL(request.url()).pathname);
    });
    await page.goto(`${base}/`);
    await page.locator('.device[data-device-id="sim-1"][data-status="online"]').waitFor({ timeout: WAIT_MS });
    await page.getByLabel('Phone', { exact: true }).selectOption('sim-1');
    await frameShown();
    const image = page.locator(LIVE_IMAGE);
    expect([await image.getAttribute('data-device-width'), await image.getAttribute('data-device-height')]).toEqual(['1080', '2400']);
    // Not held: the picture is not marked clickable, and a click on it sends nothing (the Take over
    // request below is the first request to the takeover routes).
    expect(await heldLook()).toEqual({ cursor: 'auto', held: false });
    const launcherSettings = await boundsOf((n) => n.text === 'Settings');
    await clickDevicePoint(Math.floor((launcherSettings[0] + launcherSettings[2]) / 2), Math.floor((launcherSettings[1] + launcherSettings[3]) / 2));

    await page.getByLabel('Your name').fill('Ada');
    await page.getByRole('button', { name: 'Take over' }).click();
    await page.getByRole('button', { name: 'Hand back' }).waitFor({ timeout: WAIT_MS });
    expect(actionRequests).toEqual(['/api/devices/sim-1/takeover']);
    expect(phone.ui.state.screen).toBe('launcher');
    // Held: the live picture is the one to click (no second image), marked clickable.
    expect(await heldLook()).toEqual({ cursor: 'crosshair', held: true });
    expect(await page.locator('#screen-control img').count()).toBe(0);
    await expect(page.locator('#screen-controller').textContent()).resolves.toBe('You (Ada) control sim-1. Click the screen above to tap, drag to swipe.');
    const device = (await (await fetch(`${base}/api/devices/sim-1`)).json()) as { controller?: { holder: string } };
    expect(device.controller?.holder).toBe('Ada');

    // A task started now waits for the person; the page follows it.
    const started = await fetch(`${base}/api/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ deviceId: 'sim-1', goal: 'Turn on Wi-Fi' }) });
    const { taskId } = (await started.json()) as { taskId: string };
    await page.evaluate((id) => ((globalThis as unknown as { location: { hash: string } }).location.hash = `#/tasks/${id}`), taskId);
    await page.locator('#task-status[data-status="input_required"]').waitFor({ timeout: WAIT_MS });
    await expect(page.locator('#task-takeover').textContent()).resolves.toMatch(/^Paused: Ada took the phone over at /);

    // Tap the launcher's Settings icon, then — once the live picture shows Settings — the Wi-Fi
    // switch, each at the centre of its bounds.
    const settings = await boundsOf((n) => n.text === 'Settings');
    const settingsCentre = { x: Math.floor((settings[0] + settings[2]) / 2), y: Math.floor((settings[1] + settings[3]) / 2) };
    const beforeTap = await shownSeq();
    await clickDevicePoint(settingsCentre.x, settingsCentre.y);
    await page.locator('li.step[data-actor="human"]').first().locator('.result-success').waitFor({ timeout: WAIT_MS });
    expect(phone.ui.state.screen).toBe('settings');
    await frameShown(beforeTap);
    const wifi = await boundsOf((n) => n.class === 'android.widget.Switch' && n.desc === 'Wi-Fi');
    const wifiCentre = { x: Math.floor((wifi[0] + wifi[2]) / 2), y: Math.floor((wifi[1] + wifi[3]) / 2) };
    await clickDevicePoint(wifiCentre.x, wifiCentre.y);
    await page.locator('li.step[data-actor="human"]').nth(1).locator('.result-success').waitFor({ timeout: WAIT_MS });
    expect(phone.ui.state.wifi).toBe(true);

    // Near the corners, within the status bar (nothing there takes a click), framed by a border and
    // padding: the taps still land on the very device px under the pointer.
    await image.evaluate((element) => Object.assign((element as unknown as { style: Record<string, string> }).style, { border: '7px solid red', padding: '3px 5px' }));
    await clickDevicePoint(2, 3);
    await page.locator('li.step[data-actor="human"]').nth(2).locator('.result-success').waitFor({ timeout: WAIT_MS });
    await clickDevicePoint(1077, 5);
    await page.locator('li.step[data-actor="human"]').nth(3).locator('.result-success').waitFor({ timeout: WAIT_MS });

    const task = (await (await fetch(`${base}/api/tasks/${taskId}`)).json()) as { steps: { actor?: string; holder?: string; plan: { action: { command: string; x: number; y: number } } }[] };
    const human = task.steps.filter((s) => s.actor === 'human');
    expect(human.map((s) => [s.holder, s.plan.action])).toEqual([
      ['Ada', { command: 'click', ...settingsCentre }],
      ['Ada', { command: 'click', ...wifiCentre }],
      ['Ada', { command: 'click', x: 2, y: 3 }],
      ['Ada', { command: 'click', x: 1077, y: 5 }],
    ]);
    await expect(page.locator('li.step[data-actor="human"] .step-actor').allTextContents()).resolves.toEqual([' · by Ada', ' · by Ada', ' · by Ada', ' · by Ada']);
    await image.evaluate((element) => Object.assign((element as unknown as { style: Record<string, string> }).style, { border: '', padding: '' }));
    await frameShown();
    mkdirSync(join(root, 'test-output'), { recursive: true });
    await page.screenshot({ path: join(root, 'test-output', 'takeover-page.png') });

    await page.getByRole('button', { name: 'Hand back' }).click();
    await page.locator('#task-status[data-status="completed"]').waitFor({ timeout: WAIT_MS });
    await page.getByRole('button', { name: 'Take over' }).waitFor({ timeout: WAIT_MS });
    expect(await heldLook()).toEqual({ cursor: 'auto', held: false });
    const after = (await (await fetch(`${base}/api/devices/sim-1`)).json()) as { controller?: unknown };
    expect(after.controller).toBeUndefined();
  }, 60_000);
});
