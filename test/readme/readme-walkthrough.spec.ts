import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startGateway, type RunningGateway } from '@mobileclaw/gateway';

/**
 * The README's `curl` walkthroughs, run as written, in order, against a gateway on its embedded
 * defaults (only its ports are free ones, and the task id the README abbreviates is the real one).
 * Every command must succeed, and what the README's comment lines promise — JSON fields with a fixed
 * value, SSE `id:`/`event:` lines — must be in the command's output.
 */

/** Runs a shell without blocking: the gateway answering curl lives in this process's event loop. */
const run = promisify(execFile);

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
/** The README's placeholder for the task id it cannot know. */
const TASK_ID_PLACEHOLDER = '3fe78d53-…';

interface Command {
  line: string;
  /** The comment lines below it (and its own trailing comment): what the README says it prints. */
  promises: string[];
}

/** The `bash` blocks of the README that talk to a running gateway with curl. */
function curlBlocks(): Command[][] {
  const blocks = [...README.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]).filter((block) => block.includes('localhost:3000'));
  return blocks.map((block) => {
    const commands: Command[] = [];
    for (const raw of block.split('\n')) {
      if (raw.trim() === '') continue;
      if (raw.startsWith('#')) {
        commands.at(-1)?.promises.push(raw.slice(1).trim());
        continue;
      }
      const comment = /\s#\s(.*)$/.exec(raw);
      commands.push({ line: comment ? raw.slice(0, comment.index) : raw, promises: comment ? [comment[1]] : [] });
    }
    return commands;
  });
}

/**
 * What a comment line promises that does not depend on the run: `"key":value` pairs with a literal
 * value (not durations, ids or times), and SSE `id: N` / `event: type` lines.
 */
function fixedFacts(promise: string): string[] {
  if (/^(id: \d+|event: [\w.]+)$/.test(promise)) return [promise];
  const facts: string[] = [];
  for (const m of promise.matchAll(/"([\w/]+)":("[^"…]*"|-?\d+(?:\.\d+)?|true|false|\[[\d,]+\])/g)) {
    const [fact, key] = m;
    if (/(Ms|Id|At)$|^(at|id|taskId|requestId|frameId|sessionId)$/.test(key)) continue;
    facts.push(fact);
  }
  return facts;
}

describe('the README walkthroughs run as written', () => {
  let gateway: RunningGateway;
  let dataDir: string;
  let workDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-readme-'));
    workDir = mkdtempSync(join(tmpdir(), 'mobileclaw-readme-cwd-'));
    gateway = await startGateway({ MOBILECLAW_HTTP_PORT: '0', MOBILECLAW_DEVICE_PORT: '0', MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await gateway?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workDir, { recursive: true, force: true });
  });

  it('finds the walkthroughs: a task followed over SSE, then commands one by one, then A2A', () => {
    const blocks = curlBlocks();
    expect(blocks).toHaveLength(3);
    expect(blocks[2][1].line).toContain('"method":"SendMessage"');
    expect(blocks[0][0].line).toContain('POST');
    expect(blocks[1].some((c) => c.line.startsWith('cmd()'))).toBe(true);
  });

  it('each command succeeds and prints what the README says, in the README\'s order', async () => {
    const base = `localhost:${gateway.httpPort}`;
    let taskId: string | undefined;
    /** Shell definitions so far (the README defines `cmd()` once and uses it below). */
    let prelude = '';
    const checked: string[] = [];
    for (const commands of curlBlocks()) {
      for (const { line, promises } of commands) {
        let script = line.replaceAll('localhost:3000', base);
        if (script.includes(TASK_ID_PLACEHOLDER)) {
          expect(taskId).toBeDefined();
          script = script.replaceAll(TASK_ID_PLACEHOLDER, taskId as string);
        }
        if (/^\w+\(\)\s*\{/.test(script)) {
          prelude += script + '\n';
          continue;
        }
        const { stdout: output } = await run('bash', ['-euo', 'pipefail', '-c', prelude + script], { cwd: workDir, encoding: 'utf8', timeout: 60_000 });
        if (taskId === undefined && /POST .*\/api\/tasks /.test(script)) taskId = (JSON.parse(output) as { taskId: string }).taskId;
        const compact = output.replace(/\s+/g, (space) => (space.includes('\n') ? '\n' : space));
        for (const fact of promises.flatMap(fixedFacts)) {
          expect({ command: line, fact, found: compact.includes(fact) }).toEqual({ command: line, fact, found: true });
          checked.push(fact);
        }
      }
    }
    // The run proved the promises that matter, not a handful of trivial ones.
    expect(checked).toEqual(
      expect.arrayContaining([
        '"status":"running"',
        'event: task.accepted',
        'id: 15',
        'event: task.completed',
        '"summary":"Wi-Fi is on."',
        '"verified":true',
        '"densityDpi":420',
        '"bounds":[0,147,270,399]',
        '"status":"success"',
        '"checked":true',
        '"checked":false',
        '"protocolBinding":"JSONRPC"',
        '"state":"TASK_STATE_WORKING"',
      ]),
    );
    // `curl … -o screen.png` wrote the phone's screen as a real PNG.
    const png = readFileSync(join(workDir, 'screen.png'));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1080, 2400]);
  }, 120_000);
});
