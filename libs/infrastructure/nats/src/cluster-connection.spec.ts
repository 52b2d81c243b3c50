import type { LoggerService } from '@nestjs/common';
import { startNatsServer, type NatsServer } from './testing';
import { connectCluster, natsCredentials, requiresTls, serversWithoutCredentials } from './cluster-connection';

const quiet: LoggerService = { log: () => undefined, warn: () => undefined, error: () => undefined };

describe('the server list of MOBILECLAW_NATS_URL', () => {
  it('reads a user and password, or a token, from the first entry that has them (URL-decoded)', () => {
    expect(natsCredentials('nats://gw:s%40cret@nats-1:4222,nats://nats-2:4222')).toEqual({ user: 'gw', pass: 's@cret' });
    expect(natsCredentials('nats-1:4222, nats://t0ken@nats-2:4222')).toEqual({ token: 't0ken' });
    expect(natsCredentials('nats://nats-1:4222')).toEqual({});
  });

  it('names the servers without any credentials, and requires TLS for all tls:// entries or none', () => {
    expect(serversWithoutCredentials('nats://gw:secret@nats-1:4222, t0ken@nats-2:4222')).toBe('nats://nats-1:4222, nats://nats-2:4222');
    expect(requiresTls('tls://a:4222,tls://b:4222')).toBe(true);
    expect(requiresTls('nats://a:4222')).toBe(false);
    expect(() => requiresTls('tls://a:4222,nats://b:4222')).toThrow('the NATS server list mixes tls:// and plain URLs: use tls:// for all of them or for none');
  });
});

describe('connectCluster to a server that requires a login', () => {
  let server: NatsServer;
  beforeAll(async () => {
    server = await startNatsServer({ auth: { user: 'gateway', password: 'p@ss word' } });
  });
  afterAll(() => server.stop());

  const url = (login: string) => `nats://${login}@127.0.0.1:${server.port}`;

  it('logs in with the user and password of the URL, and publishes and receives', async () => {
    const cluster = await connectCluster({ url: url(`gateway:${encodeURIComponent('p@ss word')}`), instanceId: 'gw-login', logger: quiet });
    try {
      const sub = cluster.nc.subscribe('login.check', { max: 1 });
      cluster.nc.publish('login.check', 'hello');
      for await (const msg of sub) expect(msg.string()).toBe('hello');
    } finally {
      await cluster.close();
    }
  });

  it('is refused with a wrong password or none', async () => {
    await expect(connectCluster({ url: url('gateway:wrong'), instanceId: 'gw-wrong', logger: quiet })).rejects.toThrow(/Authorization Violation/i);
    await expect(connectCluster({ url: `nats://127.0.0.1:${server.port}`, instanceId: 'gw-none', logger: quiet })).rejects.toThrow(/Authorization Violation/i);
  });
});
