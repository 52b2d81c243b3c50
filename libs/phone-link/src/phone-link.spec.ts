import { GatewayRequestError } from './gateway-request-error';
import { PhoneError } from './phone-error';
import type { DeviceDescription, PhoneAction, PhoneExecutor } from './phone-executor';
import { PhoneLink, type PhoneLinkSettings } from './phone-link';
import { TestGateway, type GatewaySide, type TestTransport } from './testing';

const DESCRIPTION: DeviceDescription = {
  device: { model: 'Pixel 7', manufacturer: 'Google', android: '14', screen: { width: 1080, height: 2400, densityDpi: 420, rotation: 0 } },
  capabilities: ['click'],
};

/** An executor whose actions the test settles by hand. */
class ManualExecutor implements PhoneExecutor {
  readonly actions: PhoneAction[] = [];
  private waiters: Array<(action: PhoneAction) => void> = [];
  private readonly outcomes = new Map<string, { resolve: (data: Record<string, unknown>) => void; reject: (err: unknown) => void }>();

  constructor(private readonly description: () => DeviceDescription | Promise<DeviceDescription> = () => DESCRIPTION) {}

  describe(): DeviceDescription | Promise<DeviceDescription> {
    return this.description();
  }

  execute(action: PhoneAction): Promise<Record<string, unknown>> {
    this.actions.push(action);
    const promise = new Promise<Record<string, unknown>>((resolve, reject) => this.outcomes.set(action.requestId, { resolve, reject }));
    this.waiters.shift()?.(action);
    return promise;
  }

  nextAction(): Promise<PhoneAction> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  settle(requestId: string, outcome: Record<string, unknown> | Error): void {
    const entry = this.outcomes.get(requestId);
    if (!entry) throw new Error(`no action ${requestId}`);
    if (outcome instanceof Error) entry.reject(outcome);
    else entry.resolve(outcome);
  }
}

describe.each<TestTransport>(['tcp', 'ws'])('PhoneLink over %s', (transport) => {
  let gateway: TestGateway;
  const links: PhoneLink[] = [];

  beforeEach(async () => {
    gateway = new TestGateway(transport);
    await gateway.listen();
  });

  afterEach(async () => {
    await Promise.all(links.splice(0).map((l) => l.stop()));
    await gateway.close();
  });

  function newLink(executor: PhoneExecutor, options: Partial<PhoneLinkSettings> = {}): PhoneLink {
    const link = new PhoneLink({ executor, ...gateway.address, token: 't0ken', deviceId: 'pixel-7', client: { name: 'test-phone', version: '1.2.3' }, ...options });
    links.push(link);
    return link;
  }

  async function connected(executor: PhoneExecutor, maxFrameBytes = 16 * 1024 * 1024): Promise<{ link: PhoneLink; side: GatewaySide; hello: Record<string, unknown> }> {
    const link = newLink(executor);
    const started = link.start();
    const side = await gateway.nextConnection();
    const hello = await side.nextFrame();
    side.send({ type: 'welcome', sessionId: 's-1', heartbeatIntervalMs: 15000, maxFrameBytes });
    await started;
    return { link, side, hello };
  }

  it('says hello with what an asynchronous executor describes, and the client it was given', async () => {
    const { hello } = await connected(new ManualExecutor(async () => DESCRIPTION));
    expect(hello).toEqual({
      type: 'hello',
      protocolVersion: 1,
      deviceId: 'pixel-7',
      token: 't0ken',
      device: DESCRIPTION.device,
      capabilities: ['click'],
      client: { name: 'test-phone', version: '1.2.3' },
    });
  });

  it('fails start() with the reason when the device cannot be described, and sends no hello', async () => {
    const link = newLink(new ManualExecutor(() => Promise.reject(new Error("device 'R58M' not found"))));
    const started = link.start();
    const side = await gateway.nextConnection();
    await expect(started).rejects.toThrow("pixel-7: cannot describe the device for hello: device 'R58M' not found");
    await side.closed;
    expect(side.buffered).toBe(0);
  });

  it('hands the executor the command, its arguments, the frame id and the time left; answers its data', async () => {
    const executor = new ManualExecutor();
    const { side } = await connected(executor);
    const next = executor.nextAction();
    side.send({ type: 'action', requestId: 'r-1', command: 'click', x: 540, y: 1200, frameId: 'f-3', timeoutMs: 30000 });
    const action = await next;
    expect(action).toMatchObject({ requestId: 'r-1', command: 'click', args: { x: 540, y: 1200 }, frameId: 'f-3' });
    expect(action.timeoutMs).toBeGreaterThan(29000);
    expect(action.timeoutMs).toBeLessThanOrEqual(30000);
    executor.settle('r-1', { hit: 'n4' });
    expect(await side.nextFrame()).toEqual({ type: 'response', requestId: 'r-1', status: 'success', data: { hit: 'n4' } });
  });

  it('answers a PhoneError with its code, and any other failure INTERNAL_ERROR', async () => {
    const executor = new ManualExecutor();
    const { side } = await connected(executor);
    let next = executor.nextAction();
    side.send({ type: 'action', requestId: 'r-1', command: 'open', app: 'com.nope', timeoutMs: 30000 });
    executor.settle((await next).requestId, new PhoneError('APP_NOT_FOUND', 'no launchable app with package "com.nope" is installed'));
    expect(await side.nextFrame()).toEqual({ type: 'response', requestId: 'r-1', status: 'error', error: { code: 'APP_NOT_FOUND', message: 'no launchable app with package "com.nope" is installed' } });
    next = executor.nextAction();
    side.send({ type: 'action', requestId: 'r-2', command: 'click', timeoutMs: 30000 });
    executor.settle((await next).requestId, new TypeError('boom'));
    expect(await side.nextFrame()).toEqual({ type: 'response', requestId: 'r-2', status: 'error', error: { code: 'INTERNAL_ERROR', message: 'boom' } });
  });

  it('aborts the action on cancel and sends no reply for it', async () => {
    const executor = new ManualExecutor();
    const { side } = await connected(executor);
    const next = executor.nextAction();
    side.send({ type: 'action', requestId: 'r-1', command: 'ui_tree', timeoutMs: 30000 });
    const action = await next;
    side.send({ type: 'cancel', requestId: 'r-1' });
    await new Promise((resolve) => action.signal.addEventListener('abort', resolve));
    expect(String(action.signal.reason)).toContain('request r-1 was cancelled by the gateway');
    executor.settle('r-1', action.signal.reason as Error);
    // The next reply on the wire is the pong, not a reply to r-1.
    side.send({ type: 'ping', ts: 7 });
    expect(await side.nextFrame()).toEqual({ type: 'pong', ts: 7 });
  });

  it('aborts the action when its timeoutMs passes, with a TIMEOUT PhoneError as the reason', async () => {
    const executor = new ManualExecutor();
    const { side } = await connected(executor);
    const next = executor.nextAction();
    side.send({ type: 'action', requestId: 'r-1', command: 'screenshot', timeoutMs: 30 });
    const action = await next;
    await new Promise((resolve) => action.signal.addEventListener('abort', resolve));
    expect(action.signal.reason).toBeInstanceOf(PhoneError);
    expect(action.signal.reason).toMatchObject({ code: 'TIMEOUT', message: 'screenshot did not finish within its 30 ms deadline' });
  });

  it('answers PAYLOAD_TOO_LARGE instead of a reply over the frame limit the gateway announced', async () => {
    const executor = new ManualExecutor();
    const { side } = await connected(executor, 1000);
    const next = executor.nextAction();
    side.send({ type: 'action', requestId: 'r-1', command: 'screenshot', timeoutMs: 30000 });
    executor.settle((await next).requestId, { base64: 'A'.repeat(2000) });
    const reply = await side.nextFrame();
    expect(reply).toMatchObject({ type: 'response', requestId: 'r-1', status: 'error', error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect((reply['error'] as { message: string }).message).toMatch(/^the reply is 20\d\d bytes, over the gateway's 1000-byte frame limit/);
  });

  it('sends events only while welcomed', async () => {
    const executor = new ManualExecutor();
    const link = newLink(executor);
    expect(link.sendEvent('screen', { width: 2400 })).toBe(false);
    const started = link.start();
    const side = await gateway.nextConnection();
    await side.welcome();
    await started;
    expect(link.sendEvent('screen', { width: 2400, height: 1080, rotation: 1 })).toBe(true);
    expect(await side.nextFrame()).toEqual({ type: 'event', event: 'screen', data: { width: 2400, height: 1080, rotation: 1 } });
  });

  describe('the phone’s own requests', () => {
    const failureOf = (promise: Promise<unknown>): Promise<GatewayRequestError> => promise.then(() => Promise.reject(new Error('expected a failure')), (err: GatewayRequestError) => err);

    it('sends tools.catalog and tools.invoke as requests and resolves each with its own result, in any order', async () => {
      const { link, side } = await connected(new ManualExecutor());
      const catalog = link.toolsCatalog({ timeoutMs: 5000 });
      const call = link.invokeTool('weather', { city: 'Lyon' }, { toolCallId: 'call-1' });
      const catalogRequest = await side.nextFrame();
      const callRequest = await side.nextFrame();
      expect(catalogRequest).toEqual({ type: 'request', requestId: expect.stringMatching(/^p[0-9a-f]{12}-1$/), method: 'tools.catalog', params: {}, timeoutMs: 5000 });
      expect(callRequest).toEqual({
        type: 'request',
        requestId: expect.stringMatching(/^p[0-9a-f]{12}-2$/),
        method: 'tools.invoke',
        params: { name: 'weather', arguments: { city: 'Lyon' }, toolCallId: 'call-1' },
        timeoutMs: 120_000,
      });
      side.send({ type: 'result', requestId: callRequest['requestId'], ok: true, result: { content: { temp: 21 }, text: '21 °C' } });
      side.send({ type: 'result', requestId: catalogRequest['requestId'], ok: true, result: { tools: [{ name: 'weather' }] } });
      await expect(call).resolves.toEqual({ content: { temp: 21 }, text: '21 °C' });
      await expect(catalog).resolves.toEqual([{ name: 'weather' }]);
    });

    it('rejects with the gateway’s failure, from a result or from an error frame naming the request', async () => {
      const { link, side } = await connected(new ManualExecutor());
      const refused = link.invokeTool('pay');
      const invalid = link.request('tools.invoke', { name: '' });
      const first = await side.nextFrame();
      const second = await side.nextFrame();
      expect(first['params']).toEqual({ name: 'pay', arguments: {} });
      side.send({ type: 'error', code: 'VALIDATION_FAILED', message: 'tools.invoke: "params.name" must be a non-empty string', requestId: second['requestId'] });
      side.send({ type: 'result', requestId: first['requestId'], ok: false, error: { code: 'TOO_MANY_REQUESTS', message: '4 in flight', retryable: true } });
      const busy = await failureOf(refused);
      expect(busy).toBeInstanceOf(GatewayRequestError);
      expect([busy.code, busy.message, busy.requestId, busy.retryable]).toEqual(['TOO_MANY_REQUESTS', 'TOO_MANY_REQUESTS: 4 in flight', first['requestId'], true]);
      const rejected = await failureOf(invalid);
      expect([rejected.code, rejected.requestId, rejected.retryable]).toEqual(['VALIDATION_FAILED', second['requestId'], false]);
      // A result nobody waits for (answered already) is ignored; the link goes on.
      side.send({ type: 'result', requestId: first['requestId'], ok: true, result: {} });
      const later = link.toolsCatalog();
      const third = await side.nextFrame();
      side.send({ type: 'result', requestId: third['requestId'], ok: false, error: { code: 'METHOD_NOT_FOUND', message: 'no tools here' } });
      expect(await failureOf(later)).toMatchObject({ code: 'METHOD_NOT_FOUND', retryable: false });
    });

    it('rejects TIMEOUT when no result comes in time, and ignores the late one', async () => {
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
      try {
        const { link, side } = await connected(new ManualExecutor());
        const call = link.invokeTool('slow', {}, { timeoutMs: 250 });
        const request = await side.nextFrame();
        jest.advanceTimersByTime(250);
        expect(await failureOf(call)).toMatchObject({ code: 'TIMEOUT', message: 'TIMEOUT: tools.invoke: no result within 250 ms', requestId: request['requestId'], retryable: true });
        side.send({ type: 'result', requestId: request['requestId'], ok: true, result: {} });
        const next = link.toolsCatalog();
        const again = await side.nextFrame();
        side.send({ type: 'result', requestId: again['requestId'], ok: true, result: { tools: [] } });
        await expect(next).resolves.toEqual([]);
      } finally {
        jest.useRealTimers();
      }
    });

    it('fails every waiting request at once when the connection closes, and refuses requests while not connected', async () => {
      const { link, side } = await connected(new ManualExecutor());
      const waiting = [link.toolsCatalog(), link.invokeTool('weather')];
      await side.nextFrame();
      await side.nextFrame();
      side.destroy();
      for (const failure of await Promise.all(waiting.map(failureOf))) {
        expect([failure.code, failure.message, failure.retryable]).toEqual(['DEVICE_DISCONNECTED', 'DEVICE_DISCONNECTED: the connection to the gateway closed before the result', true]);
      }
      expect(await failureOf(link.toolsCatalog())).toMatchObject({ code: 'DEVICE_DISCONNECTED', message: 'DEVICE_DISCONNECTED: tools.catalog: not connected to the gateway', requestId: undefined });
    });

    it('refuses a deadline that is not a positive number of timer range', async () => {
      const { link } = await connected(new ManualExecutor());
      await expect(link.toolsCatalog({ timeoutMs: 0 })).rejects.toThrow(new TypeError('timeoutMs must be a positive number of at most 2147483647 ms, got 0'));
      await expect(link.toolsCatalog({ timeoutMs: 2 ** 31 })).rejects.toThrow(TypeError);
      await expect(link.toolsCatalog({ timeoutMs: Number.NaN })).rejects.toThrow(TypeError);
    });
  });
});

describe('PhoneLink gateway addresses and WebSocket messages', () => {
  const links: PhoneLink[] = [];
  afterEach(async () => {
    await Promise.all(links.splice(0).map((l) => l.stop()));
  });

  it('refuses a URL that is not ws:// or wss://, and a port outside 1-65535', () => {
    const settings = { executor: new ManualExecutor(), token: 't', deviceId: 'p', client: { name: 'n', version: '1' } };
    expect(() => new PhoneLink({ ...settings, url: 'http://127.0.0.1:3000/ws/device' })).toThrow('the gateway URL must be ws:// or wss://, got "http://127.0.0.1:3000/ws/device"');
    expect(() => new PhoneLink({ ...settings, url: 'not a url' })).toThrow('the gateway URL "not a url" is not a URL');
    expect(() => new PhoneLink({ ...settings, port: 70000 })).toThrow('the gateway port must be an integer 1-65535, got 70000');
    expect(new PhoneLink({ ...settings, url: 'wss://gateway.example.com/ws/device' }).gatewayAddress).toBe('wss://gateway.example.com/ws/device');
    expect(new PhoneLink({ ...settings, port: 7397 }).gatewayAddress).toBe('127.0.0.1:7397');
  });

  it('over WebSocket, drops a message over its frame limit and stays connected', async () => {
    const gateway = new TestGateway('ws');
    await gateway.listen();
    const lines: string[] = [];
    const link = new PhoneLink({ executor: new ManualExecutor(), ...gateway.address, token: 't', deviceId: 'p', client: { name: 'n', version: '1' }, log: (line) => lines.push(line) });
    links.push(link);
    const started = link.start();
    const side = await gateway.nextConnection();
    await side.welcome();
    await started;
    side.sendText('x'.repeat(16 * 1024 * 1024 + 1));
    side.send({ type: 'ping', ts: 5 });
    expect(await side.nextFrame()).toEqual({ type: 'pong', ts: 5 });
    expect(lines).toContain('[p] dropped a 16777217-byte frame from the gateway (limit 16777216)');
    expect(link.connected).toBe(true);
    await link.stop();
    await gateway.close();
  });
});
