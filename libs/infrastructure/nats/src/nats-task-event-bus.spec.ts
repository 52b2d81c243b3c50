import { connect, type NatsConnection, type Status } from '@nats-io/transport-node';
import { filter, firstValueFrom, Subject, take, toArray } from 'rxjs';
import type { TaskEvent } from '@mobileclaw/domain';
import { NatsTaskEventBus, taskEventSubject, type TaskEventStore } from './nats-task-event-bus';
import { startNatsServer, type NatsServer } from './testing/nats-server';

const event = (taskId: string, id: number, type: TaskEvent['type'] = 'step.started'): TaskEvent => ({ taskId, id, type, at: '2026-05-01T10:00:00.000Z', data: { index: id } });

/** Resolves at the connection's next status of `type`. */
async function nextStatus(connection: NatsConnection, type: Status['type']): Promise<void> {
  for await (const status of connection.status()) if (status.type === type) return;
}

/** The task store the instances share: the events recorded, read as `TaskRepository.listEvents` does. */
class Store implements TaskEventStore {
  readonly events: TaskEvent[] = [];
  /** Each read's `afterId`, emitted once its answer is taken (at the call). */
  readonly reads = new Subject<number>();
  listEvents(taskId: string, afterId = 0): Promise<TaskEvent[]> {
    const answer = this.events.filter((e) => e.taskId === taskId && e.id > afterId).map((e) => structuredClone(e));
    this.reads.next(afterId);
    return Promise.resolve(answer);
  }
}

describe('NatsTaskEventBus (against a real nats-server)', () => {
  let server: NatsServer;
  let store: Store;
  /** Stores `e`, then publishes it on `bus` (as the task journal does). */
  const record = (bus: NatsTaskEventBus, e: TaskEvent): Promise<void> => {
    store.events.push(e);
    return bus.publish(e);
  };
  const connections: NatsConnection[] = [];
  const open = async (): Promise<NatsConnection> => {
    const connection = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 50 });
    connections.push(connection);
    return connection;
  };

  beforeAll(async () => {
    server = await startNatsServer();
  });
  beforeEach(() => {
    store = new Store();
  });
  afterEach(async () => {
    await Promise.all(connections.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await server.stop();
  });

  it('carries each task\'s events, in order, to the subscribers of every instance; a task filter sees only that task', async () => {
    const a = await NatsTaskEventBus.start(await open(), store);
    const b = await NatsTaskEventBus.start(await open(), store);
    // An id with characters a subject cannot hold travels as a token.
    const oddId = 'task 1.*>';
    const onB = firstValueFrom(b.subscribe(oddId).pipe(take(3), toArray()));
    const allOnA = firstValueFrom(a.subscribe().pipe(take(4), toArray()));
    await record(a, event(oddId, 1, 'task.accepted'));
    await record(a, event('task-2', 1, 'task.accepted'));
    await record(a, event(oddId, 2));
    await record(a, event(oddId, 3, 'task.completed'));
    expect(await onB).toEqual([event(oddId, 1, 'task.accepted'), event(oddId, 2), event(oddId, 3, 'task.completed')]);
    // In order per task (each task's store reads run in arrival order; tasks do not wait for each other).
    const all = await allOnA;
    expect(all.filter((e) => e.taskId === oddId)).toEqual([event(oddId, 1, 'task.accepted'), event(oddId, 2), event(oddId, 3, 'task.completed')]);
    expect(all.filter((e) => e.taskId === 'task-2')).toEqual([event('task-2', 1, 'task.accepted')]);
    expect(taskEventSubject('mobileclaw', oddId)).toBe(`mobileclaw.task-events.${Buffer.from(oddId).toString('base64url')}`);
    a.close();
    b.close();
  });

  it('keeps instances of another subject prefix apart, and drops messages that are not task events', async () => {
    const connection = await open();
    const ours = await NatsTaskEventBus.start(connection, store, { subjectPrefix: 'farm-1' });
    const theirs = await NatsTaskEventBus.start(await open(), store, { subjectPrefix: 'farm-2' });
    const received = firstValueFrom(ours.subscribe().pipe(take(1), toArray()));
    await record(theirs, event('t', 1));
    connection.publish('farm-1.task-events.dA', 'not json');
    connection.publish('farm-1.task-events.dA', JSON.stringify({ taskId: 't', id: 'one' }));
    await record(ours, event('t', 2));
    expect(await received).toEqual([event('t', 2)]);
    ours.close();
    theirs.close();
  });

  it('rejects publishes while the server is down, never errors its streams, signals a resync and carries events again once it is back', async () => {
    const connection = await open();
    const bus = await NatsTaskEventBus.start(connection, store);
    const seen: TaskEvent[] = [];
    let errored = false;
    bus.subscribe('t').subscribe({ next: (e) => seen.push(e), error: () => (errored = true) });

    const disconnected = nextStatus(connection, 'disconnect');
    await server.kill();
    await disconnected;
    // Status consumers run in the order they subscribed; one turn of the event loop lets the bus see it.
    await new Promise((resolve) => setImmediate(resolve));
    await expect(bus.publish(event('t', 1))).rejects.toThrow('the cluster link to NATS is down: task event t#1 not published');

    const reconnected = nextStatus(connection, 'reconnect');
    const resynced = firstValueFrom(bus.resync());
    await server.restart();
    await reconnected;
    await resynced;
    await new Promise((resolve) => setImmediate(resolve));
    const next = firstValueFrom(bus.subscribe('t').pipe(take(1)));
    await record(bus, event('t', 2));
    expect(await next).toEqual(event('t', 2));
    expect(seen).toEqual([event('t', 2)]);
    expect(errored).toBe(false);
    bus.close();
  });

  it('rejects publishes on a closed connection', async () => {
    const connection = await open();
    const bus = await NatsTaskEventBus.start(connection, store);
    await connection.close();
    await expect(bus.publish(event('t', 1))).rejects.toThrow('the cluster link to NATS is down');
    bus.close();
  });
});

describe('NatsTaskEventBus against forged task events', () => {
  let server: NatsServer;
  beforeAll(async () => {
    server = await startNatsServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('delivers only events the store holds, as stored: a forged one on NATS never reaches a subscriber as such', async () => {
    const store = new Store();
    const gateway = await connect({ servers: server.url });
    const forger = await connect({ servers: server.url });
    const bus = await NatsTaskEventBus.start(gateway, store);
    const seen: TaskEvent[] = [];
    bus.subscribe().subscribe((e) => seen.push(e));
    const accepted: TaskEvent = { taskId: 't', id: 1, type: 'task.accepted', at: '2026-05-01T10:00:00.000Z', data: { goal: 'open settings' } };
    store.events.push(accepted);
    const subject = taskEventSubject('mobileclaw', 't');
    const forged = (id: number): string => JSON.stringify({ taskId: 't', id, type: 'task.completed', at: '2026-05-01T10:00:01.000Z', data: { summary: '<script>' } });
    // A stored id with other fields, the same id again, then an id the store does not hold.
    const readFor2 = firstValueFrom(store.reads.pipe(filter((afterId) => afterId === 1)));
    forger.publish(subject, forged(1));
    forger.publish(subject, forged(1));
    forger.publish(subject, forged(2));
    await readFor2;
    // A genuine event, stored and announced after that read: the task's reads run in order, so it comes after.
    const step: TaskEvent = { taskId: 't', id: 2, type: 'step.started', at: '2026-05-01T10:00:02.000Z', data: { index: 0 } };
    const genuine = firstValueFrom(bus.subscribe('t').pipe(filter((e) => e.type === 'step.started')));
    store.events.push(step);
    forger.publish(subject, JSON.stringify(step));
    expect(await genuine).toEqual(step);
    expect(seen).toEqual([accepted, step]);
    expect(seen.some((e) => e.type === 'task.completed')).toBe(false);
    bus.close();
    await Promise.all([gateway.close(), forger.close()]);
  });
});
