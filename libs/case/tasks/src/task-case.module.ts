import { Module, type DynamicModule, type FactoryProvider } from '@nestjs/common';
import { DEFAULT_TASK_CASE_OPTIONS, TASK_CASE_OPTIONS, type TaskCaseOptions } from './task-case.options';
import { IdempotentCreation } from './idempotent-creation';
import { TakeoverService } from './takeover.service';
import { TaskService } from './task.service';

export interface TaskCaseModuleOptions {
  options?: Partial<TaskCaseOptions>;
  /** Modules that provide the ports, when they are not global. */
  imports?: DynamicModule['imports'];
  /** Register `TaskService` globally (the gateway does, so that the trigger layer sees it). */
  isGlobal?: boolean;
}

/**
 * The task workflow as a Nest module. The host provides the ports it needs — `MobileClawService`,
 * `Planner` and `TaskRepository` — globally or through `imports`. It may also provide `Clock`,
 * `IdSource`, `TaskEventBus` and the `GATEWAY_INSTANCE_ID` value (all from `@mobileclaw/domain`), and
 * a `ScreenSettler` (from this package) and an `IdempotencyStore` (for {@link IdempotentCreation}); for each one it does not, {@link TaskService} uses the
 * default: `SystemClock`, `RandomIdSource`, its own `InProcessTaskEventBus`, instance id `local`, and
 * a `StableTreeSettler` on the options' settle settings, keys in memory. With a `ControlLeases` provider (e.g.
 * `DeviceControlModule`'s), {@link TakeoverService} lets people take phones over and pauses their tasks.
 * With a `TaskTools` provider (the tool registry as a task's planner sees it, e.g. `RegistryTaskTools`
 * from `@mobileclaw/case-tools`), planners may call the gateway's tools; without one, tasks behave as
 * before: the phone's actions and the caller's tools only. With a `TaskMemory` provider (e.g.
 * `MemoryTaskMemory` from `@mobileclaw/case-memory`), planners are shown what the task's scope
 * remembers for its goal and tasks' turns go to its session layer; without one, tasks plan without memory.
 * With a `TaskControlRelay` provider (several instances, e.g. `NatsTaskControlRelay` from
 * `@mobileclaw/cluster-nats`), cancels, approval answers and tool results for a task another instance
 * runs go to that instance; without one, they are refused as on a single instance. With a
 * `DeviceTaskLocks` provider (e.g. `NatsDeviceTaskLocks`), a phone runs one task at a time across all
 * instances; without one, `LocalDeviceTaskLocks` (one process: the per-phone queue is enough).
 */
@Module({})
export class TaskCaseModule {
  static forRoot({ options = {}, imports = [], isGlobal = false }: TaskCaseModuleOptions = {}): DynamicModule {
    const optionsProvider: FactoryProvider<TaskCaseOptions> = {
      provide: TASK_CASE_OPTIONS,
      useFactory: () => ({ ...DEFAULT_TASK_CASE_OPTIONS, ...options }),
    };
    return { module: TaskCaseModule, global: isGlobal, imports, providers: [optionsProvider, TaskService, TakeoverService, IdempotentCreation], exports: [TaskService, TakeoverService, IdempotentCreation] };
  }
}
