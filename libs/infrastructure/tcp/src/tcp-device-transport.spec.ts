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

afterEach(async () => {
  for (const phone of phones.splice(0)) phone.destroy();
  for (const gw of running.splice(0)) {
    gw.hub.shutdown();
    await gw.listener.stop();
  }
});

/**
 * What only the TCP transport does: line framing over a byte stream. The session's behaviour over
 * TCP (handshake, correlation, deadlines, heartbeat, queue, replacement, errors) is specified once
 * for every transport in test/device/device-transports.spec.ts.
 */
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
    it('refuses a connection that sends more than 64 KiB without a newline before its hello, as soon as the limit is crossed', async () => {
      const gw = await startGateway();
      const phone = await RawPhone.connect(gw.port);
      phones.push(phone);
      // No newline ever comes: the line is refused while it is still arriving.
      phone.write('{"type":"hello","pad":"' + 'p'.repeat(70 * 1024));
      expect(await phone.nextOfType('error')).toMatchObject({ code: 'PROTOCOL_ERROR', message: 'first frame exceeds 65536 bytes' });
      await phone.closed;
    });

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
});
