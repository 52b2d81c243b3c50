import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseUiHierarchyXml } from '@mobileclaw/ui-hierarchy';
import type { GatewayAddress } from '@mobileclaw/phone-link';
import { SimulatedPhone, type SimulatedPhoneSettings } from './simulated-phone';
import { ManualReconnectTimers } from './testing';
import { TestGateway, type GatewaySide, type Json, type TestTransport } from '@mobileclaw/phone-link/testing';

/** A simulated phone's options in these tests: its settings and, optionally, another gateway address. */
type PhoneOptions = Partial<SimulatedPhoneSettings> & { address?: GatewayAddress };

describe.each<TestTransport>(['tcp', 'ws'])('SimulatedPhone over a real loopback %s connection', (transport) => {
  let gateway: TestGateway;
  const phones: SimulatedPhone[] = [];

  /** Where a phone reaches a gateway of this transport on `port`. */
  const addressAt = (port: number): GatewayAddress => (transport === 'tcp' ? { port } : { url: `ws://127.0.0.1:${port}/ws/device` });

  beforeEach(async () => {
    gateway = new TestGateway(transport);
    await gateway.listen();
  });

  afterEach(async () => {
    await Promise.all(phones.splice(0).map((p) => p.stop()));
    await gateway.close();
  });

  function newPhone({ address = gateway.address, ...options }: PhoneOptions = {}): SimulatedPhone {
    const phone = new SimulatedPhone({ ...address, token: 'secret-token', ...options });
    phones.push(phone);
    return phone;
  }

  /** A started phone and its gateway side. */
  async function connectedPhone(options: PhoneOptions = {}): Promise<{ phone: SimulatedPhone; side: GatewaySide }> {
    const phone = newPhone(options);
    const started = phone.start();
    const side = await gateway.nextConnection();
    await side.welcome();
    await started;
    return { phone, side };
  }

  it('says hello with the protocol fields, and start() resolves on welcome', async () => {
    const phone = newPhone({ deviceId: 'pixel-sim.01', model: 'Test Model', screen: { width: 720, height: 1600, densityDpi: 320 } });
    expect(phone.connected).toBe(false);
    const started = phone.start();
    const side = await gateway.nextConnection();
    const hello = await side.nextFrame();
    expect(hello).toEqual({
      type: 'hello',
      protocolVersion: 1,
      deviceId: 'pixel-sim.01',
      token: 'secret-token',
      device: { model: 'Test Model', manufacturer: 'MobileClaw', android: '14', screen: { width: 720, height: 1600, densityDpi: 320, rotation: 0 } },
      capabilities: ['open', 'click', 'long_press', 'swipe', 'input', 'back', 'home', 'screenshot', 'ui_tree'],
      client: { name: 'mobileclaw-sim', version: '0.1.0' },
    });
    const welcomed = once(phone, 'welcome');
    side.send({ type: 'welcome', sessionId: 'abc-123', heartbeatIntervalMs: 15000, maxFrameBytes: 16777216 });
    await started;
    expect((await welcomed)[0]).toMatchObject({ sessionId: 'abc-123' });
    expect(phone.sessionId).toBe('abc-123');
    expect(phone.connected).toBe(true);
    expect(side.remoteAddress).toBe('127.0.0.1');
  });

  it('answers an action with the matching requestId, and the state changes', async () => {
    const { phone, side } = await connectedPhone();
    const actions: Json[] = [];
    phone.on('action', (a) => actions.push(a));
    side.send({ type: 'action', requestId: 'r-1', command: 'open', app: 'com.android.settings', timeoutMs: 30000 });
    expect(await side.nextFrame()).toEqual({ type: 'response', requestId: 'r-1', status: 'success', data: { package: 'com.android.settings', screen: 'settings' } });

    side.send({ type: 'action', requestId: 'r-2', command: 'ui_tree' });
    const tree = (await side.nextFrame()) as { requestId: string; data: { frameId: string; nodes: unknown[] } };
    expect(tree.requestId).toBe('r-2');
    const sw = phone.ui.centreOf((n) => n.class === 'android.widget.Switch' && n.desc === 'Wi-Fi');
    if (!sw) throw new Error('no Wi-Fi switch');

    side.send({ type: 'action', requestId: 'r-3', command: 'click', x: sw.x, y: sw.y, frameId: tree.data.frameId });
    expect(await side.nextFrame()).toMatchObject({ type: 'response', requestId: 'r-3', status: 'success', data: { hit: { class: 'android.widget.Switch' } } });
    expect(phone.ui.state.wifi).toBe(true);
    expect(actions.map((a) => a['requestId'])).toEqual(['r-1', 'r-2', 'r-3']);

    side.send({ type: 'action', requestId: 'r-4', command: 'fly' });
    expect(await side.nextFrame()).toMatchObject({ requestId: 'r-4', status: 'error', error: { code: 'UNSUPPORTED_COMMAND' } });
  });

  it('answers a screenshot action with a real PNG and STALE_FRAME after rotate', async () => {
    const { phone, side } = await connectedPhone();
    side.send({ type: 'action', requestId: 's-1', command: 'screenshot' });
    const shot = (await side.nextFrame()) as { data: { mime: string; base64: string; frameId: string; width: number } };
    expect(shot.data.mime).toBe('image/png');
    expect(Buffer.from(shot.data.base64, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
    phone.rotate(1);
    expect(await side.nextFrame()).toEqual({ type: 'event', event: 'screen_changed', data: { screen: { width: 2400, height: 1080, densityDpi: 420, rotation: 1 } } });
    side.send({ type: 'action', requestId: 's-2', command: 'click', x: 10, y: 10, frameId: shot.data.frameId });
    expect(await side.nextFrame()).toMatchObject({ requestId: 's-2', status: 'error', error: { code: 'STALE_FRAME' } });
  });

  it('replays a recorded screen: hello carries its size, ui_tree its nodes, actions are reported and change nothing', async () => {
    const recorded = parseUiHierarchyXml(readFileSync(path.resolve(__dirname, '../../../test/fixtures/screens/settings-top.xml'), 'utf8'));
    const phone = newPhone({ replay: recorded, screen: { width: 720, height: 1600, densityDpi: 320 } });
    const started = phone.start();
    const side = await gateway.nextConnection();
    expect(await side.welcome()).toMatchObject({ device: { screen: { width: 1080, height: 2088, densityDpi: 320, rotation: 0 } } });
    await started;
    const actions: Json[] = [];
    phone.on('action', (a) => actions.push(a));
    side.send({ type: 'action', requestId: 'p-1', command: 'ui_tree' });
    const tree = (await side.nextFrame()) as { data: { frameId: string; nodes: unknown; captureMs: number } };
    expect(tree.data.nodes).toEqual(recorded.nodes);
    expect(tree.data.captureMs).toEqual(expect.any(Number));
    side.send({ type: 'action', requestId: 'p-2', command: 'click', x: 540, y: 497, frameId: tree.data.frameId });
    expect(await side.nextFrame()).toEqual({ type: 'response', requestId: 'p-2', status: 'success', data: { hit: { id: 'n26', class: 'android.widget.LinearLayout' } } });
    side.send({ type: 'action', requestId: 'p-3', command: 'back' });
    expect(await side.nextFrame()).toEqual({ type: 'response', requestId: 'p-3', status: 'success', data: { screen: 'recorded' } });
    side.send({ type: 'action', requestId: 'p-4', command: 'ui_tree' });
    expect(((await side.nextFrame()) as { data: { nodes: unknown } }).data.nodes).toEqual(recorded.nodes);
    expect(actions.map((a) => [a['requestId'], a['command']])).toEqual([
      ['p-1', 'ui_tree'],
      ['p-2', 'click'],
      ['p-3', 'back'],
      ['p-4', 'ui_tree'],
    ]);
  });

  it('answers ping with pong carrying the same ts, ahead of a delayed reply', async () => {
    const { phone, side } = await connectedPhone();
    side.send({ type: 'ping', ts: 1712345678901 });
    expect(await side.nextFrame()).toEqual({ type: 'pong', ts: 1712345678901 });
    phone.faults.latencyMs = 300;
    side.send({ type: 'action', requestId: 'slow', command: 'back' });
    side.send({ type: 'ping', ts: 42 });
    expect(await side.nextFrame()).toEqual({ type: 'pong', ts: 42 });
    expect(await side.nextFrame()).toMatchObject({ requestId: 'slow', status: 'success' });
  });

  it('ignores error frames and malformed lines from the gateway once welcomed', async () => {
    const lines: string[] = [];
    const { phone, side } = await connectedPhone({ log: (l) => lines.push(l) });
    side.send({ type: 'error', code: 'PROTOCOL_ERROR', message: 'something odd' });
    side.sendText('not json');
    side.send({ type: 'action', requestId: 'after', command: 'home' });
    expect(await side.nextFrame()).toMatchObject({ requestId: 'after', status: 'success' });
    expect(phone.connected).toBe(true);
    expect(lines.some((l) => l.includes('PROTOCOL_ERROR'))).toBe(true);
    expect(lines.some((l) => l.includes('malformed JSON'))).toBe(true);
  });

  describe('faults, as seen on the wire', () => {
    it('latencyMs delays the reply', async () => {
      const { phone, side } = await connectedPhone({ faults: { latencyMs: 200 } });
      expect(phone.faults.latencyMs).toBe(200);
      const sent = performance.now();
      side.send({ type: 'action', requestId: 'l-1', command: 'home' });
      expect(await side.nextFrame()).toMatchObject({ requestId: 'l-1', status: 'success' });
      expect(performance.now() - sent).toBeGreaterThanOrEqual(190);
    });

    it('cancel abandons an action still waiting out its latency', async () => {
      const { phone, side } = await connectedPhone({ faults: { latencyMs: 150 } });
      side.send({ type: 'action', requestId: 'c-1', command: 'open', app: 'com.android.settings' });
      side.send({ type: 'cancel', requestId: 'c-1' });
      side.send({ type: 'action', requestId: 'c-2', command: 'ui_tree' });
      expect(await side.nextFrame()).toMatchObject({ requestId: 'c-2', status: 'success' });
      // c-1 was never performed (it would have opened Settings) nor answered.
      expect(phone.ui.state.screen).toBe('launcher');
      expect(side.buffered).toBe(0);
    });

    it('errorReply answers every action with that error', async () => {
      const { phone, side } = await connectedPhone();
      phone.faults.errorReply = { code: 'SIM_BROKEN', message: 'injected' };
      side.send({ type: 'action', requestId: 'e-1', command: 'open', app: 'com.android.settings' });
      expect(await side.nextFrame()).toEqual({ type: 'response', requestId: 'e-1', status: 'error', error: { code: 'SIM_BROKEN', message: 'injected' } });
      expect(phone.ui.state.screen).toBe('launcher');
    });

    it('neverReply swallows the action', async () => {
      const { phone, side } = await connectedPhone({ faults: { neverReply: true } });
      const arrived = once(phone, 'action');
      side.send({ type: 'action', requestId: 'n-1', command: 'home' });
      await arrived;
      phone.faults.neverReply = false;
      side.send({ type: 'action', requestId: 'n-2', command: 'home' });
      expect(await side.nextFrame()).toMatchObject({ requestId: 'n-2' });
      expect(side.buffered).toBe(0);
    });

    it('replyTwice sends the same response twice', async () => {
      const { side } = await connectedPhone({ faults: { replyTwice: true } });
      side.send({ type: 'action', requestId: 't-1', command: 'back' });
      const first = await side.nextLine();
      const second = await side.nextLine();
      expect(second).toBe(first);
      expect(JSON.parse(first)).toEqual({ type: 'response', requestId: 't-1', status: 'success', data: { screen: 'launcher' } });
    });

    it('oversizedReplyBytes pads a success response to exactly that many bytes', async () => {
      const { phone, side } = await connectedPhone({ faults: { oversizedReplyBytes: 100_000 } });
      side.send({ type: 'action', requestId: 'o-1', command: 'open', app: 'com.android.contacts' });
      const line = await side.nextLine();
      expect(Buffer.byteLength(line)).toBe(100_000);
      const frame = JSON.parse(line) as { requestId: string; status: string; data: { padding: string } };
      expect(frame).toMatchObject({ requestId: 'o-1', status: 'success' });
      expect(frame.data.padding.length).toBeGreaterThan(99_000);
      // The command itself was performed.
      expect(phone.ui.state.screen).toBe('contacts');
    });

    it('garbageLineBeforeReply writes a non-JSON line before the reply', async () => {
      const { side } = await connectedPhone({ faults: { garbageLineBeforeReply: true } });
      side.send({ type: 'action', requestId: 'g-1', command: 'home' });
      const garbage = await side.nextLine();
      expect(() => JSON.parse(garbage)).toThrow();
      expect(await side.nextFrame()).toMatchObject({ requestId: 'g-1', status: 'success' });
    });

    it('dropConnectionOnCommand closes the socket without replying, then reconnects when enabled', async () => {
      const timers = new ManualReconnectTimers();
      const { phone, side } = await connectedPhone({ reconnect: true, timers, backoff: { random: () => 0.5 }, faults: { dropConnectionOnCommand: true } });
      const phoneClosed = once(phone, 'close');
      const scheduled = timers.nextSchedule();
      side.send({ type: 'action', requestId: 'd-1', command: 'home' });
      await side.closed;
      await phoneClosed;
      expect(side.buffered).toBe(0);
      expect(phone.connected).toBe(false);
      expect(await scheduled).toBe(750);

      phone.faults.dropConnectionOnCommand = false;
      timers.fire();
      const again = await gateway.nextConnection();
      const rewelcomed = once(phone, 'welcome');
      const hello = await again.welcome('session-2');
      expect(hello).toMatchObject({ type: 'hello', deviceId: 'sim-1' });
      await rewelcomed;
      expect(phone.sessionId).toBe('session-2');
      again.send({ type: 'action', requestId: 'd-2', command: 'home' });
      expect(await again.nextFrame()).toMatchObject({ requestId: 'd-2', status: 'success' });
    });
  });

  it('start() rejects with UNAUTHORIZED when the gateway refuses the hello', async () => {
    const phone = newPhone({ token: 'wrong', reconnect: true });
    const started = phone.start();
    const side = await gateway.nextConnection();
    await side.nextFrame();
    side.send({ type: 'error', code: 'UNAUTHORIZED', message: 'bad device token' });
    side.end();
    await expect(started).rejects.toThrow(/UNAUTHORIZED/);
    await side.closed;
    expect(phone.connected).toBe(false);
  });

  it('start() rejects when the gateway closes before welcome, or is not listening', async () => {
    const phone = newPhone();
    const started = phone.start();
    const side = await gateway.nextConnection();
    await side.nextFrame();
    side.destroy();
    await expect(started).rejects.toThrow(/closed before/);

    const free = net.createServer();
    free.listen(0, '127.0.0.1');
    await once(free, 'listening');
    const freePort = free.address() as net.AddressInfo;
    await new Promise((resolve) => free.close(resolve));
    await expect(newPhone({ address: addressAt(freePort.port) }).start()).rejects.toThrow(/closed before/);
  });

  it('with reconnect, keeps trying until the gateway is up', async () => {
    const late = new TestGateway(transport);
    const spare = net.createServer();
    spare.listen(0, '127.0.0.1');
    await once(spare, 'listening');
    const latePort = (spare.address() as net.AddressInfo).port;
    await new Promise((resolve) => spare.close(resolve));

    const timers = new ManualReconnectTimers();
    const phone = newPhone({ address: addressAt(latePort), reconnect: true, timers, backoff: { random: () => 0 } });
    const closes: boolean[] = [];
    phone.on('close', (hadError) => closes.push(hadError));
    const failed = timers.nextSchedule();
    const started = phone.start();
    // The first attempts fail (nothing listens), each waiting twice as long; then the gateway comes up and a retry succeeds.
    await failed;
    const failedAgain = timers.nextSchedule();
    timers.fire();
    await failedAgain;
    await late.listen(latePort);
    timers.fire();
    const side = await late.nextConnection();
    await side.welcome('late-session');
    await started;
    expect(phone.sessionId).toBe('late-session');
    expect(closes).toEqual([]);
    expect(timers.delays).toEqual([500, 1000]);
    await phone.stop();
    await late.close();
  });

  describe('reconnect backoff', () => {
    it('waits the backoff after DEVICE_REPLACED (never at once), and a replaced connection does not reset it', async () => {
      const timers = new ManualReconnectTimers();
      const replaced: string[] = [];
      const { phone, side } = await connectedPhone({ reconnect: true, timers, backoff: { random: () => 0.5 } });
      phone.on('replaced', (message) => replaced.push(message));
      let current = side;
      for (const [index, expected] of [750, 1500, 3000].entries()) {
        // Up a whole minute, yet replaced by another phone with the same id: the backoff keeps growing.
        timers.advance(60_000);
        const scheduled = timers.nextSchedule();
        current.send({ type: 'error', code: 'DEVICE_REPLACED', message: `replaced by session other-${index}` });
        current.end();
        expect(await scheduled).toBe(expected);
        expect(phone.connected).toBe(false);
        expect(timers.waiting).toBe(1);
        timers.fire();
        current = await gateway.nextConnection();
        const welcomed = once(phone, 'welcome');
        await current.welcome(`session-${index + 2}`);
        await welcomed;
      }
      expect(replaced).toEqual(['replaced by session other-0', 'replaced by session other-1', 'replaced by session other-2']);

      // A connection that stayed up 30 s and simply dropped resets it.
      timers.advance(30_000);
      const scheduled = timers.nextSchedule();
      current.destroy();
      expect(await scheduled).toBe(750);
      expect(timers.delays).toEqual([750, 1500, 3000, 750]);
    });

    it('keeps growing the backoff for connections that drop within 30 s of their welcome', async () => {
      const timers = new ManualReconnectTimers();
      const { phone, side } = await connectedPhone({ reconnect: true, timers, backoff: { random: () => 0 } });
      let current = side;
      for (let i = 0; i < 3; i++) {
        timers.advance(29_999);
        const scheduled = timers.nextSchedule();
        current.destroy();
        await scheduled;
        timers.fire();
        current = await gateway.nextConnection();
        const welcomed = once(phone, 'welcome');
        await current.welcome();
        await welcomed;
      }
      expect(timers.delays).toEqual([500, 1000, 2000]);
    });
  });

  it('stop() closes the socket and does not reconnect', async () => {
    const lines: string[] = [];
    const timers = new ManualReconnectTimers();
    const { phone, side } = await connectedPhone({ reconnect: true, timers, log: (line) => lines.push(line) });
    await phone.stop();
    await side.closed;
    expect(phone.connected).toBe(false);
    expect(lines.some((l) => l.includes('connection closed'))).toBe(true);
    expect(lines.some((l) => l.includes('reconnecting'))).toBe(false);
    expect(timers.delays).toEqual([]);
  });
});
