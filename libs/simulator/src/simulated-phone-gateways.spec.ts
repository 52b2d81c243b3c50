import { once } from 'node:events';
import net from 'node:net';
import type { GatewayAddress } from '@mobileclaw/phone-link';
import { TestGateway, type TestTransport } from '@mobileclaw/phone-link/testing';
import { SimulatedPhone, type SimulatedPhoneSettings } from './simulated-phone';
import { ManualReconnectTimers } from './testing';

/** A loopback port nothing listens on (bound, then released): connecting to it is refused. */
async function refusingPort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.each<TestTransport>(['tcp', 'ws'])('SimulatedPhone with several gateway addresses over real loopback %s servers', (transport) => {
  const addressAt = (port: number): GatewayAddress => (transport === 'tcp' ? { host: '127.0.0.1', port } : { url: `ws://127.0.0.1:${port}/ws/device` });
  const describeAt = (port: number): string => (transport === 'tcp' ? `127.0.0.1:${port}` : `ws://127.0.0.1:${port}/ws/device`);
  const gateways: TestGateway[] = [];
  const phones: SimulatedPhone[] = [];

  afterEach(async () => {
    await Promise.all(phones.splice(0).map((p) => p.stop()));
    await Promise.all(gateways.splice(0).map((g) => g.close()));
  });

  async function gatewayOn(port = 0): Promise<{ gateway: TestGateway; port: number }> {
    const gateway = new TestGateway(transport);
    gateways.push(gateway);
    return { gateway, port: await gateway.listen(port) };
  }

  function newPhone(ports: number[], settings: Partial<SimulatedPhoneSettings> = {}): { phone: SimulatedPhone; attempts: string[] } {
    const phone = new SimulatedPhone({ gateways: ports.map(addressAt), token: 'secret-token', ...settings });
    phones.push(phone);
    const attempts: string[] = [];
    phone.on('connecting', (address) => attempts.push(address));
    return { phone, attempts };
  }

  it('connects to the second address at once when the first refuses, and reports the address it uses', async () => {
    const first = await refusingPort();
    const { gateway, port: second } = await gatewayOn();
    const timers = new ManualReconnectTimers();
    const { phone, attempts } = newPhone([first, second], { reconnect: true, timers });
    expect(phone.gatewayAddresses).toEqual([addressAt(first), addressAt(second)]);
    expect(phone.gatewayAddress).toBe(describeAt(first));
    const started = phone.start();
    const side = await gateway.nextConnection();
    expect(await side.welcome('on-second')).toMatchObject({ type: 'hello', deviceId: 'sim-1' });
    await started;
    expect(phone.sessionId).toBe('on-second');
    expect(phone.gatewayAddress).toBe(describeAt(second));
    expect(attempts).toEqual([describeAt(first), describeAt(second)]);
    expect(timers.delays).toEqual([]);
  });

  it('moves on to the second address when the first closes the connection before welcome', async () => {
    const { gateway: closing, port: first } = await gatewayOn();
    const { gateway, port: second } = await gatewayOn();
    const { phone, attempts } = newPhone([first, second]);
    const started = phone.start();
    const dropped = await closing.nextConnection();
    await dropped.nextFrame();
    dropped.destroy();
    const side = await gateway.nextConnection();
    await side.welcome('on-second');
    await started;
    expect(phone.gatewayAddress).toBe(describeAt(second));
    expect(attempts).toEqual([describeAt(first), describeAt(second)]);
  });

  it('goes back to the first address after its backoff when the second dies', async () => {
    const first = await refusingPort();
    const { gateway: secondGateway, port: second } = await gatewayOn();
    const timers = new ManualReconnectTimers();
    const { phone, attempts } = newPhone([first, second], { reconnect: true, timers, backoff: { random: () => 0.5 } });
    const started = phone.start();
    const onSecond = await secondGateway.nextConnection();
    await onSecond.welcome('on-second');
    await started;

    // The first gateway comes up meanwhile; the second dies with the phone on it.
    const firstGateway = new TestGateway(transport);
    gateways.push(firstGateway);
    await firstGateway.listen(first);
    const scheduled = timers.nextSchedule();
    const closed = once(phone, 'close');
    await secondGateway.close();
    await closed;
    expect(await scheduled).toBe(750);
    expect(phone.gatewayAddress).toBe(describeAt(first));
    const rewelcomed = once(phone, 'welcome');
    timers.fire();
    const onFirst = await firstGateway.nextConnection();
    await onFirst.welcome('on-first');
    await rewelcomed;
    expect(phone.sessionId).toBe('on-first');
    expect(phone.connected).toBe(true);
    expect(attempts).toEqual([describeAt(first), describeAt(second), describeAt(first)]);
    expect(timers.delays).toEqual([750]);
  });

  it('waits the backoff only between rounds when every address refuses', async () => {
    const ports = [await refusingPort(), await refusingPort()];
    const timers = new ManualReconnectTimers();
    const { phone, attempts } = newPhone(ports, { reconnect: true, timers, backoff: { random: () => 0 } });
    const firstRound = timers.nextSchedule();
    const started = phone.start();
    expect(await firstRound).toBe(500);
    expect(attempts).toEqual([describeAt(ports[0]!), describeAt(ports[1]!)]);

    // The second address comes up before the next round: the round goes through the first again.
    const { gateway } = await gatewayOn(ports[1]);
    timers.fire();
    const side = await gateway.nextConnection();
    await side.welcome('round-2');
    await started;
    expect(attempts).toEqual([describeAt(ports[0]!), describeAt(ports[1]!), describeAt(ports[0]!), describeAt(ports[1]!)]);
    expect(timers.delays).toEqual([500]);
  });

  it('without reconnect, start() tries every address once and rejects naming them all', async () => {
    const ports = [await refusingPort(), await refusingPort()];
    const { phone, attempts } = newPhone(ports);
    await expect(phone.start()).rejects.toThrow(`connections to ${describeAt(ports[0]!)}, ${describeAt(ports[1]!)} closed before the gateway welcomed sim-1`);
    expect(attempts).toEqual([describeAt(ports[0]!), describeAt(ports[1]!)]);
    expect(phone.connected).toBe(false);
  });
});
