import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNatsServer, type NatsServer } from '@mobileclaw/cluster-nats/testing';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { RawPhone } from '@mobileclaw/transport-tcp/testing';
import { startPostgresServer, type PostgresServer } from '@mobileclaw/store-postgres/testing';
import { GatewayProcess } from '../support/gateway-process';
import { SseClient } from '../support/sse-client';

/** The device token every instance of a test cluster shares. */
export const CLUSTER_TOKEN = 'cluster-test-device-token-0123456789';
/** Task lease of the test cluster's instances, in ms (the smallest the gateway accepts). */
export const TASK_LEASE_MS = 3000;

/** One nats-server, one PostgreSQL database and gateway processes on them, one per instance id. */
export interface GatewayCluster {
  nats: NatsServer;
  postgres: PostgresServer;
  databaseUrl: string;
  /** The running gateways by instance id (a killed one stays until {@link start} replaces it). */
  gateways: Map<string, GatewayProcess>;
  /** Starts (or starts again, same data directory) the gateway of `instanceId`. */
  start(instanceId: string): Promise<GatewayProcess>;
  /** Stops every gateway (SIGTERM), then the servers, and removes the data directories. */
  stop(): Promise<void>;
}

/**
 * Starts a nats-server and a PostgreSQL server (their projects' test support), a database `database`
 * and one gateway process per id of `instanceIds` (`MOBILECLAW_SIM=off`, shared device token, lease
 * {@link TASK_LEASE_MS}), in parallel.
 */
export async function startGatewayCluster(database: string, instanceIds: string[]): Promise<GatewayCluster> {
  const [nats, postgres] = await Promise.all([startNatsServer(), startPostgresServer()]);
  const databaseUrl = await postgres.createDatabase(database);
  const dataDirs = new Map<string, string>();
  const gateways = new Map<string, GatewayProcess>();
  const start = async (instanceId: string): Promise<GatewayProcess> => {
    let dataDir = dataDirs.get(instanceId);
    if (dataDir === undefined) {
      dataDir = mkdtempSync(join(tmpdir(), `mobileclaw-cluster-${instanceId}-`));
      dataDirs.set(instanceId, dataDir);
    }
    const gateway = await GatewayProcess.start({
      MOBILECLAW_DATA_DIR: dataDir,
      MOBILECLAW_NATS_URL: nats.url,
      MOBILECLAW_DATABASE_URL: databaseUrl,
      MOBILECLAW_INSTANCE_ID: instanceId,
      MOBILECLAW_SIM: 'off',
      MOBILECLAW_DEVICE_TOKEN: CLUSTER_TOKEN,
      MOBILECLAW_TASK_LEASE_MS: String(TASK_LEASE_MS),
    });
    gateways.set(instanceId, gateway);
    return gateway;
  };
  await Promise.all(instanceIds.map(start));
  return {
    nats,
    postgres,
    databaseUrl,
    gateways,
    start,
    async stop() {
      await Promise.all([...gateways.values()].map((gateway) => gateway.stop()));
      await Promise.all([nats.stop(), postgres.stop()]);
      for (const dir of dataDirs.values()) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A simulated phone that tries `gateways` in order (device ports), reconnecting unless `reconnect` is
 * false, its first backoff short (50 ms) so that a failover is quick. Resolves once it is welcomed and
 * each gateway of `seenBy` has announced its session (`device.connected` on its device event stream:
 * from then on that instance lists the phone and routes commands to it).
 */
export async function connectPhone(deviceId: string, gateways: GatewayProcess[], options: { seenBy?: GatewayProcess[]; reconnect?: boolean } = {}): Promise<SimulatedPhone> {
  const phone = new SimulatedPhone({
    gateways: gateways.map((gateway) => ({ host: '127.0.0.1', port: gateway.devicePort })),
    token: CLUSTER_TOKEN,
    deviceId,
    reconnect: options.reconnect ?? true,
    backoff: { initialMs: 50, maxMs: 500 },
  });
  const streams = await Promise.all((options.seenBy ?? []).map((gateway) => deviceEvents(gateway)));
  try {
    await phone.start();
    await Promise.all(streams.map((stream) => announced(stream, phone.sessionId!)));
  } finally {
    for (const stream of streams) stream.close();
  }
  return phone;
}

/** A gateway's device event stream (`GET /api/devices/events`), open. */
export const deviceEvents = (gateway: GatewayProcess): Promise<SseClient> => SseClient.open(gateway.url('/api/devices/events'));

/** Resolves once `stream` shows `device.connected` of the session `sessionId`. */
export async function announced(stream: SseClient, sessionId: string): Promise<void> {
  await stream.next((e) => e.event === 'device.connected' && (JSON.parse(e.data) as { device?: { sessionId?: string } }).device?.sessionId === sessionId);
}

/**
 * A hand-driven phone ({@link RawPhone}: it answers nothing unless told, not even pings) connected to
 * `gateway` over TCP; resolves once welcomed and announced by each gateway of `seenBy`.
 */
export async function connectRawPhone(deviceId: string, gateway: GatewayProcess, seenBy: GatewayProcess[]): Promise<RawPhone> {
  const streams = await Promise.all(seenBy.map((other) => deviceEvents(other)));
  try {
    const { phone, welcome } = await RawPhone.hello(gateway.devicePort, deviceId, CLUSTER_TOKEN);
    await Promise.all(streams.map((stream) => announced(stream, welcome['sessionId'] as string)));
    return phone;
  } finally {
    for (const stream of streams) stream.close();
  }
}
