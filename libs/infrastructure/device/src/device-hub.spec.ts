import { Logger, type LoggerService } from '@nestjs/common';
import type { DeviceEvent, DeviceLoad } from '@mobileclaw/domain';
import { DeviceMetrics, MobileClawError } from '@mobileclaw/domain';
import { DeviceHub } from './device-hub';
import type { DeviceGatewayOptions } from './options';
import { connectPhone, helloFrame, MessageTransport, TEST_DEVICE_TOKEN, type Json } from './testing/message-transport';

const quietLogger = { log: () => undefined, error: () => undefined, warn: () => undefined };

/** The rejection of `promise` (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<MobileClawError> {
  const outcome = await promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  if (!(outcome instanceof MobileClawError)) throw outcome;
  return outcome;
}

/** Lets `promise` reject later (at shutdown) without an unhandled rejection. */
function settleLater(promise: Promise<unknown>): void {
  promise.catch(() => undefined);
}

/** Settles nothing: reports whether `promise` is still pending after the microtasks run. */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await Promise.resolve();
  await Promise.resolve();
  return !settled;
}

describe('DeviceHub and DeviceSession (in memory, fake timers)', () => {
  let hub!: DeviceHub;
  let events: DeviceEvent[];

  function start(options: Partial<DeviceGatewayOptions> = {}): void {
    hub?.shutdown();
    hub = new DeviceHub({ deviceToken: TEST_DEVICE_TOKEN, ...options }, { logger: quietLogger });
    events = [];
    hub.events$.subscribe((e) => events.push(e));
  }

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00.000Z') });
    start();
  });
  afterEach(() => {
    hub.shutdown();
    jest.useRealTimers();
  });

  describe('a frame naming another request id', () => {
    it('a malformed reply naming another id is a protocol error that leaves the caller in flight alone', async () => {
      const phone = connectPhone(hub, 'p1');
      const result = hub.execute('p1', { command: 'home' });
      phone.deliver({ type: 'response', requestId: 'someone-else', status: 'bogus' });
      expect(phone.lastOfType('error')).toEqual({ type: 'error', code: 'PROTOCOL_ERROR', message: 'response: "status" must be "success" or "error"' });
      expect(await pending(result)).toBe(true);
      phone.succeedLast({ ok: 1 });
      await expect(result).resolves.toMatchObject({ status: 'success', data: { ok: 1 } });
    });

    it('an oversized reply naming another id leaves the caller in flight alone; the phone is told that id', async () => {
      start({ maxFrameBytes: 1024 });
      const phone = connectPhone(hub, 'p1');
      const result = hub.execute('p1', { command: 'screenshot' });
      phone.deliver({ type: 'response', requestId: 'someone-else', status: 'success', data: { base64: 'A'.repeat(2000) } });
      expect(phone.lastOfType('error')).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', requestId: 'someone-else' });
      expect(hub.stats().oversizedFrames).toBe(1);
      expect(await pending(result)).toBe(true);
      phone.succeedLast({});
      await expect(result).resolves.toMatchObject({ status: 'success' });
    });

    it('a malformed reply naming the id in flight fails that caller at once and sends the next command', async () => {
      const phone = connectPhone(hub, 'p1');
      const first = hub.execute('p1', { command: 'home' });
      const second = hub.execute('p1', { command: 'back' });
      const id = phone.lastOfType('action')?.['requestId'];
      phone.deliver({ type: 'response', requestId: id, status: 'bogus' });
      const error = await failure(first);
      expect([error.code, error.message]).toEqual(['PROTOCOL_ERROR', 'malformed reply: response: "status" must be "success" or "error"']);
      expect(phone.lastOfType('action')).toMatchObject({ command: 'back' });
      phone.succeedLast();
      await expect(second).resolves.toMatchObject({ command: 'back' });
    });

    it('an oversized frame naming no id fails nobody and is reported without a requestId', async () => {
      start({ maxFrameBytes: 1024 });
      const phone = connectPhone(hub, 'p1');
      const result = hub.execute('p1', { command: 'home' });
      phone.deliver({ type: 'event', event: 'log', data: { text: 'x'.repeat(2000) } });
      const error = phone.lastOfType('error') as Json;
      expect(error).toEqual({ type: 'error', code: 'PAYLOAD_TOO_LARGE', message: `frame of ${JSON.stringify({ type: 'event', event: 'log', data: { text: 'x'.repeat(2000) } }).length} bytes exceeds 1024 bytes` });
      expect(await pending(result)).toBe(true);
    });
  });

  describe('queue', () => {
    it('a queued command that expires leaves the queue at once, so the next one is not refused DEVICE_BUSY', async () => {
      start({ queueLimit: 1 });
      const phone = connectPhone(hub, 'p1');
      const first = hub.execute('p1', { command: 'home' });
      const queued = hub.execute('p1', { command: 'back' }, { timeoutMs: 100 });
      expect((await hub.getDevice('p1')).queueLength).toBe(1);
      jest.advanceTimersByTime(100);
      const error = await failure(queued);
      expect([error.code, error.message]).toEqual(['TIMEOUT', 'no reply within 100 ms']);
      expect((await hub.getDevice('p1')).queueLength).toBe(0);
      expect(hub.stats()).toMatchObject({ timeouts: 1, pending: 1 });
      const third = hub.execute('p1', { command: 'screenshot' });
      phone.succeedLast();
      await first;
      expect(phone.ofType('action').map((a) => a['command'])).toEqual(['home', 'screenshot']);
      phone.succeedLast();
      await expect(third).resolves.toMatchObject({ command: 'screenshot' });
    });

    it('a queued command that is aborted leaves the queue at once, without a cancel frame', async () => {
      start({ queueLimit: 1 });
      const phone = connectPhone(hub, 'p1');
      settleLater(hub.execute('p1', { command: 'home' }));
      const controller = new AbortController();
      const queued = hub.execute('p1', { command: 'back' }, { signal: controller.signal });
      controller.abort();
      const error = await failure(queued);
      expect([error.code, error.message]).toEqual(['ABORTED', 'aborted by the caller']);
      expect((await hub.getDevice('p1')).queueLength).toBe(0);
      expect(phone.ofType('cancel')).toEqual([]);
      const third = hub.execute('p1', { command: 'screenshot' });
      expect(await pending(third)).toBe(true);
      expect(hub.stats().pending).toBe(2);
    });

    it('an in-flight command that expires is cancelled on the phone and the next one goes out with its remaining time', async () => {
      const phone = connectPhone(hub, 'p1');
      const first = hub.execute('p1', { command: 'home' }, { timeoutMs: 500 });
      const firstId = phone.lastOfType('action')?.['requestId'];
      jest.advanceTimersByTime(200);
      const second = hub.execute('p1', { command: 'back' }, { timeoutMs: 1000 });
      jest.advanceTimersByTime(300);
      expect((await failure(first)).code).toBe('TIMEOUT');
      expect(phone.lastOfType('cancel')).toEqual({ type: 'cancel', requestId: firstId });
      expect(phone.lastOfType('action')).toMatchObject({ command: 'back', timeoutMs: 700 });
      phone.succeedLast();
      await expect(second).resolves.toMatchObject({ durationMs: 300, queuedMs: 300 });
    });

    it('queueLimit 0: one command in flight, none waiting', async () => {
      start({ queueLimit: 0 });
      const phone = connectPhone(hub, 'p1');
      const first = hub.execute('p1', { command: 'home' });
      const error = await failure(hub.execute('p1', { command: 'back' }));
      expect([error.code, error.message]).toEqual(['DEVICE_BUSY', 'device p1 has 0 commands queued']);
      phone.succeedLast();
      await first;
      const again = hub.execute('p1', { command: 'back' });
      phone.succeedLast();
      await expect(again).resolves.toMatchObject({ command: 'back' });
    });

    it('refuses beyond queueLimit while the phone is busy', async () => {
      start({ queueLimit: 2 });
      connectPhone(hub, 'p1');
      settleLater(hub.execute('p1', { command: 'home' }));
      settleLater(hub.execute('p1', { command: 'home' }));
      settleLater(hub.execute('p1', { command: 'home' }));
      expect((await failure(hub.execute('p1', { command: 'home' }))).code).toBe('DEVICE_BUSY');
      expect(hub.stats().pending).toBe(3);
    });
  });

  describe('settling', () => {
    it('after success the deadline timer and the abort listener are gone', async () => {
      const phone = connectPhone(hub, 'p1');
      const timersIdle = jest.getTimerCount();
      const controller = new AbortController();
      const add = jest.spyOn(controller.signal, 'addEventListener');
      const remove = jest.spyOn(controller.signal, 'removeEventListener');
      const result = hub.execute('p1', { command: 'home' }, { signal: controller.signal });
      expect(jest.getTimerCount()).toBe(timersIdle + 1);
      phone.succeedLast();
      await result;
      expect(jest.getTimerCount()).toBe(timersIdle);
      expect(remove).toHaveBeenCalledWith('abort', add.mock.calls[0]?.[1]);
      controller.abort();
      expect(phone.ofType('cancel')).toEqual([]);
    });

    it('durationMs and queuedMs are measured from the call, queue time included', async () => {
      const phone = connectPhone(hub, 'p1');
      const first = hub.execute('p1', { command: 'home' });
      jest.advanceTimersByTime(40);
      const second = hub.execute('p1', { command: 'back' });
      jest.advanceTimersByTime(60);
      phone.succeedLast();
      await expect(first).resolves.toMatchObject({ durationMs: 100, queuedMs: 0, deviceId: 'p1', command: 'home', status: 'success' });
      expect(phone.lastOfType('action')).toMatchObject({ command: 'back', timeoutMs: 30_000 - 60 });
      jest.advanceTimersByTime(25);
      phone.succeedLast();
      await expect(second).resolves.toMatchObject({ durationMs: 85, queuedMs: 60 });
    });

    it('a reply after the deadline is dropped and counted', async () => {
      const phone = connectPhone(hub, 'p1');
      const result = hub.execute('p1', { command: 'home' }, { timeoutMs: 10 });
      const id = phone.lastOfType('action')?.['requestId'];
      jest.advanceTimersByTime(10);
      expect((await failure(result)).code).toBe('TIMEOUT');
      phone.deliver({ type: 'response', requestId: id, status: 'success' });
      expect(hub.stats().droppedReplies).toBe(1);
    });
  });

  describe('heartbeat', () => {
    beforeEach(() => start({ heartbeatIntervalMs: 1000 }));

    it('pings at once after the handshake and then once per interval, even while the phone keeps talking', () => {
      const phone = connectPhone(hub, 'p1');
      expect(phone.ofType('ping')).toHaveLength(1);
      for (let t = 0; t < 5; t++) {
        jest.advanceTimersByTime(500);
        phone.deliver({ type: 'event', event: 'tick' });
        jest.advanceTimersByTime(500);
        phone.deliver({ type: 'pong', ts: phone.lastOfType('ping')?.['ts'] });
      }
      expect(phone.ofType('ping')).toHaveLength(6);
      expect(phone.ended).toBe(false);
    });

    it('measures the RTT of a pong delayed by a known time and reports it', async () => {
      const phone = connectPhone(hub, 'p1');
      const ping = phone.lastOfType('ping') as Json;
      expect(ping['ts']).toBe(Date.now());
      jest.advanceTimersByTime(37);
      phone.deliver({ type: 'pong', ts: ping['ts'] });
      expect((await hub.getDevice('p1')).rttMs).toBe(37);
      expect(events.filter((e) => e.type === 'device.heartbeat')).toEqual([{ type: 'device.heartbeat', deviceId: 'p1', rttMs: 37, at: new Date().toISOString() }]);
    });

    it('ignores a stale pong, a second pong for the same ping, an unsolicited one and one without ts', async () => {
      const phone = connectPhone(hub, 'p1');
      const old = phone.lastOfType('ping')?.['ts'];
      jest.advanceTimersByTime(1000);
      const current = phone.lastOfType('ping')?.['ts'];
      expect(current).toBe(old + 1000);
      phone.deliver({ type: 'pong', ts: old });
      expect((await hub.getDevice('p1')).rttMs).toBeUndefined();
      jest.advanceTimersByTime(5);
      phone.deliver({ type: 'pong', ts: current });
      jest.advanceTimersByTime(5);
      phone.deliver({ type: 'pong', ts: current });
      phone.deliver({ type: 'pong', ts: -1 });
      phone.deliver({ type: 'pong', ts: 12345 });
      phone.deliver({ type: 'pong' });
      expect((await hub.getDevice('p1')).rttMs).toBe(5);
      expect(events.filter((e) => e.type === 'device.heartbeat')).toHaveLength(1);
    });

    it('answers a ping with a pong carrying its ts', () => {
      const phone = connectPhone(hub, 'p1');
      phone.deliver({ type: 'ping', ts: 42 });
      expect(phone.lastOfType('pong')).toEqual({ type: 'pong', ts: 42 });
    });

    it('closes a phone silent for two intervals (destroying the connection), not before', async () => {
      const phone = connectPhone(hub, 'p1');
      const result = hub.execute('p1', { command: 'home' });
      jest.advanceTimersByTime(1999);
      expect(phone.ended).toBe(false);
      jest.advanceTimersByTime(1);
      expect(phone.destroyed).toBe(true);
      const error = await failure(result);
      expect([error.code, error.message]).toEqual(['DEVICE_DISCONNECTED', 'device disconnected: no frame for 2000 ms (heartbeat)']);
      expect(events.at(-1)).toMatchObject({ type: 'device.disconnected', deviceId: 'p1', reason: 'no frame for 2000 ms (heartbeat)' });
    });

    it('sweeps every quarter interval (at least 5 ms, at most 1 s)', () => {
      start({ heartbeatIntervalMs: 8 });
      const phone = connectPhone(hub, 'p1');
      jest.advanceTimersByTime(5);
      expect(phone.ofType('ping')).toHaveLength(1);
      jest.advanceTimersByTime(5);
      expect(phone.ofType('ping')).toHaveLength(2);
      start({ heartbeatIntervalMs: 60_000 });
      const slow = connectPhone(hub, 'p2');
      jest.advanceTimersByTime(60_000);
      expect(slow.ofType('ping')).toHaveLength(2);
      jest.advanceTimersByTime(999);
      expect(slow.ofType('ping')).toHaveLength(2);
      // A phone that connects between two sweeps is pinged at the first sweep after its interval.
      jest.advanceTimersByTime(501);
      const late = connectPhone(hub, 'p3');
      jest.advanceTimersByTime(60_499);
      expect(late.ofType('ping')).toHaveLength(1);
      jest.advanceTimersByTime(1);
      expect(late.ofType('ping')).toHaveLength(2);
    });
  });

  describe('lifecycle', () => {
    it('shutdown closes connections still in their handshake, fails every caller and completes the events', async () => {
      const early = new MessageTransport('memory:early');
      early.session = hub.accept(early);
      const phone = connectPhone(hub, 'p1');
      const inFlight = hub.execute('p1', { command: 'home' });
      const queued = hub.execute('p1', { command: 'back' });
      let completed = false;
      hub.events$.subscribe({ complete: () => (completed = true) });
      hub.shutdown();
      expect(early.ended).toBe(true);
      expect(early.session.state).toBe('closed');
      expect(phone.ended).toBe(true);
      for (const result of [inFlight, queued]) {
        const error = await failure(result);
        expect([error.code, error.message]).toEqual(['SHUTTING_DOWN', 'gateway shutting down: all sessions are being closed']);
      }
      // Subscribers see the stream complete, not one disconnect per phone.
      expect(events.filter((e) => e.type === 'device.disconnected')).toEqual([]);
      expect(completed).toBe(true);
      early.deliver(helloFrame('late'));
      expect(early.sent).toEqual([]);
      expect((await failure(hub.execute('p1', { command: 'home' }))).code).toBe('SHUTTING_DOWN');
      hub.shutdown();
    });

    it('accept() during shutdown closes the new connection at once and never lists it', async () => {
      hub.shutdown();
      const late = new MessageTransport('memory:late');
      late.session = hub.accept(late);
      expect(late.destroyed).toBe(true);
      expect(late.session.state).toBe('closed');
      late.deliver(helloFrame('late'));
      expect(late.sent).toEqual([]);
      await expect(hub.listDevices()).resolves.toEqual([]);
    });

    it('lists online phones first, then offline ones newest first, and remembers at most offlineDeviceLimit', async () => {
      start({ offlineDeviceLimit: 2 });
      const phones = ['a', 'b', 'c', 'd'].map((id) => connectPhone(hub, id));
      for (const i of [0, 1, 2]) {
        jest.advanceTimersByTime(1000);
        phones[i]?.session.transportClosed();
      }
      const list = await hub.listDevices();
      expect(list.map((d) => [d.deviceId, d.status])).toEqual([
        ['d', 'online'],
        ['c', 'offline'],
        ['b', 'offline'],
      ]);
      expect(list[1]).toMatchObject({ queueLength: 0, disconnectedAt: '2025-01-01T00:00:03.000Z', model: 'Msg' });
      expect((await failure(hub.getDevice('a'))).code).toBe('DEVICE_NOT_FOUND');
      expect((await failure(hub.execute('a', { command: 'home' }))).code).toBe('DEVICE_NOT_FOUND');
      const offline = await failure(hub.execute('b', { command: 'home' }));
      expect([offline.code, offline.message]).toEqual(['DEVICE_DISCONNECTED', 'device b is offline']);
      connectPhone(hub, 'b');
      expect((await hub.listDevices()).map((d) => [d.deviceId, d.status])).toEqual([
        ['d', 'online'],
        ['b', 'online'],
        ['c', 'offline'],
      ]);
    });

    it('emits connected, status, event and disconnected events with their payloads', async () => {
      const phone = connectPhone(hub, 'p1', 'memory:9');
      const at = new Date().toISOString();
      expect(events).toEqual([{ type: 'device.connected', deviceId: 'p1', device: expect.objectContaining({ deviceId: 'p1', status: 'online', remoteAddress: 'memory:9' }), at }]);
      events.length = 0;
      const first = hub.execute('p1', { command: 'home' });
      const second = hub.execute('p1', { command: 'back' });
      phone.succeedLast();
      await first;
      phone.succeedLast();
      await second;
      expect(events).toEqual([
        { type: 'device.status', deviceId: 'p1', status: 'busy', queueLength: 0, at },
        { type: 'device.status', deviceId: 'p1', status: 'online', queueLength: 0, at },
      ]);
      events.length = 0;
      phone.deliver({ type: 'event', event: 'notification', data: { text: 'hi' } });
      phone.deliver({ type: 'event', event: 'bare' });
      expect(events).toEqual([
        { type: 'device.event', deviceId: 'p1', event: 'notification', data: { text: 'hi' }, at },
        { type: 'device.event', deviceId: 'p1', event: 'bare', data: {}, at },
      ]);
      expect(hub.stats().deviceEvents).toBe(2);
      events.length = 0;
      phone.session.transportClosed();
      expect(events).toEqual([{ type: 'device.disconnected', deviceId: 'p1', reason: 'connection closed', at }]);
    });

    it('keeps a phone online through background reads: no busy status, no status events for them alone', async () => {
      const phone = connectPhone(hub, 'p1');
      const at = new Date().toISOString();
      events.length = 0;
      const read = hub.execute('p1', { command: 'screenshot' }, { background: true });
      expect((await hub.getDevice('p1')).status).toBe('online');
      phone.succeedLast();
      await read;
      expect(events).toEqual([]);

      // A background read, then a command behind it: busy when the command starts, online when it ends.
      const watch = hub.execute('p1', { command: 'screenshot' }, { background: true });
      const tap = hub.execute('p1', { command: 'home' });
      phone.succeedLast();
      await watch;
      expect((await hub.getDevice('p1')).status).toBe('busy');
      phone.succeedLast();
      await tap;
      // A command, then a background read behind it: online as soon as the command ends.
      const back = hub.execute('p1', { command: 'back' });
      const later = hub.execute('p1', { command: 'screenshot' }, { background: true });
      phone.succeedLast();
      await back;
      expect((await hub.getDevice('p1')).status).toBe('online');
      phone.succeedLast();
      await later;
      expect(events).toEqual([
        { type: 'device.status', deviceId: 'p1', status: 'busy', queueLength: 0, at },
        { type: 'device.status', deviceId: 'p1', status: 'online', queueLength: 0, at },
        { type: 'device.status', deviceId: 'p1', status: 'busy', queueLength: 0, at },
        { type: 'device.status', deviceId: 'p1', status: 'online', queueLength: 0, at },
      ]);
    });

    it('emits no status events while nobody listens', () => {
      hub.shutdown();
      hub = new DeviceHub({ deviceToken: TEST_DEVICE_TOKEN }, { logger: quietLogger });
      connectPhone(hub, 'p1');
      settleLater(hub.execute('p1', { command: 'home' }));
      const seen: DeviceEvent[] = [];
      hub.events$.subscribe((e) => seen.push(e));
      settleLater(hub.execute('p1', { command: 'back' }));
      expect(seen).toEqual([]);
    });

    it('a replaced session hands its entry to the new one and is not listed offline', async () => {
      const first = connectPhone(hub, 'p1', 'memory:a');
      const pendingOnOld = hub.execute('p1', { command: 'home' });
      const second = connectPhone(hub, 'p1', 'memory:b');
      const error = await failure(pendingOnOld);
      expect(error.code).toBe('DEVICE_REPLACED');
      expect(error.message).toBe(`device reconnected on a new session: replaced by session ${second.session.sessionId}`);
      expect(first.ended).toBe(true);
      expect(await hub.listDevices()).toEqual([expect.objectContaining({ deviceId: 'p1', status: 'online', remoteAddress: 'memory:b' })]);
      expect(events.filter((e) => e.type === 'device.replaced')).toEqual([
        { type: 'device.replaced', deviceId: 'p1', oldSessionId: first.session.sessionId, newSessionId: second.session.sessionId, at: new Date().toISOString() },
      ]);
      expect(events.filter((e) => e.type === 'device.disconnected')).toEqual([]);
    });

    it('disconnect closes one phone\'s session from the gateway side: its pending commands fail with the code given', async () => {
      const phone = connectPhone(hub, 'p1', 'memory:a');
      const other = connectPhone(hub, 'p2', 'memory:b');
      const inFlight = hub.execute('p1', { command: 'home' });
      const queued = hub.execute('p1', { command: 'back' });
      expect(hub.disconnect('p1', 'DEVICE_REPLACED', 'claimed by instance b (epoch 2)')).toBe(true);
      const [first, second] = [await failure(inFlight), await failure(queued)];
      expect([first.code, second.code]).toEqual(['DEVICE_REPLACED', 'DEVICE_REPLACED']);
      expect(first.message).toBe('device reconnected on a new session: claimed by instance b (epoch 2)');
      expect(phone.sent.at(-1)).toEqual({ type: 'error', code: 'DEVICE_REPLACED', message: 'claimed by instance b (epoch 2)' });
      expect(phone.ended).toBe(true);
      expect(events.filter((e) => e.type === 'device.disconnected')).toEqual([
        { type: 'device.disconnected', deviceId: 'p1', reason: 'claimed by instance b (epoch 2)', at: new Date().toISOString() },
      ]);
      expect((await hub.getDevice('p1')).status).toBe('offline');
      expect(other.ended).toBe(false);
      expect((await hub.getDevice('p2')).status).toBe('online');
      expect(hub.disconnect('p1', 'DEVICE_REPLACED', 'again')).toBe(false);
      expect(hub.disconnect('never-seen', 'DEVICE_DISCONNECTED', 'nothing')).toBe(false);
    });

    it('logs connects, disconnects and refusals, naming address and device', () => {
      const lines: string[] = [];
      hub.shutdown();
      hub = new DeviceHub({ deviceToken: TEST_DEVICE_TOKEN }, { logger: { log: (m: string) => void lines.push(`log ${m}`), error: () => undefined, warn: (m: string) => void lines.push(`warn ${m}`) } });
      const phone = connectPhone(hub, 'p1', 'memory:7');
      const anonymous = new MessageTransport(null);
      anonymous.session = hub.accept(anonymous);
      anonymous.deliver(helloFrame('p2', { token: 'wrong' }));
      const noAddress = connectPhone(hub, 'p3', null);
      const again = connectPhone(hub, 'p1', 'memory:8');
      again.session.transportClosed();
      noAddress.session.close('SHUTTING_DOWN', 'bye');
      expect(lines).toEqual([
        `log device p1 connected from memory:7 (session ${phone.session.sessionId})`,
        'warn refused connection from unknown (unknown device): UNAUTHORIZED invalid device token',
        `log device p3 connected from unknown (session ${noAddress.session.sessionId})`,
        `log device p1 reconnected (session ${phone.session.sessionId} → ${again.session.sessionId})`,
        'log device p1 disconnected: connection closed',
      ]);
      expect(hub.stats().unauthorized).toBe(1);
    });
  });

  describe('defaults', () => {
    it("logs through Nest's Logger with the DeviceHub context, and counts replacements on performance.now()", () => {
      const seen: [string, unknown][] = [];
      const record = (message: string, context?: unknown) => void seen.push([message, context]);
      const previous = Reflect.get(Logger, 'staticInstanceRef') as LoggerService;
      Logger.overrideLogger({ log: record, warn: record, error: record });
      try {
        hub.shutdown();
        hub = new DeviceHub({ deviceToken: TEST_DEVICE_TOKEN });
        for (let i = 0; i <= 4; i++) {
          jest.advanceTimersByTime(1000);
          connectPhone(hub, 'twin', i % 2 === 0 ? 'memory:a' : 'memory:b');
        }
      } finally {
        Logger.overrideLogger(previous);
      }
      expect(new Set(seen.map(([, context]) => context))).toEqual(new Set(['DeviceHub']));
      expect(seen.filter(([message]) => message.includes('flapping')).map(([message]) => message)).toEqual([
        expect.stringContaining('device twin is flapping between two connections (memory:b and memory:a): its session was replaced 4 times within 60 s'),
      ]);
    });
  });

  describe('session bookkeeping', () => {
    it('updates lastSeenAt on every frame, an oversized one included, which also keeps the heartbeat content', async () => {
      start({ heartbeatIntervalMs: 1000, maxFrameBytes: 1024 });
      const phone = connectPhone(hub, 'p1');
      jest.advanceTimersByTime(1500);
      phone.deliver({ type: 'event', event: 'e' });
      expect((await hub.getDevice('p1')).lastSeenAt).toBe('2025-01-01T00:00:01.500Z');
      jest.advanceTimersByTime(1500);
      phone.deliver({ type: 'event', event: 'big', data: { pad: 'p'.repeat(2000) } });
      expect((await hub.getDevice('p1')).lastSeenAt).toBe('2025-01-01T00:00:03.000Z');
      jest.advanceTimersByTime(1500);
      expect(phone.ended).toBe(false);
      expect((await hub.getDevice('p1')).connectedAt).toBe('2025-01-01T00:00:00.000Z');
    });

    it('lists no capabilities and no device details when the hello had none', async () => {
      const phone = new MessageTransport();
      phone.session = hub.accept(phone);
      phone.deliver({ type: 'hello', protocolVersion: 1, deviceId: 'bare', token: TEST_DEVICE_TOKEN });
      expect(await hub.getDevice('bare')).toMatchObject({ capabilities: [], model: undefined, screen: undefined, status: 'online' });
    });

    it('cancels the hello deadline once the handshake succeeded', () => {
      start({ helloTimeoutMs: 500 });
      const phone = connectPhone(hub, 'p1');
      jest.advanceTimersByTime(5000);
      expect(phone.ofType('error')).toEqual([]);
      expect(phone.ended).toBe(false);
    });

    it('closes once: a second close or a late transport close changes nothing', () => {
      const phone = connectPhone(hub, 'p1');
      phone.session.transportClosed();
      phone.session.transportClosed();
      phone.session.close('DEVICE_REPLACED', 'again');
      expect(events.filter((e) => e.type === 'device.disconnected')).toHaveLength(1);
      expect(phone.ofType('error')).toEqual([]);
      expect(phone.destroyed).toBe(false);
      phone.deliver({ type: 'event', event: 'late' });
      expect(events.filter((e) => e.type === 'device.event')).toEqual([]);
    });

    it('tells a replaced phone why unless its connection is destroyed', () => {
      const polite = connectPhone(hub, 'p1');
      polite.session.close('DEVICE_REPLACED', 'by session x');
      expect(polite.sent.at(-1)).toEqual({ type: 'error', code: 'DEVICE_REPLACED', message: 'by session x' });
      expect([polite.ended, polite.destroyed]).toEqual([true, false]);
      const dead = connectPhone(hub, 'p2');
      dead.session.close('DEVICE_REPLACED', 'by session y', true);
      expect(dead.ofType('error')).toEqual([]);
      expect(dead.destroyed).toBe(true);
    });

    it('ignores oversized frames once closed, and refuses an oversized first frame naming the hello limit', () => {
      start({ maxHelloBytes: 300 });
      const first = new MessageTransport();
      first.session = hub.accept(first);
      first.session.frameTooLarge(Buffer.from('{"type":"hello"'));
      expect(first.sent).toEqual([{ type: 'error', code: 'PROTOCOL_ERROR', message: 'first frame exceeds 300 bytes' }]);
      first.session.frameTooLarge(Buffer.from('{"requestId":"x"'));
      first.session.frameDiscarded(Buffer.from('{"requestId":"x"'), 5000);
      expect(first.sent).toHaveLength(1);
      expect(hub.stats().oversizedFrames).toBe(0);
    });

    it('a session that is not open reports itself offline, with no device details before its hello', () => {
      const waiting = new MessageTransport();
      waiting.session = hub.accept(waiting);
      expect(waiting.session.info()).toMatchObject({ deviceId: '', status: 'offline', model: undefined, capabilities: [], client: undefined, queueLength: 0 });
      const phone = connectPhone(hub, 'p1');
      expect(phone.session.status).toBe('online');
      phone.session.transportClosed();
      expect(phone.session.status).toBe('offline');
    });

    it('checks the heartbeat of open sessions only: no ping before the hello or after the close', () => {
      start({ heartbeatIntervalMs: 1000 });
      const waiting = new MessageTransport();
      waiting.session = hub.accept(waiting);
      waiting.session.checkHeartbeat(performance.now() + 1000);
      expect(waiting.sent).toEqual([]);
      const phone = connectPhone(hub, 'p1');
      phone.session.transportClosed();
      phone.session.checkHeartbeat(performance.now() + 1000);
      expect(phone.ofType('ping')).toHaveLength(1);
    });

    it('a malformed or oversized frame naming a request id while nothing is in flight is only reported', async () => {
      start({ maxFrameBytes: 1024 });
      const phone = connectPhone(hub, 'p1');
      phone.deliver({ type: 'response', requestId: 'r-late', status: 'bogus' });
      expect(phone.lastOfType('error')).toEqual({ type: 'error', code: 'PROTOCOL_ERROR', message: 'response: "status" must be "success" or "error"' });
      phone.deliver({ type: 'response', requestId: 'r-late', status: 'success', data: { base64: 'A'.repeat(2000) } });
      expect(phone.lastOfType('error')).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', requestId: 'r-late' });
      expect(hub.stats()).toMatchObject({ protocolErrors: 1, oversizedFrames: 1, pending: 0 });
      expect((await hub.getDevice('p1')).status).toBe('online');
    });

    it('withdrawing a request that already settled changes nothing', async () => {
      const phone = connectPhone(hub, 'p1');
      const controller = new AbortController();
      const result = hub.execute('p1', { command: 'home' }, { signal: controller.signal, timeoutMs: 50 });
      phone.succeedLast();
      await result;
      controller.abort();
      jest.advanceTimersByTime(100);
      expect(phone.ofType('cancel')).toEqual([]);
      expect(hub.stats().timeouts).toBe(0);
    });
  });

  describe('screen info', () => {
    it('merges the screen of screenshot replies and screen events into the known one', async () => {
      const phone = connectPhone(hub, 'p1', undefined, { device: { screen: { width: 1080, height: 2400, densityDpi: 420, rotation: 0 } } });
      const shot = hub.execute('p1', { command: 'screenshot' });
      phone.succeedLast({ base64: '', screen: { width: 2400, height: 1080, rotation: 1 } });
      await shot;
      expect((await hub.getDevice('p1')).screen).toEqual({ width: 2400, height: 1080, densityDpi: 420, rotation: 1 });
      phone.deliver({ type: 'event', event: 'screen', data: { width: 1080, height: 2400 } });
      expect((await hub.getDevice('p1')).screen).toEqual({ width: 1080, height: 2400, densityDpi: 420, rotation: 1 });
    });

    it('ignores screens in replies to other commands, screens without a numeric width, and other events', async () => {
      const phone = connectPhone(hub, 'p1');
      const click = hub.execute('p1', { command: 'click', x: 1, y: 2 });
      phone.succeedLast({ screen: { width: 1, height: 1 } });
      await click;
      const shot = hub.execute('p1', { command: 'screenshot' });
      phone.succeedLast({ screen: { width: '1', height: 1 } });
      await shot;
      phone.deliver({ type: 'event', event: 'screen', data: { width: '5', height: 5 } });
      phone.deliver({ type: 'event', event: 'other', data: { width: 5, height: 5 } });
      expect((await hub.getDevice('p1')).screen).toEqual({ width: 1080, height: 2400, rotation: 0 });
    });

    it('takes a first screen from a ui_tree reply when the hello had none', async () => {
      const phone = connectPhone(hub, 'p1', undefined, { device: { model: 'X' } });
      expect((await hub.getDevice('p1')).screen).toBeUndefined();
      const tree = hub.execute('p1', { command: 'ui_tree' });
      phone.succeedLast({ nodes: [], screen: { width: 720, height: 1280 } });
      await tree;
      expect((await hub.getDevice('p1')).screen).toEqual({ width: 720, height: 1280 });
    });
  });

  describe('validation', () => {
    it('refuses an unknown command even to a phone that announced no capability list', async () => {
      connectPhone(hub, 'p1');
      const error = await failure(hub.execute('p1', { command: 'fly' } as never));
      expect([error.code, error.message]).toEqual(['VALIDATION_FAILED', 'unknown command "fly"']);
      expect(error.fieldErrors?.[0]?.field).toBe('command');
      expect((await failure(hub.execute('p1', null as never))).message).toBe('unknown command undefined');
    });

    it('every refusal names the device, with field errors where a field is at fault', async () => {
      start({ queueLimit: 0, offlineDeviceLimit: 5 });
      const phone = connectPhone(hub, 'p1');
      connectPhone(hub, 'gone').session.transportClosed();
      const refusals = [
        await failure(hub.execute('nobody', { command: 'home' })),
        await failure(hub.getDevice('nobody')),
        await failure(hub.execute('gone', { command: 'home' })),
        await failure(hub.execute('p1', { command: 'fly' } as never)),
        await failure(hub.execute('p1', { command: 'home' }, { timeoutMs: 0 })),
        await failure(hub.execute('p1', { command: 'home' }, { signal: AbortSignal.abort() })),
      ];
      settleLater(hub.execute('p1', { command: 'home' }));
      refusals.push(await failure(hub.execute('p1', { command: 'home' })));
      phone.pendingWriteBytes = 2 * 1024 * 1024;
      refusals.push(await failure(hub.execute('p1', { command: 'home' })));
      hub.shutdown();
      refusals.push(await failure(hub.execute('p1', { command: 'home' })));
      expect(refusals.map((e) => [e.code, e.message, e.deviceId])).toEqual([
        ['DEVICE_NOT_FOUND', 'no device "nobody" is known', 'nobody'],
        ['DEVICE_NOT_FOUND', 'no device "nobody" is known', 'nobody'],
        ['DEVICE_DISCONNECTED', 'device gone is offline', 'gone'],
        ['VALIDATION_FAILED', 'unknown command "fly"', 'p1'],
        ['VALIDATION_FAILED', 'timeoutMs must be between 1 and 2147483647', 'p1'],
        ['ABORTED', 'aborted before it was sent', 'p1'],
        ['DEVICE_BUSY', 'device p1 has 0 commands queued', 'p1'],
        ['DEVICE_BUSY', 'device p1 is not reading its socket', 'p1'],
        ['SHUTTING_DOWN', 'gateway is shutting down', 'p1'],
      ]);
      expect(refusals[3]?.fieldErrors).toEqual([{ field: 'command', message: 'must be one of open, click, long_press, swipe, input, back, home, screenshot, ui_tree' }]);
      expect(refusals[4]?.fieldErrors).toEqual([{ field: 'timeoutMs', message: 'must be 1-2147483647 ms' }]);
    });

    it('capabilities [] allows every known command; a list allows only its commands', async () => {
      const open = connectPhone(hub, 'open', undefined, { capabilities: [] });
      const any = hub.execute('open', { command: 'home' });
      open.succeedLast();
      await expect(any).resolves.toMatchObject({ command: 'home' });
      connectPhone(hub, 'narrow', undefined, { capabilities: ['click', 'screenshot'] });
      const error = await failure(hub.execute('narrow', { command: 'home' }));
      expect([error.code, error.message]).toEqual(['VALIDATION_FAILED', 'device narrow does not support "home" (it supports click, screenshot)']);
      expect(error.fieldErrors).toEqual([{ field: 'command', message: "not among the device's capabilities: click, screenshot" }]);
    });

    it.each([0, -1, Number.NaN, 2_147_483_648])('refuses timeoutMs %p', async (timeoutMs) => {
      connectPhone(hub, 'p1');
      const error = await failure(hub.execute('p1', { command: 'home' }, { timeoutMs }));
      expect([error.code, error.message]).toEqual(['VALIDATION_FAILED', 'timeoutMs must be between 1 and 2147483647']);
    });

    it('accepts the largest timer Node holds, and a signal aborted before the call fails at once', async () => {
      const phone = connectPhone(hub, 'p1');
      settleLater(hub.execute('p1', { command: 'home' }, { timeoutMs: 2_147_483_647 }));
      expect(phone.lastOfType('action')).toMatchObject({ timeoutMs: 2_147_483_647 });
      const error = await failure(hub.execute('p1', { command: 'back' }, { signal: AbortSignal.abort() }));
      expect([error.code, error.message]).toEqual(['ABORTED', 'aborted before it was sent']);
    });

    it('refuses new commands while the phone does not drain its connection', async () => {
      start({ writeHighWaterMarkBytes: 100 });
      const phone = connectPhone(hub, 'p1');
      phone.pendingWriteBytes = 100;
      settleLater(hub.execute('p1', { command: 'home' }));
      expect(phone.lastOfType('action')).toMatchObject({ command: 'home' });
      phone.pendingWriteBytes = 101;
      const error = await failure(hub.execute('p1', { command: 'back' }));
      expect([error.code, error.message]).toEqual(['DEVICE_BUSY', 'device p1 is not reading its socket']);
    });

    it.each([
      ['welcome', { type: 'welcome', sessionId: 's', heartbeatIntervalMs: 1, maxFrameBytes: 1 }],
      ['hello', helloFrame('p1')],
      ['action', { type: 'action', requestId: 'r', command: 'home' }],
      ['cancel', { type: 'cancel', requestId: 'r' }],
      ['error', { type: 'error', code: 'X' }],
    ])('answers a "%s" frame from a phone with PROTOCOL_ERROR and keeps the session', async (type, frame) => {
      const phone = connectPhone(hub, 'p1');
      phone.deliver(frame);
      expect(phone.lastOfType('error')).toEqual({ type: 'error', code: 'PROTOCOL_ERROR', message: `unexpected "${type}" frame from a phone` });
      expect(hub.stats().protocolErrors).toBe(1);
      expect((await hub.getDevice('p1')).status).toBe('online');
    });

    it('closes after maxConsecutiveProtocolErrors in a row; a good frame resets the count', () => {
      start({ maxConsecutiveProtocolErrors: 3 });
      const phone = connectPhone(hub, 'p1');
      phone.deliver('not json');
      phone.deliver('not json');
      phone.deliver({ type: 'event', event: 'fine' });
      phone.deliver('not json');
      phone.deliver('not json');
      expect(phone.ended).toBe(false);
      phone.deliver('not json');
      expect(phone.ended).toBe(true);
      expect(events.at(-1)).toMatchObject({ type: 'device.disconnected', reason: '3 protocol errors in a row' });
    });

    it('maps an error reply to DEVICE_ERROR with the phone code, using the code when there is no message', async () => {
      const phone = connectPhone(hub, 'p1');
      const result = hub.execute('p1', { command: 'home' });
      phone.deliver({ type: 'response', requestId: phone.lastOfType('action')?.['requestId'], status: 'error', error: { code: 'NO_WINDOW' } });
      const error = await failure(result);
      expect([error.code, error.message, error.deviceCode, error.deviceId]).toEqual(['DEVICE_ERROR', 'NO_WINDOW', 'NO_WINDOW', 'p1']);
    });

    it('sends frameId and keeps type and requestId from being overridden by arguments', () => {
      const phone = connectPhone(hub, 'p1');
      settleLater(hub.execute('p1', { command: 'click', x: 1, y: 2, type: 'ping', requestId: 'forged' } as never, { frameId: 'f-9', timeoutMs: 1234 }));
      const action = phone.lastOfType('action') as Json;
      expect(action).toEqual({ type: 'action', requestId: expect.stringMatching(/^[0-9a-f]{8}-1$/), command: 'click', x: 1, y: 2, timeoutMs: 1234, frameId: 'f-9' });
      // type and requestId lead the frame's text, so that a trace shows them first.
      expect(Object.keys(action)).toEqual(['type', 'requestId', 'command', 'x', 'y', 'timeoutMs', 'frameId']);
    });
  });

  describe('handshake', () => {
    it('refuses a phone that says nothing within helloTimeoutMs', () => {
      start({ helloTimeoutMs: 500 });
      const silent = new MessageTransport();
      silent.session = hub.accept(silent);
      jest.advanceTimersByTime(499);
      expect(silent.ended).toBe(false);
      jest.advanceTimersByTime(1);
      expect(silent.sent).toEqual([{ type: 'error', code: 'PROTOCOL_ERROR', message: 'no hello within 500 ms' }]);
      expect(silent.ended).toBe(true);
    });

    it.each([
      ['another version', helloFrame('p1', { protocolVersion: 2 }), 'UNSUPPORTED_VERSION', 'protocol version 2 is not supported (want 1)'],
      ['a wrong token', helloFrame('p1', { token: 'nope' }), 'UNAUTHORIZED', 'invalid device token'],
      ['a first frame that is not hello', { type: 'ping', ts: 1 }, 'PROTOCOL_ERROR', 'first frame must be "hello", got "ping"'],
      ['a malformed hello', { type: 'hello' }, 'PROTOCOL_ERROR', 'invalid hello: hello: "protocolVersion" must be an integer'],
    ])('refuses %s', async (_name, frame, code, message) => {
      const transport = new MessageTransport();
      transport.session = hub.accept(transport);
      transport.deliver(frame);
      expect(transport.sent).toEqual([{ type: 'error', code, message }]);
      expect(transport.ended).toBe(true);
      jest.advanceTimersByTime(20_000);
      expect(transport.sent).toHaveLength(1);
      expect(await hub.listDevices()).toEqual([]);
    });

    it('keeps the token out of the session and lists the hello details', async () => {
      const phone = connectPhone(hub, 'p1', 'memory:3', { capabilities: ['home'], client: { name: 'sim', version: '1' }, device: { model: 'M', manufacturer: 'Acme', android: '15' } });
      expect(phone.session.hello?.token).toBe('');
      expect(await hub.getDevice('p1')).toEqual({
        deviceId: 'p1',
        status: 'online',
        model: 'M',
        manufacturer: 'Acme',
        android: '15',
        screen: undefined,
        capabilities: ['home'],
        client: { name: 'sim', version: '1' },
        sessionId: phone.session.sessionId,
        remoteAddress: 'memory:3',
        connectedAt: '2025-01-01T00:00:00.000Z',
        lastSeenAt: '2025-01-01T00:00:00.000Z',
        rttMs: undefined,
        queueLength: 0,
      });
    });
  });

  describe('phones the host reports unreachable', () => {
    const at = '2025-01-01T00:00:00.000Z';
    const reason = 'adb: unauthorized — accept the "Allow USB debugging?" prompt on the phone';

    it('lists a phone never seen as offline with its reason, refuses its commands with it, and drops the reason when it connects', async () => {
      hub.reportUnreachable('R58M', reason);
      const listed = { deviceId: 'R58M', status: 'offline', capabilities: [], sessionId: '', connectedAt: at, lastSeenAt: at, disconnectedAt: at, queueLength: 0, statusReason: reason };
      expect(await hub.listDevices()).toEqual([listed]);
      expect(await hub.getDevice('R58M')).toEqual(listed);
      expect(events).toEqual([{ type: 'device.updated', deviceId: 'R58M', device: listed, at }]);
      hub.reportUnreachable('R58M', reason);
      expect(events).toHaveLength(1);
      const error = await failure(hub.execute('R58M', { command: 'home' }));
      expect([error.code, error.message]).toEqual(['DEVICE_DISCONNECTED', `device R58M is offline (${reason})`]);

      connectPhone(hub, 'R58M');
      expect(await hub.listDevices()).toEqual([expect.objectContaining({ deviceId: 'R58M', status: 'online' })]);
      expect((await hub.getDevice('R58M')).statusReason).toBeUndefined();
    });

    it('keeps a connected phone online and applies the reason once it disconnects, until cleared', async () => {
      const phone = connectPhone(hub, 'p1');
      events.length = 0;
      hub.reportUnreachable('p1', 'adb: offline');
      expect(events).toEqual([]);
      expect((await hub.getDevice('p1')).status).toBe('online');
      phone.session.transportClosed();
      expect(await hub.getDevice('p1')).toMatchObject({ status: 'offline', statusReason: 'adb: offline', model: 'Msg' });
      events.length = 0;
      hub.clearUnreachable('p1');
      const cleared = await hub.getDevice('p1');
      expect(cleared).toMatchObject({ status: 'offline', model: 'Msg' });
      expect(cleared).not.toHaveProperty('statusReason');
      expect(events).toEqual([{ type: 'device.updated', deviceId: 'p1', device: cleared, at }]);
      hub.clearUnreachable('p1');
      expect(events).toHaveLength(1);
    });

    it('keeps what it knew of a phone that went offline when a reason comes later, and tells the new reason', async () => {
      const phone = connectPhone(hub, 'p1');
      phone.session.transportClosed();
      const before = await hub.getDevice('p1');
      events.length = 0;
      hub.reportUnreachable('p1', 'adb: offline');
      const after = await hub.getDevice('p1');
      expect(after).toEqual({ ...before, statusReason: 'adb: offline' });
      expect(events).toEqual([{ type: 'device.updated', deviceId: 'p1', device: after, at }]);
    });
  });
});

/** Every report a hub makes, in order, as `[method, ...arguments]`. */
class RecordingDeviceMetrics extends DeviceMetrics {
  readonly reports: unknown[][] = [];
  load: (() => DeviceLoad) | undefined;
  commandSettled(sample: unknown): void {
    this.reports.push(['commandSettled', sample]);
  }
  commandDispatched(sample: unknown): void {
    this.reports.push(['commandDispatched', sample]);
  }
  frameDiscarded(reason: string, transport: string): void {
    this.reports.push(['frameDiscarded', reason, transport]);
  }
  replyDropped(reason: string): void {
    this.reports.push(['replyDropped', reason]);
  }
  heartbeatMeasured(deviceId: string, rttMs: number): void {
    this.reports.push(['heartbeatMeasured', deviceId, rttMs]);
  }
  sessionStarted(deviceId: string, transport: string, start: string): void {
    this.reports.push(['sessionStarted', deviceId, transport, start]);
  }
  connectionRefused(code: string): void {
    this.reports.push(['connectionRefused', code]);
  }
  observeDevices(source: () => DeviceLoad): void {
    this.load = source;
  }
  of(method: string): unknown[][] {
    return this.reports.filter((r) => r[0] === method).map((r) => r.slice(1));
  }
}

describe('DeviceHub metrics', () => {
  let hub: DeviceHub;
  let metrics: RecordingDeviceMetrics;
  const logged: string[] = [];
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00.000Z') });
    metrics = new RecordingDeviceMetrics();
    logged.length = 0;
    hub = new DeviceHub({ deviceToken: TEST_DEVICE_TOKEN, defaultTimeoutMs: 1000 }, { logger: { ...quietLogger, debug: (m: string) => void logged.push(m) }, metrics });
  });
  afterEach(() => {
    hub.shutdown();
    jest.useRealTimers();
  });

  /** Opens a connection through the acceptor of transport `name` and completes its handshake. */
  function connectVia(name: string, deviceId: string): MessageTransport {
    const transport = new MessageTransport();
    transport.session = hub.acceptorFor(name).accept(transport);
    transport.deliver(helloFrame(deviceId));
    return transport;
  }

  it('reports each settled command with its outcome and duration, the queue wait at dispatch, and logs it without its arguments', async () => {
    const phone = connectVia('tcp', 'p1');
    const first = hub.execute('p1', { command: 'input', text: 'hunter2-secret' });
    const second = hub.execute('p1', { command: 'home' });
    jest.advanceTimersByTime(200);
    phone.succeedLast({});
    await first;
    jest.advanceTimersByTime(1000);
    await expect(second).rejects.toMatchObject({ code: 'TIMEOUT' });
    await expect(hub.execute('nobody', { command: 'home' })).rejects.toMatchObject({ code: 'DEVICE_NOT_FOUND' });
    await expect(hub.execute('p1', { command: 'teleport' } as never)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await Promise.resolve();
    expect(metrics.of('commandSettled')).toEqual([
      [{ deviceId: 'p1', command: 'input', outcome: 'ok', durationMs: 200 }],
      [{ deviceId: 'p1', command: 'home', outcome: 'TIMEOUT', durationMs: 1000 }],
      [{ deviceId: 'nobody', command: 'home', outcome: 'DEVICE_NOT_FOUND' }],
      [{ deviceId: 'p1', command: 'unknown', outcome: 'VALIDATION_FAILED' }],
    ]);
    expect(metrics.of('commandDispatched')).toEqual([[{ deviceId: 'p1', command: 'input', queuedMs: 0 }], [{ deviceId: 'p1', command: 'home', queuedMs: 200 }]]);
    expect(logged[0]).toMatch(/^command input on p1: ok in 200 ms \(request [0-9a-f]{8}-1\)$/);
    expect(logged[1]).toMatch(/^command home on p1: TIMEOUT in 1000 ms \(request [0-9a-f]{8}-2\)$/);
    expect(logged[2]).toBe('command home on nobody: DEVICE_NOT_FOUND refused before it was queued');
    expect(logged.join('\n')).not.toContain('hunter2');
  });

  it('tells a late reply (to a request it sent) from an unknown one, and reports discarded frames by reason and transport', async () => {
    const phone = connectVia('tcp', 'p1');
    const late = hub.execute('p1', { command: 'home' });
    const requestId = phone.lastOfType('action')?.['requestId'] as string;
    jest.advanceTimersByTime(1000);
    await expect(late).rejects.toMatchObject({ code: 'TIMEOUT' });
    phone.deliver({ type: 'response', requestId, status: 'success', data: {} });
    phone.deliver({ type: 'response', requestId: 'never-sent', status: 'success', data: {} });
    phone.deliver('{not json');
    phone.deliver(helloFrame('p1'));
    expect(metrics.of('replyDropped')).toEqual([['late'], ['unknown']]);
    expect(metrics.of('frameDiscarded')).toEqual([
      ['malformed', 'tcp'],
      ['unexpected', 'tcp'],
    ]);
  });

  it('reports sessions as first, reconnect or replacement with their transport, refusals by code, heartbeats, and the load', async () => {
    const first = connectVia('tcp', 'p1');
    connectVia('ws', 'p1');
    first.session.transportClosed();
    const third = connectVia('tcp', 'p2');
    third.session.transportClosed();
    connectVia('tcp', 'p2');
    const refused = new MessageTransport();
    refused.session = hub.acceptorFor('tcp').accept(refused);
    refused.deliver(helloFrame('p3', { token: 'wrong-token-0123456789' }));
    expect(metrics.of('sessionStarted')).toEqual([
      ['p1', 'tcp', 'first'],
      ['p1', 'ws', 'replacement'],
      ['p2', 'tcp', 'first'],
      ['p2', 'tcp', 'reconnect'],
    ]);
    expect(metrics.of('connectionRefused')).toEqual([['UNAUTHORIZED']]);
    const p2 = [...hub['sessions'].values()].find((s) => s.deviceId === 'p2')!;
    const ping = (p2.transport as MessageTransport).lastOfType('ping')!;
    jest.advanceTimersByTime(25);
    (p2.transport as MessageTransport).deliver({ type: 'pong', ts: ping['ts'] });
    expect(metrics.of('heartbeatMeasured')).toEqual([['p2', 25]]);
    settleLater(hub.execute('p2', { command: 'home' }));
    settleLater(hub.execute('p2', { command: 'back' }));
    expect(metrics.load?.()).toEqual({
      transports: ['tcp', 'ws'],
      devices: [
        { deviceId: 'p1', transport: 'ws', pendingRequests: 0, queuedCommands: 0 },
        { deviceId: 'p2', transport: 'tcp', pendingRequests: 2, queuedCommands: 1 },
      ],
    });
  });
});
