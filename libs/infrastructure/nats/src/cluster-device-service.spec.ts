import { randomFillSync } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { LoggerService } from '@nestjs/common';
import { DeviceHub } from '@mobileclaw/device';
import { helloFrame, MessageTransport, TEST_DEVICE_TOKEN, type Json } from '@mobileclaw/device/testing';
import { MobileClawError, type DeviceEvent } from '@mobileclaw/domain';
import { createInbox, type MsgHdrs } from '@nats-io/transport-node';
import { Kvm } from '@nats-io/kv';
import { jetstream } from '@nats-io/jetstream';
import { filter, firstValueFrom } from 'rxjs';
import { ClusterDeviceService } from './cluster-device-service';
import { connectCluster, type ClusterConnection } from './cluster-connection';
import { ClusterSubjects } from './cluster-subjects';
import { DeviceDirectory, type DeviceDirectoryEntry } from './device-directory';
import { splitIntoChunks } from './message-chunks';
import type { RoutedCommand, RoutedCommandReply } from './routed-command';
import { subjectToken } from './subject-token';
import { recordingLogger, startNatsServer, type NatsServer } from './testing';

const quiet: LoggerService = { log: () => undefined, warn: () => undefined, error: () => undefined };

/** A phone on an in-memory connection that hands each frame the gateway sends to whoever awaits that type. */
class Phone extends MessageTransport {
  private readonly waiting = new Map<string, ((frame: Json) => void)[]>();
  private readonly unread = new Map<string, Json[]>();

  override send(frameJson: string): void {
    super.send(frameJson);
    const frame = this.sent.at(-1) as Json;
    const type = frame['type'] as string;
    const waiter = this.waiting.get(type)?.shift();
    if (waiter) waiter(frame);
    else this.unread.set(type, [...(this.unread.get(type) ?? []), frame]);
  }

  /** The next frame of `type` the gateway sends (or the oldest one not yet read). */
  next(type: string): Promise<Json> {
    const frame = this.unread.get(type)?.shift();
    if (frame) return Promise.resolve(frame);
    return new Promise((resolve) => this.waiting.set(type, [...(this.waiting.get(type) ?? []), resolve]));
  }

  succeed(action: Json, data: Json): void {
    this.deliver({ type: 'response', requestId: action['requestId'], status: 'success', data });
  }
}

interface Instance {
  id: string;
  /** The cluster's subject prefix. */
  prefix: string;
  hub: DeviceHub;
  connection: ClusterConnection;
  directory: DeviceDirectory;
  service: ClusterDeviceService;
  events: DeviceEvent[];
  /** Connects a phone to this instance's hub. */
  phone(deviceId: string): Phone;
  close(): Promise<void>;
}

let server!: NatsServer;
let clusterNumber = 0;
const open: Instance[] = [];

beforeAll(async () => {
  server = await startNatsServer();
});
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((instance) => instance.close()));
});

/** Instances `ids` of a new cluster (its own subject prefix and buckets on the shared server). */
async function cluster(...ids: string[]): Promise<Instance[]> {
  const name = `c${++clusterNumber}`;
  return Promise.all(ids.map((id) => startInstance(id, name)));
}

interface InstanceOptions {
  /** Default: the shared server. */
  server?: NatsServer;
  /** The hub's max frame bytes. */
  maxFrameBytes?: number;
  chunkTimeoutMs?: number;
  instanceTtlMs?: number;
  maxChunkedCommands?: number;
  maxChunkedBytes?: number;
  /** The directory's and the service's logger. Default: silent. */
  logger?: LoggerService;
}

async function startInstance(id: string, name: string, options: InstanceOptions = {}): Promise<Instance> {
  const hub = new DeviceHub({ deviceToken: TEST_DEVICE_TOKEN, ...(options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes }) }, { logger: quiet });
  const connection = await connectCluster({ url: (options.server ?? server).url, instanceId: id, logger: quiet, reconnectTimeWaitMs: 50 });
  const logger = options.logger ?? quiet;
  const directory = await DeviceDirectory.open(connection.nc, { instanceId: id, devicesBucket: `${name}_devices`, instancesBucket: `${name}_instances`, logger, instanceTtlMs: options.instanceTtlMs });
  const service = await ClusterDeviceService.start(hub, connection, directory, {
    subjectPrefix: name,
    logger,
    claimRetryMs: 20,
    chunkTimeoutMs: options.chunkTimeoutMs,
    maxChunkedCommands: options.maxChunkedCommands,
    maxChunkedBytes: options.maxChunkedBytes,
  });
  const events: DeviceEvent[] = [];
  service.events$.subscribe((event) => events.push(event));
  const instance: Instance = {
    id,
    prefix: name,
    hub,
    connection,
    directory,
    service,
    events,
    phone: (deviceId) => {
      const phone = new Phone(`memory:${id}`);
      phone.session = hub.accept(phone);
      phone.deliver(helloFrame(deviceId));
      return phone;
    },
    close: async () => {
      await service.close();
      hub.shutdown();
      await directory.close();
      await connection.close();
    },
  };
  open.push(instance);
  return instance;
}

/** Resolves with `deviceId`'s entry once `instance`'s view shows it held by `owner` at `epoch`. */
async function seen(instance: Instance, deviceId: string, owner: string, epoch: number): Promise<DeviceDirectoryEntry> {
  const matches = (entry: DeviceDirectoryEntry | undefined): boolean => entry?.instanceId === owner && entry.epoch === epoch;
  const now = instance.directory.lookup(deviceId);
  if (matches(now)) return now as DeviceDirectoryEntry;
  // Subscribed in the same tick as the lookup: no change can fall between the two.
  const change = await firstValueFrom(instance.directory.changes$.pipe(filter((c) => c.type === 'claimed' && c.entry.deviceId === deviceId && matches(c.entry))));
  return (change as { entry: DeviceDirectoryEntry }).entry;
}

async function failure(promise: Promise<unknown>): Promise<MobileClawError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof MobileClawError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('ClusterDeviceService (instances in one process, a real nats-server)', () => {
  it("routes a command to the instance holding the phone and resolves with the phone's exact result", async () => {
    const [a, b] = await cluster('a', 'b');
    const phone = a.phone('p1');
    await seen(b, 'p1', 'a', 1);

    const result = b.service.execute('p1', { command: 'click', x: 10, y: 20 }, { timeoutMs: 60_000 });
    const action = await phone.next('action');
    expect(action).toEqual({ type: 'action', requestId: action['requestId'], command: 'click', x: 10, y: 20, timeoutMs: expect.any(Number) });
    expect(action['timeoutMs']).toBeLessThanOrEqual(60_000);
    phone.succeed(action, { tapped: true, at: [10, 20] });

    expect(await result).toEqual({
      requestId: action['requestId'],
      deviceId: 'p1',
      command: 'click',
      status: 'success',
      data: { tapped: true, at: [10, 20] },
      durationMs: expect.any(Number),
      queuedMs: expect.any(Number),
    });
  });

  it("round-trips the owner's errors with their code, device code, field errors and request id", async () => {
    const [a, b] = await cluster('a', 'b');
    const phone = a.phone('p1');
    await seen(b, 'p1', 'a', 1);

    const refused = b.service.execute('p1', { command: 'open', app: 'com.example' });
    const action = await phone.next('action');
    phone.deliver({ type: 'response', requestId: action['requestId'], status: 'error', error: { code: 'APP_NOT_FOUND', message: 'no such app' } });
    const deviceError = await failure(refused);
    expect([deviceError.code, deviceError.deviceCode, deviceError.deviceId, deviceError.requestId]).toEqual(['DEVICE_ERROR', 'APP_NOT_FOUND', 'p1', action['requestId']]);
    expect(deviceError.message).toBe('no such app');

    const invalid = await failure(b.service.execute('p1', { command: 'fly' } as never));
    expect(invalid.code).toBe('VALIDATION_FAILED');
    expect(invalid.message).toBe('unknown command "fly"');
    expect(invalid.fieldErrors).toEqual([{ field: 'command', message: expect.stringContaining('must be one of') }]);

    const unknown = await failure(b.service.execute('nobody', { command: 'home' }));
    expect([unknown.code, unknown.message]).toEqual(['DEVICE_NOT_FOUND', 'no device "nobody" is known']);
  });

  it('answers DEVICE_DISCONNECTED at once when the owner does not listen, and when its instance is gone', async () => {
    const [a, b] = await cluster('a', 'b');
    // Instance "a" keeps its heartbeats and a claim but serves no commands.
    await a.service.close();
    const phone = a.phone('p1');
    await a.directory.claim(await a.hub.getDevice('p1'));
    await seen(b, 'p1', 'a', 1);
    // A deadline no test would wait for: only an immediate answer passes.
    const noResponders = await failure(b.service.execute('p1', { command: 'home' }, { timeoutMs: 600_000 }));
    expect(noResponders.code).toBe('DEVICE_DISCONNECTED');
    expect(noResponders.message).toBe("device p1's gateway instance a does not answer on the cluster link (no responders)");
    expect(phone.ofType('action')).toEqual([]);

    const left = firstValueFrom(b.directory.changes$.pipe(filter((ch) => ch.type === 'instance-left' && ch.instanceId === 'a')));
    await a.directory.close();
    await left;
    expect(b.directory.isLive('a')).toBe(false);
    expect(b.events.filter((e) => e.type === 'device.disconnected')).toEqual([
      { type: 'device.disconnected', deviceId: 'p1', reason: 'its gateway instance a left the cluster', at: expect.any(String) },
    ]);
    const offline = await failure(b.service.execute('p1', { command: 'home' }, { timeoutMs: 600_000 }));
    expect([offline.code, offline.message]).toEqual(['DEVICE_DISCONNECTED', 'device p1 is offline (its gateway instance a is gone)']);
    expect(await b.service.getDevice('p1')).toEqual(expect.objectContaining({ deviceId: 'p1', status: 'offline', statusReason: 'its gateway instance a is gone' }));
  });

  it('lists every instance\'s phones once, online first, and merges every instance\'s device events', async () => {
    const [a, b, c] = await cluster('a', 'b', 'c');
    const connectedOnB = firstValueFrom(b.service.events$.pipe(filter((e) => e.type === 'device.connected' && e.deviceId === 'p3')));
    a.phone('p1');
    await seen(b, 'p1', 'a', 1);
    const p3 = c.phone('p3');
    await seen(b, 'p3', 'c', 1);
    b.phone('p2');
    await seen(b, 'p2', 'b', 1);
    for (const [instance, deviceId, owner] of [[a, 'p3', 'c'], [a, 'p2', 'b'], [c, 'p1', 'a'], [c, 'p2', 'b']] as const) await seen(instance, deviceId, owner, 1);

    // Every instance lists the live phones alike: in the order they connected, wherever they are.
    const listing = [
      ['p1', 'online'],
      ['p3', 'online'],
      ['p2', 'online'],
    ];
    for (const instance of [a, b, c]) expect((await instance.service.listDevices()).map((d) => [d.deviceId, d.status])).toEqual(listing);
    expect(await b.service.getDevice('p3')).toEqual(expect.objectContaining({ deviceId: 'p3', status: 'online', sessionId: p3.session.sessionId }));
    expect(await connectedOnB).toEqual(expect.objectContaining({ type: 'device.connected', deviceId: 'p3', device: expect.objectContaining({ deviceId: 'p3' }) }));

    // A phone that leaves its instance is released: listed only where it was, offline.
    const released = firstValueFrom(b.directory.changes$.pipe(filter((ch) => ch.type === 'released' && ch.deviceId === 'p3')));
    const disconnectedOnB = firstValueFrom(b.service.events$.pipe(filter((e) => e.type === 'device.disconnected' && e.deviceId === 'p3')));
    p3.session.transportClosed();
    await released;
    expect(await disconnectedOnB).toEqual(expect.objectContaining({ type: 'device.disconnected', deviceId: 'p3' }));
    expect((await b.service.listDevices()).map((d) => d.deviceId)).toEqual(['p1', 'p2']);
    expect((await c.service.listDevices()).map((d) => [d.deviceId, d.status])).toEqual([
      ['p1', 'online'],
      ['p2', 'online'],
      ['p3', 'offline'],
    ]);
    // Each instance's own events arrive once, not also echoed back by NATS.
    expect(b.events.filter((e) => e.type === 'device.connected' && e.deviceId === 'p2')).toHaveLength(1);
  });

  it('fences a phone that reconnects on another instance: the old session and its pending command end DEVICE_REPLACED, the old epoch is refused', async () => {
    const [a, b, c] = await cluster('a', 'b', 'c');
    const old = a.phone('p1');
    await seen(c, 'p1', 'a', 1);
    const pending = c.service.execute('p1', { command: 'home' });
    await old.next('action');

    const moved = b.phone('p1');
    await seen(a, 'p1', 'b', 2);
    const error = await failure(pending);
    expect(error.code).toBe('DEVICE_REPLACED');
    expect(error.message).toBe('device reconnected on a new session: claimed by gateway instance b (epoch 2)');
    expect(old.ended).toBe(true);
    expect(old.sent.at(-1)).toEqual({ type: 'error', code: 'DEVICE_REPLACED', message: 'claimed by gateway instance b (epoch 2)' });
    expect((await a.hub.getDevice('p1')).status).toBe('offline');

    // A command routed for epoch 1 (before the move) reaches "a", which refuses it.
    const stale: RoutedCommand = { requestId: 'test-1', deviceId: 'p1', epoch: 1, command: { command: 'home' }, timeoutMs: 10_000 };
    const reply = (await c.connection.nc.request(new ClusterSubjects(c.prefix).command('a'), JSON.stringify(stale), { timeout: 10_000 })).json<RoutedCommandReply>();
    expect(reply).toEqual({ ok: false, error: { code: 'DEVICE_REPLACED', message: 'device p1 was claimed again since epoch 1 was routed', deviceId: 'p1' } });

    // Every instance now reaches the phone on "b"; the entry kept its newer epoch.
    await seen(c, 'p1', 'b', 2);
    const viaA = a.service.execute('p1', { command: 'back' });
    moved.succeed(await moved.next('action'), { from: 'a' });
    expect((await viaA).data).toEqual({ from: 'a' });
    expect(b.directory.lookup('p1')).toEqual(expect.objectContaining({ instanceId: 'b', epoch: 2, sessionId: moved.session.sessionId }));
  });

  it("keeps other instances' phones current from their events: busy while a command runs there, online after", async () => {
    const [a, b] = await cluster('a', 'b');
    const phone = a.phone('p1');
    await seen(b, 'p1', 'a', 1);
    const statusOnB = (status: string): Promise<DeviceEvent> => firstValueFrom(b.service.events$.pipe(filter((e) => e.type === 'device.status' && e.deviceId === 'p1' && e.status === status)));

    const busy = statusOnB('busy');
    const local = a.service.execute('p1', { command: 'home' });
    await busy;
    expect(await b.service.listDevices()).toEqual([expect.objectContaining({ deviceId: 'p1', status: 'busy', queueLength: 0, sessionId: phone.session.sessionId })]);
    expect((await b.service.getDevice('p1')).status).toBe('busy');

    const online = statusOnB('online');
    phone.succeed(await phone.next('action'), {});
    await local;
    await online;
    expect(await b.service.getDevice('p1')).toEqual(expect.objectContaining({ deviceId: 'p1', status: 'online', queueLength: 0 }));
  });

  it('announces device.disconnected once for the phones of an instance that stopped renewing its heartbeat (a crash)', async () => {
    const name = `c${++clusterNumber}`;
    // A TTL of 2 s: "c" must stay live while "a" expires, and a shorter one let a renewal of "c" delayed
    // by a loaded machine's event loop count as missed.
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((id) => startInstance(id, name, { instanceTtlMs: 2_000 })));
    a.phone('p1');
    c.phone('p3');
    await seen(b, 'p1', 'a', 1);
    await seen(b, 'p3', 'c', 1);
    const disconnectedOnB = (deviceId: string): Promise<DeviceEvent> => firstValueFrom(b.service.events$.pipe(filter((e) => e.type === 'device.disconnected' && e.deviceId === deviceId)));

    // A crash as the cluster sees it: the connection gone, the instance's key left to expire.
    const p1Gone = disconnectedOnB('p1');
    await a.connection.nc.close();
    expect(await p1Gone).toEqual({ type: 'device.disconnected', deviceId: 'p1', reason: 'its gateway instance a stopped renewing its heartbeat (crashed or cut off from NATS)', at: expect.any(String) });
    expect(await b.service.getDevice('p1')).toEqual(expect.objectContaining({ status: 'offline', statusReason: 'its gateway instance a is gone' }));

    // Instance "c" expires a TTL later: by then b's expiry check ran several times, and announced "a" only once.
    const p3Gone = disconnectedOnB('p3');
    await c.connection.nc.close();
    await p3Gone;
    expect(b.events.filter((e) => e.type === 'device.disconnected').map((e) => e.deviceId)).toEqual(['p1', 'p3']);
    expect((await b.service.listDevices()).map((d) => [d.deviceId, d.status])).toEqual([
      ['p1', 'offline'],
      ['p3', 'offline'],
    ]);
  });

  it("carries the caller's abort across the hop: ABORTED at once, the owner withdraws the command", async () => {
    const [a, b] = await cluster('a', 'b');
    const phone = a.phone('p1');
    await seen(b, 'p1', 'a', 1);
    const controller = new AbortController();
    const result = b.service.execute('p1', { command: 'home' }, { signal: controller.signal, timeoutMs: 600_000 });
    const action = await phone.next('action');
    controller.abort();
    const error = await failure(result);
    expect([error.code, error.message]).toEqual(['ABORTED', 'aborted by the caller']);
    expect(await phone.next('cancel')).toEqual({ type: 'cancel', requestId: action['requestId'] });
    expect(a.hub.stats().pending).toBe(0);
  });

  it('fails routed commands cleanly while the NATS server is down, then routes again on the same connections', async () => {
    const [a, b] = await cluster('a', 'b');
    const phone = a.phone('p1');
    await seen(b, 'p1', 'a', 1);
    const connectionsBefore = [a.connection.nc, b.connection.nc];

    const down = [a, b].map((i) => firstValueFrom(i.connection.link$.pipe(filter((s) => s === 'down'))));
    await server.kill();
    await Promise.all(down);
    const refused = await failure(b.service.execute('p1', { command: 'home' }, { timeoutMs: 600_000 }));
    expect([refused.code, refused.message]).toEqual(['DEVICE_DISCONNECTED', 'device p1 is held by gateway instance a and the cluster link (NATS) is down']);
    // The phone's own instance still serves it.
    const local = a.service.execute('p1', { command: 'home' });
    phone.succeed(await phone.next('action'), { local: true });
    expect((await local).data).toEqual({ local: true });

    // link$ replays the current state: both are down now, so these wait for the reconnects.
    const up = [a, b].map((i) => firstValueFrom(i.connection.link$.pipe(filter((s) => s === 'up'))));
    await server.restart();
    await Promise.all(up);
    const routed = b.service.execute('p1', { command: 'back' }, { timeoutMs: 60_000 });
    phone.succeed(await phone.next('action'), { routed: true });
    expect((await routed).data).toEqual({ routed: true });
    expect([a.connection.nc, b.connection.nc]).toEqual(connectionsBefore);
    expect(await b.service.listDevices()).toEqual([expect.objectContaining({ deviceId: 'p1', status: 'online' })]);
  });
});

/** A 1080x2400 RGB PNG, its top `noisyRows` rows random (they do not compress) and the rest white. */
function screenshotPng(noisyRows: number): Buffer {
  const width = 1080;
  const height = 2400;
  const stride = 1 + width * 3;
  const raw = Buffer.alloc(stride * height, 0xff);
  randomFillSync(raw, 0, noisyRows * stride);
  for (let y = 0; y < height; y += 1) raw[y * stride] = 0; // each row's filter: none
  const pngChunk = (type: string, data: Buffer): Buffer => {
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
}

describe('routed commands and replies larger than the server\'s max payload', () => {
  it('brings a full-size 1080x2400 PNG screenshot through another instance on a default nats-server', async () => {
    const [a, b] = await cluster('a', 'b');
    const phone = a.phone('p1');
    await seen(b, 'p1', 'a', 1);
    const png = screenshotPng(600);
    const base64 = png.toString('base64');
    expect(Buffer.byteLength(base64)).toBeGreaterThan(2 * (a.connection.nc.info?.max_payload ?? 0));

    const result = b.service.execute('p1', { command: 'screenshot' }, { timeoutMs: 60_000 });
    phone.succeed(await phone.next('action'), { mime: 'image/png', width: 1080, height: 2400, base64 });
    const { data } = await result;
    expect(data).toEqual({ mime: 'image/png', width: 1080, height: 2400, base64 });
    expect(Buffer.from(data['base64'] as string, 'base64').equals(png)).toBe(true);
  });

  describe('on a nats-server with max_payload 4096', () => {
    let small!: NatsServer;
    let name = '';
    beforeAll(async () => {
      small = await startNatsServer({ maxPayloadBytes: 4096 });
    });
    afterAll(async () => {
      await small?.stop();
    });
    beforeEach(() => {
      name = `s${++clusterNumber}`;
    });

    it("reassembles a reply of many chunks and a command of several: the phone's exact result, the command's exact text", async () => {
      const [a, b] = await Promise.all([startInstance('a', name, { server: small }), startInstance('b', name, { server: small })]);
      expect(b.connection.nc.info?.max_payload).toBe(4096);
      const phone = a.phone('p1');
      await seen(b, 'p1', 'a', 1);
      // Multi-byte characters, so that chunk boundaries fall inside them.
      const text = 'é€😀 grüße '.repeat(2_000);
      const data = { lines: Array.from({ length: 500 }, (_, i) => `line ${i} ${'ü'.repeat(i % 40)}`), text };

      const result = b.service.execute('p1', { command: 'input', text }, { timeoutMs: 60_000 });
      const action = await phone.next('action');
      expect(action['text']).toBe(text);
      phone.succeed(action, data);
      expect(await result).toEqual(expect.objectContaining({ requestId: action['requestId'], deviceId: 'p1', status: 'success', data }));
    });

    it('refuses a reply announced larger than its hub takes: PAYLOAD_TOO_LARGE before holding it', async () => {
      const [a, b] = await Promise.all([startInstance('a', name, { server: small }), startInstance('b', name, { server: small, maxFrameBytes: 1024 })]);
      const phone = a.phone('p1');
      await seen(b, 'p1', 'a', 1);
      const result = b.service.execute('p1', { command: 'ui_tree' }, { timeoutMs: 60_000 });
      phone.succeed(await phone.next('action'), { tree: 'x'.repeat(100_000) });
      const error = await failure(result);
      expect(error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(error.message).toMatch(/^the reply of gateway instance a for device p1: 1\d{5} bytes announced, more than the 66560 accepted$/);
    });

    it('answers a gap in reply chunks PROTOCOL_ERROR at once, and chunks that stop TIMEOUT naming what arrived', async () => {
      const [a, b] = await Promise.all([startInstance('a', name, { server: small }), startInstance('b', name, { server: small })]);
      // Instance "a" keeps its claim but a test subscription answers its commands.
      await a.service.close();
      a.phone('p1');
      await a.directory.claim(await a.hub.getDevice('p1'));
      await seen(b, 'p1', 'a', 1);
      const body = Buffer.from(JSON.stringify({ ok: true, result: { data: 'y'.repeat(10_000) } }));
      const chunks = splitIntoChunks(body, 4096);
      expect(chunks).toHaveLength(3);
      let send: (reply: string) => void = () => undefined;
      const owner = a.connection.nc.subscribe(new ClusterSubjects(name).command('a'), { callback: (_err, msg) => send(msg.reply ?? '') });
      await a.connection.nc.flush();

      send = (reply) => [chunks[0], chunks[2]].forEach((c) => a.connection.nc.publish(reply, c?.data, { headers: c?.headers }));
      const gap = await failure(b.service.execute('p1', { command: 'home' }, { timeoutMs: 600_000 }));
      expect([gap.code, gap.message]).toEqual(['PROTOCOL_ERROR', `the reply of gateway instance a for device p1: chunk 3/3 arrived after 1 of 3 chunks (3840 of ${body.length} bytes): chunk 2 is missing`]);

      send = (reply) => a.connection.nc.publish(reply, chunks[0]?.data, { headers: chunks[0]?.headers });
      const stalled = await failure(b.service.execute('p1', { command: 'home' }, { timeoutMs: 200 }));
      expect([stalled.code, stalled.message]).toEqual(['TIMEOUT', `no reply within 200 ms (routed to gateway instance a; 1 of 3 chunks (3840 of ${body.length} bytes) of the reply arrived)`]);
      owner.unsubscribe();
    });

    it('answers a command whose chunks stop PROTOCOL_ERROR after the chunk timeout, and serves the next one', async () => {
      const [a, b] = await Promise.all([startInstance('a', name, { server: small, chunkTimeoutMs: 50 }), startInstance('b', name, { server: small })]);
      const phone = a.phone('p1');
      await seen(b, 'p1', 'a', 1);
      const routed: RoutedCommand = { requestId: 'test-1', deviceId: 'p1', epoch: 1, command: { command: 'input', text: 'z'.repeat(10_000) }, timeoutMs: 10_000 };
      const body = Buffer.from(JSON.stringify(routed));
      const [first] = splitIntoChunks(body, 4096);
      const reply = await b.connection.nc.request(new ClusterSubjects(name).command('a'), first?.data, { headers: first?.headers, timeout: 10_000 });
      expect(reply.json<RoutedCommandReply>()).toEqual({ ok: false, error: { code: 'PROTOCOL_ERROR', message: `a routed command: 1 of 3 chunks (3840 of ${body.length} bytes) arrived, then none for 50 ms` } });
      expect(phone.ofType('action')).toEqual([]);

      const result = b.service.execute('p1', { command: 'input', text: 'z'.repeat(10_000) }, { timeoutMs: 60_000 });
      phone.succeed(await phone.next('action'), { typed: true });
      expect((await result).data).toEqual({ typed: true });
    });

    it('reassembles at most maxChunkedCommands routed commands at once, holding at most maxChunkedBytes: beyond, TOO_MANY_REQUESTS to that caller only', async () => {
      const [a, b] = await Promise.all([startInstance('a', name, { server: small, maxChunkedCommands: 2, maxChunkedBytes: 25_000 }), startInstance('b', name, { server: small })]);
      const phone = a.phone('p1');
      await seen(b, 'p1', 'a', 1);
      const subject = new ClusterSubjects(name).command('a');
      const firstChunk = (text: string): { data: Uint8Array; headers?: MsgHdrs } => {
        const routed: RoutedCommand = { requestId: `test-${text.length}`, deviceId: 'p1', epoch: 1, command: { command: 'input', text }, timeoutMs: 10_000 };
        const [first] = splitIntoChunks(Buffer.from(JSON.stringify(routed)), 4096);
        return first as { data: Uint8Array; headers?: MsgHdrs };
      };
      // Two partial commands (first chunks only) of about 10 000 bytes each: the count is reached.
      const nc = b.connection.nc;
      for (const size of [10_000, 10_001]) {
        const chunk = firstChunk('y'.repeat(size));
        nc.publish(subject, chunk.data, { headers: chunk.headers, reply: createInbox() });
      }
      const third = firstChunk('y'.repeat(6_000));
      const refused = await nc.request(subject, third.data, { headers: third.headers, timeout: 10_000 });
      expect(refused.json<RoutedCommandReply>()).toEqual({
        ok: false,
        error: { code: 'TOO_MANY_REQUESTS', message: "gateway instance a is receiving 2 routed commands in chunks, its limit (maxChunkedCommands); retry later" },
      });
      expect(phone.ofType('action')).toEqual([]);
      // A whole command needs no assembly: served meanwhile.
      const whole = b.service.execute('p1', { command: 'home' }, { timeoutMs: 60_000 });
      phone.succeed(await phone.next('action'), { home: true });
      expect((await whole).data).toEqual({ home: true });
    });

    it('refuses a first chunk whose declared bytes would exceed maxChunkedBytes with the others held', async () => {
      const [a, b] = await Promise.all([startInstance('a', name, { server: small, maxChunkedCommands: 10, maxChunkedBytes: 25_000 }), startInstance('b', name, { server: small })]);
      a.phone('p1');
      await seen(b, 'p1', 'a', 1);
      const subject = new ClusterSubjects(name).command('a');
      const nc = b.connection.nc;
      const routedOf = (size: number): Buffer => Buffer.from(JSON.stringify({ requestId: `r${size}`, deviceId: 'p1', epoch: 1, command: { command: 'input', text: 'y'.repeat(size) }, timeoutMs: 10_000 } satisfies RoutedCommand));
      const held = routedOf(20_000);
      const [heldFirst] = splitIntoChunks(held, 4096);
      nc.publish(subject, heldFirst?.data as Uint8Array, { headers: heldFirst?.headers, reply: createInbox() });
      const next = routedOf(6_000);
      const [nextFirst] = splitIntoChunks(next, 4096);
      const refused = await nc.request(subject, nextFirst?.data as Uint8Array, { headers: nextFirst?.headers, timeout: 10_000 });
      expect(refused.json<RoutedCommandReply>()).toEqual({
        ok: false,
        error: {
          code: 'TOO_MANY_REQUESTS',
          message: `gateway instance a holds ${held.length} bytes of routed commands in chunks; ${next.length} more would exceed its limit of 25000 (maxChunkedBytes); retry later`,
        },
      });
    });
  });
});

describe('ClusterDeviceService against forged or corrupt cluster data, and owners that vanish mid-call', () => {
  /** Puts `value` as the raw entry of `deviceId` in cluster `name`'s devices bucket; resolves with its revision. */
  const forgeEntry = async (instance: Instance, deviceId: string, value: unknown): Promise<number> => {
    const kv = await new Kvm(jetstream(instance.connection.nc)).open(`${instance.prefix}_devices`);
    return kv.put(subjectToken(deviceId), JSON.stringify(value));
  };
  /** Resolves once `instance`'s directory watch has handed over the devices bucket's revision `revision`. */
  const watched = async (instance: Instance, revision: number): Promise<void> => {
    // A claim written after the forged revision shows once the watch passed the forged one (one stream, in order).
    const kv = await new Kvm(jetstream(instance.connection.nc)).open(`${instance.prefix}_devices`);
    const marker = `marker-${revision}`;
    const at = '2026-05-01T10:00:00.000Z';
    await kv.put(subjectToken(marker), JSON.stringify({ deviceId: marker, instanceId: 'nobody', sessionId: 's', epoch: 1, connectedAt: at, device: { deviceId: marker, sessionId: 's', status: 'online', connectedAt: at, lastSeenAt: at, queueLength: 0, capabilities: [] } }));
    await seen(instance, marker, 'nobody', 1);
  };

  it('fails a call in flight DEVICE_REPLACED at once when the phone is claimed elsewhere after its owner vanished', async () => {
    const [a, b, c] = await cluster('a', 'b', 'c');
    const phone = a.phone('p1');
    await seen(c, 'p1', 'a', 1);
    // A deadline no test would wait for: only an answer that comes at once passes.
    const pending = c.service.execute('p1', { command: 'home' }, { timeoutMs: 600_000 });
    await phone.next('action');
    // Instance "a" is killed: it answers nothing any more, its key is left to expire.
    await a.connection.nc.close();
    b.phone('p1');
    const error = await failure(pending);
    expect([error.code, error.message, error.deviceId]).toEqual(['DEVICE_REPLACED', 'device reconnected on a new session: claimed by gateway instance b (epoch 2)', 'p1']);
  });

  it('fails a call in flight DEVICE_DISCONNECTED at once when its owner instance is judged gone (heartbeat stopped)', async () => {
    const name = `c${++clusterNumber}`;
    const [a, c] = await Promise.all(['a', 'c'].map((id) => startInstance(id, name, { instanceTtlMs: 300 })));
    const phone = a.phone('p1');
    await seen(c, 'p1', 'a', 1);
    const pending = c.service.execute('p1', { command: 'home' }, { timeoutMs: 600_000 });
    await phone.next('action');
    await a.connection.nc.close();
    const error = await failure(pending);
    expect([error.code, error.message]).toEqual(['DEVICE_DISCONNECTED', "device p1's gateway instance a is gone (its heartbeat stopped) while the command was routed to it; its outcome on the phone is unknown"]);
  });

  it('passes on only well-formed device events published by the instance the directory names for the phone', async () => {
    const logger = recordingLogger();
    const name = `c${++clusterNumber}`;
    const [a, b] = await Promise.all([startInstance('a', name), startInstance('b', name, { logger })]);
    a.phone('p1');
    await seen(b, 'p1', 'a', 1);
    const subjects = new ClusterSubjects(name);
    const forger = b.connection.nc;
    const at = '2026-05-01T10:00:00.000Z';
    const before = b.events.length;
    const script = JSON.stringify({ type: '<script>', deviceId: 'p1', at });
    forger.publish(subjects.deviceEvents('a'), script);
    forger.publish(subjects.deviceEvents('a'), JSON.stringify({ type: 'device.status', deviceId: 'p1', status: '<b>', queueLength: 0, at }));
    forger.publish(subjects.deviceEvents('a'), JSON.stringify({ type: 'device.disconnected', deviceId: 'p1', reason: 7, at }));
    forger.publish(subjects.deviceEvents('a'), JSON.stringify({ type: 'device.connected', deviceId: 'p1', device: 'a string', at }));
    // Well-formed, but "x" does not hold p1 (nor does anyone hold p9).
    forger.publish(subjects.deviceEvents('x'), JSON.stringify({ type: 'device.status', deviceId: 'p1', status: 'busy', queueLength: 3, at }));
    forger.publish(subjects.deviceEvents('x'), JSON.stringify({ type: 'device.disconnected', deviceId: 'p9', reason: 'forged', at }));
    // Well-formed and from p1's owner: passed on, its extra fields left behind (and it follows the others on this connection).
    const last = firstValueFrom(b.service.events$.pipe(filter((e) => e.type === 'device.status' && e.queueLength === 2)));
    forger.publish(subjects.deviceEvents('a'), JSON.stringify({ type: 'device.status', deviceId: 'p1', status: 'busy', queueLength: 2, at, script: '<script>' }));
    await last;
    expect(b.events.slice(before)).toEqual([{ type: 'device.status', deviceId: 'p1', status: 'busy', queueLength: 2, at }]);
    expect(logger.messages('warn')).toEqual([
      `dropped a message on ${subjects.deviceEvents('a')} that is not a device event (${Buffer.byteLength(script)} bytes)`,
      expect.stringMatching(/^dropped a message on .* that is not a device event \(\d+ bytes\)$/),
      expect.stringMatching(/^dropped a message on .* that is not a device event \(\d+ bytes\)$/),
      expect.stringMatching(/^dropped a message on .* that is not a device event \(\d+ bytes\)$/),
      'dropped a device.status event of p1 from gateway instance x: the directory names instance a for it',
      'dropped a device.disconnected event of p9 from gateway instance x: the directory names no instance for it',
    ]);
    expect((await b.service.getDevice('p1')).status).toBe('busy');
  });

  it("holds another instance's device.connected and the events after it until the claim shows, then passes them on only if the claim names that instance", async () => {
    const [a, b] = await cluster('a', 'b');
    const subjects = new ClusterSubjects(a.prefix);
    const at = '2026-05-01T10:00:00.000Z';
    const info = (deviceId: string): Record<string, unknown> => ({ deviceId, sessionId: 's1', status: 'online', connectedAt: at, lastSeenAt: at, queueLength: 0, capabilities: [] });
    const before = b.events.length;
    for (const deviceId of ['p5', 'p6']) {
      a.connection.nc.publish(subjects.deviceEvents('a'), JSON.stringify({ type: 'device.connected', deviceId, device: info(deviceId), at }));
      a.connection.nc.publish(subjects.deviceEvents('a'), JSON.stringify({ type: 'device.status', deviceId, status: 'busy', queueLength: 1, at }));
    }
    await a.connection.nc.flush();
    // Published before the claims: nothing yet.
    await b.connection.nc.flush();
    expect(b.events.slice(before)).toEqual([]);
    await forgeEntry(a, 'p6', { deviceId: 'p6', instanceId: 'x', sessionId: 's1', epoch: 1, connectedAt: at, device: info('p6') });
    await forgeEntry(a, 'p5', { deviceId: 'p5', instanceId: 'a', sessionId: 's1', epoch: 1, connectedAt: at, device: info('p5') });
    await seen(b, 'p5', 'a', 1);
    expect(b.events.slice(before)).toEqual([
      { type: 'device.connected', deviceId: 'p5', device: info('p5'), at },
      { type: 'device.status', deviceId: 'p5', status: 'busy', queueLength: 1, at },
    ]);
    expect((await b.service.getDevice('p5')).status).toBe('busy');
  });

  it('skips directory entries of the wrong shape (one warning per revision), lists the rest, and orders a claim after a corrupt entry', async () => {
    const logger = recordingLogger();
    const name = `c${++clusterNumber}`;
    const [a, b] = await Promise.all([startInstance('a', name), startInstance('b', name, { logger })]);
    a.phone('p1');
    await seen(b, 'p1', 'a', 1);
    const at = '2026-05-01T10:00:00.000Z';
    const device = (deviceId: string): Record<string, unknown> => ({ deviceId, sessionId: 's', status: 'online', connectedAt: at, lastSeenAt: at, queueLength: 0, capabilities: [] });
    const forged: [string, unknown][] = [
      ['n1', { deviceId: 'n1', instanceId: 'a', sessionId: 's', epoch: 5, connectedAt: at, device: null }],
      ['n2', { deviceId: 'n2', instanceId: 'a', sessionId: 's', epoch: 1, connectedAt: at }],
      ['n3', { deviceId: 'n3', instanceId: 'a', sessionId: 's', epoch: 1, connectedAt: at, device: 'a string' }],
      ['n4', { deviceId: 'n4', instanceId: 'a', sessionId: 's', epoch: 2 ** 53 + 2, connectedAt: at, device: device('n4') }],
      ['n5', { deviceId: 'n5', instanceId: 'a', sessionId: 's', epoch: 0, connectedAt: at, device: device('n5') }],
      ['n6', { deviceId: 'n6', instanceId: 'a', sessionId: 's', epoch: 1, connectedAt: at, device: device('other') }],
      ['n7', 'not an object'],
    ];
    let revision = 0;
    for (const [deviceId, value] of forged) revision = await forgeEntry(a, deviceId, value);
    await watched(b, revision);
    for (const [deviceId] of forged) expect(b.directory.lookup(deviceId)).toBeUndefined();
    expect((await b.service.listDevices()).map((d) => d.deviceId)).toEqual(['p1', 'marker-' + revision]);
    expect(logger.messages('warn').filter((w) => w.startsWith('ignored'))).toHaveLength(forged.length);
    expect(logger.messages('warn')[0]).toBe(`ignored an unreadable or malformed device entry (key ${subjectToken('n1')}, revision ${revision - forged.length + 1})`);

    // A corrupt entry that still carries an epoch orders the next claim after it; one without any starts at 1.
    const n1 = a.phone('n1');
    await seen(b, 'n1', 'a', 6);
    expect(b.directory.lookup('n1')?.sessionId).toBe(n1.session.sessionId);
    a.phone('n7');
    await seen(b, 'n7', 'a', 1);
  });

  it('refuses a claim over an epoch no later epoch can follow (STORAGE_ERROR), never numbering below a live holder', async () => {
    const [a, b] = await cluster('a', 'b');
    const at = '2026-05-01T10:00:00.000Z';
    const device = { deviceId: 'p1', sessionId: 's', status: 'online', connectedAt: at, lastSeenAt: at, queueLength: 0, capabilities: [] };
    await forgeEntry(a, 'p1', { deviceId: 'p1', instanceId: 'b', sessionId: 's', epoch: Number.MAX_SAFE_INTEGER, connectedAt: at, device });
    await seen(a, 'p1', 'b', Number.MAX_SAFE_INTEGER);
    const claim = await failure(a.directory.claim({ ...device, sessionId: 'new' } as never));
    expect([claim.code, claim.message]).toEqual([
      'STORAGE_ERROR',
      `the directory entry of device p1 carries epoch ${Number.MAX_SAFE_INTEGER}, after which no epoch can be ordered: delete its key from the devices bucket to claim it again`,
    ]);
    await forgeEntry(a, 'p2', { deviceId: 'p2', instanceId: 'b', sessionId: 's', epoch: 2 ** 60, connectedAt: at, device: { ...device, deviceId: 'p2' } });
    const unsafe = await failure(a.directory.claim({ ...device, deviceId: 'p2', sessionId: 'new' } as never));
    expect(unsafe.message).toContain(`carries epoch ${2 ** 60}, after which no epoch can be ordered`);
    expect(b.directory.lookup('p1')?.epoch).toBe(Number.MAX_SAFE_INTEGER);

    // A routed command with an unsafe epoch is not a routed command.
    const routed = { requestId: 'test-1', deviceId: 'p1', epoch: 2 ** 53 + 2, command: { command: 'home' }, timeoutMs: 10_000 };
    const reply = (await a.connection.nc.request(new ClusterSubjects(b.prefix).command('b'), JSON.stringify(routed), { timeout: 10_000 })).json<RoutedCommandReply>();
    expect(reply).toEqual({ ok: false, error: { code: 'VALIDATION_FAILED', message: 'not a routed command' } });
  });
});
