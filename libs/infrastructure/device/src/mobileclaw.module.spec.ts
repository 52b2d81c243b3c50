import { DeviceHub } from './device-hub';
import { DeviceTransport, type DeviceConnectionAcceptor } from './frame-transport';
import { DeviceGatewayLifecycle } from './mobileclaw.module';
import { TEST_DEVICE_TOKEN } from './testing/message-transport';

/** A transport whose start fails with `failures` errors first, then succeeds. */
class FlakyTransport extends DeviceTransport {
  starts = 0;
  stops = 0;
  acceptor?: DeviceConnectionAcceptor;
  constructor(
    readonly name: string,
    private failures: string[],
  ) {
    super();
  }
  async start(acceptor: DeviceConnectionAcceptor): Promise<void> {
    this.starts++;
    const failure = this.failures.shift();
    if (failure !== undefined) throw new Error(failure);
    this.acceptor = acceptor;
  }
  async stop(): Promise<void> {
    this.stops++;
  }
}

describe('DeviceGatewayLifecycle (device listeners)', () => {
  const quiet = { log: () => undefined, error: () => undefined, warn: () => undefined, debug: () => undefined };
  let hub: DeviceHub;
  beforeEach(() => {
    jest.useFakeTimers();
    hub = new DeviceHub({ deviceToken: TEST_DEVICE_TOKEN }, { logger: quiet });
  });
  afterEach(() => {
    hub.shutdown();
    jest.useRealTimers();
  });

  it('without listenRetryMs, fails the start and stops the transports already started', async () => {
    const tcp = new FlakyTransport('tcp', []);
    const ws = new FlakyTransport('ws', ['listen EADDRINUSE: address already in use :::8080']);
    const lifecycle = new DeviceGatewayLifecycle(hub, [tcp, ws], { deviceToken: TEST_DEVICE_TOKEN });
    await expect(lifecycle.onApplicationBootstrap()).rejects.toThrow('EADDRINUSE');
    expect([tcp.stops, ws.stops]).toEqual([1, 0]);
    expect(lifecycle.states()).toEqual([
      { transport: 'tcp', listening: false },
      { transport: 'ws', listening: false, error: 'listen EADDRINUSE: address already in use :::8080' },
    ]);
  });

  it('with listenRetryMs, starts anyway, reports the failed transport and starts it again until it listens', async () => {
    const tcp = new FlakyTransport('tcp', ['listen EADDRINUSE: address already in use :::7397', 'listen EADDRINUSE: address already in use :::7397']);
    const lifecycle = new DeviceGatewayLifecycle(hub, [tcp], { deviceToken: TEST_DEVICE_TOKEN, listenRetryMs: 1000 });
    await lifecycle.onApplicationBootstrap();
    expect(lifecycle.states()).toEqual([{ transport: 'tcp', listening: false, error: 'listen EADDRINUSE: address already in use :::7397' }]);
    await jest.advanceTimersByTimeAsync(999);
    expect(tcp.starts).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(tcp.starts).toBe(2);
    expect(lifecycle.states()[0].listening).toBe(false);
    await jest.advanceTimersByTimeAsync(1000);
    expect(tcp.starts).toBe(3);
    expect(lifecycle.states()).toEqual([{ transport: 'tcp', listening: true }]);
    // Its connections reach the hub under its name.
    expect(tcp.acceptor).toBeDefined();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(tcp.starts).toBe(3);
    await lifecycle.beforeApplicationShutdown();
    expect(tcp.stops).toBe(1);
  });

  it('stops retrying at shutdown', async () => {
    const tcp = new FlakyTransport('tcp', ['EADDRINUSE']);
    const lifecycle = new DeviceGatewayLifecycle(hub, [tcp], { deviceToken: TEST_DEVICE_TOKEN, listenRetryMs: 1000 });
    await lifecycle.onApplicationBootstrap();
    await lifecycle.beforeApplicationShutdown();
    await jest.advanceTimersByTimeAsync(5000);
    expect([tcp.starts, tcp.stops]).toEqual([1, 0]);
  });
});
