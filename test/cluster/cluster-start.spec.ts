import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { GatewayProcess } from '../support/gateway-process';
import { CLUSTER_TOKEN, connectPhone, startGatewayCluster, type GatewayCluster } from './gateway-cluster';

/**
 * How a gateway joins its cluster at start, and how readiness reports its membership: an instance id
 * in use, a NATS server out of reach (credentials never shown), `tls://` against a server without
 * TLS, and the `cluster` indicator of `/health/ready`.
 */
let cluster: GatewayCluster;
let first: GatewayProcess;
const phones: SimulatedPhone[] = [];
const dataDirs: string[] = [];

beforeAll(async () => {
  cluster = await startGatewayCluster('cluster_start', ['gw-1']);
  first = cluster.gateways.get('gw-1')!;
}, 120_000);

afterAll(async () => {
  for (const phone of phones) await phone.stop();
  await cluster?.stop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** The output of a gateway started with `env` (in a data directory of its own) that exits with 1 before it listens. */
function failedStart(env: Record<string, string>): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-cluster-start-'));
  dataDirs.push(dataDir);
  return GatewayProcess.failedStart({ MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_SIM: 'off', MOBILECLAW_DEVICE_TOKEN: CLUSTER_TOKEN, ...env });
}

describe('a gateway joining its cluster', () => {
  it('refuses to start with an instance id another live process holds, leaving that process and its phones untouched', async () => {
    const phone = await connectPhone('start-p1', [first], { seenBy: [first] });
    phones.push(phone);
    const output = await failedStart({ MOBILECLAW_NATS_URL: cluster.nats.url, MOBILECLAW_DATABASE_URL: cluster.databaseUrl, MOBILECLAW_INSTANCE_ID: 'gw-1' });
    // One line (the log of the wait before the refusal is not written: the refusal says it all), and
    // nothing written into its data directory (no device token).
    expect(output).toMatch(/^mobileclaw: MOBILECLAW_INSTANCE_ID=gw-1 is in use by another live gateway process \(it renewed its key \d+ ms ago\): give every instance its own MOBILECLAW_INSTANCE_ID\n$/);
    expect(readdirSync(dataDirs.at(-1)!)).toEqual([]);
    // Nothing of the app was built (no task service start-up): the first instance serves its phone as before.
    expect(await first.api('GET', '/api/devices/start-p1')).toMatchObject({ status: 200, body: { deviceId: 'start-p1', status: 'online' } });
    expect(await first.api('POST', '/api/devices/start-p1/commands', { command: 'home' })).toMatchObject({ status: 200, body: { status: 'success' } });
    expect(await first.api('GET', '/health/ready')).toMatchObject({ status: 200, body: { status: 'ok', info: { cluster: { status: 'up', instanceId: 'gw-1', link: 'up', heartbeat: 'renewing' } } } });
  });

  it('names MOBILECLAW_NATS_URL, without its credentials, in one line when the server cannot be reached', async () => {
    const output = await failedStart({ MOBILECLAW_NATS_URL: 'nats://operator:s3cret-pass@127.0.0.1:1', MOBILECLAW_INSTANCE_ID: 'gw-x' });
    expect(output).toBe("mobileclaw: cannot reach the cluster's NATS server at MOBILECLAW_NATS_URL (nats://127.0.0.1:1): connection refused\n");
  });

  it('requires TLS for tls:// URLs: a server without TLS is refused', async () => {
    const output = await failedStart({ MOBILECLAW_NATS_URL: `tls://127.0.0.1:${cluster.nats.port}`, MOBILECLAW_INSTANCE_ID: 'gw-tls' });
    expect(output).toBe(`mobileclaw: cannot reach the cluster's NATS server at MOBILECLAW_NATS_URL (tls://127.0.0.1:${cluster.nats.port}): server does not support 'tls'\n`);
  });

  it("reports readiness down (503, indicator 'cluster') while the link to NATS is down", async () => {
    const down = first.nextLog(/the cluster link \(NATS [^)]*\) is down/);
    await cluster.nats.kill();
    await down;
    expect(await first.api('GET', '/health/ready')).toMatchObject({
      status: 503,
      body: { status: 'error', error: { cluster: { status: 'down', instanceId: 'gw-1', link: 'down' } } },
    });
    // Liveness stays: the process answers, it is only out of the cluster.
    expect(await first.api('GET', '/health/live')).toMatchObject({ status: 200 });
    await cluster.nats.restart();
  });
});
