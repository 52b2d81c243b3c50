import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { parseToolsConfig } from '@mobileclaw/gateway';

/**
 * The README's "Tools and skills" section: its configuration example is a valid tools config with
 * every kind of source, and its commands, run as written from the checkout's root against a real
 * gateway process started as the section says (from the sources instead of `npm start`'s build, on a
 * free port instead of 3000), print exactly the lines the section shows below them.
 */

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const TYPESCRIPT_NODE_FLAGS = ['--conditions=@mobileclaw/source', '--require', join(ROOT, 'tools/register-typescript.cjs')];

/** The section "Tools and skills", up to the next `## ` header. */
function toolsSection(): string {
  const start = README.indexOf('## Tools and skills\n');
  expect(start).toBeGreaterThanOrEqual(0);
  return README.slice(start, README.indexOf('\n## ', start + 1));
}

/** The section's fenced blocks of one language. */
const blocks = (language: string): string[] => [...toolsSection().matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);

interface Command {
  line: string;
  /** The `# ` lines below it: what it prints. */
  shown: string[];
}

/** The commands of an `sh` block, each with the output shown below it. */
function commands(block: string): Command[] {
  const found: Command[] = [];
  for (const line of block.trimEnd().split('\n')) {
    if (line.startsWith('# ')) found.at(-1)?.shown.push(line.slice(2));
    else found.push({ line, shown: [] });
  }
  return found;
}

interface GatewayProcess {
  child: ChildProcess;
  port: number;
  output: () => string;
}

/** Runs `apps/gateway/src/main.ts` in `ROOT` with `env` only (and PATH); resolves once the REST API listens. */
function startGatewayProcess(env: Record<string, string>): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [...TYPESCRIPT_NODE_FLAGS, join(ROOT, 'apps/gateway/src/main.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: string[] = [];
  const output = () => chunks.join('');
  return new Promise((ready, reject) => {
    const onData = (chunk: Buffer) => {
      chunks.push(chunk.toString('utf8'));
      const port = Number(/REST API on http:\/\/127\.0\.0\.1:(\d+)/.exec(output())?.[1] ?? 0);
      if (port) ready({ child, port, output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`gateway exited with ${code} before it listened:\n${output()}`)));
  });
}

describe('the README tools and skills section', () => {
  let gateway: GatewayProcess | undefined;
  const dirs: string[] = [];
  afterAll(async () => {
    if (gateway && gateway.child.exitCode === null) {
      const exited = new Promise((done) => gateway!.child.once('exit', done));
      gateway.child.kill('SIGTERM');
      await exited;
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('configures every kind of source in its YAML example, which the gateway accepts', () => {
    const [example] = blocks('yaml');
    const env = Object.fromEntries([...example.matchAll(/\$\{(\w+)\}/g)].map(([, name]) => [name, `value-of-${name}`]));
    const config = parseToolsConfig(example, '/srv/mobileclaw/tools.yaml', env);
    expect(config.mcpServers.map(({ options }) => [options.id, options.transport.type])).toEqual([
      ['files', 'stdio'],
      ['erp', 'http'],
    ]);
    expect(config.catalogs.map(({ options }) => options.id)).toEqual(['desk']);
    expect(config.agents.map(({ options }) => [options.id, Object.keys(options.inputSchemas ?? {})])).toEqual([['travel', ['book_trip']]]);
    expect(config.skillsDirs).toEqual(['/srv/mobileclaw/skills', '/opt/team-skills']);
    expect(config.precedence.sourceOrder).toEqual(['mcp:files', 'mcp:erp', 'catalog:desk', 'agent:travel']);
    expect(Object.keys(config.policies.byCaller ?? {})).toEqual(['rest', 'phone:*']);
  });

  it('starts the example, then lists a shadowed and an ineligible entry and calls a tool of the MCP server, as shown', async () => {
    const [start, session] = blocks('sh');
    const [startCommand] = commands(start);
    const startLine = /^((?:[A-Z_]+=\S+ )+)npm start$/.exec(startCommand.line);
    expect(startLine).not.toBeNull();
    const assignments = Object.fromEntries(startLine![1].trim().split(' ').map((pair) => pair.split('=') as [string, string]));
    expect(assignments).toEqual({ MOBILECLAW_TOOLS_CONFIG: 'examples/tools/mobileclaw-tools.yaml' });

    const home = mkdtempSync(join(tmpdir(), 'mobileclaw-readme-tools-'));
    dirs.push(home);
    // Only PATH from this environment (so EXAMPLE_CRM_TOKEN is unset, as on a fresh machine).
    const env = { PATH: process.env.PATH ?? '', HOME: home, ...assignments, MOBILECLAW_HTTP_PORT: '0', MOBILECLAW_DEVICE_PORT: '0', MOBILECLAW_DATA_DIR: join(home, 'data'), MOBILECLAW_SIM: 'off', MOBILECLAW_LOG_FORMAT: 'json' };
    gateway = await startGatewayProcess(env);
    const base = `http://127.0.0.1:${gateway.port}`;

    // The stdio server connects after start-up (it never delays it): wait until its tools are listed.
    for (;;) {
      const { tools } = (await (await fetch(`${base}/api/tools`)).json()) as { tools: { source: { kind: string }; available: boolean }[] };
      if (tools.some((tool) => tool.source.kind === 'mcp' && tool.available)) break;
      await delay(100);
    }

    const shownCommands = commands(session);
    expect(shownCommands.map(({ line }) => line.split(' ').slice(0, 3).join(' '))).toEqual(['curl -s localhost:3000/api/tools', 'curl -s localhost:3000/api/tools/echo/invoke']);
    for (const { line, shown } of shownCommands) {
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', line.replaceAll('localhost:3000', `127.0.0.1:${gateway.port}`)], { cwd: ROOT, env: { PATH: env.PATH }, encoding: 'utf8' });
      expect(stdout.trimEnd().split('\n')).toEqual(shown);
    }
    // No secret or absolute path of this machine in the listing.
    expect(JSON.stringify(await (await fetch(`${base}/api/tools`)).json())).not.toContain(ROOT);
  }, 120_000);
});
