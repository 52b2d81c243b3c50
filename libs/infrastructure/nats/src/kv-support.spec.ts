import { jetstream } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createBucket } from './kv-support';
import { startNatsServer, type NatsServer } from './testing';

let server!: NatsServer;
const connections: NatsConnection[] = [];

beforeAll(async () => {
  server = await startNatsServer();
  for (let i = 0; i < 20; i++) connections.push(await connect({ servers: server.url }));
});
afterAll(async () => {
  for (const nc of connections) await nc.close();
  await server?.stop();
});

describe('createBucket', () => {
  it('gives every process one bucket when they all make it at the same moment (gateways started together)', async () => {
    // 20 processes, 30 rounds: without the retry JetStream refuses some late creation (10065) in most runs.
    for (let round = 1; round <= 30; round++) {
      const bucket = `together_${round}`;
      const made = await Promise.all(connections.map((nc) => createBucket(new Kvm(jetstream(nc)), bucket, { history: 1, ttl: 15_000 })));
      const created = await Promise.all(made.map(async (kv) => (await kv.status()).streamInfo.created));
      expect(new Set(created).size).toBe(1);
      // Every handle is on that one bucket: a value written through one is read through another.
      await made[0].put('key', 'value');
      expect((await made[made.length - 1].get('key'))?.string()).toBe('value');
    }
  });

  it('still fails on any other refusal', async () => {
    await expect(createBucket(new Kvm(jetstream(connections[0])), 'not a valid name', { history: 1 })).rejects.toThrow();
  });
});
