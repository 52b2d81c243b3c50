import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { chown, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/** Where the PostgreSQL server binaries are and which user runs them. */
export interface PostgresServerOptions {
  /** Folder of `initdb` and `postgres`. Default: `MOBILECLAW_PG_BIN`, else the highest `/usr/lib/postgresql/<n>/bin`. */
  binDir?: string;
}

/** A throw-away PostgreSQL server on a loopback port of its own (tests, e2e). */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, superuser `postgres`). */
  readonly url: string;
  readonly port: number;
  /** Creates an empty database and returns its URL. @throws Error for a name that is not `[a-z_][a-z0-9_]*` (≤ 63 chars) or one that exists. */
  createDatabase(name: string): Promise<string>;
  /** Fast shutdown (SIGINT: open connections are closed), then removes the data directory. Idempotent. */
  stop(): Promise<void>;
  /** SIGKILL of the server and its backends (a crash); the data directory stays, for {@link restart}. */
  kill(): Promise<void>;
  /** Stops the server when it runs (fast shutdown) and starts it again on the same port with the same data. */
  restart(): Promise<void>;
}

/** How long start-up may take before it counts as failed, in ms (initdb is separate and not bounded). */
const START_TIMEOUT_MS = 30_000;

/**
 * Creates a cluster in a temporary directory (`initdb -A trust -U postgres --no-sync -E UTF8`) and
 * starts `postgres` on a free loopback port with durability off (`fsync=off`: test data only), its
 * Unix socket in that directory. When this process runs as root (PostgreSQL refuses to), the server
 * runs as the system user `postgres` (the `uid`/`gid` of the spawned processes; the directory is
 * chowned to it). The server is its own process group, so {@link PostgresServer.kill} takes the backends
 * down with it; when the calling process exits without {@link PostgresServer.stop}, the group is
 * killed and the directory removed on its `exit`.
 * @throws Error when no binaries are found, `initdb` fails, or the server exits or stays silent for 30 s
 *   before it accepts connections (its log is in the message).
 */
export async function startPostgresServer(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const binDir = options.binDir ?? process.env['MOBILECLAW_PG_BIN'] ?? (await newestInstalledBinDir());
  const runAs = process.getuid?.() === 0 ? await systemUser('postgres') : undefined;
  const root = await mkdtemp(join(tmpdir(), 'mobileclaw-pg-'));
  const dataDir = join(root, 'data');
  const socketDir = join(root, 'socket');
  let port: number;
  try {
    await mkdir(dataDir, { mode: 0o700 });
    await mkdir(socketDir, { mode: 0o700 });
    if (runAs) for (const dir of [root, dataDir, socketDir]) await chown(dir, runAs.uid, runAs.gid);
    await run(join(binDir, 'initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--no-locale'], runAs);
    port = await freeLoopbackPort();
  } catch (err) {
    await rm(root, { recursive: true, force: true });
    throw err;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  let server: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    server = await startServer(join(binDir, 'postgres'), ['-D', dataDir, '-p', String(port), '-k', socketDir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'full_page_writes=off'], runAs);
  };
  const signal = async (name: NodeJS.Signals, group: boolean): Promise<void> => {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    process.kill(group ? -(child.pid as number) : (child.pid as number), name);
    await exited;
  };
  try {
    await start();
  } catch (err) {
    await rm(root, { recursive: true, force: true });
    throw err;
  }

  // A test process that ends without stop() (a crash, process.exit) takes its server and data along.
  const onExit = (): void => {
    if (server?.pid !== undefined && server.exitCode === null && server.signalCode === null) {
      try {
        process.kill(-server.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    rmSync(root, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  let removed = false;
  return {
    url,
    port,
    async createDatabase(name: string): Promise<string> {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`createDatabase: ${JSON.stringify(name)} is not a plain database name`);
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop(): Promise<void> {
      await signal('SIGINT', false);
      if (removed) return;
      removed = true;
      process.off('exit', onExit);
      await rm(root, { recursive: true, force: true });
    },
    async kill(): Promise<void> {
      await signal('SIGKILL', true);
    },
    async restart(): Promise<void> {
      await signal('SIGINT', false);
      await start();
    },
  };
}

/** Starts the server and resolves once its log says it accepts connections. */
async function startServer(binary: string, args: string[], runAs: SystemUser | undefined): Promise<ChildProcess> {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...(runAs ?? {}) });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`postgres did not accept connections within ${START_TIMEOUT_MS} ms:\n${log}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      log += chunk.toString('utf8');
      if (log.includes('database system is ready to accept connections')) done();
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => fail(new Error(`postgres exited (${code ?? signal}) before accepting connections:\n${log}`));
    const cleanUp = (): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', fail);
    };
    function done(): void {
      cleanUp();
      resolve();
    }
    function fail(err: Error): void {
      cleanUp();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      reject(err);
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', fail);
  });
  // Keep draining the log so that the server never blocks on a full pipe.
  child.stdout?.resume();
  child.stderr?.resume();
  return child;
}

interface SystemUser {
  uid: number;
  gid: number;
}

/** @throws Error when `/etc/passwd` has no such user. */
async function systemUser(name: string): Promise<SystemUser> {
  const line = (await readFile('/etc/passwd', 'utf8')).split('\n').find((entry) => entry.startsWith(`${name}:`));
  if (!line) throw new Error(`PostgreSQL refuses to run as root and there is no user ${name} to run it as`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** @throws Error when `/usr/lib/postgresql` holds no version folder. */
async function newestInstalledBinDir(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql').catch(() => [] as string[])).filter((name) => /^\d+$/.test(name)).map(Number);
  if (versions.length === 0) throw new Error('no PostgreSQL binaries: set MOBILECLAW_PG_BIN or install postgresql');
  return join('/usr/lib/postgresql', String(Math.max(...versions)), 'bin');
}

/** Runs a command to its end. @throws Error with its output when it exits non-zero. */
function run(binary: string, args: string[], runAs: SystemUser | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(runAs ?? {}) });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${binary} exited with ${code}:\n${output}`))));
  });
}

/** A loopback TCP port nothing listens on right now (the OS picks it). */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
