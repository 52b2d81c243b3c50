export * from './task';
export * from './planner';
export * from './ui-elements';
export { isStateText, type ElementLabel } from './element-labels';
export * from './task.repository';
export * from './sensitive-action';
export * from './task-event-bus';
export * from './task-lifecycle';
export * from './task-context';
