/** Which task some work belongs to. */
export interface TaskScope {
  taskId: string;
  deviceId: string;
}

/**
 * Runs a task's work in that task's own context, so that what a host attaches to it — the task id
 * on every log line the work causes, in the planner, in the device layer — follows every call the work
 * makes, and nothing of the context the task was started from (the HTTP request that created it, the
 * task that ran before it on the phone) does. {@link NoTaskContext} runs the work as it is.
 */
export abstract class TaskContext {
  /** Runs `work` in `scope`'s context and returns what it returns. */
  abstract run<T>(scope: TaskScope, work: () => Promise<T>): Promise<T>;
}

/** Runs the work as it is, attaching nothing (the default {@link TaskContext}). */
export class NoTaskContext extends TaskContext {
  run<T>(_scope: TaskScope, work: () => Promise<T>): Promise<T> {
    return work();
  }
}
