import { connect } from 'node:net';
import { once } from 'node:events';
import { firstValueFrom, filter } from 'rxjs';
import type { DeviceEvent } from '@mobileclaw/domain';
import { domainRejection } from '@mobileclaw/domain/testing';
import { DeviceHub, type DeviceGatewayOptions } from '@mobileclaw/device';
import { TcpDeviceTransport } from './tcp-device-transport';
import { RawPhone } from './testing/raw-phone';

const TOKEN = 'test-token-Ω';

interface Gateway {
  hub: DeviceHub;
  listener: TcpDeviceTransport;
  port: number;
}

const running: Gateway[] = [];
const phones: RawPhone[] = [];

/** The hub's connection and per-command lines are not what these tests read. */
const quietLogger = { log: () => undefined, error: () => undefined, warn: () => undefined, debug: () => undefined };

async function startGateway(options: Partial<DeviceGatewayOptions> = {}): Promise<Gateway> {
  const hub = new DeviceHub({ deviceToken: TOKEN, ...options }, { logger: quietLogger });
  const listener = new TcpDeviceTransport({ port: 0, host: '127.0.0.1' });
  await listener.start(hub);
  const port = listener.port;
  const gateway = { hub, listener, port };
  running.push(gateway);
  return gateway;
}

async function phoneFor(gw: Gateway, deviceId: string, extra: Record<string, unknown> = {}): Promise<RawPhone> {
  const { phone } = await RawPhone.hello(gw.port, deviceId, TOKEN, extra);
  phones.push(phone);
  return phone;
}

/**
 * Fakes the gateway's clock and timers (`performance.now()`, `Date`, `setTimeout`, `setInterval`)
 * while the sockets stay real: time passes only when the test advances it, so deadlines and queue
 * times are exact. Call before starting the gateway.
 */
function fakeGatewayClock(): void {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
}

afterEach(async () => {
  jest.useRealTimers();
  for (const phone of phones.splice(0)) phone.destroy();
  for (const gw of running.splice(0)) {
    gw.hub.shutdown();
    await gw.listener.stop();
  }
});

describe('TCP device adapter over a real loopback socket', () => {
  describe('1. framing survives any chunking', () => {
    it('accepts a hello and a reply written one byte at a time', async () => {
      const gw = await startGateway();
      const phone = await RawPhone.connect(gw.port);
      phones.push(phone);
      const hello = JSON.stringify({ type: 'hello', protocolVersion: 1, deviceId: 'byte-1', token: TOKEN }) + '\n';
      await phone.writeBytewise(Buffer.from(hello));
      expect((await phone.next())['type']).toBe('welcome');
      const result = gw.hub.execute('byte-1', { command: 'ui_tree' });
      const action = await phone.nextOfType('action');
      const reply = JSON.stringify({ type: 'response', requestId: action['requestId'], status: 'success', data: { text: '世界👋' } }) + '\n';
      await phone.writeBytewise(Buffer.from(reply));
      expect((await result).data).toEqual({ text: '世界👋' });
    });

    it('decodes many frames in one write, with a multi-byte character split across writes', async () => {
      const gw = await startGateway();
      const phone = await phoneFor(gw, 'many-1');
      const first = gw.hub.execute('many-1', { command: 'home' });
      const a1 = await phone.nextOfType('action');
      const text = 'Привет 世界 👋 "quoted" 100%';
      const burst = Buffer.from(
        [
          JSON.stringify({ type: 'event', event: 'note', data: { n: 1 } }),
          JSON.stringify({ type: 'ping', ts: 42 }),
          JSON.stringify({ type: 'response', requestId: a1['requestId'], status: 'success', data: { text } }),
        ].join('\n') + '\n',
      );
      // Cut inside the 4-byte emoji of the last frame.
      const cut = burst.lastIndexOf(Buffer.from('👋')) + 2;
      phone.write(burst.subarray(0, cut));
      phone.write(burst.subarray(cut));
      expect((await first).data).toEqual({ text });
      expect(await phone.nextOfType('pong')).toEqual({ type: 'pong', ts: 42 });
      expect(gw.hub.stats().deviceEvents).toBe(1);
    });

    it('accepts \\r\\n line endings and ignores empty lines', async () => {
      const gw = await startGateway();
      const phone = await phoneFor(gw, 'crlf-1');
      const result = gw.hub.execute('crlf-1', { command: 'back' });
      const action = await phone.nextOfType('action');
      phone.write(`\n\r\n${JSON.stringify({ type: 'response', requestId: action['requestId'], status: 'success', data: { ok: 1 } })}\r\n\n`);
      expect((await result).data).toEqual({ ok: 1 });
      expect(gw.hub.stats().protocolErrors).toBe(0);
    });
  });

  describe('2. frame limit', () => {
    it('fails the caller with PAYLOAD_TOO_LARGE at once, keeps the session, and the next command works', async () => {
      const gw = await startGateway({ maxFrameBytes: 4096 });
      const phone = await phoneFor(gw, 'big-1');
      const big = gw.hub.execute('big-1', { command: 'screenshot' }, { timeoutMs: 20_000 });
      const action = await phone.nextOfType('action');
      const line = JSON.stringify({ type: 'response', requestId: action['requestId'], status: 'success', data: { base64: 'A'.repeat(50_000) } }) + '\n';
      // The caller fails as soon as the limit is crossed, before the rest of the line arrives.
      phone.write(line.slice(0, 7000));
      const err = await domainRejection(big);
      expect(err.code).toBe('PAYLOAD_TOO_LARGE');
      expect(gw.hub.stats().oversizedFrames).toBe(0);
      // The rest, in several writes, is skipped up to the newline.
      for (let i = 7000; i < line.length; i += 7000) phone.write(line.slice(i, i + 7000));
      const notice = await phone.nextOfType('error');
      expect(notice).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', requestId: action['requestId'] });
      expect(gw.hub.stats().oversizedFrames).toBe(1);

      const next = gw.hub.execute('big-1', { command: 'click', x: 1, y: 2 });
      const a2 = await phone.nextOfType('action');
      expect(a2).toMatchObject({ command: 'click', x: 1, y: 2 });
      phone.reply(a2, { hit: null });
      expect((await next).data).toEqual({ hit: null });
      expect((await gw.hub.getDevice('big-1')).status).toBe('online');
    });

    it('counts an oversized line that names no request and keeps going', async () => {
      const gw = await startGateway({ maxFrameBytes: 1024 });
      const phone = await phoneFor(gw, 'big-2');
      phone.write('x'.repeat(10_000) + '\n');
      expect(await phone.nextOfType('error')).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      expect(gw.hub.stats().oversizedFrames).toBe(1);
      const result = gw.hub.execute('big-2', { command: 'home' });
      phone.reply(await phone.nextOfType('action'), {});
      await expect(result).resolves.toMatchObject({ status: 'success' });
    });
  });

  describe('3. before hello', () => {
    it('closes a connection that sends more than 64 KiB without a hello', async () => {
      const gw = await startGateway();
      const phone = await RawPhone.connect(gw.port);
      phones.push(phone);
      phone.write('{"type":"hello","pad":"' + 'p'.repeat(70 * 1024));
      expect(await phone.nextOfType('error')).toMatchObject({ code: 'PROTOCOL_ERROR', message: 'first frame exceeds 65536 bytes' });
      await phone.closed;
    });

    it('closes a connection that says nothing within the hello timeout', async () => {
      const gw = await startGateway({ helloTimeoutMs: 150 });
      const phone = await RawPhone.connect(gw.port);
      phones.push(phone);
      const started = performance.now();
      expect(await phone.nextOfType('error')).toMatchObject({ code: 'PROTOCOL_ERROR', message: 'no hello within 150 ms' });
      await phone.closed;
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      expect(await gw.hub.listDevices()).toEqual([]);
    });

    it('refuses a wrong token with UNAUTHORIZED and closes; the device is never listed', async () => {
      const gw = await startGateway();
      const phone = await RawPhone.connect(gw.port);
      phones.push(phone);
      phone.send({ type: 'hello', protocolVersion: 1, deviceId: 'intruder', token: 'test-token-Ω ' });
      expect(await phone.next()).toMatchObject({ type: 'error', code: 'UNAUTHORIZED' });
      await phone.closed;
      expect(gw.hub.stats().unauthorized).toBe(1);
      await expect(gw.hub.execute('intruder', { command: 'home' })).rejects.toMatchObject({ code: 'DEVICE_NOT_FOUND' });
    });

    it('refuses another protocol version, a first frame that is not hello, and an invalid deviceId', async () => {
      const gw = await startGateway();
      const cases: [Record<string, unknown>, string][] = [
        [{ type: 'hello', protocolVersion: 2, deviceId: 'v2', token: TOKEN }, 'UNSUPPORTED_VERSION'],
        [{ type: 'ping', ts: 1 }, 'PROTOCOL_ERROR'],
        [{ type: 'hello', protocolVersion: 1, deviceId: 'bad id/with spaces', token: TOKEN }, 'PROTOCOL_ERROR'],
        [{ type: 'hello', protocolVersion: 1, deviceId: 'x'.repeat(129), token: TOKEN }, 'PROTOCOL_ERROR'],
      ];
      for (const [hello, code] of cases) {
        const phone = await RawPhone.connect(gw.port);
        phones.push(phone);
        phone.send(hello);
        expect(await phone.next()).toMatchObject({ type: 'error', code });
        await phone.closed;
      }
      expect(await gw.hub.listDevices()).toEqual([]);
    });
  });

  describe('4. correlation', () => {
    it('gives each caller its own reply, even when phones answer out of order', async () => {
      const gw = await startGateway();
      const p1 = await phoneFor(gw, 'corr-1');
      const p2 = await phoneFor(gw, 'corr-2');
      const r1 = gw.hub.execute('corr-1', { command: 'click', x: 10, y: 10 });
      const r2 = gw.hub.execute('corr-2', { command: 'click', x: 20, y: 20 });
      const a1 = await p1.nextOfType('action');
      const a2 = await p2.nextOfType('action');
      expect(a1['requestId']).not.toBe(a2['requestId']);
      p2.reply(a2, { who: 2 });
      p1.reply(a1, { who: 1 });
      expect((await r1).data).toEqual({ who: 1 });
      expect((await r2).data).toEqual({ who: 2 });
    });

    it("drops replies for unknown ids, duplicate replies and another phone's request id", async () => {
      const gw = await startGateway();
      const p1 = await phoneFor(gw, 'dup-1');
      const p2 = await phoneFor(gw, 'dup-2');
      const r1 = gw.hub.execute('dup-1', { command: 'home' });
      const r2 = gw.hub.execute('dup-2', { command: 'home' });
      const a1 = await p1.nextOfType('action');
      const a2 = await p2.nextOfType('action');
      // Phone 2 answers phone 1's request: must not reach phone 1's caller.
      p2.reply(a1, { forged: true });
      p1.send({ type: 'response', requestId: 'no-such-id', status: 'success', data: {} });
      p1.reply(a1, { n: 1 });
      p1.reply(a1, { n: 2 });
      expect((await r1).data).toEqual({ n: 1 });
      p2.reply(a2, { n: 3 });
      expect((await r2).data).toEqual({ n: 3 });
      // The fourth drop: the duplicate, which arrived before phone 2's real reply was processed
      // only on phone 1's socket, so wait for it through a round trip on phone 1.
      const r3 = gw.hub.execute('dup-1', { command: 'back' });
      p1.reply(await p1.nextOfType('action'), {});
      await r3;
      expect(gw.hub.stats().droppedReplies).toBe(3);
      expect(gw.hub.stats().pending).toBe(0);
    });

    it('issues request ids that are unique across calls and phones', async () => {
      const gw = await startGateway({ queueLimit: 200 });
      const p1 = await phoneFor(gw, 'ids-1');
      const p2 = await phoneFor(gw, 'ids-2');
      const answer = (phone: RawPhone) => {
        phone.socket.on('data', () => undefined);
        const loop = async () => {
          for (;;) {
            const a = await phone.nextOfType('action');
            phone.reply(a, {});
          }
        };
        void loop();
      };
      answer(p1);
      answer(p2);
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => gw.hub.execute(i % 2 ? 'ids-1' : 'ids-2', { command: 'home' }, { timeoutMs: 10_000 })),
      );
      expect(new Set(results.map((r) => r.requestId)).size).toBe(200);
    });
  });

  describe('5. timeout', () => {
    it('rejects with TIMEOUT at the deadline, removes the entry and drops the late reply', async () => {
      fakeGatewayClock();
      const gw = await startGateway();
      const phone = await phoneFor(gw, 'slow-1');
      const result = gw.hub.execute('slow-1', { command: 'home' }, { timeoutMs: 120 });
      const action = await phone.nextOfType('action');
      // Sent at once, so the phone is told the whole budget.
      expect(action['timeoutMs']).toBe(120);
      jest.advanceTimersByTime(119);
      expect(gw.hub.stats()).toMatchObject({ pending: 1, timeouts: 0 });
      jest.advanceTimersByTime(1);
      const err = await domainRejection(result);
      expect(err.code).toBe('TIMEOUT');
      expect(err.message).toBe('no reply within 120 ms');
      expect(gw.hub.stats()).toMatchObject({ pending: 0, timeouts: 1 });
      // The phone is told nobody waits any more.
      expect(await phone.nextOfType('cancel')).toEqual({ type: 'cancel', requestId: action['requestId'] });
      phone.reply(action, { late: true });
      const next = gw.hub.execute('slow-1', { command: 'back' });
      const a2 = await phone.nextOfType('action');
      phone.reply(a2, { fresh: true });
      expect((await next).data).toEqual({ fresh: true });
      expect(gw.hub.stats().droppedReplies).toBe(1);
    });
  });

  describe('6. disconnect', () => {
    it('rejects every pending request of the phone at once with DEVICE_DISCONNECTED', async () => {
      fakeGatewayClock();
      const gw = await startGateway();
      const phone = await phoneFor(gw, 'gone-1');
      const other = await phoneFor(gw, 'stay-1');
      const started = performance.now();
      const calls = [1, 2, 3].map(() => gw.hub.execute('gone-1', { command: 'home' }, { timeoutMs: 30_000 }));
      const survivor = gw.hub.execute('stay-1', { command: 'home' });
      await phone.nextOfType('action');
      expect(gw.hub.stats().pending).toBe(4);
      phone.destroy();
      const errors = await Promise.all(calls.map(domainRejection));
      expect(errors.map((e) => e.code)).toEqual(['DEVICE_DISCONNECTED', 'DEVICE_DISCONNECTED', 'DEVICE_DISCONNECTED']);
      // At once: the gateway's clock has not moved, so no deadline can have fired.
      expect(performance.now()).toBe(started);
      expect(gw.hub.stats().timeouts).toBe(0);
      expect(await gw.hub.getDevice('gone-1')).toMatchObject({ status: 'offline', queueLength: 0 });
      await expect(gw.hub.execute('gone-1', { command: 'home' })).rejects.toMatchObject({ code: 'DEVICE_DISCONNECTED' });
      // The other phone is unharmed.
      other.reply(await other.nextOfType('action'), { ok: true });
      expect((await survivor).data).toEqual({ ok: true });
      expect(gw.hub.stats().pending).toBe(0);
    });
  });

  describe('7. heartbeat', () => {
    it('pings an idle phone, measures the RTT, and closes a silent one after two intervals', async () => {
      const gw = await startGateway({ heartbeatIntervalMs: 100 });
      const events: DeviceEvent[] = [];
      gw.hub.events$.subscribe((e) => events.push(e));
      const phone = await phoneFor(gw, 'hb-1');
      const ping = await phone.nextOfType('ping');
      expect(typeof ping['ts']).toBe('number');
      const heartbeat = firstValueFrom(gw.hub.events$.pipe(filter((e) => e.type === 'device.heartbeat')));
      phone.send({ type: 'pong', ts: ping['ts'] });
      const beat = await heartbeat;
      expect(beat).toMatchObject({ type: 'device.heartbeat', deviceId: 'hb-1' });
      expect((await gw.hub.getDevice('hb-1')).rttMs).toBeGreaterThanOrEqual(0);

      // Now the phone goes silent (half-open): the gateway must close it.
      const disconnected = firstValueFrom(gw.hub.events$.pipe(filter((e) => e.type === 'device.disconnected')));
      const silentSince = performance.now();
      await phone.closed;
      expect(performance.now() - silentSince).toBeGreaterThanOrEqual(150);
      expect(await disconnected).toMatchObject({ deviceId: 'hb-1', reason: expect.stringContaining('heartbeat') });
      expect((await gw.hub.getDevice('hb-1')).status).toBe('offline');
      expect(events.map((e) => e.type)).toContain('device.connected');
    });

    it('measures the RTT at once and every interval, even when the phone pings first and keeps talking', async () => {
      const gw = await startGateway({ heartbeatIntervalMs: 80 });
      const phone = await phoneFor(gw, 'hb-3');
      // The first ping follows the welcome, before any silence.
      const first = await phone.nextOfType('ping');
      const beats = firstValueFrom(gw.hub.events$.pipe(filter((e) => e.type === 'device.heartbeat')));
      phone.send({ type: 'pong', ts: first['ts'] });
      expect(await beats).toMatchObject({ deviceId: 'hb-3', rttMs: expect.any(Number) });
      // A chatty phone that pings the gateway itself is still pinged (and measured) once per interval.
      for (let i = 0; i < 3; i++) {
        phone.send({ type: 'ping', ts: i });
        const next = await phone.nextOfType('ping');
        const beat = firstValueFrom(gw.hub.events$.pipe(filter((e) => e.type === 'device.heartbeat')));
        phone.send({ type: 'pong', ts: next['ts'] });
        expect(await beat).toMatchObject({ deviceId: 'hb-3' });
      }
    });

    it('keeps a phone that answers pings', async () => {
      const gw = await startGateway({ heartbeatIntervalMs: 60 });
      const phone = await phoneFor(gw, 'hb-2');
      for (let i = 0; i < 5; i++) {
        const ping = await phone.nextOfType('ping');
        phone.send({ type: 'pong', ts: ping['ts'] });
      }
      expect(phone.isClosed).toBe(false);
      expect((await gw.hub.getDevice('hb-2')).status).toBe('online');
    });
  });

  describe('8. replace', () => {
    it('a second hello with the same deviceId replaces the old session', async () => {
      const gw = await startGateway();
      const oldPhone = await phoneFor(gw, 'pixel-7-01');
      const oldSession = (await gw.hub.getDevice('pixel-7-01')).sessionId;
      const pending = gw.hub.execute('pixel-7-01', { command: 'home' });
      await oldPhone.nextOfType('action');
      const replaced = firstValueFrom(gw.hub.events$.pipe(filter((e) => e.type === 'device.replaced')));
      const { phone: newPhone, welcome } = await RawPhone.hello(gw.port, 'pixel-7-01', TOKEN);
      phones.push(newPhone);
      expect((await domainRejection(pending)).code).toBe('DEVICE_REPLACED');
      expect(await oldPhone.nextOfType('error')).toMatchObject({ code: 'DEVICE_REPLACED', message: `replaced by session ${welcome['sessionId']}` });
      await oldPhone.closed;
      expect(await replaced).toMatchObject({ oldSessionId: oldSession, newSessionId: welcome['sessionId'] });
      expect(await gw.hub.getDevice('pixel-7-01')).toMatchObject({ status: 'online', sessionId: welcome['sessionId'] });
      const next = gw.hub.execute('pixel-7-01', { command: 'back' });
      newPhone.reply(await newPhone.nextOfType('action'), { via: 'new' });
      expect((await next).data).toEqual({ via: 'new' });
    });
  });

  describe('9. one command in flight per phone', () => {
    it('queues FIFO, refuses beyond the bound with DEVICE_BUSY, and counts queue time against the deadline', async () => {
      fakeGatewayClock();
      const gw = await startGateway({ queueLimit: 2 });
      const phone = await phoneFor(gw, 'q-1');
      const other = await phoneFor(gw, 'q-2');
      const first = gw.hub.execute('q-1', { command: 'click', x: 1, y: 1 });
      const second = gw.hub.execute('q-1', { command: 'click', x: 2, y: 2 });
      const third = gw.hub.execute('q-1', { command: 'click', x: 3, y: 3 }, { timeoutMs: 100 });
      await expect(gw.hub.execute('q-1', { command: 'click', x: 4, y: 4 })).rejects.toMatchObject({ code: 'DEVICE_BUSY' });
      expect(await gw.hub.getDevice('q-1')).toMatchObject({ status: 'busy', queueLength: 2 });

      // Another phone is not held up.
      const elsewhere = gw.hub.execute('q-2', { command: 'home' });
      other.reply(await other.nextOfType('action'), {});
      await elsewhere;

      const a1 = await phone.nextOfType('action');
      expect(a1).toMatchObject({ x: 1 });
      // The third command expires while queued behind the first.
      jest.advanceTimersByTime(100);
      expect((await domainRejection(third)).code).toBe('TIMEOUT');
      expect(phone.unread.filter((f) => f['type'] === 'action')).toEqual([]);
      phone.reply(a1, { n: 1 });
      const r1 = await first;
      expect(r1).toMatchObject({ queuedMs: 0, durationMs: 100 });
      // The second waited 100 ms for the phone, taken from its 30 s budget.
      const a2 = await phone.nextOfType('action');
      expect(a2).toMatchObject({ x: 2, timeoutMs: 30_000 - 100 });
      phone.reply(a2, { n: 2 });
      const r2 = await second;
      expect(r2.data).toEqual({ n: 2 });
      expect(r2).toMatchObject({ queuedMs: 100, durationMs: 100 });
      expect(phone.unread.filter((f) => f['type'] === 'action')).toEqual([]);
      expect(gw.hub.stats().pending).toBe(0);
      expect((await gw.hub.getDevice('q-1')).status).toBe('online');
    });
  });

  describe('10. malformed frames', () => {
    it('answers PROTOCOL_ERROR and continues; ten in a row close the session', async () => {
      const gw = await startGateway();
      const phone = await phoneFor(gw, 'junk-1');
      phone.write('not json\n{"no":"type"}\n{"type":"teleport"}\n');
      for (let i = 0; i < 3; i++) expect(await phone.nextOfType('error')).toMatchObject({ code: 'PROTOCOL_ERROR' });
      const ok = gw.hub.execute('junk-1', { command: 'home' });
      phone.reply(await phone.nextOfType('action'), { fine: true });
      expect((await ok).data).toEqual({ fine: true });
      expect(gw.hub.stats().protocolErrors).toBe(3);

      const doomed = domainRejection(gw.hub.execute('junk-1', { command: 'home' }));
      await phone.nextOfType('action');
      phone.write('%%\n'.repeat(10));
      await phone.closed;
      expect((await doomed).code).toBe('DEVICE_DISCONNECTED');
      expect(gw.hub.stats().protocolErrors).toBe(13);
    });

    it('fails the caller at once when its reply is malformed', async () => {
      const gw = await startGateway();
      const phone = await phoneFor(gw, 'junk-2');
      const call = gw.hub.execute('junk-2', { command: 'home' });
      const action = await phone.nextOfType('action');
      phone.send({ type: 'response', requestId: action['requestId'], status: 'maybe' });
      expect((await domainRejection(call)).code).toBe('PROTOCOL_ERROR');
    });

    it('maps phone errors to DEVICE_ERROR with the phone code, and STALE_FRAME to its own code', async () => {
      const gw = await startGateway();
      const phone = await phoneFor(gw, 'err-1');
      const open = gw.hub.execute('err-1', { command: 'open', app: 'com.nope' });
      const a1 = await phone.nextOfType('action');
      phone.send({ type: 'response', requestId: a1['requestId'], status: 'error', error: { code: 'APP_NOT_FOUND', message: 'no com.nope' } });
      expect(await domainRejection(open)).toMatchObject({ code: 'DEVICE_ERROR', deviceCode: 'APP_NOT_FOUND', message: 'no com.nope' });
      const click = gw.hub.execute('err-1', { command: 'click', x: 5, y: 5 }, { frameId: 'f-1' });
      const a2 = await phone.nextOfType('action');
      expect(a2['frameId']).toBe('f-1');
      phone.send({ type: 'response', requestId: a2['requestId'], status: 'error', error: { code: 'STALE_FRAME', message: 'rotated' } });
      expect((await domainRejection(click)).code).toBe('STALE_FRAME');
    });
  });

  describe('11. write backpressure', () => {
    it('fails new commands with DEVICE_BUSY while the phone is not reading', async () => {
      const gw = await startGateway({ writeHighWaterMarkBytes: 64 * 1024 });
      const phone = await phoneFor(gw, 'stuck-1');
      phone.socket.pause();
      const huge = gw.hub.execute('stuck-1', { command: 'input', text: 'x'.repeat(16 * 1024 * 1024) }, { timeoutMs: 30_000 });
      huge.catch(() => undefined);
      const err = await domainRejection(gw.hub.execute('stuck-1', { command: 'home' }));
      expect(err.code).toBe('DEVICE_BUSY');
      expect(err.message).toContain('not reading');
      expect(gw.hub.stats().pending).toBe(1);
    });
  });

  describe('12. graceful shutdown', () => {
    it('stops accepting, rejects pending with SHUTTING_DOWN and closes sockets', async () => {
      const gw = await startGateway();
      const phone = await phoneFor(gw, 'bye-1');
      const call = gw.hub.execute('bye-1', { command: 'home' });
      const queued = gw.hub.execute('bye-1', { command: 'back' });
      await phone.nextOfType('action');
      const closing = gw.listener.stop();
      gw.hub.shutdown();
      expect((await domainRejection(call)).code).toBe('SHUTTING_DOWN');
      expect((await domainRejection(queued)).code).toBe('SHUTTING_DOWN');
      expect((await domainRejection(gw.hub.execute('bye-1', { command: 'home' }))).code).toBe('SHUTTING_DOWN');
      await phone.closed;
      await closing;
      const refused = connect({ port: gw.port, host: '127.0.0.1' });
      const [error] = (await once(refused, 'error')) as [NodeJS.ErrnoException];
      expect(error.code).toBe('ECONNREFUSED');
    });
  });

  describe('13. AbortSignal', () => {
    it('releases a queued caller at once without sending, and an in-flight one with a cancel frame', async () => {
      const gw = await startGateway();
      const phone = await phoneFor(gw, 'abort-1');
      const inFlight = new AbortController();
      const queued = new AbortController();
      const first = gw.hub.execute('abort-1', { command: 'click', x: 1, y: 1 }, { signal: inFlight.signal });
      const second = gw.hub.execute('abort-1', { command: 'click', x: 2, y: 2 }, { signal: queued.signal });
      const third = gw.hub.execute('abort-1', { command: 'click', x: 3, y: 3 });
      const a1 = await phone.nextOfType('action');
      queued.abort();
      expect((await domainRejection(second)).code).toBe('ABORTED');
      inFlight.abort();
      expect((await domainRejection(first)).code).toBe('ABORTED');
      expect(await phone.nextOfType('cancel')).toEqual({ type: 'cancel', requestId: a1['requestId'] });
      const a3 = await phone.nextOfType('action');
      expect(a3).toMatchObject({ x: 3 });
      phone.reply(a3, {});
      await third;
      expect(phone.unread.filter((f) => f['type'] === 'action')).toEqual([]);
      await expect(gw.hub.execute('abort-1', { command: 'home' }, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'ABORTED' });
    });
  });

  describe('device registry', () => {
    it('lists phones with their hello details and rejects unknown devices and commands', async () => {
      const gw = await startGateway();
      await phoneFor(gw, 'list-1', { capabilities: ['click'], client: { name: 'raw', version: '1' } });
      const [device] = await gw.hub.listDevices();
      expect(device).toMatchObject({
        deviceId: 'list-1',
        status: 'online',
        model: 'Raw',
        android: '14',
        screen: { width: 1080, height: 2400, rotation: 0 },
        capabilities: ['click'],
        client: { name: 'raw', version: '1' },
        queueLength: 0,
      });
      expect(JSON.stringify(device)).not.toContain(TOKEN);
      await expect(gw.hub.getDevice('nope')).rejects.toMatchObject({ code: 'DEVICE_NOT_FOUND' });
      await expect(gw.hub.execute('list-1', { command: 'fly' } as never)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      for (const timeoutMs of [0, -5, Number.NaN, 2 ** 31]) {
        await expect(gw.hub.execute('list-1', { command: 'click', x: 1, y: 1 }, { timeoutMs })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      }
      // A command the phone did not announce in its hello never reaches it.
      await expect(gw.hub.execute('list-1', { command: 'ui_tree' })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'device list-1 does not support "ui_tree" (it supports click)',
      });
      expect(gw.hub.stats().pending).toBe(0);
    });
  });
});
