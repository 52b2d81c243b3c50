import { Logger } from '@nestjs/common';
import { ReplaySubject, Subject, merge, takeUntil, type Observable } from 'rxjs';
import { Clock, MobileClawError, TaskEventBus, TaskRepository, isTerminalTaskStatus, type Task, type TaskEvent, type TaskEventType, type TaskStep } from '@mobileclaw/domain';

/**
 * A journal write refused because the stored task has already ended — e.g. another instance's sweep
 * marked it `interrupted` after this instance's lease on it expired. The store is the record: the
 * writer adopts {@link stored} as the task's final state and stops, instead of writing it back.
 * Code `TASK_STATE_CONFLICT`.
 */
export class TaskEndedElsewhere extends MobileClawError {
  constructor(readonly stored: Task) {
    super('TASK_STATE_CONFLICT', `task ${stored.taskId} is already ${stored.status} in the store${stored.error ? ` (${stored.error.message})` : ''}; this instance no longer writes it`);
  }
}

/**
 * Writes a task's progress to the {@link TaskRepository} first and only then publishes it on the
 * {@link TaskEventBus}, one write at a time per task, so that live subscribers and store replays see
 * the same events with the same gap-free ids in the same order. Event times (`at`) come from the
 * {@link Clock}.
 *
 * Fencing: every write first reads the stored task and is refused with {@link TaskEndedElsewhere}
 * when it has ended, so that a runner whose task another instance interrupted never writes it back
 * to `running` nor appends events after its terminal one. The read and the write are two calls: a
 * sweep can only fall between them once this instance's lease on the task has expired (it renews
 * its leases every `leaseMs / 3`), so the gap needs a stalled instance.
 *
 * The bus is a notification, the store the record: a publish that fails (a broker link down) is
 * logged, not thrown, and subscribers read what they missed from the store.
 */
export class TaskJournal {
  private readonly logger = new Logger(TaskJournal.name);
  /** Tail of each task's write chain; removed when the chain drains. */
  private readonly chains = new Map<string, Promise<unknown>>();
  /** Emits once on {@link complete}; replayed, so that a stream opened afterwards ends at once. */
  private readonly closed = new ReplaySubject<void>(1);
  /** Set while publishes fail, so that an outage is logged once, not per event. */
  private publishFailing = false;
  /** Emits when a publish works again after failures: the events of the outage reached nobody. */
  private readonly publishRecovered = new Subject<void>();

  constructor(
    private readonly repository: TaskRepository,
    private readonly bus: TaskEventBus,
    private readonly clock: Clock,
  ) {}

  /**
   * Every event published on the bus after subscribing — of one task when `taskId` is given, else of
   * all — until {@link complete}. Hot; never errors.
   */
  events$(taskId?: string): Observable<TaskEvent> {
    return this.bus.subscribe(taskId).pipe(takeUntil(this.closed));
  }

  /**
   * Emits when subscribers of {@link events$} may have missed events (the bus's `resync`, and a
   * publish of this journal that failed and then worked again), until {@link complete}. Never errors.
   */
  resync$(): Observable<void> {
    return merge(this.bus.resync(), this.publishRecovered).pipe(takeUntil(this.closed));
  }

  /**
   * Stores the event (next id of that task, `at` now), then publishes it.
   * @throws TaskEndedElsewhere when the stored task has ended; the repository's errors.
   */
  record(taskId: string, type: TaskEventType, data: Record<string, unknown>): Promise<TaskEvent> {
    return this.serialize(taskId, async () => {
      await this.requireUnfinished(taskId);
      return this.append(taskId, type, data);
    });
  }

  /**
   * Stores the task, then records the event; both in the task's write order.
   * @throws TaskEndedElsewhere when the stored task has ended; the repository's errors.
   */
  updateAndRecord(task: Task, type: TaskEventType, data: Record<string, unknown>): Promise<TaskEvent> {
    return this.serialize(task.taskId, async () => {
      await this.requireUnfinished(task.taskId);
      await this.repository.updateTask(task);
      return this.append(task.taskId, type, data);
    });
  }

  /** @throws TaskEndedElsewhere when the stored task has ended; the repository's errors. */
  updateTask(task: Task): Promise<void> {
    return this.serialize(task.taskId, async () => {
      await this.requireUnfinished(task.taskId);
      await this.repository.updateTask(task);
    });
  }

  /** @throws TaskEndedElsewhere when the stored task has ended; the repository's errors. */
  saveStep(step: TaskStep): Promise<void> {
    return this.serialize(step.taskId, async () => {
      await this.requireUnfinished(step.taskId);
      await this.repository.saveStep(step);
    });
  }

  /**
   * Publishes the last stored `type` event of the task, in its write order: for the events the
   * repository appends itself (`task.interrupted` by `interruptUnfinished`/`interruptExpired`).
   * Resolves without publishing when there is none; never rejects on a failed publish (logged).
   * @throws the repository's errors.
   */
  publishStored(taskId: string, type: TaskEventType): Promise<void> {
    return this.serialize(taskId, async () => {
      const event = (await this.repository.listEvents(taskId)).findLast((e) => e.type === type);
      if (event) await this.publish(event);
    });
  }

  /** Resolves when every write queued so far for the task is stored and published. */
  flush(taskId: string): Promise<void> {
    return this.serialize(taskId, async () => undefined);
  }

  /** Completes the streams of {@link events$}; the bus itself belongs to whoever provided it. */
  complete(): void {
    this.closed.next();
    this.closed.complete();
  }

  /** @throws TaskEndedElsewhere when the stored task has ended (an absent task is the repository's to refuse). */
  private async requireUnfinished(taskId: string): Promise<void> {
    const stored = await this.repository.getTask(taskId);
    if (stored && isTerminalTaskStatus(stored.status)) throw new TaskEndedElsewhere(stored);
  }

  /** Stores the event, then publishes it; called inside the task's write chain. */
  private async append(taskId: string, type: TaskEventType, data: Record<string, unknown>): Promise<TaskEvent> {
    const event = await this.repository.appendEvent(taskId, type, data, this.clock.now().toISOString());
    await this.publish(event);
    return event;
  }

  private async publish(event: TaskEvent): Promise<void> {
    try {
      await this.bus.publish(event);
      if (this.publishFailing) {
        this.publishFailing = false;
        this.logger.log('task events are published again');
        this.publishRecovered.next();
      }
    } catch (err) {
      if (!this.publishFailing) this.logger.warn(`task events are stored but not published (subscribers read them from the store): ${err instanceof Error ? err.message : String(err)}`);
      this.publishFailing = true;
    }
  }

  private serialize<T>(taskId: string, write: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(taskId) ?? Promise.resolve();
    const next = previous.then(write, write);
    const tail = next.catch(() => undefined);
    this.chains.set(taskId, tail);
    void tail.then(() => {
      if (this.chains.get(taskId) === tail) this.chains.delete(taskId);
    });
    return next;
  }
}
