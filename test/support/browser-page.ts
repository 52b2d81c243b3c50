import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startGateway, type RunningGateway } from '@mobileclaw/gateway';

/**
 * The setup of the browser specs (test/e2e): a real gateway serving the freshly compiled page, Debian's
 * chromium driven by playwright-core, and pages whose script errors are collected so that a spec can
 * require none.
 */

const root = join(__dirname, '..', '..');

/** A gateway serving apps/web/dist, on free ports with its own temporary data directory. */
export interface PageGateway {
  gateway: RunningGateway;
  /** `http://127.0.0.1:<http port>`, no trailing slash. */
  base: string;
  /** Closes the gateway, then removes its data directory. */
  close(): Promise<void>;
}

/**
 * Compiles the page's current sources (`tsc -b apps/web`; npm test builds it too), then starts a
 * gateway on free ports (HTTP and device), logs silent, on a fresh data directory named
 * `<tmpdir>/<prefix>XXXXXX`. `env` adds to or overrides that environment. Throws what the compiler or
 * `startGateway` throws; the data directory is removed then.
 */
export async function startPageGateway(prefix: string, env: Record<string, string> = {}): Promise<PageGateway> {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'apps/web'], { cwd: root, stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  let gateway: RunningGateway;
  try {
    gateway = await startGateway({ MOBILECLAW_HTTP_PORT: '0', MOBILECLAW_DEVICE_PORT: '0', MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_LOG_LEVEL: 'silent', ...env });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    gateway,
    base: `http://127.0.0.1:${gateway.httpPort}`,
    async close() {
      try {
        await gateway.close();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Headless chromium at `$MOBILECLAW_CHROMIUM` (default `/usr/bin/chromium`, Debian's), without a
 * sandbox, GPU, QUIC or any background traffic of its own (updates, sync, first-run pages).
 * `extraArgs` are added, e.g. `--host-resolver-rules=MAP rebound.test 127.0.0.1` to reach the
 * gateway under a host name that is not loopback.
 */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['MOBILECLAW_CHROMIUM'] ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}

/**
 * Collects `page`'s script errors from now on: every uncaught exception (`pageerror`, its message) and
 * every console error (its text) that matches none of `expected`. `expected` is read at each message,
 * so patterns pushed onto it later (an error a test provokes on purpose) count from then on. Returns
 * the live list the messages are appended to.
 */
export function collectPageErrors(page: Page, expected: readonly RegExp[] = []): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !expected.some((re) => re.test(message.text()))) errors.push(message.text());
  });
  return errors;
}

/** A page opened by {@link openPage} and the script errors collected on it. */
export interface WatchedPage {
  page: Page;
  /** See {@link collectPageErrors}. */
  errors: string[];
}

/**
 * A new page of `browser` (its own context) with a `viewport` of CSS px, collecting its script errors
 * as {@link collectPageErrors} does with `expected`.
 */
export async function openPage(browser: Browser, viewport: { width: number; height: number }, expected: readonly RegExp[] = []): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport });
  return { page, errors: collectPageErrors(page, expected) };
}
