import { ReplaySubject, takeUntil, type Observable } from 'rxjs';
import { Clock, TaskEventBus, TaskRepository, type Task, type TaskEvent, type TaskEventType, type TaskStep } from '@mobileclaw/domain';

/**
 * Writes a task's progress to the {@link TaskRepository} first and only then publishes it on the
 * {@link TaskEventBus}, one write at a time per task, so that live subscribers and store replays see
 * the same events with the same gap-free ids in the same order. Event times (`at`) come from the
 * {@link Clock}.
 */
export class TaskJournal {
  /** Tail of each task's write chain; removed when the chain drains. */
  private readonly chains = new Map<string, Promise<unknown>>();
  /** Emits once on {@link complete}; replayed, so that a stream opened afterwards ends at once. */
  private readonly closed = new ReplaySubject<void>(1);

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

  /** Stores the event (next id of that task, `at` now), then publishes it. */
  record(taskId: string, type: TaskEventType, data: Record<string, unknown>): Promise<TaskEvent> {
    return this.serialize(taskId, () => this.append(taskId, type, data));
  }

  /** Stores the task, then records the event; both in the task's write order. */
  updateAndRecord(task: Task, type: TaskEventType, data: Record<string, unknown>): Promise<TaskEvent> {
    return this.serialize(task.taskId, async () => {
      await this.repository.updateTask(task);
      return this.append(task.taskId, type, data);
    });
  }

  updateTask(task: Task): Promise<void> {
    return this.serialize(task.taskId, () => this.repository.updateTask(task));
  }

  saveStep(step: TaskStep): Promise<void> {
    return this.serialize(step.taskId, () => this.repository.saveStep(step));
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

  /** Stores the event, then publishes it; called inside the task's write chain. */
  private async append(taskId: string, type: TaskEventType, data: Record<string, unknown>): Promise<TaskEvent> {
    const event = await this.repository.appendEvent(taskId, type, data, this.clock.now().toISOString());
    await this.bus.publish(event);
    return event;
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
