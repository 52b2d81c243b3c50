import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startGateway, type RunningGateway } from '@mobileclaw/gateway';

/**
 * The README's examples of the live event socket ("Live events over one WebSocket"), run as written,
 * in order, from the checkout (they `require("ws")`) against a gateway on its embedded defaults (only
 * its ports are free ones). Every command must succeed, and each line the README shows below it must
 * be in its output: a JSON line's literal `"key":value` pairs on one output line, another line as is.
 */

const run = promisify(execFile);
const root = join(__dirname, '..', '..');
const README = readFileSync(join(root, 'README.md'), 'utf8');

/** The `sh` blocks of the section, each with the lines its comments show. */
function examples(): { script: string; shown: string[] }[] {
  const section = /^## Live events over one WebSocket\n([\s\S]*?)^## /m.exec(README)?.[1] ?? '';
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, block]) => {
    const lines = block.trimEnd().split('\n');
    return { script: lines.filter((l) => !l.startsWith('# ')).join('\n'), shown: lines.filter((l) => l.startsWith('# ') && l !== '# …').map((l) => l.slice(2)) };
  });
}

/** The literal `"key":value` pairs of a shown JSON line (strings without `…`, numbers, booleans). */
const facts = (line: string) => [...line.matchAll(/"(\w+)":("[^"…]*"|-?\d+|true|false)(?=[,}])/g)].map((m) => m[0]);

describe('the README\'s live event socket examples run as written', () => {
  let gateway: RunningGateway;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-readme-ws-'));
    gateway = await startGateway({ MOBILECLAW_HTTP_PORT: '0', MOBILECLAW_DEVICE_PORT: '0', MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await gateway?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds the two examples: the screen, then a task', () => {
    expect(examples().map((e) => e.shown.length)).toEqual([4, 5]);
  });

  it('each example prints what the README shows', async () => {
    for (const { script, shown } of examples()) {
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script.replaceAll('localhost:3000', `localhost:${gateway.httpPort}`)], { cwd: root, encoding: 'utf8', timeout: 60_000 });
      const output = stdout.trimEnd().split('\n');
      for (const line of shown) {
        if (line.startsWith('{')) expect(facts(line).length).toBeGreaterThan(1);
        const found = line.startsWith('{') ? output.some((out) => facts(line).every((fact) => out.includes(fact))) : output.includes(line) || output.includes(`${line} `);
        expect({ line, found }).toEqual({ line, found: true });
      }
    }
  }, 120_000);
});
