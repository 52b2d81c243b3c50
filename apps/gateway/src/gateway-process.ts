import { Logger } from '@nestjs/common';
import { MCP_OPTIONS, type McpOptions } from '@mobileclaw/trigger-mcp';
import { startGateway, type RunningGateway } from './gateway-app';

/** Where a started gateway listens, as its start-up log tells it. */
export interface GatewayAddresses {
  /** `http://host:port` of the HTTP server (an IPv6 host in brackets). */
  httpBase: string;
  devicePort: number;
  /** Path of the phones' WebSocket on the HTTP server; undefined when off. */
  deviceSocketPath?: string;
  simulator: boolean;
  /** The MCP routes: Streamable HTTP and the legacy SSE stream. */
  mcpPath: string;
  ssePath: string;
}

/**
 * The start-up log lines, e.g. `live view on http://127.0.0.1:3000/ ; REST API on …/api/devices`,
 * `MCP on http://127.0.0.1:3000/mcp (legacy SSE: http://127.0.0.1:3000/sse)`,
 * `phones connect to TCP port 7397 or ws://127.0.0.1:3000/ws/device; …`.
 */
export function startupLines(at: GatewayAddresses): string[] {
  return [
    `live view on ${at.httpBase}/ ; REST API on ${at.httpBase}/api/devices`,
    `MCP on ${at.httpBase}${at.mcpPath} (legacy SSE: ${at.httpBase}${at.ssePath})`,
    `phones connect to TCP port ${at.devicePort}${at.deviceSocketPath === undefined ? '' : ` or ${at.httpBase.replace(/^http/, 'ws')}${at.deviceSocketPath}`}${at.simulator ? '; simulated phone sim-1 attached' : ''}`,
  ];
}

/**
 * `mobileclaw` / `mobileclaw start` / `npm start`: the gateway on its embedded defaults, configured by
 * MOBILECLAW_* variables, until SIGTERM or SIGINT closes it gracefully (see {@link shutDownOnSignals}).
 * `npm start` runs it with `MALLOC_MMAP_THRESHOLD_=1048576`: on glibc, without it the embedded phone's
 * freed screen-sized raster buffers stay in the process (~500 MB instead of ~290 MB peak over 600 tasks,
 * docs/benchmarks.md). glibc reads it at process start, so set it in the environment of any other launch.
 * Resolves with the started gateway once it listens.
 * @throws Error when the environment is invalid or a port cannot be bound (see {@link startGateway}).
 */
export async function runGatewayProcess(env: Record<string, string | undefined>): Promise<RunningGateway> {
  const gateway = await startGateway(env);
  const logger = new Logger('MobileClaw');
  const { httpHost } = gateway.config;
  const base = `http://${httpHost.includes(':') ? `[${httpHost}]` : httpHost}:${gateway.httpPort}`;
  const mcp = gateway.app.get<McpOptions>(MCP_OPTIONS);
  for (const line of startupLines({ httpBase: base, devicePort: gateway.devicePort, deviceSocketPath: gateway.deviceSocketPath, simulator: !!gateway.simulator, mcpPath: mcp.path, ssePath: mcp.ssePath })) logger.log(line);
  shutDownOnSignals(gateway, gateway.config.shutdownTimeoutMs, logger);
  return gateway;
}

/**
 * Graceful shutdown on the first SIGTERM or SIGINT: the gateway stops taking work (new tasks and
 * commands fail `SHUTTING_DOWN`, `/health/ready` answers 503), interrupts running and queued tasks
 * with the reason recorded, fails pending commands `SHUTTING_DOWN`, closes the phones' sessions and
 * listeners, then the HTTP server, and flushes and closes the task store — all through the app's
 * lifecycle hooks ({@link RunningGateway.close}). Exit 0 once done; 1 when closing fails, when it
 * takes longer than `timeoutMs` (something still holds on, e.g. a memory flush waiting for a slow
 * model; HTTP connections still open 2 s after the server starts closing are cut, not waited for), or
 * at once on a second signal.
 */
export function shutDownOnSignals(gateway: Pick<RunningGateway, 'close'>, timeoutMs: number, logger: Pick<Logger, 'log' | 'error'>): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      logger.error(`${signal} again: exiting without waiting for the shutdown to finish`);
      process.exit(1);
    }
    stopping = true;
    logger.log(`${signal}: shutting down (at most ${timeoutMs} ms)`);
    setTimeout(() => {
      logger.error(`shutdown did not finish within ${timeoutMs} ms (MOBILECLAW_SHUTDOWN_TIMEOUT_MS): exiting`);
      process.exit(1);
    }, timeoutMs).unref();
    gateway.close().then(
      () => {
        logger.log('shut down');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
