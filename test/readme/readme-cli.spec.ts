import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startGateway, type RunningGateway } from '@mobileclaw/gateway';
import { MOBILECLAW_NODE_ARGS, shellQuote } from '../support/mobileclaw-cli';

/**
 * The README's `mobileclaw` transcripts (console blocks), run as written, in order, against a fresh
 * gateway on its embedded defaults: `npx mobileclaw` is this checkout's command from its sources,
 * the gateway is on a free port (MOBILECLAW_URL), and the task id the README shows is the one the
 * `run` printed. Each command must exit 0 and print the lines the README shows, but for what
 * changes from run to run: ids, durations, timestamps, byte counts and column widths.
 */

const run = promisify(execFile);
const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

interface Transcript {
  command: string;
  output: string[];
}

/**
 * The `$ npx mobileclaw …` commands of the README's console blocks and the lines shown below each.
 * `mcp` and `adb` are left out: they are shown in their own sections without a gateway or with an adb
 * server, and test/mcp and test/adb run them.
 */
function transcripts(): Transcript[] {
  const shown: Transcript[] = [];
  for (const [, block] of README.matchAll(/```console\n([\s\S]*?)```/g)) {
    let current: Transcript | undefined;
    for (const line of block.trimEnd().split('\n')) {
      if (line.startsWith('$ ')) {
        current = /^\$ npx mobileclaw (mcp|adb)\b/.test(line) ? undefined : { command: line.slice(2), output: [] };
        if (current) shown.push(current);
      } else current?.output.push(line);
    }
  }
  return shown;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** A line without what changes from run to run. */
function masked(line: string): string {
  return line
    .replace(UUID, '<id>')
    .replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ/g, '<time>')
    .replace(/\b\d+(\.\d+)? (ms|s)\b/g, '<duration>')
    .replace(/\b(settle|capture|transfer|planning|action) \d+/g, '$1 <ms>')
    .replace(/\b\d+ bytes\b/g, '<n> bytes')
    .replace(/ {2,}/g, '  ')
    .trimEnd();
}

describe('the README mobileclaw transcripts run as written', () => {
  let gateway: RunningGateway;
  let dataDir: string;
  let workDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-readme-cli-'));
    workDir = mkdtempSync(join(tmpdir(), 'mobileclaw-readme-cli-cwd-'));
    gateway = await startGateway({ MOBILECLAW_HTTP_PORT: '0', MOBILECLAW_DEVICE_PORT: '0', MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await gateway?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workDir, { recursive: true, force: true });
  });

  it('finds the transcripts: the quick start run, then the other commands', () => {
    expect(transcripts().map((t) => t.command)).toEqual([
      'npx mobileclaw run sim-1 "Turn on Wi-Fi"',
      'npx mobileclaw devices',
      'npx mobileclaw do sim-1 home',
      'npx mobileclaw do sim-1 click 135 273',
      'npx mobileclaw screenshot sim-1 -o shot.png',
      'npx mobileclaw tasks',
    ]);
  });

  it('each command exits 0 and prints what the README shows', async () => {
    // `npx mobileclaw` resolves to the built command of this workspace; here, the same from its sources.
    const prelude = `npx() { [ "$1" = mobileclaw ] || return 127; shift; ${[process.execPath, ...MOBILECLAW_NODE_ARGS].map(shellQuote).join(' ')} "$@"; }\n`;
    const env = { PATH: process.env.PATH ?? '', HOME: workDir, XDG_CONFIG_HOME: join(workDir, 'config'), MOBILECLAW_URL: `http://127.0.0.1:${gateway.httpPort}` };
    let taskId: string | undefined;
    for (const { command, output } of transcripts()) {
      const script = taskId ? command.replace(UUID, taskId) : command;
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', prelude + script], { cwd: workDir, env, encoding: 'utf8', timeout: 60_000 });
      taskId ??= /^• task ([0-9a-f-]{36}) /.exec(stdout)?.[1];
      expect({ command, lines: stdout.trimEnd().split('\n').map(masked) }).toEqual({ command, lines: output.map(masked) });
    }
    expect(taskId).toBeDefined();
    const png = readFileSync(join(workDir, 'shot.png'));
    expect([png.subarray(1, 4).toString('latin1'), png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual(['PNG', 1080, 2400]);
  }, 120_000);
});
