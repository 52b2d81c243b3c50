import type { LoggerService } from '@nestjs/common';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { MobileClawError } from '@mobileclaw/domain';
import { filter, firstValueFrom } from 'rxjs';
import { connectCluster } from './cluster-connection';
import { NatsDeviceTaskLocks, type NatsDeviceTaskLocksOptions } from './nats-device-task-locks';
import { subjectToken } from './subject-token';
import { recordingLogger, startNatsServer, type NatsServer } from './testing';

const quiet: LoggerService = { log: () => undefined, warn: () => undefined, error: () => undefined };

let server!: NatsServer;
let nc!: NatsConnection;
let bucketNumber = 0;
const opened: NatsDeviceTaskLocks[] = [];
/** Set once a test has ended (passed, failed or timed out): its polling loops stop. */
let testEnded = false;

beforeAll(async () => {
  server = await startNatsServer();
  nc = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 50 });
});
afterAll(async () => {
  await nc?.close();
  await server?.stop();
});
beforeEach(() => (testEnded = false));
afterEach(() => {
  testEnded = true;
  for (const locks of opened.splice(0)) locks.close();
});

/** The locks of instances `ids` over one bucket of their own. */
async function locksOf(ids: string[], options: Partial<NatsDeviceTaskLocksOptions> = {}, connection = nc): Promise<NatsDeviceTaskLocks[]> {
  const bucket = `locks_${++bucketNumber}`;
  const all = await Promise.all(ids.map((instanceId) => NatsDeviceTaskLocks.open(connection, { instanceId, bucket, logger: quiet, ...options })));
  opened.push(...all);
  return all;
}

/** Tries to take `deviceId` for `taskId` until granted; resolves with when (ms since the epoch). */
async function acquireWhenFree(locks: NatsDeviceTaskLocks, deviceId: string, taskId: string): Promise<number> {
  while (!testEnded && !(await locks.tryAcquire(deviceId, taskId)).granted) await delay(20);
  return Date.now();
}

/** The value of `deviceId`'s key in `bucket` once it is there (the bucket may be missing meanwhile); undefined if the test ended first. */
async function writtenAgain(bucket: string, deviceId: string): Promise<unknown> {
  const kvm = new Kvm(jetstream(nc));
  while (!testEnded) {
    const entry = await kvm
      .open(bucket)
      .then((kv) => kv.get(subjectToken(deviceId)))
      .catch(() => null);
    if (entry?.operation === 'PUT') return entry.json();
    await delay(20);
  }
  return undefined;
}

describe('NatsDeviceTaskLocks', () => {
  it('grants a phone to one of two instances asking at once; the other learns which task of which instance holds it', async () => {
    const [a, b] = await locksOf(['gw-a', 'gw-b']);
    const deviceId = 'phone.1 *>'; // not a valid subject token as is
    const answers = await Promise.all([a.tryAcquire(deviceId, 'task-a'), b.tryAcquire(deviceId, 'task-b')]);
    expect(answers.filter((answer) => answer.granted)).toHaveLength(1);
    const [winner, loser, winnerTask, winnerId] = answers[0].granted ? [a, b, 'task-a', 'gw-a'] : [b, a, 'task-b', 'gw-b'];
    const loserTask = winnerTask === 'task-a' ? 'task-b' : 'task-a';
    expect(await loser.tryAcquire(deviceId, loserTask)).toEqual({ granted: false, holder: { taskId: winnerTask, instanceId: winnerId } });
    // Asking again for the task that holds it is granted (a renewal); another task of the same instance is not.
    expect(await winner.tryAcquire(deviceId, winnerTask)).toEqual({ granted: true });
    expect(await winner.tryAcquire(deviceId, 'task-other')).toMatchObject({ granted: false, holder: { taskId: winnerTask } });
    expect(winner.holds()).toEqual(new Map([[deviceId, winnerTask]]));
    // A release for a task that does not hold it changes nothing.
    await loser.release(deviceId, loserTask);
    expect(await loser.tryAcquire(deviceId, loserTask)).toMatchObject({ granted: false });
  });

  it('announces a release to every instance, so a waiting one takes the phone at once; release is idempotent and may come from any instance', async () => {
    const [a, b, c] = await locksOf(['gw-a', 'gw-b', 'gw-c']);
    expect(await a.tryAcquire('p1', 'task-a')).toEqual({ granted: true });
    expect((await b.tryAcquire('p1', 'task-b')).granted).toBe(false);
    const released = firstValueFrom(b.released$.pipe(filter((deviceId) => deviceId === 'p1')));
    await a.release('p1', 'task-a');
    await a.release('p1', 'task-a');
    expect(a.holds().size).toBe(0);
    await released;
    expect(await b.tryAcquire('p1', 'task-b')).toEqual({ granted: true });
    // An instance that found task-b ended (its lease expired) frees the phone of task-b's instance.
    const releasedAgain = firstValueFrom(a.released$.pipe(filter((deviceId) => deviceId === 'p1')));
    await c.release('p1', 'task-b');
    await releasedAgain;
    expect(await a.tryAcquire('p1', 'task-a2')).toEqual({ granted: true });
  });

  it('keeps a hold past its TTL while its instance renews it, and frees it once the instance stopped renewing for the TTL', async () => {
    // Renewals every 500 ms, a hold given up after 1,250 ms without one: a loaded machine's event loop
    // may delay a renewal by a few hundred ms without the hold being lost.
    const ttlMs = 1_500;
    const [a, b] = await locksOf(['gw-a', 'gw-b'], { ttlMs });
    expect(a.ttlMs).toBe(ttlMs);
    await a.tryAcquire('p1', 'task-a');
    // Three TTLs of renewals: still held.
    await delay(3 * ttlMs);
    expect(await b.tryAcquire('p1', 'task-b')).toEqual({ granted: false, holder: { taskId: 'task-a', instanceId: 'gw-a' } });

    // gw-a "crashes": its renewals stop. The hold ages out of the bucket, no sooner than the TTL after its last renewal.
    a.close();
    const stoppedAt = Date.now();
    const takenAt = await acquireWhenFree(b, 'p1', 'task-b');
    expect(takenAt - stoppedAt).toBeGreaterThanOrEqual(ttlMs - Math.ceil(ttlMs / 3) - 50);
  });

  it('announces a hold lost when it could not be renewed for 5/6 of the TTL (NATS down), and rejects STORAGE_ERROR meanwhile; works again after the restart', async () => {
    const own = await connectCluster({ url: server.url, instanceId: 'gw-a', logger: quiet, reconnectTimeWaitMs: 50 });
    try {
      const [a] = await locksOf(['gw-a'], { ttlMs: 300, operationTimeoutMs: 200, link$: own.link$ }, own.nc);
      await a.tryAcquire('p1', 'task-a');
      const lost = firstValueFrom(a.lost$);
      const down = firstValueFrom(own.link$.pipe(filter((state) => state === 'down')));
      await server.kill();
      await down;
      const error = await a.tryAcquire('p2', 'task-x').catch((err: unknown) => err as MobileClawError);
      expect(error).toBeInstanceOf(MobileClawError);
      expect((error as MobileClawError).code).toBe('STORAGE_ERROR');
      expect((error as MobileClawError).message).toMatch(/^could not take device p2 for task task-x \(the cluster's NATS KV\): /);
      expect(await lost).toMatchObject({ deviceId: 'p1', taskId: 'task-a', reason: expect.stringMatching(/^its hold could not be renewed for \d+ ms \(the TTL is 300 ms\)/) });
      expect(a.holds().size).toBe(0);
      await server.restart();
      await firstValueFrom(own.link$.pipe(filter((state) => state === 'up')));
      // The key may outlive the outage on the server (its age counts from the last write): it ages out, then the phone is free.
      await acquireWhenFree(a, 'p1', 'task-a2');
    } finally {
      for (const locks of opened.splice(0)) locks.close();
      await own.close();
    }
  });

  it('makes the bucket anew after the server lost its store and writes its holds again: the phone stays held', async () => {
    const own = await connectCluster({ url: server.url, instanceId: 'gw-a', logger: quiet, reconnectTimeWaitMs: 50 });
    try {
      const [a] = await locksOf(['gw-a'], { ttlMs: 60_000, operationTimeoutMs: 1_000, link$: own.link$ }, own.nc);
      const bucket = `locks_${bucketNumber}`;
      await a.tryAcquire('p1', 'task-a');
      await server.kill();
      await rm(join(server.storeDir, 'jetstream'), { recursive: true, force: true });
      await server.restart();
      await firstValueFrom(own.link$.pipe(filter((state) => state === 'up')));
      // The recovery after the reconnect writes the hold again.
      expect(await writtenAgain(bucket, 'p1')).toMatchObject({ deviceId: 'p1', taskId: 'task-a', instanceId: 'gw-a' });
      const b = await NatsDeviceTaskLocks.open(nc, { instanceId: 'gw-b', bucket, logger: quiet });
      opened.push(b);
      expect(await b.tryAcquire('p1', 'task-b')).toEqual({ granted: false, holder: { taskId: 'task-a', instanceId: 'gw-a' } });
      expect(a.holds()).toEqual(new Map([['p1', 'task-a']]));
    } finally {
      for (const locks of opened.splice(0)) locks.close();
      await own.close();
    }
  });

  it('tries a failed recovery again soon, not at the next renewal, and writes its holds into the bucket made anew', async () => {
    // A TTL of a minute: holds renewed every 20 s, so the recovery below can only come from its retry.
    const logger = recordingLogger();
    // The default operation timeout (5 s): a shorter one can expire under CI load before the server answers.
    const [a] = await locksOf(['gw-a'], { ttlMs: 60_000, logger });
    const bucket = `locks_${bucketNumber}`;
    await a.tryAcquire('p1', 'task-a');
    const jsm = await jetstreamManager(nc);
    // The server loses the bucket, and a stream over its subjects keeps it from being made anew.
    await jsm.streams.delete(`KV_${bucket}`);
    await jsm.streams.add({ name: `blocker_${bucket}`, subjects: [`$KV.${bucket}.>`] });
    const failed = logger.next(/^warn could not recover the task locks \(tried again in 100 ms\): /);
    // Taking another phone finds the bucket gone: the locks look, and fail to make it again.
    const error = await a.tryAcquire('p2', 'task-b').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(MobileClawError);
    expect((error as MobileClawError).code).toBe('STORAGE_ERROR');
    await failed;
    await jsm.streams.delete(`blocker_${bucket}`);
    expect(await writtenAgain(bucket, 'p1')).toMatchObject({ deviceId: 'p1', taskId: 'task-a', instanceId: 'gw-a' });
    expect(a.holds()).toEqual(new Map([['p1', 'task-a']]));
    expect(await a.tryAcquire('p2', 'task-b')).toEqual({ granted: true });
  });
});
