import { Subject, type Observable } from 'rxjs';
import { TaskRepository, type Task, type TaskEvent, type TaskEventType, type TaskStep } from '@mobileclaw/domain';

/**
 * Writes a task's progress to the {@link TaskRepository} first and only then publishes it live, one
 * write at a time per task, so that live subscribers and store replays see the same events with the
 * same gap-free ids in the same order.
 */
export class TaskJournal {
  private readonly live = new Subject<TaskEvent>();
  /** Tail of each task's write chain; removed when the chain drains. */
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(private readonly repository: TaskRepository) {}

  /** Every event of every task, after it is stored. Hot; never errors. */
  get events$(): Observable<TaskEvent> {
    return this.live.asObservable();
  }

  /** Stores the event (next id of that task), then publishes it. */
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

  /** Resolves when every write queued so far for the task is stored. */
  flush(taskId: string): Promise<void> {
    return this.serialize(taskId, async () => undefined);
  }

  complete(): void {
    this.live.complete();
  }

  /** Stores the event, then publishes it; called inside the task's write chain. */
  private async append(taskId: string, type: TaskEventType, data: Record<string, unknown>): Promise<TaskEvent> {
    const event = await this.repository.appendEvent(taskId, type, data);
    this.live.next(event);
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
