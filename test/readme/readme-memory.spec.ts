import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RunningGateway } from '@mobileclaw/gateway';
import { testGateways } from '../support/test-gateways';

/**
 * The README's "Memory" section: its commands, run as written from the checkout's root (`curl`, `jq`)
 * against a gateway on its defaults (the simulated phone `sim-1`, no embeddings endpoint, the
 * rule-based planner; free ports), print exactly the lines the section shows below them, and the
 * memory goes to and from the file the section names.
 */

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const gateways = testGateways('mobileclaw-readme-memory-');

/** The section "Memory", up to its subsection on scoped tokens (test/gateway/scoped-tokens.spec.ts runs that one). */
function memorySection(): string {
  const section = /^## Memory\n([\s\S]*?)^### Scoped API tokens\n/m.exec(README)?.[1];
  expect(section).toBeDefined();
  return section!;
}

/** The commands of the section's `sh` blocks, each with the `# ` lines below it: what it prints. */
function commands(): { line: string; shown: string[] }[] {
  const found: { line: string; shown: string[] }[] = [];
  for (const [, block] of memorySection().matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const line of block.trimEnd().split('\n')) {
      if (line.startsWith('# ')) found.at(-1)?.shown.push(line.slice(2));
      else found.push({ line, shown: [] });
    }
  }
  return found;
}

/** The memory files of `dataDir` under `device/sim-1`, by name, with their text. */
function simFiles(dataDir: string): Record<string, string> {
  const folder = join(dataDir, 'memory', 'device', 'sim-1');
  if (!existsSync(folder)) return {};
  return Object.fromEntries(readdirSync(folder).map((name) => [name, readFileSync(join(folder, name), 'utf8')]));
}

describe('the README memory section', () => {
  it('remembers, finds with its score parts and forgets, printing what it shows', async () => {
    const gw: RunningGateway = await gateways.start();
    const shown = commands();
    expect(shown.map(({ line }) => line.split(' ').slice(0, 3).join(' '))).toEqual(['curl -s localhost:3000/api/memory', "curl -s 'localhost:3000/api/memory?scope=device:sim-1&q=mom'", 'curl -s -X']);
    const day = new Date().toISOString().slice(0, 10);
    for (const [index, { line, shown: lines }] of shown.entries()) {
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', line.replaceAll('localhost:3000', `127.0.0.1:${gw.httpPort}`)], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8' });
      expect(stdout.trimEnd().split('\n')).toEqual(lines);
      if (index === 0) {
        // The daily file of the day, the memory as its first section (line 3, under the title).
        const files = simFiles(gw.config.dataDir);
        expect(Object.keys(files)).toEqual([`${day}.md`]);
        expect(files[`${day}.md`].split('\n').slice(0, 5)).toEqual([`# ${day}`, '', expect.stringMatching(/^## \d\d:\d\d · contact · p5$/), '', 'Mom is Alice']);
      }
    }
    // Forgotten for good: not in the file, not found.
    expect(simFiles(gw.config.dataDir)[`${day}.md`] ?? '').not.toContain('Mom is Alice');
    const search = (await (await fetch(`http://127.0.0.1:${gw.httpPort}/api/memory?scope=device:sim-1&q=mom`)).json()) as { hits: unknown[] };
    expect(search.hits).toEqual([]);
  }, 60_000);

  it('names every memory setting of the configuration table', () => {
    for (const name of ['MOBILECLAW_EMBEDDINGS_BASE_URL', 'MOBILECLAW_EMBEDDINGS_API_KEY', 'MOBILECLAW_EMBEDDINGS_MODEL', 'MOBILECLAW_MEMORY_FLUSH_THRESHOLD', 'MOBILECLAW_MEMORY_HALF_LIFE_DAYS', 'MOBILECLAW_MEMORY_MIN_SEMANTIC_SCORE']) {
      expect(README).toContain(`| \`${name}\` |`);
    }
  });
});
