import { EventEmitter } from 'node:events';
import { Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { MessageBody, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import { of } from 'rxjs';
import { WebSocket } from 'ws';
import { domainRejection } from '@mobileclaw/domain/testing';
import { DeviceHub, MobileClawModule, type DeviceGatewayOptions } from '@mobileclaw/device';
import { MobileClawWsAdapter } from './mobileclaw-ws-adapter';
import { startWsDeviceGateway, WsRawPhone, type WsDeviceGateway } from './testing';
import { WsDeviceModule } from './ws-device.module';
import { WsDeviceTransport, WS_DEVICE_CLOSE_CODES, type WsDeviceTransportOptions } from './ws-device-transport';

const TOKEN = 'ws-test-token-0123456789';

const running: WsDeviceGateway[] = [];
const phones: WsRawPhone[] = [];

async function start(options: Partial<DeviceGatewayOptions> = {}, transportOptions: WsDeviceTransportOptions = {}): Promise<WsDeviceGateway> {
  const gw = await startWsDeviceGateway({ deviceToken: TOKEN, ...options }, transportOptions);
  running.push(gw);
  return gw;
}

async function connect(gw: WsDeviceGateway): Promise<WsRawPhone> {
  const phone = await WsRawPhone.connect(gw.url);
  phones.push(phone);
  return phone;
}

async function phoneFor(gw: WsDeviceGateway, deviceId: string): Promise<WsRawPhone> {
  const { phone } = await WsRawPhone.hello(gw.url, deviceId, TOKEN);
  phones.push(phone);
  return phone;
}

afterEach(async () => {
  for (const phone of phones.splice(0)) phone.destroy();
  for (const gw of running.splice(0)) await gw.close();
});

/**
 * What only the WebSocket transport does: one frame per text message, binary messages, the message
 * size limit next to the frame limit, close codes, the upgrade. The session's behaviour over
 * WebSocket is specified once for every transport in test/device/device-transports.spec.ts.
 */
describe('WebSocket device transport', () => {
  describe('one frame per text message', () => {
    it('carries Unicode both ways and needs no terminator; two frames in one message are one malformed frame', async () => {
      const gw = await start();
      const phone = await phoneFor(gw, 'msg-1');
      const text = 'Привет 世界 👋 "quoted"\n100%';
      const typed = gw.hub.execute('msg-1', { command: 'input', text });
      const action = await phone.nextOfType('action');
      expect(action['text']).toBe(text);
      phone.sendText(`${JSON.stringify({ type: 'ping', ts: 1 })}\n${JSON.stringify({ type: 'ping', ts: 2 })}`);
      expect(await phone.nextOfType('error')).toEqual({ type: 'error', code: 'PROTOCOL_ERROR', message: 'malformed JSON' });
      phone.reply(action, { typed: text });
      expect((await typed).data).toEqual({ typed: text });
      expect(gw.hub.stats().protocolErrors).toBe(1);
    });

    it('decodes text that is not valid UTF-8 as TCP does (replacement characters) instead of closing with 1007', async () => {
      const gw = await start();
      const phone = await phoneFor(gw, 'utf8-1');
      const result = gw.hub.execute('utf8-1', { command: 'ui_tree' });
      const action = await phone.nextOfType('action');
      const head = Buffer.from(`{"type":"response","requestId":${JSON.stringify(action['requestId'])},"status":"success","data":{"text":"a`);
      phone.sendText(Buffer.concat([head, Buffer.from([0xff, 0xfe]), Buffer.from('b"}}')]));
      expect((await result).data).toEqual({ text: 'a\ufffd\ufffdb' });
      expect(phone.isClosed).toBe(false);
    });
  });

  describe('binary messages', () => {
    it('refuses a binary first message and closes', async () => {
      const gw = await start();
      const phone = await connect(gw);
      const hello = Buffer.from(JSON.stringify({ type: 'hello', protocolVersion: 1, deviceId: 'bin-0', token: TOKEN }));
      phone.sendBinary(hello);
      expect(await phone.next()).toEqual({ type: 'error', code: 'PROTOCOL_ERROR', message: `invalid hello: binary message of ${hello.length} bytes; send each frame as one text message` });
      expect(await phone.closed).toEqual({ code: WS_DEVICE_CLOSE_CODES.normal, reason: 'DEVICE_DISCONNECTED' });
      expect(await gw.hub.listDevices()).toEqual([]);
    });

    it('answers PROTOCOL_ERROR after hello and keeps the session; one naming the command in flight fails it at once', async () => {
      const gw = await start();
      const phone = await phoneFor(gw, 'bin-1');
      const call = gw.hub.execute('bin-1', { command: 'home' });
      const action = await phone.nextOfType('action');
      phone.sendBinary(Buffer.from([0, 1, 2, 3]));
      expect(await phone.nextOfType('error')).toEqual({ type: 'error', code: 'PROTOCOL_ERROR', message: 'binary message of 4 bytes; send each frame as one text message' });
      expect(gw.hub.stats()).toMatchObject({ protocolErrors: 1, pending: 1 });
      const reply = Buffer.from(JSON.stringify({ type: 'response', requestId: action['requestId'], status: 'success', data: {} }));
      phone.sendBinary(reply);
      expect(await domainRejection(call)).toMatchObject({ code: 'PROTOCOL_ERROR', message: `malformed reply: binary message of ${reply.length} bytes; send each frame as one text message` });
      const next = gw.hub.execute('bin-1', { command: 'back' });
      phone.reply(await phone.nextOfType('action'), { fine: true });
      expect((await next).data).toEqual({ fine: true });
      expect(gw.hub.stats().protocolErrors).toBe(2);
    });
  });

  describe('message size', () => {
    it('fails only the request whose reply exceeds the frame limit, tells the phone, and the session goes on', async () => {
      const gw = await start({ maxFrameBytes: 4096 });
      const phone = await phoneFor(gw, 'big-1');
      const big = gw.hub.execute('big-1', { command: 'screenshot' });
      const action = await phone.nextOfType('action');
      const reply = JSON.stringify({ type: 'response', requestId: action['requestId'], status: 'success', data: { base64: 'A'.repeat(50_000) } });
      phone.sendText(reply);
      expect((await domainRejection(big)).code).toBe('PAYLOAD_TOO_LARGE');
      expect(await phone.nextOfType('error')).toEqual({ type: 'error', code: 'PAYLOAD_TOO_LARGE', message: `frame of ${reply.length} bytes exceeds 4096 bytes`, requestId: action['requestId'] });
      expect(gw.hub.stats().oversizedFrames).toBe(1);
      const next = gw.hub.execute('big-1', { command: 'click', x: 1, y: 2 });
      phone.reply(await phone.nextOfType('action'), { hit: null });
      expect((await next).data).toEqual({ hit: null });
      expect((await gw.hub.getDevice('big-1')).status).toBe('online');
    });

    it('closes with 1009 on a message over maxMessageBytes, failing the commands with DEVICE_DISCONNECTED and the reason', async () => {
      const gw = await start({ maxFrameBytes: 4096 }, { maxMessageBytes: 8192 });
      const phone = await phoneFor(gw, 'huge-1');
      const call = gw.hub.execute('huge-1', { command: 'screenshot' });
      const action = await phone.nextOfType('action');
      phone.reply(action, { base64: 'A'.repeat(10_000) });
      expect(await domainRejection(call)).toMatchObject({
        code: 'DEVICE_DISCONNECTED',
        message: 'device disconnected: a message exceeded the 8192-byte WebSocket limit (close 1009)',
      });
      expect((await phone.closed).code).toBe(WS_DEVICE_CLOSE_CODES.messageTooBig);
      expect((await gw.hub.getDevice('huge-1')).status).toBe('offline');
    });

    it('before hello, refuses a client that sends more than the hello limit without finishing a message', async () => {
      const gw = await start();
      const phone = await connect(gw);
      // One text message that never ends: 10 fragments of 7 KiB, none final.
      phone.socket.send('{"type":"hello","pad":"', { fin: false });
      for (let i = 0; i < 10; i++) phone.socket.send('p'.repeat(7 * 1024), { fin: false });
      expect(await phone.next()).toEqual({ type: 'error', code: 'PROTOCOL_ERROR', message: 'first frame exceeds 65536 bytes' });
      await phone.closed;
      expect(await gw.hub.listDevices()).toEqual([]);
    });
  });

  describe('close codes and the upgrade', () => {
    it('ends a replaced session with 1000 and the shutdown with 1001, each with the code as the reason', async () => {
      const gw = await start();
      const replaced = await phoneFor(gw, 'cc-1');
      await phoneFor(gw, 'cc-1');
      expect(await replaced.closed).toEqual({ code: 1000, reason: 'DEVICE_REPLACED' });
      const staying = await phoneFor(gw, 'cc-2');
      await gw.close();
      expect(await staying.closed).toEqual({ code: 1001, reason: 'SHUTTING_DOWN' });
    });

    it('drops a dead link without a close frame: the phone sees 1006', async () => {
      const gw = await start({ heartbeatIntervalMs: 50 });
      const silent = await phoneFor(gw, 'cc-3');
      expect((await silent.closed).code).toBe(1006);
    });

    it('stop() resolves, however often called, once every phone has closed; new phones then get 503', async () => {
      const gw = await start();
      const phone = await phoneFor(gw, 'stop-1');
      const first = gw.transport.stop();
      const second = gw.transport.stop();
      expect(gw.transport.accepting).toBe(false);
      gw.hub.shutdown();
      await Promise.all([first, second]);
      expect(await phone.closed).toEqual({ code: 1001, reason: 'SHUTTING_DOWN' });
      await expect(WsRawPhone.connect(gw.url)).rejects.toThrow('Unexpected server response: 503');
    });

    it('lists the phone with the address it connected from', async () => {
      const gw = await start();
      const phone = await phoneFor(gw, 'addr-1');
      expect(phone.localAddress).toMatch(/^127\.0\.0\.1:\d+$/);
      expect((await gw.hub.getDevice('addr-1')).remoteAddress).toBe(phone.localAddress);
    });

    it('refuses an upgrade that carries an Origin (a browser page) with 403, and still serves phones', async () => {
      const gw = await start();
      await expect(WsRawPhone.connect(gw.url, { Origin: 'https://evil.example' })).rejects.toThrow('Unexpected server response: 403');
      await expect(WsRawPhone.connect(gw.url, { Origin: `http://${new URL(gw.url).host}` })).rejects.toThrow('Unexpected server response: 403');
      const phone = await phoneFor(gw, 'after-origin-1');
      expect((await gw.hub.getDevice('after-origin-1')).remoteAddress).toBe(phone.localAddress);
    });

    it('turns away an upgrade to any other path with 404', async () => {
      const gw = await start();
      await expect(WsRawPhone.connect(gw.url.replace('/ws/device', '/ws/other'))).rejects.toThrow('Unexpected server response: 404');
      await expect(WsRawPhone.connect(gw.url.replace('/ws/device', '/ws/device/x'))).rejects.toThrow('Unexpected server response: 404');
    });

    it('refuses a path that does not start with "/" and a message limit that is not a positive integer', () => {
      expect(() => new WsDeviceTransport({ path: 'ws/device' })).toThrow('the device socket path must start with "/", got "ws/device"');
      expect(() => new WsDeviceTransport({ maxMessageBytes: 0 })).toThrow('maxMessageBytes must be a positive integer, got 0');
    });
  });

  describe('the WebSocket adapter', () => {
    it('leaves the messages of a gateway without handlers to it, and binds those of a gateway with handlers', () => {
      const adapter = new MobileClawWsAdapter();
      const bare = new EventEmitter();
      adapter.bindMessageHandlers(bare as never, [], () => of(undefined));
      expect(bare.listenerCount('message')).toBe(0);
      const socket = new WebSocket(null as never, undefined, { autoPong: true } as never);
      adapter.bindMessageHandlers(socket, [{ message: 'echo', callback: () => undefined, isAckHandledManually: false } as never], () => of(undefined));
      expect(socket.listenerCount('message')).toBe(1);
    });

    it('serves another gateway with message handlers on the same HTTP server next to the device socket', async () => {
      @WebSocketGateway({ path: '/ws/echo' })
      class EchoGateway {
        @SubscribeMessage('echo')
        echo(@MessageBody() data: unknown): { event: string; data: unknown } {
          return { event: 'echo', data };
        }
      }
      @Module({ providers: [EchoGateway] })
      class EchoModule {}
      const transport = new WsDeviceTransport();
      const moduleRef = await Test.createTestingModule({
        imports: [MobileClawModule.forRoot({ deviceToken: TOKEN, transports: [transport] }), WsDeviceModule.forRoot(transport), EchoModule],
      }).compile();
      const app = moduleRef.createNestApplication({ logger: false });
      app.useWebSocketAdapter(new MobileClawWsAdapter(app));
      await app.listen(0, '127.0.0.1');
      running.push({ app, hub: app.get(DeviceHub), transport, url: '', close: () => app.close() });
      const { port } = app.getHttpServer().address() as { port: number };

      const echo = await WsRawPhone.connect(`ws://127.0.0.1:${port}/ws/echo`);
      phones.push(echo);
      echo.send({ event: 'echo', data: { n: 1 } });
      expect(await echo.next()).toEqual({ event: 'echo', data: { n: 1 } });
      const { phone } = await WsRawPhone.hello(`ws://127.0.0.1:${port}/ws/device`, 'beside-echo', TOKEN);
      phones.push(phone);
      expect((await app.get(DeviceHub).getDevice('beside-echo')).status).toBe('online');
    });
  });
});
