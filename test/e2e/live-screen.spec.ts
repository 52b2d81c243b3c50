import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { RunningGateway } from '@mobileclaw/gateway';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { launchChromium, openPage, startPageGateway, type PageGateway } from '../support/browser-page';

/**
 * The page's live screen panel in a real browser (Debian's chromium driven by playwright-core)
 * against the real gateway with its simulated phone sim-1: the chosen phone's screen arrives over the
 * live event socket and follows the phone's changes. The change→page latency is measured and
 * printed (the 300 ms target is reported by the benchmark, never asserted here).
 */

const root = join(__dirname, '..', '..');
const outputDir = join(root, 'test-output');
/** Upper bound of any one page condition. */
const WAIT_MS = 30_000;
/** Screen changes measured. */
const CHANGES = 6;

let served: PageGateway;
let gateway: RunningGateway;
let browser: Browser;
let base: string;
let page: Page;
let pageErrors: string[];

/** What the page's `<img id="live-screen-image">` says about the frame it shows. */
interface ShownFrame {
  deviceId: string;
  deviceWidth: number;
  deviceHeight: number;
  seq: number;
  shownAt: number;
  naturalWidth: number;
  naturalHeight: number;
  src: string;
}

/** The page-side view of the image (this spec compiles without the DOM lib). */
interface PageImage {
  hidden: boolean;
  complete: boolean;
  naturalWidth: number;
  naturalHeight: number;
  src: string;
  dataset: Record<string, string | undefined>;
}

/** Waits until the panel shows a frame of `deviceId` numbered after `afterSeq`, and returns it. */
async function frameShown(deviceId: string, afterSeq = 0): Promise<ShownFrame> {
  const handle = await page.waitForFunction(
    ({ deviceId, afterSeq }) => {
      const img = (globalThis as unknown as { document: { getElementById(id: string): PageImage | null } }).document.getElementById('live-screen-image');
      if (!img || img.hidden || !img.complete || img.naturalWidth === 0 || img.dataset['deviceId'] !== deviceId) return false;
      if (Number(img.dataset['seq']) <= afterSeq) return false;
      return {
        deviceId,
        deviceWidth: Number(img.dataset['deviceWidth']),
        deviceHeight: Number(img.dataset['deviceHeight']),
        seq: Number(img.dataset['seq']),
        shownAt: Number(img.dataset['shownAt']),
        naturalWidth: img.naturalWidth,
        naturalHeight: img.naturalHeight,
        src: img.src,
      };
    },
    { deviceId, afterSeq },
    { timeout: WAIT_MS },
  );
  return (await handle.jsonValue()) as ShownFrame;
}

async function command(deviceId: string, body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${base}/api/devices/${deviceId}/commands`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  served = await startPageGateway('mobileclaw-live-screen-');
  ({ gateway, base } = served);
  browser = await launchChromium();
  mkdirSync(outputDir, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
}, 30_000);

beforeEach(async () => {
  ({ page, errors: pageErrors } = await openPage(browser, { width: 1280, height: 900 }));
});

afterEach(async () => {
  await page?.close();
  expect(pageErrors).toEqual([]);
});

describe('the page\'s live screen', () => {
  it('shows the chosen phone\'s screen and each change of it; records the change→page latency', async () => {
    await page.goto(`${base}/`);
    let shown = await frameShown('sim-1');
    // sim-1's screen is 1080×2400 device px; the JPEG is at most 720 px along its long side.
    expect([shown.deviceWidth, shown.deviceHeight, shown.naturalWidth, shown.naturalHeight]).toEqual([1080, 2400, 324, 720]);
    expect(await page.locator('#live-screen-image').getAttribute('alt')).toBe('Screen of sim-1');

    const latenciesMs: number[] = [];
    for (let i = 0; i < CHANGES; i++) {
      const changedAt = Date.now();
      await command('sim-1', i % 2 === 0 ? { command: 'open', app: 'com.android.settings' } : { command: 'home' });
      const next = await frameShown('sim-1', shown.seq);
      expect(next.seq).toBeGreaterThan(shown.seq);
      expect(next.src).not.toBe(shown.src);
      latenciesMs.push(next.shownAt - changedAt);
      shown = next;
    }
    const sorted = [...latenciesMs].sort((a, b) => a - b);
    const summary = { changes: CHANGES, latenciesMs, medianMs: sorted[Math.floor(sorted.length / 2)], maxMs: sorted.at(-1) };
    writeFileSync(join(outputDir, 'live-screen-latency.json'), `${JSON.stringify(summary, null, 2)}\n`);
    // Printed for the record (the change → page figure; the benchmark compares it with 300 ms).
    console.log(`live screen: change → page latency ${latenciesMs.join(', ')} ms (median ${summary.medianMs} ms, max ${summary.maxMs} ms)`);
    expect(latenciesMs.every((ms) => ms > 0)).toBe(true);
    await page.screenshot({ path: join(outputDir, 'live-screen.png') });
  }, 90_000);

  it('picks the phone clicked in the list, names it over the screen, and marks a phone a person holds', async () => {
    const second = new SimulatedPhone({ host: '127.0.0.1', port: gateway.devicePort, token: gateway.deviceToken, deviceId: 'sim-2' });
    await second.start();
    try {
      await page.goto(`${base}/`);
      await frameShown('sim-1');
      expect(await page.locator('#screen-title').textContent()).toBe('Screen — sim-1');
      await page.locator('.device[data-device-id="sim-2"][data-status="online"]').click();
      await frameShown('sim-2');
      expect(await page.getByLabel('Phone', { exact: true }).inputValue()).toBe('sim-2');
      expect(await page.locator('#screen-title').textContent()).toBe('Screen — sim-2');
      expect(await page.locator('.device[aria-current="true"]').getAttribute('data-device-id')).toBe('sim-2');

      const take = await fetch(`${base}/api/devices/sim-2/takeover`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ holderId: 'grace-1', holder: 'Grace' }) });
      expect(take.status).toBe(200);
      const badge = page.locator('.device[data-device-id="sim-2"] .device-held');
      await badge.waitFor({ timeout: WAIT_MS });
      expect(await badge.textContent()).toBe('held by Grace');
      expect(await page.locator('.device[data-device-id="sim-1"] .device-held').count()).toBe(0);
      const back = await fetch(`${base}/api/devices/sim-2/takeover?holderId=grace-1`, { method: 'DELETE' });
      expect(back.status).toBe(200);
      await badge.waitFor({ state: 'detached', timeout: WAIT_MS });
    } finally {
      await second.stop();
    }
  }, 90_000);

  it('follows the phone chosen in the form, and says so when there is no picture', async () => {
    const second = new SimulatedPhone({ host: '127.0.0.1', port: gateway.devicePort, token: gateway.deviceToken, deviceId: 'sim-2' });
    await second.start();
    try {
      await page.goto(`${base}/`);
      await frameShown('sim-1');
      await page.getByLabel('Phone', { exact: true }).selectOption('sim-2');
      const shown = await frameShown('sim-2');
      expect([shown.deviceWidth, shown.deviceHeight]).toEqual([1080, 2400]);
      // sim-2 goes away: its picture goes; the form falls back to sim-1, whose screen shows.
      await second.stop();
      await frameShown('sim-1');
      expect(await page.locator('#live-screen-image').getAttribute('data-device-id')).toBe('sim-1');
    } finally {
      await second.stop();
    }
    // No phone online at all: the panel says there is no picture, and why.
    await gateway.simulator!.stop();
    try {
      await page.locator('.screen-empty[data-reason="no-phone"]', { hasText: 'No phone selected.' }).waitFor({ timeout: WAIT_MS });
      expect(await page.locator('#live-screen-image').isHidden()).toBe(true);
    } finally {
      await gateway.simulator!.start();
    }
    await frameShown('sim-1');
  }, 90_000);
});
