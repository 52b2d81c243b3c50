import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const ROOT = resolve(__dirname, '../..');
/** `mobileclaw` from the TypeScript sources (workspace packages resolved to their `src`). */
const MOBILECLAW_ARGS = ['--conditions=@mobileclaw/source', '--require', join(ROOT, 'tools/register-typescript.cjs'), join(ROOT, 'apps/gateway/src/main.ts')];
const BRIDGE_ARGS = [...MOBILECLAW_ARGS, 'mcp'];

/** Runs `mobileclaw <args>` with stdin closed, to its exit. */
export function runMobileclaw(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun) => {
    const child = execFile(process.execPath, [...MOBILECLAW_ARGS, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' } }, (error, stdout, stderr) =>
      resolveRun({ code: child.exitCode, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

export interface BridgeOptions {
  /** `--token`; omitted when undefined. */
  token?: string;
  /** Extra environment of the bridge process (e.g. MOBILECLAW_API_TOKEN). */
  env?: Record<string, string>;
}

function bridgeArgs(url: string, options: BridgeOptions): string[] {
  return [...BRIDGE_ARGS, '--url', url, ...(options.token === undefined ? [] : ['--token', options.token])];
}

/**
 * The transport a desktop MCP client uses: the SDK's StdioClientTransport spawning
 * `mobileclaw mcp --url <url>` (stderr collected in `stderr()`). Connect a `Client` with it.
 */
export function bridgeClientTransport(url: string, options: BridgeOptions = {}): { transport: StdioClientTransport; stderr: () => string } {
  const transport = new StdioClientTransport({ command: process.execPath, args: bridgeArgs(url, options), env: options.env, stderr: 'pipe', cwd: ROOT });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { transport, stderr: () => stderr };
}

/** A bridge process driven by raw JSON-RPC lines, for what a client library hides: exit codes, exact bytes. */
export interface RawBridge {
  child: ChildProcessWithoutNullStreams;
  /** Writes one JSON-RPC message to the bridge's stdin. */
  send(message: object): void;
  /** Resolves with the next stdout message that `accept` takes (each message is read once). */
  next(accept?: (message: RawMessage) => boolean): Promise<RawMessage>;
  /** Every stdout line so far, parsed. */
  received: RawMessage[];
  stderr(): string;
  /** The exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON-RPC messages that tests index freely
export type RawMessage = any;

export function spawnRawBridge(url: string, options: BridgeOptions = {}): RawBridge {
  const child = spawn(process.execPath, bridgeArgs(url, options), { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const received: RawMessage[] = [];
  const unread: RawMessage[] = [];
  const waiters: { accept: (m: RawMessage) => boolean; resolve: (m: RawMessage) => void }[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as RawMessage; // a line that is not JSON fails the test here
    received.push(message);
    const waiter = waiters.findIndex((w) => w.accept(message));
    if (waiter >= 0) waiters.splice(waiter, 1)[0].resolve(message);
    else unread.push(message);
  });
  const exited = once(child, 'close').then(([code]) => code as number | null);
  return {
    child,
    received,
    send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
    next: (accept = () => true) => {
      const index = unread.findIndex(accept);
      if (index >= 0) return Promise.resolve(unread.splice(index, 1)[0]);
      return new Promise((resolveMessage, reject) => {
        waiters.push({ accept, resolve: resolveMessage });
        void exited.then((code) => reject(new Error(`bridge exited (${code}) before the message came; stderr:\n${stderr}`)));
      });
    },
    stderr: () => stderr,
    exited,
  };
}
