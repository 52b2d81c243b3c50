#!/usr/bin/env node
import { Logger } from '@nestjs/common';
import { startGateway } from './gateway-app';

/** `mobileclaw` / `npm start`: the gateway on its embedded defaults, configured by MOBILECLAW_* variables. */
async function main(): Promise<void> {
  const gateway = await startGateway(process.env);
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

main().catch((err: unknown) => {
  process.stderr.write(`mobileclaw: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
