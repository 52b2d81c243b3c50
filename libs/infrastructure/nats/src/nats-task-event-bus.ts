import { Logger } from '@nestjs/common';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { Subject, filter, type Observable } from 'rxjs';
import { TaskEventBus, TERMINAL_TASK_EVENT_TYPES, type TaskEvent, type TaskRepository } from '@mobileclaw/domain';
import { subjectToken } from './subject-token';

/** Where the bus reads the events its messages announce: the task store (the record), e.g. the `TaskRepository`. */
export type TaskEventStore = Pick<TaskRepository, 'listEvents'>;

/** Tasks whose last delivered id the bus remembers (to drop repeated announcements); the oldest are forgotten first. */
const REMEMBERED_TASKS = 10_000;

/** Options of {@link NatsTaskEventBus}. */
export interface NatsTaskEventBusOptions {
  /** First token of every subject. Default `mobileclaw`. */
  subjectPrefix?: string;
}

/**
 * The {@link TaskEventBus} of several gateway instances, over core NATS (no JetStream: the store is
 * the record). Each event goes as JSON to `<prefix>.task-events.<token>`, `token` the task id as its
 * {@link subjectToken} (ids may hold `.`, `*`, `>` or spaces, which subjects cannot). One
 * subscription to `<prefix>.task-events.>`, opened by the constructor, feeds every {@link subscribe}
 * through an rxjs subject, so that subscribing takes effect at once and never errors. Made by
 * {@link NatsTaskEventBus.start}.
 *
 * A message is only an announcement: subscribers get the event with its task id and id as read
 * from `store` (one `listEvents(taskId, id − 1)` per message and instance), never the message's own
 * fields, so an event published on NATS by anyone but a gateway that stored it (a forged
 * `task.completed`) reaches nobody; an id the store does not hold is dropped with a log line, as is an
 * id at or below the last one delivered for that task. A task's reads run one at a time, in arrival order.
 *
 * Delivery is at most once: while the link is down, `publish` rejects and events published by other
 * instances are lost; subscribers read the missing ids from the store (`TaskService.events` does),
 * told by {@link resync} after each reconnect.
 * One connection's publishes reach each subscriber in order, so a task's events (one instance writes
 * a task at a time) arrive in id order. The connection belongs to the caller; {@link close} ends only
 * this bus's subscription and streams.
 */
export class NatsTaskEventBus extends TaskEventBus {
  private readonly logger = new Logger(NatsTaskEventBus.name);
  private readonly events = new Subject<TaskEvent>();
  private readonly resyncs = new Subject<void>();
  private readonly prefix: string;
  private readonly subscription: Subscription;
  /** False from a `disconnect` status until the next `reconnect`. */
  private linked = true;
  /** Per task, the store reads of its announcements, chained in arrival order. */
  private readonly reads = new Map<string, Promise<void>>();
  /** Per task, the last id delivered (until its terminal event; at most {@link REMEMBERED_TASKS}). */
  private readonly delivered = new Map<string, number>();

  /**
   * Opens the bus on `connection` (an open NATS connection that reconnects on its own, e.g.
   * `connectCluster`'s) and resolves once the server has its subscription, so that every event
   * published afterwards, by any instance, reaches this bus's subscribers.
   * @throws Error (the client's) when the connection is closed.
   */
  static async start(connection: NatsConnection, store: TaskEventStore, options: NatsTaskEventBusOptions = {}): Promise<NatsTaskEventBus> {
    const bus = new NatsTaskEventBus(connection, store, options);
    await connection.flush();
    return bus;
  }

  private constructor(
    private readonly connection: NatsConnection,
    private readonly store: TaskEventStore,
    options: NatsTaskEventBusOptions,
  ) {
    super();
    this.prefix = options.subjectPrefix ?? 'mobileclaw';
    this.subscription = connection.subscribe(`${this.prefix}.task-events.>`, { callback: (err, msg) => (err ? this.logger.warn(`task event subscription: ${err.message}`) : this.receive(msg)) });
    void this.followStatus();
  }

  /**
   * Announces `event`, already stored, to every instance's subscribers (this one's too, through the
   * server, which read it from their store).
   * @throws Error when the link to NATS is down or closed, or the event is larger than the server's
   *   `max_payload` (1 MiB by default): the event stays stored, subscribers read it from the store.
   */
  override async publish(event: TaskEvent): Promise<void> {
    if (!this.linked || this.connection.isClosed()) throw new Error(`the cluster link to NATS is down: task event ${event.taskId}#${event.id} not published`);
    this.connection.publish(taskEventSubject(this.prefix, event.taskId), JSON.stringify(event));
  }

  /** Emits after each reconnect and each slow-consumer report: events of that time may be lost. */
  override resync(): Observable<void> {
    return this.resyncs.asObservable();
  }

  override subscribe(taskId?: string): Observable<TaskEvent> {
    const all = this.events.asObservable();
    return taskId === undefined ? all : all.pipe(filter((event) => event.taskId === taskId));
  }

  /** Ends the NATS subscription and completes every stream; the connection stays open. */
  close(): void {
    if (!this.subscription.isClosed()) this.subscription.unsubscribe();
    this.events.complete();
    this.resyncs.complete();
  }

  /** Reads the stored event a message announces (in order per task) and hands it to the subscribers; anything else is logged and dropped. */
  private receive(msg: Msg): void {
    let event: unknown;
    try {
      event = msg.json();
    } catch {
      event = undefined;
    }
    if (!isTaskEvent(event)) {
      this.logger.warn(`dropped a message on ${msg.subject} that is not a task event (${msg.data.length} bytes)`);
      return;
    }
    const { taskId, id } = event;
    const previous = this.reads.get(taskId) ?? Promise.resolve();
    const read = previous.then(() => this.deliverStored(taskId, id));
    this.reads.set(taskId, read);
    void read.finally(() => {
      if (this.reads.get(taskId) === read) this.reads.delete(taskId);
    });
  }

  private async deliverStored(taskId: string, id: number): Promise<void> {
    if ((this.delivered.get(taskId) ?? 0) >= id) return;
    let stored: TaskEvent | undefined;
    try {
      stored = (await this.store.listEvents(taskId, id - 1)).find((candidate) => candidate.id === id);
    } catch (err) {
      // The subscribers' gap and resync reads fetch it once the store answers again.
      this.logger.warn(`could not read task event ${taskId}#${id} from the store: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    if (stored === undefined) {
      this.logger.warn(`dropped task event ${taskId}#${id} announced on NATS: the store holds no such event`);
      return;
    }
    if ((this.delivered.get(taskId) ?? 0) >= id) return;
    this.delivered.delete(taskId);
    if (!TERMINAL_TASK_EVENT_TYPES.includes(stored.type)) this.delivered.set(taskId, id);
    if (this.delivered.size > REMEMBERED_TASKS) this.delivered.delete(this.delivered.keys().next().value as string);
    this.events.next(stored);
  }

  private async followStatus(): Promise<void> {
    for await (const status of this.connection.status()) {
      if (status.type === 'disconnect') this.linked = false;
      else if (status.type === 'reconnect') {
        this.linked = true;
        this.resyncs.next();
      } else if (status.type === 'slowConsumer') this.resyncs.next();
    }
  }
}

/** `<prefix>.task-events.<token>`: the subject of one task's events. */
export function taskEventSubject(prefix: string, taskId: string): string {
  return `${prefix}.task-events.${subjectToken(taskId)}`;
}

function isTaskEvent(value: unknown): value is TaskEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  return typeof event['taskId'] === 'string' && Number.isSafeInteger(event['id']) && typeof event['type'] === 'string' && typeof event['at'] === 'string' && typeof event['data'] === 'object' && event['data'] !== null;
}
