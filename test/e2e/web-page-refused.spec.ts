import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage, startPageGateway, type PageGateway } from '../support/browser-page';

/**
 * The page reached under a host name the gateway does not serve without an API token (a DNS
 * rebinding, or a LAN name missing from MOBILECLAW_ALLOWED_HOSTS): the static page loads, every API
 * call is refused 403 HOST_NOT_ALLOWED, and the page says that it is refused — not that a token is
 * wrong.
 */
const WAIT_MS = 15_000;
const REBOUND_HOST = 'rebound.test';

let browser: Browser;
let gateway: PageGateway;
let page: Page;
let pageErrors: string[];

beforeAll(async () => {
  gateway = await startPageGateway('mobileclaw-web-refused-');
  // The browser resolves the name to loopback, so only the Host header differs from a local visit.
  browser = await launchChromium([`--host-resolver-rules=MAP ${REBOUND_HOST} 127.0.0.1`]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
}, 30_000);

afterEach(async () => {
  await page?.close();
  expect(pageErrors).toEqual([]);
});

describe('the live execution page refused by the gateway (403)', () => {
  it('says the gateway refuses the page, with its reason, and hides phones and history without asking for a token', async () => {
    ({ page, errors: pageErrors } = await openPage(browser, { width: 1280, height: 900 }, [/403 \(Forbidden\)/, /status 403/]));
    await page.goto(`http://${REBOUND_HOST}:${gateway.gateway.httpPort}/`);

    const notice = page.locator('#token-notice');
    await notice.filter({ hasText: 'The gateway refuses this page (' }).waitFor({ timeout: WAIT_MS });
    await expect(notice.textContent()).resolves.toBe(
      `The gateway refuses this page (Host "${REBOUND_HOST}:${gateway.gateway.httpPort}" is not allowed: without MOBILECLAW_API_TOKEN only loopback hosts (localhost, 127.0.0.1, [::1]) and those in MOBILECLAW_ALLOWED_HOSTS are served).`,
    );
    await page.locator('#device-list', { hasText: 'Phones hidden: the gateway refuses this page.' }).waitFor({ timeout: WAIT_MS });
    await page.locator('#history-list', { hasText: 'History hidden: the gateway refuses this page.' }).waitFor({ timeout: WAIT_MS });
  });
});
