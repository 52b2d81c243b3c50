import { once } from 'node:events';
import { DeviceHub } from '@mobileclaw/device';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { ManualReconnectTimers } from '@mobileclaw/simulator/testing';
import { TcpDeviceTransport } from '@mobileclaw/transport-tcp';

const TOKEN = 'shared-id-device-token-0123456789';

/**
 * Two simulators started with the same prefix: both phones claim `phone-1` over real loopback TCP.
 * Each replaced phone waits out a growing backoff instead of taking the id back at once, so the id
 * answers commands between replacements, and the gateway warns about the flapping id once.
 */
describe('two simulated phones sharing one device id', () => {
  const warnings: string[] = [];
  const timers = new ManualReconnectTimers();
  let hub: DeviceHub;
  let listener: TcpDeviceTransport;
  let phones: SimulatedPhone[] = [];

  beforeEach(async () => {
    hub = new DeviceHub({ deviceToken: TOKEN }, { logger: { log: () => undefined, error: () => undefined, warn: (m: string) => void warnings.push(m) }, monotonicNow: () => timers.now() });
    listener = new TcpDeviceTransport({ port: 0, host: '127.0.0.1' });
    await listener.start(hub);
  });

  afterEach(async () => {
    await Promise.all(phones.map((p) => p.stop()));
    hub.shutdown();
    await listener.stop();
  });

  function phone(): SimulatedPhone {
    const p = new SimulatedPhone({ port: listener.port, token: TOKEN, deviceId: 'phone-1', reconnect: true, timers, backoff: { random: () => 0.5 } });
    phones.push(p);
    return p;
  }

  it('back off after each replacement instead of replacing each other at once, and the gateway warns once', async () => {
    phones = [phone(), phone()];
    const [first, second] = phones;
    const addresses: string[] = [];
    await first.start();
    addresses.push((await hub.getDevice('phone-1')).remoteAddress as string);
    const replaced = once(first, 'replaced');
    let scheduled = timers.nextSchedule();
    await second.start();
    await replaced;
    expect(await scheduled).toBe(750);

    for (let round = 0; round < 6; round++) {
      // While the replaced phone waits, the id is served by the other one.
      const result = await hub.execute('phone-1', { command: 'home' });
      expect(result.status).toBe('success');
      addresses.push((await hub.getDevice('phone-1')).remoteAddress as string);
      const waiting = round % 2 === 0 ? first : second;
      const welcomed = once(waiting, 'welcome');
      scheduled = timers.nextSchedule();
      timers.fire();
      await welcomed;
      await scheduled;
    }
    addresses.push((await hub.getDevice('phone-1')).remoteAddress as string);
    expect(timers.delays).toEqual([750, 750, 1500, 1500, 3000, 3000, 6000]);
    expect(timers.waiting).toBe(1);
    expect(warnings).toEqual([
      `device phone-1 is flapping between two connections (${addresses[3]} and ${addresses[4]}): its session was replaced 4 times within 60 s. ` +
        'Two phones probably use the same device id; give each its own (for the simulator: --prefix)',
    ]);
  });
});
