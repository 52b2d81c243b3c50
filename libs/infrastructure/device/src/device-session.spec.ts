import { MobileClawError } from '@mobileclaw/domain';
import { DeviceHub } from './device-hub';
import { connectPhone, MessageTransport, TEST_DEVICE_TOKEN, type Json } from './testing/message-transport';

const TOKEN = TEST_DEVICE_TOKEN;
const MAX_FRAME_BYTES = 4096;

const connect = (hub: DeviceHub, deviceId: string, remoteAddress?: string): MessageTransport => connectPhone(hub, deviceId, remoteAddress);

describe('DeviceSession over a message-based transport (no line framing)', () => {
  let hub: DeviceHub;
  beforeEach(() => {
    hub = new DeviceHub({ deviceToken: TOKEN, maxFrameBytes: MAX_FRAME_BYTES, maxHelloBytes: 1024 });
  });
  afterEach(() => hub.shutdown());

  it('runs the handshake with the limits in force and sends unterminated JSON frames', async () => {
    const transport = new MessageTransport();
    transport.session = hub.accept(transport);
    expect(transport.maxFrameBytes).toBe(1024);
    transport.deliver({ type: 'hello', protocolVersion: 1, deviceId: 'msg-1', token: TOKEN, device: { screen: { width: 720, height: 1600, rotation: 0 } } });
    expect(transport.sent[0]).toMatchObject({ type: 'welcome', maxFrameBytes: MAX_FRAME_BYTES });
    expect(transport.maxFrameBytes).toBe(MAX_FRAME_BYTES);
    expect(await hub.getDevice('msg-1')).toMatchObject({ status: 'online', remoteAddress: 'memory:1', screen: { width: 720, height: 1600 } });
  });

  it('correlates a reply by request id', async () => {
    const phone = connect(hub, 'msg-2');
    const result = hub.execute('msg-2', { command: 'click', x: 10, y: 20 });
    const action = phone.lastOfType('action') as Json;
    expect(action).toMatchObject({ type: 'action', command: 'click', x: 10, y: 20 });
    phone.deliver({ type: 'response', requestId: action['requestId'], status: 'success', data: { hit: 'ok' } });
    await expect(result).resolves.toMatchObject({ status: 'success', data: { hit: 'ok' }, requestId: action['requestId'] });
  });

  it('fails only the caller whose reply was oversized, tells the phone, and keeps the session', async () => {
    const phone = connect(hub, 'msg-3');
    const big = hub.execute('msg-3', { command: 'screenshot' });
    const first = phone.lastOfType('action') as Json;
    phone.deliver({ type: 'response', requestId: first['requestId'], status: 'success', data: { base64: 'A'.repeat(MAX_FRAME_BYTES) } });
    const error = (await big.catch((e: unknown) => e)) as MobileClawError;
    expect(error).toBeInstanceOf(MobileClawError);
    expect([error.code, error.message]).toEqual(['PAYLOAD_TOO_LARGE', `reply exceeds the ${MAX_FRAME_BYTES}-byte frame limit`]);
    expect(phone.lastOfType('error')).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', requestId: first['requestId'] });
    expect(hub.stats().oversizedFrames).toBe(1);

    const next = hub.execute('msg-3', { command: 'home' });
    const second = phone.lastOfType('action') as Json;
    expect(second['requestId']).not.toBe(first['requestId']);
    phone.deliver({ type: 'response', requestId: second['requestId'], status: 'success', data: {} });
    await expect(next).resolves.toMatchObject({ status: 'success' });
    expect((await hub.getDevice('msg-3')).status).toBe('online');
  });

  it('merges screen info from replies and events, keeping known fields they omit', async () => {
    const transport = new MessageTransport();
    transport.session = hub.accept(transport);
    transport.deliver({ type: 'hello', protocolVersion: 1, deviceId: 'msg-5', token: TOKEN, device: { screen: { width: 1080, height: 2400, densityDpi: 420, rotation: 0 } } });
    const tree = hub.execute('msg-5', { command: 'ui_tree' });
    const action = transport.lastOfType('action') as Json;
    transport.deliver({ type: 'response', requestId: action['requestId'], status: 'success', data: { nodes: [], screen: { width: 2400, height: 1080, rotation: 1 } } });
    await tree;
    expect((await hub.getDevice('msg-5')).screen).toEqual({ width: 2400, height: 1080, densityDpi: 420, rotation: 1 });

    transport.deliver({ type: 'event', event: 'screen', data: { width: 1080, height: 2400, rotation: 0 } });
    expect((await hub.getDevice('msg-5')).screen).toEqual({ width: 1080, height: 2400, densityDpi: 420, rotation: 0 });
  });

  it('refuses an oversized first message and closes the connection', async () => {
    const transport = new MessageTransport();
    transport.session = hub.accept(transport);
    transport.deliver({ type: 'hello', protocolVersion: 1, deviceId: 'msg-4', token: TOKEN, pad: 'p'.repeat(2048) });
    expect(transport.sent).toEqual([expect.objectContaining({ type: 'error', code: 'PROTOCOL_ERROR' })]);
    expect(transport.ended).toBe(true);
    await expect(hub.getDevice('msg-4')).rejects.toMatchObject({ code: 'DEVICE_NOT_FOUND' });
  });

  it('reads an unreadable message as a malformed frame: refused before hello, a counted protocol error after', async () => {
    const early = new MessageTransport();
    early.session = hub.accept(early);
    early.session.receiveUnreadable(Buffer.from('{"type":"hello"'), 'binary message');
    expect(early.sent).toEqual([{ type: 'error', code: 'PROTOCOL_ERROR', message: 'invalid hello: binary message' }]);
    expect([early.ended, early.endCode]).toEqual([true, 'DEVICE_DISCONNECTED']);

    const phone = connect(hub, 'msg-6');
    const other = hub.execute('msg-6', { command: 'home' });
    const action = phone.lastOfType('action') as Json;
    // Naming another request: the command in flight keeps waiting.
    phone.session.receiveUnreadable(Buffer.from('{"type":"response","requestId":"not-it"'), 'binary message');
    expect(phone.lastOfType('error')).toEqual({ type: 'error', code: 'PROTOCOL_ERROR', message: 'binary message' });
    expect(hub.stats()).toMatchObject({ protocolErrors: 1, pending: 1 });
    // Naming the command in flight: its caller fails at once.
    phone.session.receiveUnreadable(Buffer.from(`{"type":"response","requestId":"${action['requestId']}","status":"success"`), 'binary message');
    await expect(other).rejects.toMatchObject({ code: 'PROTOCOL_ERROR', message: 'malformed reply: binary message' });
    expect(hub.stats()).toMatchObject({ protocolErrors: 2, pending: 0 });
    expect(phone.ended).toBe(false);

    // Once closed, nothing more is read.
    phone.session.transportClosed();
    const sent = phone.sent.length;
    phone.session.receiveUnreadable(Buffer.from('{"type":"ping"}'), 'binary message');
    expect(phone.sent).toHaveLength(sent);
    expect(hub.stats().protocolErrors).toBe(2);
  });

  describe('a frame whose handling throws', () => {
    const GENERIC = { type: 'error', code: 'PROTOCOL_ERROR', message: 'the gateway failed to handle a frame' };

    it('after hello: ends only that session (error PROTOCOL_ERROR, close), fails its caller, and keeps the others', async () => {
      const other = connect(hub, 'ok-1');
      const phone = connect(hub, 'boom-1');
      const waiting = hub.execute('boom-1', { command: 'home' });
      const disconnected = new Promise<Json>((resolve) => hub.events$.subscribe((e) => e.type === 'device.disconnected' && resolve(e)));
      jest.spyOn(hub, 'deviceEvent').mockImplementation(() => {
        throw new RangeError(`Maximum call stack size exceeded ${'x'.repeat(500)}`);
      });
      expect(() => phone.deliver({ type: 'event', event: 'wifi', data: {} })).not.toThrow();
      const reason = `the gateway failed to handle a frame: Maximum call stack size exceeded ${'x'.repeat(200 - 'Maximum call stack size exceeded '.length)}`;
      expect(phone.sent.at(-1)).toEqual(GENERIC);
      expect([phone.ended, phone.destroyed, phone.endCode]).toEqual([true, false, 'DEVICE_DISCONNECTED']);
      expect(await disconnected).toMatchObject({ deviceId: 'boom-1', reason });
      await expect(waiting).rejects.toMatchObject({ code: 'DEVICE_DISCONNECTED', message: `device disconnected: ${reason}` });
      expect(other.ended).toBe(false);
      expect((await hub.getDevice('ok-1')).status).toBe('online');
    });

    it('before hello: refuses the connection with the same error, reported as a refusal', () => {
      const refused = jest.spyOn(hub, 'refused');
      jest.spyOn(hub, 'authenticate').mockImplementation(() => {
        throw new Error('keystore unavailable');
      });
      const transport = new MessageTransport();
      transport.session = hub.accept(transport);
      expect(() => transport.deliver({ type: 'hello', protocolVersion: 1, deviceId: 'boom-2', token: TOKEN })).not.toThrow();
      expect(transport.sent).toEqual([GENERIC]);
      expect(transport.ended).toBe(true);
      expect(refused).toHaveBeenCalledWith(transport.session, 'PROTOCOL_ERROR', 'the gateway failed to handle a frame: keystore unavailable');
      expect(transport.session.state).toBe('closed');
    });

    it.each([
      ['an unreadable message', (phone: MessageTransport) => phone.session.receiveUnreadable(Buffer.from('{}'), 'binary message')],
      ['an oversized frame', (phone: MessageTransport) => phone.session.frameTooLarge(Buffer.from('{"type":"response","requestId":"r"'))],
      ['a discarded frame', (phone: MessageTransport) => phone.session.frameDiscarded(Buffer.from('{}'), 99_999)],
    ])('ends the session when handling %s throws', (_name, deliver) => {
      const phone = connect(hub, 'boom-3');
      const fault = (): never => {
        throw 'not an Error';
      };
      jest.spyOn(hub, 'frameDiscarded').mockImplementation(fault);
      jest.spyOn(hub, 'count').mockImplementation(fault);
      jest.spyOn(hub, 'statusChanged').mockImplementation(fault);
      void hub.execute('boom-3', { command: 'home' }).catch(() => undefined);
      const requestId = (phone.lastOfType('action') as Json)['requestId'] as string;
      const withRequest = (head: Buffer): Buffer => Buffer.from(head.toString().replace('"r"', JSON.stringify(requestId)));
      const original = phone.session.frameTooLarge.bind(phone.session);
      phone.session.frameTooLarge = (head: Buffer) => original(withRequest(head));
      expect(() => deliver(phone)).not.toThrow();
      expect(phone.sent.at(-1)).toEqual(GENERIC);
      expect(phone.endCode).toBe('DEVICE_DISCONNECTED');
    });
  });

  it('tells the transport why the session ended', () => {
    const replaced = connect(hub, 'msg-7');
    connect(hub, 'msg-7');
    const gone = connect(hub, 'msg-8');
    gone.session.transportClosed('closed by the peer (WebSocket 1006)');
    const stopping = connect(hub, 'msg-9');
    hub.shutdown();
    expect([replaced.endCode, gone.endCode, stopping.endCode]).toEqual(['DEVICE_REPLACED', 'DEVICE_DISCONNECTED', 'SHUTTING_DOWN']);
  });
});

describe('DeviceHub with two phones sharing one device id', () => {
  const warnings: string[] = [];
  const logger = { log: () => undefined, error: () => undefined, warn: (message: string) => void warnings.push(message) };
  let now = 0;
  let hub: DeviceHub;
  beforeEach(() => {
    warnings.length = 0;
    now = 0;
    hub = new DeviceHub({ deviceToken: TOKEN }, { logger, monotonicNow: () => now });
  });
  afterEach(() => hub.shutdown());

  /** Phones at two addresses take `deviceId` from each other `times` times, `everyMs` apart. */
  function flap(deviceId: string, times: number, everyMs: number): MessageTransport[] {
    const phones = [connect(hub, deviceId, 'memory:a')];
    for (let i = 1; i <= times; i++) {
      now += everyMs;
      phones.push(connect(hub, deviceId, i % 2 === 1 ? 'memory:b' : 'memory:a'));
    }
    return phones;
  }

  it('tells the replaced phone DEVICE_REPLACED before closing its connection', async () => {
    const [first, second] = flap('twin-0', 1, 1000);
    expect(first.sent.at(-1)).toEqual({ type: 'error', code: 'DEVICE_REPLACED', message: `replaced by session ${second.session.sessionId}` });
    expect(first.ended).toBe(true);
    expect(second.ended).toBe(false);
    expect((await hub.getDevice('twin-0')).remoteAddress).toBe('memory:b');
  });

  it('warns once, naming the id and both addresses, when the id is replaced more than 3 times in 60 s', () => {
    flap('twin-1', 3, 1000);
    expect(warnings).toEqual([]);
    flap('twin-1', 0, 0); // a 4th replacement (memory:b → memory:a), 3 s after the first
    expect(warnings).toEqual([
      'device twin-1 is flapping between two connections (memory:b and memory:a): its session was replaced 4 times within 60 s. ' +
        'Two phones probably use the same device id; give each its own (for the simulator: --prefix)',
    ]);
    flap('twin-1', 20, 1000);
    expect(warnings).toHaveLength(1);
  });

  it('does not warn about an id replaced now and then, and warns again about a flapping id after 10 min', () => {
    flap('roamer', 10, 20_001);
    expect(warnings).toEqual([]);

    flap('twin-2', 4, 200);
    flap('twin-3', 4, 200);
    expect(warnings.map((w) => w.split(' ')[1])).toEqual(['twin-2', 'twin-3']);
    now += 600_000 - 200 * 8;
    flap('twin-2', 4, 200);
    expect(warnings.map((w) => w.split(' ')[1])).toEqual(['twin-2', 'twin-3', 'twin-2']);
  });
});
