import { Subject, filter, type Observable } from 'rxjs';
import { TaskEventBus, type TaskEvent } from '@mobileclaw/domain';

/**
 * The {@link TaskEventBus} of a single gateway process: an rxjs subject. `publish` hands the event to
 * every subscriber synchronously before it resolves; nothing is buffered or lost. The default when the
 * host provides no bus.
 */
export class InProcessTaskEventBus extends TaskEventBus {
  private readonly events = new Subject<TaskEvent>();

  override async publish(event: TaskEvent): Promise<void> {
    this.events.next(event);
  }

  override subscribe(taskId?: string): Observable<TaskEvent> {
    const all = this.events.asObservable();
    return taskId === undefined ? all : all.pipe(filter((event) => event.taskId === taskId));
  }

  /** Completes every subscription; later publishes reach nobody. */
  close(): void {
    this.events.complete();
  }
}
