import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { Global, Module } from '@nestjs/common';
import { TaskContext, type TaskScope } from '@mobileclaw/domain';

/** The task whose work is running, in the async context of that work. */
const runningTask = new AsyncLocalStorage<Readonly<TaskScope>>();

/**
 * The fields every log line carries while a task's work runs: `{taskId, deviceId}`; `{}` outside a
 * task. The logger adds them to each line (pino's `mixin`).
 */
export function taskLogFields(): Readonly<Partial<TaskScope>> {
  return runningTask.getStore() ?? {};
}

/**
 * The gateway's {@link TaskContext}: a task's loop runs in an async context of its own, holding the
 * task's id and phone, so that every line logged on its behalf — the planner's, the device layer's
 * command lines (logged in the caller's context) — carries them ({@link taskLogFields}). The context
 * is entered from the one this object was created in (the gateway's start, outside any HTTP request),
 * so nothing of the request that started the task, or of the task that ran before it, follows: a
 * task's lines outlive the request and must not name it.
 */
export class LogTaskContext extends TaskContext {
  /** Where the gateway was assembled: the clean context each task starts from. */
  private readonly origin = new AsyncResource('mobileclaw.task');

  run<T>(scope: TaskScope, work: () => Promise<T>): Promise<T> {
    return this.origin.runInAsyncScope(() => runningTask.run({ taskId: scope.taskId, deviceId: scope.deviceId }, work));
  }
}

/** Provides {@link LogTaskContext} as the app's `TaskContext`, globally (the task service takes it from there). */
@Global()
@Module({ providers: [{ provide: TaskContext, useClass: LogTaskContext }], exports: [TaskContext] })
export class TaskLogContextModule {}
