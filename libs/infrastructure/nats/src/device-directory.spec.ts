import type { LoggerService } from '@nestjs/common';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { MobileClawError, type DeviceInfo } from '@mobileclaw/domain';
import { filter, firstValueFrom } from 'rxjs';
import { connectCluster } from './cluster-connection';
import { DeviceDirectory, InstanceIdInUseError, type DeviceDirectoryOptions } from './device-directory';
import { fromSubjectToken, subjectToken } from './subject-token';
import { recordingLogger, startNatsServer, type NatsServer } from './testing';

const quiet: LoggerService = { log: () => undefined, warn: () => undefined, error: () => undefined };

let server!: NatsServer;
let nc!: NatsConnection;
let bucketNumber = 0;
const directories: DeviceDirectory[] = [];

beforeAll(async () => {
  server = await startNatsServer();
  nc = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 50 });
});
afterAll(async () => {
  await nc?.close();
  await server?.stop();
});
afterEach(async () => {
  await Promise.all(directories.splice(0).map((d) => d.close()));
});

/** Directories of `ids` over buckets of their own. */
async function directoriesOf(ids: string[], options: Partial<DeviceDirectoryOptions> = {}): Promise<DeviceDirectory[]> {
  const n = ++bucketNumber;
  const opened = await Promise.all(ids.map((instanceId) => DeviceDirectory.open(nc, { instanceId, devicesBucket: `d${n}_devices`, instancesBucket: `d${n}_instances`, logger: quiet, ...options })));
  directories.push(...opened);
  return opened;
}

function device(deviceId: string, sessionId: string): DeviceInfo {
  return { deviceId, status: 'online', capabilities: [], sessionId, connectedAt: '2026-01-01T00:00:00.000Z', lastSeenAt: '2026-01-01T00:00:00.000Z', queueLength: 0 };
}

describe('subjectToken', () => {
  it('encodes any id as base64url (subject and KV key safe) and back', () => {
    for (const id of ['p1', 'a.b*c>d e', 'téléphone/7', '']) {
      expect(subjectToken(id)).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(fromSubjectToken(subjectToken(id))).toBe(id);
    }
    expect(subjectToken('p1')).toBe('cDE');
  });
});

describe('DeviceDirectory (a real nats-server)', () => {
  it('claims with epoch + 1 at every claim, whichever instance claims, and releases only its own current claim', async () => {
    const [a, b] = await directoriesOf(['a', 'b']);
    expect(await a.claim(device('p1', 's1'))).toBe(1);
    expect(await a.claim(device('p1', 's2'))).toBe(2);
    const claimedByB = firstValueFrom(a.changes$.pipe(filter((c) => c.type === 'claimed' && c.entry.instanceId === 'b')));
    expect(await b.claim(device('p1', 's3'))).toBe(3);
    expect(await claimedByB).toEqual({
      type: 'claimed',
      entry: { deviceId: 'p1', instanceId: 'b', sessionId: 's3', epoch: 3, connectedAt: '2026-01-01T00:00:00.000Z', device: device('p1', 's3') },
    });
    expect(a.lookup('p1')).toEqual(expect.objectContaining({ instanceId: 'b', epoch: 3 }));

    expect(await a.release('p1', 2)).toBe(false);
    expect(await b.release('p1', 2)).toBe(false);
    const released = firstValueFrom(a.changes$.pipe(filter((c) => c.type === 'released')));
    expect(await b.release('p1', 3)).toBe(true);
    expect(await released).toEqual({ type: 'released', deviceId: 'p1' });
    expect(a.lookup('p1')).toBeUndefined();
    expect(await b.release('p1', 3)).toBe(false);
    // A claim after a release starts a new entry.
    expect(await a.claim(device('p1', 's4'))).toBe(1);
  });

  it('gives concurrent claims of one phone distinct epochs (compare-and-set, retried)', async () => {
    const [a, b, c] = await directoriesOf(['a', 'b', 'c']);
    const epochs = await Promise.all([a.claim(device('p1', 'sa')), b.claim(device('p1', 'sb')), c.claim(device('p1', 'sc'))]);
    expect([...epochs].sort()).toEqual([1, 2, 3]);
    const winner = ['a', 'b', 'c'][epochs.indexOf(3)];
    if (a.lookup('p1')?.epoch !== 3) await firstValueFrom(a.changes$.pipe(filter((ch) => ch.type === 'claimed' && ch.entry.epoch === 3)));
    expect(a.lookup('p1')).toEqual(expect.objectContaining({ epoch: 3, instanceId: winner }));
  });

  it('loads the entries present when it opens, and counts an instance gone once its key is older than the TTL or deleted', async () => {
    // A TTL of a minute: "a" renews its key every 20 s, never during the test; b's clock is moved by hand.
    const [a] = await directoriesOf(['a'], { instanceTtlMs: 60_000 });
    await a.claim(device('p1', 's1'));
    const bucket = bucketNumber;
    let now = Date.now();
    const b = await DeviceDirectory.open(nc, { instanceId: 'b', devicesBucket: `d${bucket}_devices`, instancesBucket: `d${bucket}_instances`, logger: quiet, instanceTtlMs: 60_000, now: () => now });
    directories.push(b);
    expect(b.entries()).toEqual([expect.objectContaining({ deviceId: 'p1', instanceId: 'a', epoch: 1 })]);
    expect(b.isLive('a')).toBe(true);
    expect(b.isLive('b')).toBe(true);
    expect(b.isLive('never')).toBe(false);
    now += 60_000;
    expect(b.isLive('a')).toBe(false);

    const left = firstValueFrom(b.changes$.pipe(filter((c) => c.type === 'instance-left')));
    await a.close();
    expect(await left).toEqual({ type: 'instance-left', instanceId: 'a' });
    // Its entries stay, for anyone to claim.
    expect(b.lookup('p1')).toEqual(expect.objectContaining({ instanceId: 'a' }));
    expect(await b.claim(device('p1', 's2'))).toBe(2);
  });

  it('announces an instance whose key aged past the TTL (a crash) once, then counts it gone', async () => {
    const n = ++bucketNumber;
    // A TTL of 2 s (renewals every 667 ms): with a shorter one, a renewal of "c" delayed by a loaded
    // machine's event loop made it look gone too.
    const options = { devicesBucket: `d${n}_devices`, instancesBucket: `d${n}_instances`, logger: quiet, instanceTtlMs: 2_000 };
    const [linkA, linkC] = await Promise.all([connect({ servers: server.url }), connect({ servers: server.url })]);
    const a = await DeviceDirectory.open(linkA, { instanceId: 'a', ...options });
    const c = await DeviceDirectory.open(linkC, { instanceId: 'c', ...options });
    const b = await DeviceDirectory.open(nc, { instanceId: 'b', ...options });
    directories.push(a, b, c);
    const announced: string[] = [];
    b.changes$.subscribe((change) => {
      if (change.type === 'instance-expired' || change.type === 'instance-left') announced.push(`${change.type} ${change.instanceId}`);
    });
    const expired = (instanceId: string): Promise<unknown> => firstValueFrom(b.changes$.pipe(filter((ch) => ch.type === 'instance-expired' && ch.instanceId === instanceId)));
    expect([b.isLive('a'), b.isLive('c')]).toEqual([true, true]);

    // A crash as the cluster sees it: the connection gone, the key left to age.
    const aExpired = expired('a');
    await linkA.close();
    await aExpired;
    expect([b.isLive('a'), b.isLive('c')]).toEqual([false, true]);

    // "c" expires a TTL later: b's check ran several times meanwhile, and announced "a" once.
    const cExpired = expired('c');
    await linkC.close();
    await cExpired;
    expect(announced).toEqual(['instance-expired a', 'instance-expired c']);
    expect(b.isLive('c')).toBe(false);
  });

  it('refuses to open for an instance id whose key another process renews, before writing anything; a replaced key stops the renewals', async () => {
    const n = ++bucketNumber;
    const options = { devicesBucket: `d${n}_devices`, instancesBucket: `d${n}_instances`, instanceTtlMs: 3_000 };
    const logger = recordingLogger();
    const first = await DeviceDirectory.open(nc, { instanceId: 'gw', logger, ...options });
    directories.push(first);
    await first.claim(device('p1', 's1'));

    const second = await DeviceDirectory.open(nc, { instanceId: 'gw', logger: quiet, ...options }).catch((err: unknown) => err);
    expect(second).toBeInstanceOf(InstanceIdInUseError);
    expect(second).toMatchObject({ instanceId: 'gw', instanceTtlMs: 3_000 });
    expect((second as Error).message).toMatch(/^instance id gw is in use by another live process \(its key was renewed \d+ ms ago; the instance TTL is 3000 ms\)$/);
    // The first process' claim and key are untouched.
    const observer = await DeviceDirectory.open(nc, { instanceId: 'observer', logger: quiet, ...options });
    directories.push(observer);
    expect(observer.lookup('p1')).toEqual(expect.objectContaining({ instanceId: 'gw', epoch: 1 }));
    expect(observer.isLive('gw')).toBe(true);
    expect(first.heartbeatState).toBe('renewing');

    // Another process writes the key (as one that started while the first was cut off would): the first stops renewing.
    const kv = await new Kvm(nc).open(`d${n}_instances`);
    // The first's next renewal (every TTL/3 = 1 s) finds it.
    const replaced = logger.next(/^error instance gw: another process now renews this instance id's key; this one stops renewing it/);
    await kv.put(subjectToken('gw'), JSON.stringify({ instanceId: 'gw', nonce: 'another-process', at: new Date().toISOString() }));
    await replaced;
    expect(first.heartbeatState).toBe('replaced');
    // Closing the replaced directory leaves the other process' key in place.
    await first.close();
    expect((await kv.get(subjectToken('gw')))?.json<{ nonce: string }>().nonce).toBe('another-process');
  });

  it("takes over the id of a process that crashed once its unrenewed key would have expired", async () => {
    const n = ++bucketNumber;
    const options = { devicesBucket: `d${n}_devices`, instancesBucket: `d${n}_instances`, instanceTtlMs: 1_500 };
    // The buckets as the cluster made them, and the key a crashed process left: written once, never renewed.
    directories.push(await DeviceDirectory.open(nc, { instanceId: 'observer', logger: quiet, ...options }));
    const kv = await new Kvm(nc).open(`d${n}_instances`);
    const left = await kv.put(subjectToken('gw'), JSON.stringify({ instanceId: 'gw', nonce: 'crashed-process', at: new Date().toISOString() }));
    const logger = recordingLogger();
    const waiting = logger.next(/^log instance id gw was renewed by another process \d+ ms ago: waiting up to \d+ ms to see whether it is still alive$/);
    const restarted = await DeviceDirectory.open(nc, { instanceId: 'gw', logger, ...options });
    directories.push(restarted);
    await waiting;
    const key = await kv.get(subjectToken('gw'));
    expect(key?.revision).toBeGreaterThan(left);
    expect(key?.json<{ nonce: string }>().nonce).not.toBe('crashed-process');
    expect(restarted.heartbeatState).toBe('renewing');
  });

  it('takes the id as soon as the process holding it closes (deletes its key) during the wait', async () => {
    // A TTL of a minute: only the delete can end the wait within the test.
    const n = ++bucketNumber;
    const options = { devicesBucket: `d${n}_devices`, instancesBucket: `d${n}_instances`, instanceTtlMs: 60_000 };
    directories.push(await DeviceDirectory.open(nc, { instanceId: 'observer', logger: quiet, ...options }));
    const kv = await new Kvm(nc).open(`d${n}_instances`);
    await kv.put(subjectToken('gw'), JSON.stringify({ instanceId: 'gw', nonce: 'closing-process', at: new Date().toISOString() }));
    const logger = recordingLogger();
    const waiting = logger.next(/^log instance id gw was renewed by another process \d+ ms ago: waiting up to \d+ ms to see whether it is still alive$/);
    const opening = DeviceDirectory.open(nc, { instanceId: 'gw', logger, ...options });
    await waiting;
    await kv.delete(subjectToken('gw'));
    const opened = await opening;
    directories.push(opened);
    expect(opened.heartbeatState).toBe('renewing');
    expect((await kv.get(subjectToken('gw')))?.json<{ nonce: string }>().nonce).not.toBe('closing-process');
  });

  it('rejects STORAGE_ERROR when the server is down, and works again after its restart', async () => {
    const own = await connectCluster({ url: server.url, instanceId: 'a', logger: quiet, reconnectTimeWaitMs: 50 });
    try {
      const n = ++bucketNumber;
      const a = await DeviceDirectory.open(own.nc, { instanceId: 'a', devicesBucket: `d${n}_devices`, instancesBucket: `d${n}_instances`, logger: quiet, operationTimeoutMs: 300 });
      directories.push(a);
      const down = firstValueFrom(own.link$.pipe(filter((state) => state === 'down')));
      await server.kill();
      await down;
      const error = await a.claim(device('p1', 's1')).catch((err: unknown) => err as MobileClawError);
      expect(error).toBeInstanceOf(MobileClawError);
      expect((error as MobileClawError).code).toBe('STORAGE_ERROR');
      expect((error as MobileClawError).message).toMatch(/^could not claim device p1 \(the cluster's NATS KV\): /);
      await server.restart();
      await firstValueFrom(own.link$.pipe(filter((state) => state === 'up')));
      expect(await a.claim(device('p1', 's1'))).toBe(1);
    } finally {
      await Promise.all(directories.splice(0).map((d) => d.close()));
      await own.close();
    }
  });

  it('makes its buckets anew after the server lost its store, puts its key at once and announces the resync', async () => {
    const own = await connectCluster({ url: server.url, instanceId: 'a', logger: quiet, reconnectTimeWaitMs: 50 });
    try {
      const n = ++bucketNumber;
      const options = { devicesBucket: `d${n}_devices`, instancesBucket: `d${n}_instances`, logger: quiet, operationTimeoutMs: 1_000, instanceTtlMs: 60_000 };
      const a = await DeviceDirectory.open(own.nc, { instanceId: 'a', link$: own.link$, ...options });
      directories.push(a);
      await a.claim(device('p1', 's1'));
      const resynced = firstValueFrom(a.resynced$);
      const released = firstValueFrom(a.changes$.pipe(filter((c) => c.type === 'released')));

      await server.kill();
      await rm(join(server.storeDir, 'jetstream'), { recursive: true, force: true });
      await server.restart();
      await resynced;
      expect(await released).toEqual({ type: 'released', deviceId: 'p1' });
      expect(a.lookup('p1')).toBeUndefined();
      expect(a.heartbeatState).toBe('renewing');

      // The buckets are back (made with their options), with this instance's key in them.
      const kvm = new Kvm(jetstream(own.nc));
      expect((await (await kvm.open(`d${n}_instances`)).get(subjectToken('a')))?.json<{ instanceId: string }>().instanceId).toBe('a');
      expect(await a.claim(device('p1', 's1'))).toBe(1);
      const b = await DeviceDirectory.open(own.nc, { instanceId: 'b', ...options });
      directories.push(b);
      expect(b.isLive('a')).toBe(true);
      expect(b.lookup('p1')).toEqual(expect.objectContaining({ instanceId: 'a', epoch: 1 }));
    } finally {
      await Promise.all(directories.splice(0).map((d) => d.close()));
      await own.close();
    }
  });

  it('tries a failed recovery again soon, not at the next heartbeat, and still drops the lost entries and announces the resync', async () => {
    // A TTL of a minute: heartbeats every 20 s, so the recovery below can only come from its retry.
    const logger = recordingLogger();
    // The default operation timeout (5 s): a shorter one can expire under CI load before the server answers.
    const [a] = await directoriesOf(['a'], { instanceTtlMs: 60_000, logger });
    const n = bucketNumber;
    await a.claim(device('p1', 's1'));
    const jsm = await jetstreamManager(nc);
    // The server loses the devices bucket, and a stream over its subjects keeps it from being made anew.
    await jsm.streams.delete(`KV_d${n}_devices`);
    await jsm.streams.add({ name: `blocker_${n}`, subjects: [`$KV.d${n}_devices.>`] });
    const failed = logger.next(/^warn instance a could not recover the device directory \(tried again in 100 ms\): /);
    const resynced = firstValueFrom(a.resynced$);
    const released = firstValueFrom(a.changes$.pipe(filter((c) => c.type === 'released')));
    // A claim finds the bucket gone: the directory looks, and fails to make it again.
    await expect(a.claim(device('p2', 's2'))).rejects.toThrow(MobileClawError);
    await failed;
    await jsm.streams.delete(`blocker_${n}`);
    await resynced;
    expect(await released).toEqual({ type: 'released', deviceId: 'p1' });
    expect(a.lookup('p1')).toBeUndefined();
    expect(a.heartbeatState).toBe('renewing');
    expect(await a.claim(device('p1', 's3'))).toBe(1);
    expect(logger.lines.filter((line) => line.includes('could not recover')).length).toBeGreaterThanOrEqual(1);
  });
});
