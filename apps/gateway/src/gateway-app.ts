import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger as PinoLogger } from 'nestjs-pino';
import { A2aHttpEndpoint } from '@mobileclaw/trigger-a2a';
import { McpHttpEndpoint } from '@mobileclaw/trigger-mcp';
import { JSON_BODY_LIMIT_BYTES, apiTokenMiddleware, refuseOversizedJsonBody, requireJsonMediaType, requireUtf8JsonBody, setupOpenApi, verifyUtf8Body } from '@mobileclaw/trigger-rest';
import { ensurePrivateDirectory } from '@mobileclaw/store-sqlite';
import { TcpDeviceTransport } from '@mobileclaw/transport-tcp';
import { MobileClawWsAdapter, WsDeviceTransport } from '@mobileclaw/transport-ws';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { DeviceHub } from '@mobileclaw/device';
import type { AdbDeviceWatcher } from '@mobileclaw/adb-bridge';
import { startAdbWatcher } from './adb-watch';
import { DrainingExpressAdapter } from './draining-express-adapter';
import { GatewayStartError } from './gateway-start-error';
import { StartupLogger } from './startup-logger';
import { loadGatewayConfig, validateGatewayEnvironment, type GatewayConfig } from './gateway-config';
import { joinCluster } from './cluster.module';
import { GatewayModule, resolveDeviceToken } from './gateway.module';
import { scopedTokensSummary } from './scoped-tokens-config';

/** A started gateway: the Nest app, its bound ports and the embedded simulated phone, if any. */
export interface RunningGateway {
  app: NestExpressApplication;
  config: GatewayConfig;
  /** Bound HTTP port. */
  httpPort: number;
  /**
   * The device (TCP) port: the bound one, or — while it cannot be bound (taken by another process) —
   * the configured one, which the gateway keeps trying (`GET /health/ready` is 503 meanwhile).
   */
  devicePort: number;
  /** Path of the phones' WebSocket on the HTTP port (`/ws/device`); undefined with `MOBILECLAW_DEVICE_WS=off`. */
  deviceSocketPath?: string;
  deviceToken: string;
  simulator?: SimulatedPhone;
  /** With `MOBILECLAW_ADB=auto`: the watcher bridging every phone adb lists. */
  adb?: AdbDeviceWatcher;
  /** Stops the ADB bridges and the simulator, fails pending commands with SHUTTING_DOWN and closes every port. */
  close(): Promise<void>;
}

/** The TCP transport's bound port, or `configured` while it is not listening. */
function tcpPort(tcp: TcpDeviceTransport, configured: number): number {
  try {
    return tcp.port;
  } catch {
    return configured;
  }
}

/** This app's version, from apps/gateway/package.json (beside both `src/` and `dist/`). */
function gatewayVersion(): string {
  return (JSON.parse(readFileSync(resolve(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Validates `env`, builds and starts the gateway (HTTP on `MOBILECLAW_HTTP_HOST:PORT`, phones on
 * `MOBILECLAW_DEVICE_PORT` and, unless `MOBILECLAW_DEVICE_WS=off`, at `/ws/device` on the HTTP port) and, unless `MOBILECLAW_SIM=off`, attaches one simulated phone `sim-1`;
 * with `MOBILECLAW_ADB=auto` it bridges every phone the adb server lists (see {@link startAdbWatcher}).
 * A device port that cannot be bound does not stop it: it is tried again every
 * `MOBILECLAW_DEVICE_LISTEN_RETRY_MS`, and `/health/ready` answers 503 until it is bound.
 * @throws Error with every invalid variable listed, when the HTTP port cannot be bound, or (cluster
 *   mode) when the cluster cannot be joined (one line naming the variable: see `joinCluster`).
 */
export async function startGateway(env: Record<string, string | undefined> = process.env): Promise<RunningGateway> {
  const config = loadGatewayConfig(validateGatewayEnvironment(env));
  // The data directory holds tasks, screenshots and the device token: owner only (0700).
  let narrowedFrom: number | undefined;
  try {
    narrowedFrom = ensurePrivateDirectory(config.dataDir);
  } catch (err) {
    throw new GatewayStartError(`cannot use the data directory ${config.dataDir} (MOBILECLAW_DATA_DIR): ${err instanceof Error ? err.message : String(err)}; set MOBILECLAW_DATA_DIR to a directory this user may create and write`, { cause: err });
  }
  const tcp = new TcpDeviceTransport({ port: config.devicePort, host: config.deviceHost });
  // ws reads a message of up to twice the frame limit, so that a reply over the limit fails only its
  // request (as on TCP); only a larger one closes the connection (1009).
  const ws = config.deviceWs ? new WsDeviceTransport({ maxMessageBytes: 2 * config.maxFrameBytes }) : undefined;
  // Cluster mode: joined before the app is built, so that a NATS server out of reach or an instance id
  // in use fails the start in one line, before the task service's start-up touches any task.
  // What joining logs is held until the app's logger takes over (NestFactory's bufferLogs flushes the
  // same buffer), so that it comes out in the configured format (JSON lines) like every other line.
  Logger.attachBuffer();
  let cluster: Awaited<ReturnType<typeof joinCluster>> | undefined;
  try {
    cluster = config.natsUrl ? await joinCluster({ natsUrl: config.natsUrl, instanceId: config.instanceId }) : undefined;
  } catch (err) {
    // Written like a failed build of the app (see StartupLogger): the CLI prints the error in one line.
    Logger.overrideLogger(new StartupLogger());
    Logger.flush();
    throw err;
  }
  // After joining: a start refused by the cluster writes no device token.
  const { token: deviceToken, announce } = resolveDeviceToken(config);
  let app: NestExpressApplication;
  try {
    // The HTTP server closes last: answers in progress get out, connections still open after the
    // drain (a client that reopened a stream meanwhile, a body that never comes) are cut.
    app = await NestFactory.create<NestExpressApplication>(GatewayModule.forRoot(config, deviceToken, { tcp, ws }, gatewayVersion(), cluster), new DrainingExpressAdapter(), {
      bufferLogs: true,
      // Writes the buffer only if building fails (then without Nest's progress lines): see StartupLogger.
      logger: new StartupLogger(),
      bodyParser: false,
      abortOnError: false,
    });
  } catch (err) {
    await cluster?.directory.close();
    await cluster?.connection.close();
    throw err;
  }
  app.useLogger(app.get(PinoLogger));
  // WebSockets upgrade on the HTTP server, before the Express middleware: phones' (/ws/device,
  // authenticated by the device token in hello) and the live event socket (/ws/events, which checks
  // the API token itself).
  app.useWebSocketAdapter(new MobileClawWsAdapter(app));
  if (narrowedFrom !== undefined) {
    new Logger('DataDirectory').warn(`${config.dataDir} was readable by others (mode ${narrowedFrom.toString(8)}): narrowed to 700, it holds private task data`);
  }
  announce();
  if (config.scopedTokens.length > 0) new Logger('ApiTokens').log(scopedTokensSummary(config.scopedTokens));
  // The MCP routes (/mcp, /sse, /message) come first: they check their own origin, token and body,
  // and speak JSON-RPC errors, so neither the REST token check nor the JSON body parser touches them.
  app.use(app.get(McpHttpEndpoint).middleware);
  // Likewise the A2A face (the agent card, the JSON-RPC endpoint /a2a): its own token check and body.
  app.use(app.get(A2aHttpEndpoint).middleware);
  // Order matters: CORS answers preflights (which carry no token) and labels every answer, 401s
  // included; the API token is checked before any body is read; only then is the body parsed.
  if (config.corsOrigins.length > 0) {
    app.enableCors({ origin: config.corsOrigins, exposedHeaders: ['X-Request-Id', 'X-Frame-Id', 'X-Image-Width', 'X-Image-Height'] });
  }
  app.use(apiTokenMiddleware({ apiToken: config.apiToken, allowedHosts: config.allowedHosts, scopedTokens: config.scopedTokens }));
  app.use(requireJsonMediaType);
  app.use(refuseOversizedJsonBody(JSON_BODY_LIMIT_BYTES));
  app.use(requireUtf8JsonBody);
  // Not strict: a body of `null`, a number or a string parses, and the controller's validation
  // reports that the body must be a JSON object (rather than "not valid JSON").
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT_BYTES, strict: false, verify: verifyUtf8Body });
  app.disable('x-powered-by');
  // The REST API's OpenAPI document at /api/openapi.json, Swagger UI at /api/docs.
  setupOpenApi(app, { version: gatewayVersion() });
  // The live execution page (apps/web, beside this app in the workspace): static files at `/`.
  const webRoot = resolve(__dirname, '..', '..', 'web');
  for (const dir of ['public', 'dist']) app.useStaticAssets(join(webRoot, dir), { index: 'index.html', setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') });
  await app.listen(config.httpPort, config.httpHost);
  const httpPort = (app.getHttpServer().address() as { port: number }).port;
  const devicePort = tcpPort(tcp, config.devicePort);
  let simulator: SimulatedPhone | undefined;
  if (config.sim) {
    simulator = new SimulatedPhone({ host: '127.0.0.1', port: devicePort, token: deviceToken, deviceId: 'sim-1', reconnect: true });
    await simulator.start();
  }
  const adb = config.adb && startAdbWatcher({ server: config.adb.server, gateway: { host: '127.0.0.1', port: devicePort }, token: deviceToken, hub: app.get(DeviceHub) });
  let closing: Promise<void> | undefined;
  return {
    app,
    config,
    httpPort,
    devicePort,
    deviceSocketPath: ws?.path,
    deviceToken,
    simulator,
    adb,
    close: () =>
      (closing ??= (async () => {
        await adb?.stop();
        await simulator?.stop();
        await app.close();
      })()),
  };
}
