import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ClusterDeviceService, DeviceDirectory, type ClusterConnection } from '@mobileclaw/cluster-nats';
import { startNatsServer, type NatsServer } from '@mobileclaw/cluster-nats/testing';
import { DeviceHub, MobileClawModule } from '@mobileclaw/device';
import { ClusterMember, MobileClawService } from '@mobileclaw/domain';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { TcpDeviceTransport } from '@mobileclaw/transport-tcp';
import { filter, firstValueFrom } from 'rxjs';
import { CLUSTER_CONNECTION, GatewayClusterModule } from './cluster.module';

const DEVICE_TOKEN = 'cluster-module-token-0123456789';

describe('GatewayClusterModule (two gateway apps, a real nats-server)', () => {
  let server: NatsServer;
  const apps: INestApplication[] = [];
  const phones: SimulatedPhone[] = [];

  beforeAll(async () => {
    server = await startNatsServer();
  });
  afterAll(async () => {
    await Promise.all(phones.map((phone) => phone.stop()));
    await Promise.all(apps.map((app) => app.close()));
    await server.stop();
  });

  async function gateway(instanceId: string): Promise<{ app: INestApplication; tcp: TcpDeviceTransport }> {
    const tcp = new TcpDeviceTransport({ port: 0, host: '127.0.0.1' });
    const moduleRef = await Test.createTestingModule({
      imports: [MobileClawModule.forRoot({ isGlobal: true, deviceToken: DEVICE_TOKEN, transports: [tcp] }), GatewayClusterModule.forRoot({ natsUrl: server.url, instanceId })],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    apps.push(app);
    return { app, tcp };
  }

  it("makes MobileClawService the cluster's: a phone on one instance is listed and operated through the other; shutdown closes the connection", async () => {
    const a = await gateway('a');
    const b = await gateway('b');
    expect(b.app.get(MobileClawService)).toBeInstanceOf(ClusterDeviceService);
    expect(b.app.get(MobileClawService)).not.toBe(b.app.get(DeviceHub));

    const directory = b.app.get(DeviceDirectory);
    const claimed = firstValueFrom(directory.changes$.pipe(filter((c) => c.type === 'claimed' && c.entry.deviceId === 'sim-a')));
    const phone = new SimulatedPhone({ token: DEVICE_TOKEN, deviceId: 'sim-a', port: a.tcp.port });
    phones.push(phone);
    await phone.start();
    await claimed;

    const service = b.app.get(MobileClawService);
    expect(await service.listDevices()).toEqual([expect.objectContaining({ deviceId: 'sim-a', status: 'online' })]);
    const result = await service.execute('sim-a', { command: 'home' });
    expect([result.deviceId, result.command, result.status]).toEqual(['sim-a', 'home', 'success']);

    const connection = a.app.get<ClusterConnection>(CLUSTER_CONNECTION);
    await a.app.close();
    apps.splice(apps.indexOf(a.app), 1);
    expect(connection.nc.isClosed()).toBe(true);
    expect(connection.linkUp).toBe(false);
  });

  it('claims its phones again after NATS restarted without its store, and reports the cluster member down while the link is', async () => {
    const c = await gateway('c');
    const d = await gateway('d');
    const member = c.app.get(ClusterMember);
    expect(member.state()).toEqual({ instanceId: 'c', link: 'up', heartbeat: 'renewing' });
    const directory = d.app.get(DeviceDirectory);
    const claimedByC = () => firstValueFrom(directory.changes$.pipe(filter((change) => change.type === 'claimed' && change.entry.deviceId === 'sim-c' && change.entry.instanceId === 'c')));
    const claimed = claimedByC();
    const phone = new SimulatedPhone({ token: DEVICE_TOKEN, deviceId: 'sim-c', port: c.tcp.port });
    phones.push(phone);
    await phone.start();
    await claimed;

    const connection = c.app.get<ClusterConnection>(CLUSTER_CONNECTION);
    const down = firstValueFrom(connection.link$.pipe(filter((state) => state === 'down')));
    await server.kill();
    await down;
    expect(member.state()).toEqual(expect.objectContaining({ instanceId: 'c', link: 'down' }));
    await rm(join(server.storeDir, 'jetstream'), { recursive: true, force: true });
    const claimedAgain = claimedByC();
    await server.restart();
    // The buckets are made anew and the phone's entry is back, with the epoch numbering started again.
    expect(await claimedAgain).toEqual({ type: 'claimed', entry: expect.objectContaining({ deviceId: 'sim-c', instanceId: 'c', epoch: 1 }) });
    const result = await d.app.get(MobileClawService).execute('sim-c', { command: 'home' });
    expect([result.deviceId, result.status]).toEqual(['sim-c', 'success']);
    expect(member.state()).toEqual({ instanceId: 'c', link: 'up', heartbeat: 'renewing' });
  });
});
