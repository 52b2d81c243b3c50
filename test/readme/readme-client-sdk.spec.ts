import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { RunningGateway } from '@mobileclaw/gateway';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

/**
 * The README's client SDK section: its example command, run as written from the checkout's root
 * against a real gateway with a simulated phone (reached through MOBILECLAW_URL, as the README says),
 * must exit 0 and print the lines the README shows below it.
 */

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The section "Call it from your business system: the client SDK", up to the next `## ` header. */
function sdkSection(): string {
  const start = README.indexOf('## Call it from your business system: the client SDK\n');
  expect(start).toBeGreaterThanOrEqual(0);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end);
}

/** The section's `sh` block: its one command, and the output shown as `# ` comment lines below it. */
function exampleRun(): { command: string; shown: string[] } {
  const blocks = [...sdkSection().matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].trimEnd().split('\n'));
  expect(blocks).toHaveLength(1);
  const [command, ...comments] = blocks[0];
  expect(comments.every((line) => line.startsWith('# '))).toBe(true);
  return { command, shown: comments.map((line) => line.slice(2)) };
}

const gateways = testGateways('mobileclaw-readme-sdk-');
const homes: string[] = [];
afterAll(() => {
  for (const dir of homes) rmSync(dir, { recursive: true, force: true });
});

describe('the README client SDK example runs as written', () => {
  it('is one command: the order desk example through npm', () => {
    expect(exampleRun().command).toBe('npm run example:order-desk');
  });

  it('prints what the README shows: the three modes and the local tool, then exits 0', async () => {
    const gw: RunningGateway = await gateways.start();
    await waitOnline(gw, 'sim-1');
    const home = mkdtempSync(join(tmpdir(), 'mobileclaw-readme-sdk-home-'));
    homes.push(home);
    const { command, shown } = exampleRun();
    // Only PATH from this environment: the example reads MOBILECLAW_URL, and its stores go under HOME.
    const env = { PATH: process.env.PATH ?? '', HOME: home, MOBILECLAW_URL: gatewayUrl(gw, ''), npm_config_update_notifier: 'false' };
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', command], { cwd: ROOT, env, encoding: 'utf8', timeout: 90_000 });
    // npm's own header (`> mobileclaw@… example:order-desk`, the script) and blank lines are npm's, not the example's.
    const printed = stdout.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('> '));
    expect(printed).toEqual(shown);
    // The SDK's default stores are under ~/.mobileclaw/client: a record per invocation, one per tool call.
    expect(readdirSync(join(home, '.mobileclaw', 'client', 'invocations')).filter((name) => name.endsWith('.json'))).toHaveLength(3);
    expect(readdirSync(join(home, '.mobileclaw', 'client', 'tool-calls')).filter((name) => name.endsWith('.json'))).toHaveLength(1);
    expect(gw.simulator!.ui.state.wifi).toBe(false);
    expect(gw.simulator!.ui.state.screen).toBe('settings');
  }, 120_000);
});
