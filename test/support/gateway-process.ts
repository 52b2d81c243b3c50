import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
/** Runs the gateway's TypeScript sources directly (workspace packages resolved to their `src`). */
const TYPESCRIPT_NODE_FLAGS = ['--conditions=@mobileclaw/source', '--require', join(ROOT, 'tools/register-typescript.cjs')];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
export type Json = any;

/** A JSON answer of a gateway's HTTP API: its status and parsed body (undefined when empty). */
export interface JsonResponse {
  status: number;
  headers: Headers;
  body: Json;
}

/**
 * `apps/gateway/src/main.ts` running in a child process (a real process: SIGKILL is a crash). Its
 * stdout and stderr are collected; the HTTP and device ports are read from its start-up log lines.
 */
export class GatewayProcess {
  private output = '';
  private readonly logWaiters: { pattern: RegExp; from: number; resolve: (match: RegExpExecArray) => void }[] = [];
  /** Resolves when the process has exited (any cause). */
  readonly exited: Promise<void>;

  private constructor(
    readonly process: ChildProcess,
    /** Port of the REST API (and the WebSocket phone endpoint). */
    readonly httpPort: number,
    /** TCP port phones connect to. */
    readonly devicePort: number,
  ) {
    this.exited = process.exitCode !== null || process.signalCode !== null ? Promise.resolve() : once(process, 'exit').then(() => undefined);
  }

  /**
   * Starts `main.ts` with the test process' env plus `env` (HTTP and device ports default to 0, the log
   * level to `info`: the ports are read from the log) and resolves once both ports are logged.
   * @throws Error with the output so far when the process exits before it listens.
   */
  static start(env: Record<string, string>): Promise<GatewayProcess> {
    const child = spawn(process.execPath, [...TYPESCRIPT_NODE_FLAGS, join(ROOT, 'apps/gateway/src/main.ts')], {
      env: { ...process.env, MOBILECLAW_HTTP_PORT: '0', MOBILECLAW_DEVICE_PORT: '0', MOBILECLAW_LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A test process that ends without stop() (a crash, process.exit) must not leave gateways behind.
    const killOnExit = (): void => void child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.once('exit', () => process.removeListener('exit', killOnExit));
    return new Promise((resolveStarted, reject) => {
      let output = '';
      let httpPort = 0;
      let devicePort = 0;
      let started: GatewayProcess | undefined;
      const onData = (chunk: Buffer): void => {
        if (started) return started.receive(chunk.toString());
        output += chunk.toString();
        httpPort ||= Number(/REST API on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1] ?? 0);
        devicePort ||= Number(/phones connect to TCP port (\d+)/.exec(output)?.[1] ?? 0);
        if (httpPort && devicePort) {
          started = new GatewayProcess(child, httpPort, devicePort);
          started.receive(output);
          resolveStarted(started);
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code, signal) => {
        if (!started) reject(new Error(`gateway exited with ${code ?? signal} before it listened:\n${output}`));
      });
    });
  }

  /**
   * Starts `main.ts` like {@link start} with `env` that must make it fail before it listens.
   * @returns what it wrote to stdout and stderr until it exited with 1.
   * @throws Error when it started, or exited with another code.
   */
  static async failedStart(env: Record<string, string>): Promise<string> {
    const error = await GatewayProcess.start(env).then(
      async (started) => {
        await started.stop();
        return new Error('the gateway started');
      },
      (err: unknown) => err as Error,
    );
    const output = /^gateway exited with 1 before it listened:\n([\s\S]*)$/.exec(error.message);
    if (!output) throw error;
    return output[1];
  }

  /** Everything the process wrote to stdout and stderr so far. */
  get log(): string {
    return this.output;
  }

  /** `http://127.0.0.1:<http port><path>`. */
  url(path: string): string {
    return `http://127.0.0.1:${this.httpPort}${path}`;
  }

  /**
   * Resolves with the first match of `pattern` in the output written after this call (or after
   * `from`, an offset into {@link log}, e.g. `log.length` read earlier).
   */
  nextLog(pattern: RegExp, from = this.output.length): Promise<RegExpExecArray> {
    const seen = new RegExp(pattern.source, pattern.flags.replace('g', '')).exec(this.output.slice(from));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolveMatch) => this.logWaiters.push({ pattern, from, resolve: resolveMatch }));
  }

  /** `fetch` of `path` with a JSON body (when given) and a parsed JSON answer. */
  async api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonResponse> {
    const res = await fetch(this.url(path), {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  /** Sends `signal` (default SIGKILL: a crash) and resolves once the process has exited. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill(signal);
    await this.exited;
  }

  /** SIGTERM (a graceful shutdown) and waits for the exit. Idempotent. */
  stop(): Promise<void> {
    return this.kill('SIGTERM');
  }

  private receive(text: string): void {
    this.output += text;
    for (const waiter of [...this.logWaiters]) {
      const match = new RegExp(waiter.pattern.source, waiter.pattern.flags.replace('g', '')).exec(this.output.slice(waiter.from));
      if (match) {
        this.logWaiters.splice(this.logWaiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  }
}
