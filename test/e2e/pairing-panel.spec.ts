import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import jsQR from 'jsqr';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import type { RunningGateway } from '@mobileclaw/gateway';
import { collectPageErrors, launchChromium, startPageGateway, type PageGateway } from '../support/browser-page';

/**
 * The page's "Add a phone" panel in a real browser (Debian's chromium driven by playwright-core)
 * against a real gateway with an API token: the panel asks for the token like the rest of the page,
 * then shows the gateway's pairing link, its QR code (decoded from a screenshot of the page) and the
 * warning about a guessed host.
 */

const root = join(__dirname, '..', '..');
const WAIT_MS = 30_000;
const API_TOKEN = 'pairing-panel-api-token-0123';

interface PairingInfo {
  link: string;
  warnings: string[];
}

let served: PageGateway;
let gateway: RunningGateway;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let base: string;
let pageErrors: string[];

/** The text of the QR code in a PNG screenshot. */
async function decodeQr(png: Buffer): Promise<string | undefined> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data;
}

beforeAll(async () => {
  served = await startPageGateway('mobileclaw-pairing-web-', { MOBILECLAW_SIM: 'off', MOBILECLAW_API_TOKEN: API_TOKEN });
  ({ gateway, base } = served);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
}, 30_000);

beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  page = await context.newPage();
  // The browser logs every 401 the page gets before its token is saved.
  pageErrors = collectPageErrors(page, [/status of 401/]);
});

afterEach(async () => {
  await context?.close();
  expect(pageErrors).toEqual([]);
});

describe('the "Add a phone" panel', () => {
  it('asks for the API token, then shows the link, its QR code and the host warning; Copy puts the link on the clipboard', async () => {
    const expected = (await (await fetch(`${base}/api/pairing`, { headers: { authorization: `Bearer ${API_TOKEN}` } })).json()) as PairingInfo;
    // Loaded from 127.0.0.1, the gateway can only guess the host a phone should use, and says so.
    expect(expected.warnings).toHaveLength(1);

    await page.goto(`${base}/`);
    await page.getByText('Add a phone', { exact: true }).click();
    await page.getByText(/^Pairing link unavailable: /).waitFor({ timeout: WAIT_MS });
    expect(await page.locator('#token-settings').getAttribute('open')).toBe('');

    await page.getByLabel('Token', { exact: true }).fill(API_TOKEN);
    await page.getByRole('button', { name: 'Save' }).click();
    const linkField = page.getByLabel('Pairing link', { exact: true });
    await linkField.waitFor({ timeout: WAIT_MS });
    expect(await linkField.inputValue()).toBe(expected.link);
    expect(await page.locator('.pairing-warning').allTextContents()).toEqual(expected.warnings);
    expect(await page.locator('#pairing-port').textContent()).toBe(String(gateway.devicePort));

    // What the phone's camera sees: the QR code as the page draws it.
    const qr = page.getByRole('img', { name: 'QR code of the pairing link' });
    await qr.evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
    expect(await decodeQr(await qr.screenshot())).toBe(expected.link);

    mkdirSync(join(root, 'test-output'), { recursive: true });
    await page.screenshot({ path: join(root, 'test-output', 'pairing-panel.png') });

    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied', { exact: true }).waitFor({ timeout: WAIT_MS });
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(expected.link);
  }, 60_000);

  it('fetches nothing while closed: the link carries the device token', async () => {
    await page.addInitScript((token) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('mobileclaw.apiToken', token), API_TOKEN);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${base}/`);
    await page.locator('#devices-connection[data-state="open"]').waitFor({ timeout: WAIT_MS });
    expect(requested).not.toContain('/api/pairing');
    await page.getByText('Add a phone', { exact: true }).click();
    await page.getByLabel('Pairing link', { exact: true }).waitFor({ timeout: WAIT_MS });
    expect(requested.filter((path) => path === '/api/pairing')).toEqual(['/api/pairing']);
  }, 60_000);
});
