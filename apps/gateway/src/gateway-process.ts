import { Logger } from '@nestjs/common';
import { startGateway } from './gateway-app';

/**
 * `mobileclaw` / `mobileclaw start` / `npm start`: the gateway on its embedded defaults, configured by
 * MOBILECLAW_* variables, until SIGTERM or SIGINT closes it (exit 0, or 1 when closing fails).
 * `npm start` runs it with `MALLOC_MMAP_THRESHOLD_=1048576`: on glibc, without it the embedded phone's
 * freed screen-sized raster buffers stay in the process (~500 MB instead of ~290 MB peak over 600 tasks,
 * docs/benchmarks.md). glibc reads it at process start, so set it in the environment of any other launch.
 * @throws Error when the environment is invalid or a port cannot be bound (see {@link startGateway}).
 */
export async function runGatewayProcess(env: Record<string, string | undefined>): Promise<void> {
  const gateway = await startGateway(env);
  const logger = new Logger('MobileClaw');
  const { httpHost } = gateway.config;
  const base = `http://${httpHost.includes(':') ? `[${httpHost}]` : httpHost}:${gateway.httpPort}`;
  logger.log(`live view on ${base}/ ; REST API on ${base}/api/devices`);
  logger.log(`phones connect to TCP port ${gateway.devicePort}${gateway.simulator ? '; simulated phone sim-1 attached' : ''}`);
  const stop = (signal: string) => {
    logger.log(`${signal}: shutting down`);
    gateway.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error(err);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
