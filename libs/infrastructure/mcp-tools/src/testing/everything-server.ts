import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { McpStdioTransportConfig } from '../mcp-server-config';

/** The entry point of `@modelcontextprotocol/server-everything` (the MCP project's reference test server). */
export const EVERYTHING_SERVER_ENTRY = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');

/** The stdio transport that runs server-everything with this Node, `env` added to its environment. */
export function everythingStdio(env: Record<string, string> = {}): McpStdioTransportConfig {
  return { type: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER_ENTRY, 'stdio'], env };
}

/** A server-everything process serving HTTP on a fixed port, so that a restart is reachable at the same URL. */
export interface EverythingHttpServer {
  /** `http://127.0.0.1:<port>/mcp` (Streamable HTTP) or `http://127.0.0.1:<port>/sse` (legacy SSE). */
  url: string;
  /** Starts the process (again) and resolves once it listens. */
  start(): Promise<void>;
  /** Kills the process (SIGKILL: the server vanishes) and resolves once it exited. */
  kill(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** server-everything serving Streamable HTTP (`streamableHttp`) or legacy SSE (`sse`) on a free port; call `start()` first. */
export async function everythingHttp(mode: 'streamableHttp' | 'sse' = 'streamableHttp'): Promise<EverythingHttpServer> {
  const port = await freePort();
  const listening = mode === 'sse' ? `Server is running on port ${port}` : `listening on port ${port}`;
  let child: ChildProcess | undefined;
  return {
    url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    start: async () => {
      const started = spawn(process.execPath, [EVERYTHING_SERVER_ENTRY, mode], { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
      child = started;
      let stderr = '';
      await new Promise<void>((resolve, reject) => {
        started.stderr!.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (stderr.includes(listening)) resolve();
        });
        started.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${stderr}`)));
      });
    },
    kill: async () => {
      const running = child;
      child = undefined;
      if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
      const exited = once(running, 'exit');
      running.kill('SIGKILL');
      await exited;
    },
  };
}
