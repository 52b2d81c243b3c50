import { Module, type DynamicModule, type FactoryProvider } from '@nestjs/common';
import { DEFAULT_TASK_CASE_OPTIONS, TASK_CASE_OPTIONS, type TaskCaseOptions } from './task-case.options';
import { TaskService } from './task.service';

/**
 * The task workflow as a Nest module. The host provides the ports it needs — `MobileClawService`,
 * `Planner` and `TaskRepository` — globally or through `imports`.
 */
@Module({})
export class TaskCaseModule {
  static forRoot(options: Partial<TaskCaseOptions> = {}, imports: DynamicModule['imports'] = []): DynamicModule {
    const optionsProvider: FactoryProvider<TaskCaseOptions> = {
      provide: TASK_CASE_OPTIONS,
      useFactory: () => ({ ...DEFAULT_TASK_CASE_OPTIONS, ...options }),
    };
    return { module: TaskCaseModule, imports, providers: [optionsProvider, TaskService], exports: [TaskService] };
  }
}
