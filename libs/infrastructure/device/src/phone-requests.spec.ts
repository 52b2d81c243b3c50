import { DeviceToolRequests, MobileClawError, toolFailure, toolSuccess, type DeviceToolCatalogEntry, type DeviceToolRequestContext, type ToolInvocationResult } from '@mobileclaw/domain';
import { DeviceHub, type DeviceHubDependencies } from './device-hub';
import type { DeviceGatewayOptions } from './options';
import { connectPhone, TEST_DEVICE_TOKEN, type Json, type MessageTransport } from './testing/message-transport';

const MAX_FRAME_BYTES = 4096;

/** One call the port received, with the means to answer it. */
interface PortCall {
  deviceId: string;
  method: 'catalog' | 'invoke';
  name?: string;
  args?: Record<string, unknown>;
  context?: DeviceToolRequestContext;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** A port whose every call waits until the test answers it. */
class HeldToolRequests extends DeviceToolRequests {
  readonly calls: PortCall[] = [];

  override catalog(deviceId: string): Promise<DeviceToolCatalogEntry[]> {
    return new Promise((resolve, reject) => this.calls.push({ deviceId, method: 'catalog', resolve: resolve as (value: unknown) => void, reject }));
  }

  override invoke(deviceId: string, name: string, args: Record<string, unknown>, context: DeviceToolRequestContext): Promise<ToolInvocationResult> {
    return new Promise((resolve, reject) => this.calls.push({ deviceId, method: 'invoke', name, args, context, resolve: resolve as (value: unknown) => void, reject }));
  }
}

const WEATHER: DeviceToolCatalogEntry = {
  name: 'weather',
  description: 'Current weather',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
  kind: 'OBSERVATION',
  mode: 'REMOTE_PROXY',
  eligible: true,
  missing: [],
  available: true,
  needsApproval: false,
};

/** Lets promise callbacks queued by an answer run (no time passes). */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('a phone’s own requests (request → result)', () => {
  let hub: DeviceHub;
  let port: HeldToolRequests;
  let debugLines: string[];
  const start = (options: Partial<DeviceGatewayOptions> = {}, dependencies: DeviceHubDependencies = { toolRequests: port }): void => {
    const logger = { log: () => undefined, warn: () => undefined, error: () => undefined, debug: (line: string) => debugLines.push(line) };
    hub = new DeviceHub({ deviceToken: TEST_DEVICE_TOKEN, maxFrameBytes: MAX_FRAME_BYTES, maxPhoneRequestMs: 60_000, ...options }, { logger, ...dependencies });
  };
  const request = (phone: MessageTransport, requestId: string, method: string, params: Json = {}, extra: Json = {}): void =>
    phone.deliver({ type: 'request', requestId, method, params, ...extra });
  const results = (phone: MessageTransport): Json[] => phone.ofType('result');

  beforeEach(() => {
    port = new HeldToolRequests();
    debugLines = [];
  });
  afterEach(() => {
    hub.shutdown();
    jest.useRealTimers();
  });

  it('answers tools.catalog with the port’s list for that phone', async () => {
    start();
    const phone = connectPhone(hub, 'pixel-1');
    request(phone, 'p-1', 'tools.catalog');
    expect(port.calls.map((c) => [c.method, c.deviceId])).toEqual([['catalog', 'pixel-1']]);
    expect(results(phone)).toEqual([]);
    port.calls[0].resolve([WEATHER]);
    await settle();
    expect(results(phone)).toEqual([{ type: 'result', requestId: 'p-1', ok: true, result: { tools: [WEATHER] } }]);
    expect(debugLines).toEqual([expect.stringMatching(/^request tools\.catalog from pixel-1: ok in \d+(\.\d)? ms \(request p-1\)$/)]);
  });

  it('hands tools.invoke to the port with the phone’s ids and deadline, and answers the tool’s result', async () => {
    start();
    const phone = connectPhone(hub, 'pixel-1');
    request(phone, 'p-2', 'tools.invoke', { name: 'weather', arguments: { city: 'Lyon' }, toolCallId: 'call-9' }, { timeoutMs: 5000 });
    request(phone, 'p-3', 'tools.invoke', { name: 'weather' });
    const [first, second] = port.calls;
    expect([first.deviceId, first.name, first.args, first.context?.requestId, first.context?.toolCallId, first.context?.deadlineMs]).toEqual(['pixel-1', 'weather', { city: 'Lyon' }, 'p-2', 'call-9', 5000]);
    expect(first.context?.signal.aborted).toBe(false);
    // No arguments are an empty object; no toolCallId is left to the port; no timeoutMs is the gateway's maximum.
    expect(second.args).toEqual({});
    expect(second.context).not.toHaveProperty('toolCallId');
    expect(second.context?.deadlineMs).toBe(60_000);

    second.resolve({ ...toolSuccess('Sunny', 'Sunny in Lyon'), verified: false });
    first.resolve(toolSuccess({ temp: 21 }));
    await settle();
    expect(results(phone)).toEqual([
      { type: 'result', requestId: 'p-3', ok: true, result: { content: 'Sunny', text: 'Sunny in Lyon', verified: false } },
      { type: 'result', requestId: 'p-2', ok: true, result: { content: { temp: 21 }, text: '{"temp":21}' } },
    ]);
  });

  it('answers a tool’s failure, a rejected call with its code and a bug as INTERNAL_ERROR', async () => {
    start();
    const phone = connectPhone(hub, 'pixel-1');
    request(phone, 'f-1', 'tools.invoke', { name: 'pay' });
    request(phone, 'f-2', 'tools.invoke', { name: 'pay' });
    request(phone, 'f-3', 'tools.catalog');
    port.calls[0].resolve(toolFailure('APPROVAL_REQUIRED', 'tool pay is an ACTION'));
    port.calls[1].reject(new MobileClawError('STORAGE_ERROR', 'disk full'));
    port.calls[2].reject(new TypeError('x is undefined'));
    await settle();
    expect(results(phone)).toEqual([
      { type: 'result', requestId: 'f-1', ok: false, error: { code: 'APPROVAL_REQUIRED', message: 'tool pay is an ACTION', retryable: false } },
      { type: 'result', requestId: 'f-2', ok: false, error: { code: 'STORAGE_ERROR', message: 'disk full', retryable: true } },
      { type: 'result', requestId: 'f-3', ok: false, error: { code: 'INTERNAL_ERROR', message: 'tools.catalog failed: x is undefined', retryable: false } },
    ]);
    expect(phone.ofType('error')).toEqual([]);
  });

  it('answers TIMEOUT at the deadline (the phone’s, capped by the gateway’s), aborts the call and sends nothing later', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    start({ maxPhoneRequestMs: 1000 });
    const phone = connectPhone(hub, 'pixel-1');
    request(phone, 't-1', 'tools.invoke', { name: 'slow' }, { timeoutMs: 300 });
    request(phone, 't-2', 'tools.catalog', {}, { timeoutMs: 1e12 });
    const [short, capped] = port.calls;
    expect(short.context?.deadlineMs).toBe(300);
    jest.advanceTimersByTime(299);
    expect(results(phone)).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(results(phone)).toEqual([{ type: 'result', requestId: 't-1', ok: false, error: { code: 'TIMEOUT', message: 'tools.invoke did not finish within 300 ms', retryable: true } }]);
    expect(short.context?.signal.aborted).toBe(true);
    expect((short.context?.signal.reason as MobileClawError).code).toBe('TIMEOUT');
    short.resolve(toolSuccess('too late'));
    await settle();
    expect(results(phone)).toHaveLength(1);
    jest.advanceTimersByTime(699);
    expect(results(phone)).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(results(phone)[1]).toEqual({ type: 'result', requestId: 't-2', ok: false, error: { code: 'TIMEOUT', message: 'tools.catalog did not finish within 1000 ms', retryable: true } });
    expect(debugLines).toEqual(['request tools.invoke from pixel-1: TIMEOUT in 300 ms (request t-1)', 'request tools.catalog from pixel-1: TIMEOUT in 1000 ms (request t-2)']);
    capped.resolve([]);
    await settle();
    expect(results(phone)).toHaveLength(2);
  });

  it('aborts the calls of a phone that disconnects, and sends them nothing', async () => {
    start();
    const phone = connectPhone(hub, 'pixel-1');
    request(phone, 'd-1', 'tools.invoke', { name: 'weather' });
    request(phone, 'd-2', 'tools.catalog');
    expect(phone.session.phoneRequestCount).toBe(2);
    const sent = phone.sent.length;
    phone.session.transportClosed();
    for (const call of port.calls) expect(call.context?.signal.aborted ?? true).toBe(true);
    const reason = port.calls[0].context?.signal.reason as MobileClawError;
    expect([reason.code, reason.requestId, reason.deviceId]).toEqual(['DEVICE_DISCONNECTED', 'd-1', 'pixel-1']);
    expect(phone.session.phoneRequestCount).toBe(0);
    port.calls[0].resolve(toolSuccess('late'));
    port.calls[1].resolve([WEATHER]);
    await settle();
    expect(phone.sent).toHaveLength(sent);
  });

  it('aborts the calls of a session another connection replaces, not the new session’s', async () => {
    start();
    const old = connectPhone(hub, 'pixel-1');
    request(old, 'r-1', 'tools.invoke', { name: 'weather' });
    const replacement = connectPhone(hub, 'pixel-1');
    request(replacement, 'r-1', 'tools.invoke', { name: 'weather' });
    const [first, second] = port.calls;
    expect((first.context?.signal.reason as MobileClawError).code).toBe('DEVICE_REPLACED');
    expect(second.context?.signal.aborted).toBe(false);
    first.resolve(toolSuccess('old'));
    second.resolve(toolSuccess('new'));
    await settle();
    expect(results(old)).toEqual([]);
    expect(results(replacement)).toEqual([{ type: 'result', requestId: 'r-1', ok: true, result: { content: 'new', text: 'new' } }]);
  });

  it('serves at most phoneRequestLimit requests at once and refuses one more at once, queueing nothing', async () => {
    start({ phoneRequestLimit: 2 });
    const phone = connectPhone(hub, 'pixel-1');
    request(phone, 'b-1', 'tools.catalog');
    request(phone, 'b-2', 'tools.catalog');
    request(phone, 'b-3', 'tools.catalog');
    expect(port.calls).toHaveLength(2);
    expect(results(phone)).toEqual([
      { type: 'result', requestId: 'b-3', ok: false, error: { code: 'TOO_MANY_REQUESTS', message: 'device pixel-1 has 2 requests in flight, the most it may; retry once one has answered', retryable: true } },
    ]);
    port.calls[0].resolve([]);
    await settle();
    request(phone, 'b-4', 'tools.catalog');
    expect(port.calls).toHaveLength(3);
    port.calls[1].resolve([]);
    port.calls[2].resolve([]);
    await settle();
    expect(results(phone).map((r) => [r['requestId'], r['ok']])).toEqual([
      ['b-3', false],
      ['b-1', true],
      ['b-2', true],
      ['b-4', true],
    ]);
  });

  it('answers a result over the frame limit PAYLOAD_TOO_LARGE and keeps the session', async () => {
    start();
    const phone = connectPhone(hub, 'pixel-1');
    request(phone, 'o-1', 'tools.invoke', { name: 'dump' });
    port.calls[0].resolve(toolSuccess('x'.repeat(MAX_FRAME_BYTES)));
    await settle();
    const [answer] = results(phone);
    expect(answer).toMatchObject({ type: 'result', requestId: 'o-1', ok: false, error: { code: 'PAYLOAD_TOO_LARGE', retryable: false } });
    expect(answer['error']['message']).toMatch(/^the result is 8\d{3} bytes, over the 4096-byte frame limit$/);

    request(phone, 'o-2', 'tools.invoke', { name: 'dump' });
    // Exactly at the limit still fits.
    const frame = { type: 'result', requestId: 'o-2', ok: true, result: { content: '', text: '' } };
    const pad = MAX_FRAME_BYTES - Buffer.byteLength(JSON.stringify(frame));
    port.calls[1].resolve(toolSuccess('', 'y'.repeat(pad)));
    await settle();
    expect(results(phone)[1]).toMatchObject({ requestId: 'o-2', ok: true, result: { text: 'y'.repeat(pad) } });
    expect(phone.ended).toBe(false);
    expect((await hub.getDevice('pixel-1')).status).toBe('online');
  });

  it('answers a result that is not JSON INTERNAL_ERROR', async () => {
    start();
    const phone = connectPhone(hub, 'pixel-1');
    request(phone, 'j-1', 'tools.invoke', { name: 'odd' });
    port.calls[0].resolve(toolSuccess({ n: 1n } as never, 'one'));
    await settle();
    expect(results(phone)[0]).toMatchObject({ requestId: 'j-1', ok: false, error: { code: 'INTERNAL_ERROR', retryable: false } });
    expect(results(phone)[0]['error']['message']).toMatch(/^the result is not JSON: .*BigInt/);
  });

  it('answers an unknown method METHOD_NOT_FOUND without asking the port', () => {
    start();
    const phone = connectPhone(hub, 'pixel-1');
    request(phone, 'm-1', 'tools.remove', { name: 'weather' });
    expect(port.calls).toEqual([]);
    expect(results(phone)).toEqual([
      { type: 'result', requestId: 'm-1', ok: false, error: { code: 'METHOD_NOT_FOUND', message: 'no method "tools.remove"; this gateway serves tools.catalog, tools.invoke', retryable: false } },
    ]);
  });

  it('answers every request METHOD_NOT_FOUND when the gateway has no tools', () => {
    start({}, {});
    const phone = connectPhone(hub, 'pixel-1');
    request(phone, 'n-1', 'tools.catalog');
    request(phone, 'n-2', 'tools.invoke', { name: 'weather' });
    expect(results(phone).map((r) => [r['requestId'], r['error']])).toEqual([
      ['n-1', { code: 'METHOD_NOT_FOUND', message: 'this gateway serves no tools (no tool registry), so no tools.catalog', retryable: false }],
      ['n-2', { code: 'METHOD_NOT_FOUND', message: 'this gateway serves no tools (no tool registry), so no tools.invoke', retryable: false }],
    ]);
  });

  it('serves sessions already open through a port set later', async () => {
    start({}, {});
    const phone = connectPhone(hub, 'pixel-1');
    expect(hub.toolRequests).toBeUndefined();
    hub.serveToolRequests(port);
    expect(hub.toolRequests).toBe(port);
    request(phone, 'l-1', 'tools.catalog');
    port.calls[0].resolve([WEATHER]);
    await settle();
    expect(results(phone)).toEqual([{ type: 'result', requestId: 'l-1', ok: true, result: { tools: [WEATHER] } }]);
  });

  it('refuses options out of range', () => {
    const options = (extra: Partial<DeviceGatewayOptions>) => () => new DeviceHub({ deviceToken: TEST_DEVICE_TOKEN, ...extra }).shutdown();
    expect(options({ maxPhoneRequestMs: 2_147_483_648 })).toThrow('MobileClaw: maxPhoneRequestMs must be at most 2147483647');
    expect(options({ maxPhoneRequestMs: 0 })).toThrow('MobileClaw: maxPhoneRequestMs must be a positive number, got 0');
    expect(options({ phoneRequestLimit: 1.5 })).toThrow('MobileClaw: phoneRequestLimit must be an integer ≥ 0');
    expect(options({ phoneRequestLimit: -1 })).toThrow('MobileClaw: phoneRequestLimit must be an integer ≥ 0');
    expect(options({ maxPhoneRequestMs: 2_147_483_647, phoneRequestLimit: 0 })).not.toThrow();
    start();
    expect([hub.options.maxPhoneRequestMs, hub.options.phoneRequestLimit]).toEqual([60_000, 4]);
    hub.shutdown();
    hub = new DeviceHub({ deviceToken: TEST_DEVICE_TOKEN });
    expect([hub.options.maxPhoneRequestMs, hub.options.phoneRequestLimit]).toEqual([120_000, 4]);
  });

  it('refuses a request id already in flight, and still answers the first', async () => {
    start();
    const phone = connectPhone(hub, 'pixel-1');
    request(phone, 'x-1', 'tools.catalog');
    request(phone, 'x-1', 'tools.catalog');
    expect(port.calls).toHaveLength(1);
    expect(phone.ofType('error')).toEqual([
      { type: 'error', code: 'PROTOCOL_ERROR', message: 'request x-1 is already in flight; a request id is reused only after its result', requestId: 'x-1' },
    ]);
    port.calls[0].resolve([]);
    await settle();
    expect(results(phone)).toEqual([{ type: 'result', requestId: 'x-1', ok: true, result: { tools: [] } }]);
    // Answered, the id may be used again.
    request(phone, 'x-1', 'tools.catalog');
    expect(port.calls).toHaveLength(2);
  });

  it('answers a malformed request with an error naming it, harming nothing else', async () => {
    start({ maxConsecutiveProtocolErrors: 3 });
    const phone = connectPhone(hub, 'pixel-1');
    const command = hub.execute('pixel-1', { command: 'home' });
    phone.deliver({ type: 'request', requestId: 'e-1', params: {} });
    phone.deliver({ type: 'request', requestId: 'e-2', method: 'tools.invoke', params: { name: '' } });
    phone.deliver({ type: 'request', requestId: 'e-3', method: 'tools.invoke', params: { name: 'w', arguments: [] } });
    phone.deliver({ type: 'request', requestId: 'e-4', method: 'tools.catalog', params: {}, timeoutMs: 0 });
    expect(phone.ofType('error')).toEqual([
      { type: 'error', code: 'PROTOCOL_ERROR', message: 'request: "method" must be a non-empty string', requestId: 'e-1' },
      { type: 'error', code: 'VALIDATION_FAILED', message: 'tools.invoke: "params.name" must be a non-empty string', requestId: 'e-2' },
      { type: 'error', code: 'VALIDATION_FAILED', message: 'tools.invoke: "params.arguments" must be an object', requestId: 'e-3' },
      { type: 'error', code: 'PROTOCOL_ERROR', message: 'request: "timeoutMs" must be a positive number', requestId: 'e-4' },
    ]);
    expect(port.calls).toEqual([]);
    expect(hub.stats().protocolErrors).toBe(2);
    // Two protocol errors, but not in a row (a readable request came between): the session is up, its command answered.
    expect(phone.ended).toBe(false);
    phone.succeedLast({ done: true });
    await expect(command).resolves.toMatchObject({ status: 'success', data: { done: true } });
    request(phone, 'e-5', 'tools.catalog');
    expect(port.calls).toHaveLength(1);
  });

  it('does not name the request of a malformed frame of another type (its id is the gateway’s)', () => {
    start();
    const phone = connectPhone(hub, 'pixel-1');
    void hub.execute('pixel-1', { command: 'home' }).catch(() => undefined);
    const action = phone.lastOfType('action') as Json;
    phone.deliver({ type: 'response', requestId: action['requestId'], status: 'ok' });
    expect(phone.lastOfType('error')).toEqual({ type: 'error', code: 'PROTOCOL_ERROR', message: 'response: "status" must be "success" or "error"' });
  });

  it('refuses a result frame from a phone as a frame of the wrong direction', () => {
    start();
    const phone = connectPhone(hub, 'pixel-1');
    phone.deliver({ type: 'result', requestId: 'p-1', ok: true, result: {} });
    expect(phone.lastOfType('error')).toEqual({ type: 'error', code: 'PROTOCOL_ERROR', message: 'unexpected "result" frame from a phone' });
  });

  it('refuses a request before hello like any other first frame', () => {
    start();
    const phone = connectPhone(hub, 'pixel-1');
    expect(phone.ended).toBe(false);
    const early = connectPhone(hub, 'pixel-2', undefined, { type: 'request', requestId: 'h-1', method: 'tools.catalog', params: {} });
    expect(early.sent).toEqual([{ type: 'error', code: 'PROTOCOL_ERROR', message: 'first frame must be "hello", got "request"' }]);
    expect(port.calls).toEqual([]);
  });
});
