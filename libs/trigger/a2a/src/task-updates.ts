import type { Observable } from 'rxjs';
import type { Task, TaskEvent } from '@mobileclaw/domain';

/**
 * A task's events as an async iterable that ends when the observable completes or the consumer
 * stops (the subscription is then dropped). Events are buffered while the consumer is busy.
 */
export async function* eventsOf(events$: Observable<TaskEvent>): AsyncGenerator<TaskEvent, void, undefined> {
  const buffered: TaskEvent[] = [];
  let done = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const subscription = events$.subscribe({
    next: (event) => {
      buffered.push(event);
      wake?.();
    },
    error: (err: unknown) => {
      failure = err ?? new Error('task event stream failed');
      wake?.();
    },
    complete: () => {
      done = true;
      wake?.();
    },
  });
  try {
    for (;;) {
      const next = buffered.shift();
      if (next) {
        yield next;
        continue;
      }
      if (failure !== undefined) throw failure;
      if (done) return;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    subscription.unsubscribe();
  }
}

/**
 * Whether `event` puts the task where an A2A stream or a blocking call stops: a terminal event, or
 * the `task.input_required` of the approval or tool call it waits for now (`current`) — a replayed,
 * already answered question does not count.
 */
export function isStopEvent(event: TaskEvent, current: Task): boolean {
  if (event.type === 'task.completed' || event.type === 'task.failed' || event.type === 'task.canceled' || event.type === 'task.interrupted') return true;
  if (event.type !== 'task.input_required' || current.status !== 'input_required') return false;
  const { pendingAction, toolCall, toolApproval } = event.data as { pendingAction?: { stepIndex?: number }; toolCall?: { stepIndex?: number }; toolApproval?: { stepIndex?: number } };
  if (toolCall) return current.pendingToolCall !== undefined && current.pendingToolCall.stepIndex === toolCall.stepIndex;
  if (toolApproval) return current.pendingToolApproval !== undefined && current.pendingToolApproval.stepIndex === toolApproval.stepIndex;
  return current.pendingAction !== undefined && current.pendingAction.stepIndex === pendingAction?.stepIndex;
}

/** Event types that change a task's status (each one is an A2A status update). */
export const STATUS_EVENT_TYPES: ReadonlySet<TaskEvent['type']> = new Set([
  'task.queued',
  'task.started',
  'task.input_required',
  'task.resumed',
  'task.completed',
  'task.failed',
  'task.canceled',
  'task.interrupted',
]);
