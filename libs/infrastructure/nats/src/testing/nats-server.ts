import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A nats-server process with JetStream on a loopback port of its own, for specs and e2e runs. */
export interface NatsServer {
  /** `nats://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** The JetStream store directory (kept across {@link restart}, removed by {@link stop}). */
  readonly storeDir: string;
  /** Stops the server (SIGTERM), waits for its exit and removes the store directory. Idempotent. */
  stop(): Promise<void>;
  /** Kills the server (SIGKILL: clients see the link drop) and waits for its exit; the store stays. */
  kill(): Promise<void>;
  /** Kills the server if it runs, then starts it again on the same port and store; resolves once it is ready. */
  restart(): Promise<void>;
}

export interface NatsServerOptions {
  /** The nats-server binary. Default `MOBILECLAW_NATS_SERVER`, else `nats-server` on the PATH. */
  binary?: string;
  /** How long the server may take to say it is ready, in ms. Default 10 000. */
  readyTimeoutMs?: number;
  /**
   * The server's `max_payload`: the largest message (headers and data) it takes, in bytes. Default
   * the server's own (1 MiB). A small one makes messages split into chunks cheap to test.
   */
  maxPayloadBytes?: number;
  /** Clients must log in: as this user with this password (`--user`/`--pass`), or with this token (`--auth`). Default: no login. */
  auth?: { user: string; password: string } | { token: string };
}

/** The line nats-server logs once it accepts clients. */
const READY_LINE = 'Server is ready';

/**
 * Starts `nats-server -js -a 127.0.0.1 -p <free port> -sd <temp dir>` (and `-c <config>` holding
 * `max_payload` when {@link NatsServerOptions.maxPayloadBytes} is given) and resolves once it logs that
 * it is ready.
 * @throws Error when the binary is missing, exits early or is not ready within `readyTimeoutMs`.
 */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<NatsServer> {
  const binary = options.binary ?? process.env['MOBILECLAW_NATS_SERVER'] ?? 'nats-server';
  const readyTimeoutMs = options.readyTimeoutMs ?? 10_000;
  const port = await freePort();
  const storeDir = await mkdtemp(join(tmpdir(), 'mobileclaw-nats-'));
  const args = ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir];
  if (options.auth !== undefined) args.push(...('token' in options.auth ? ['--auth', options.auth.token] : ['--user', options.auth.user, '--pass', options.auth.password]));
  if (options.maxPayloadBytes !== undefined) {
    // max_payload has no command-line flag; the store directory holds the config file too.
    const config = join(storeDir, 'nats-server.conf');
    await writeFile(config, `max_payload: ${options.maxPayloadBytes}\n`);
    args.push('-c', config);
  }
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    const started = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child = started;
    // A process that exits without stop() (a crash, process.exit) must not leave the server behind.
    const killOnExit = (): void => void started.kill('SIGKILL');
    process.once('exit', killOnExit);
    started.once('exit', () => process.removeListener('exit', killOnExit));
    let log = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`nats-server was not ready within ${readyTimeoutMs} ms: ${log}`)), readyTimeoutMs);
      const settle = (error?: Error): void => {
        clearTimeout(timer);
        started.stderr?.removeAllListeners('data');
        started.removeListener('exit', onEarlyExit);
        started.removeAllListeners('error');
        started.stderr?.resume(); // keep draining: a full pipe would block the server
        if (error) reject(error);
        else resolve();
      };
      started.stderr?.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes(READY_LINE)) settle();
      });
      const onEarlyExit = (code: number | null, signal: NodeJS.Signals | null): void => settle(new Error(`nats-server exited (${code ?? signal}): ${log}`));
      started.once('exit', onEarlyExit);
      started.once('error', (err) => settle(err));
    });
  };

  const kill = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGKILL');
    await exited;
  };

  let stopped = false;
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    kill,
    restart: async () => {
      await kill();
      await start();
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      const running = child;
      child = undefined;
      if (running !== undefined && running.exitCode === null && running.signalCode === null) {
        const exited = once(running, 'exit');
        running.kill('SIGTERM');
        await exited;
      }
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}

/** A free TCP port on 127.0.0.1 now. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
