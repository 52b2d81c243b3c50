import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

/** `node …` running `mobileclaw` from the TypeScript sources (workspace packages resolved to their `src`). */
export const MOBILECLAW_NODE_ARGS = ['--conditions=@mobileclaw/source', '--require', join(ROOT, 'tools/register-typescript.cjs'), join(ROOT, 'apps/gateway/src/main.ts')];

/** A shell word: `it's` → `'it'\''s'`. */
export const shellQuote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/** A running `mobileclaw` process: what it printed so far, a wait for a pattern, its exit. */
export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout (or, in a pseudo-terminal, the terminal), or stderr, has shown text matching `pattern`. */
  shown(pattern: RegExp, stream?: 'stdout' | 'stderr'): Promise<void>;
  /** Writes to stdin (in a pseudo-terminal: typed on the keyboard, e.g. `y\r`, or `\x03` for Ctrl-C). */
  type(text: string): void;
  /** The exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/**
 * `mobileclaw` processes for a spec file, each with `HOME` and `XDG_CONFIG_HOME` in a fresh
 * directory (no login of the machine's user is read) and only `PATH` from this process's
 * environment. Processes still running after a test are killed; the directories are removed after the file.
 */
export function mobileclawProcesses(): {
  /** Runs `mobileclaw <args>` with stdout and stderr piped (not a terminal). */
  spawn(args: string[], env?: Record<string, string>): CliProcess;
  /** Runs `mobileclaw <args>` in a pseudo-terminal of `columns`×40 (util-linux `script`), TERM=xterm-256color. */
  spawnInTerminal(args: string[], env?: Record<string, string>, columns?: number): CliProcess;
  /** Runs to the exit: `{code, stdout, stderr}`. */
  run(args: string[], env?: Record<string, string>, stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** The config home of the processes of the current test. */
  configHome(): string;
} {
  const children: ChildProcessWithoutNullStreams[] = [];
  const homes: string[] = [];
  let home: string | undefined;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'mobileclaw-cli-home-'));
    homes.push(home);
  });
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  afterAll(() => {
    for (const dir of homes) rmSync(dir, { recursive: true, force: true });
  });
  const baseEnv = (extra: Record<string, string>) => ({ PATH: process.env.PATH ?? '', HOME: home as string, XDG_CONFIG_HOME: join(home as string, 'config'), ...extra });

  const watch = (child: ChildProcessWithoutNullStreams): CliProcess => {
    children.push(child);
    let out = '';
    let err = '';
    const waiters: { pattern: RegExp; stream: 'stdout' | 'stderr'; resolve: () => void }[] = [];
    const text = (stream: 'stdout' | 'stderr') => (stream === 'stdout' ? out : err);
    const check = () => {
      for (const waiter of waiters.filter((w) => w.pattern.test(text(w.stream)))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      check();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
      check();
    });
    const exited = once(child, 'close').then(() => child.exitCode);
    return {
      child,
      stdout: () => out,
      stderr: () => err,
      shown: (pattern, stream = 'stdout') => (pattern.test(text(stream)) ? Promise.resolve() : new Promise((resolveShown) => waiters.push({ pattern, stream, resolve: resolveShown }))),
      type: (text) => void child.stdin.write(text),
      exited,
    };
  };

  return {
    spawn: (args, env = {}) => watch(spawn(process.execPath, [...MOBILECLAW_NODE_ARGS, ...args], { cwd: ROOT, env: baseEnv(env) })),
    spawnInTerminal: (args, env = {}, columns = 160) => {
      // `script` gives the command a pseudo-terminal; the terminal has no size until stty sets one.
      const command = `stty cols ${columns} rows 40; exec ${[process.execPath, ...MOBILECLAW_NODE_ARGS, ...args].map(shellQuote).join(' ')}`;
      return watch(spawn('script', ['-qfec', command, '/dev/null'], { cwd: ROOT, env: baseEnv({ TERM: 'xterm-256color', ...env }) }));
    },
    run: async (args, env = {}, stdin) => {
      const cli = watch(spawn(process.execPath, [...MOBILECLAW_NODE_ARGS, ...args], { cwd: ROOT, env: baseEnv(env) }));
      cli.child.stdin.end(stdin);
      const code = await cli.exited;
      return { code, stdout: cli.stdout(), stderr: cli.stderr() };
    },
    configHome: () => join(home as string, 'config'),
  };
}

/** What a terminal shows of `output` once every line is drawn: colours and cursor moves removed, each line as last redrawn. */
export function terminalText(output: string): string {
  return output
    .replace(/\x1b\[\?[\d;]*[hl]/g, '')
    .split(/\r?\n/)
    .map((line) => {
      // A spinner redraws its line: `\x1b[1G` (column 1) and `\x1b[0K` (erase) start it over; keep the last drawing.
      const drawings = line.split(/\x1b\[1G|\r/);
      return drawings[drawings.length - 1].replace(/\x1b\[[\d;]*[A-Za-z]/g, '');
    })
    .join('\n');
}
