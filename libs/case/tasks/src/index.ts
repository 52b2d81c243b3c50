export * from './task-case.options';
export * from './task-journal';
export * from './task-runner';
export * from './task.service';
export * from './step-verification';
export * from './approval-policy';
export * from './task-case.module';
