export * from './task-rows';
export * from './task-cursor';
export * from './task-repository-checks';
export * from './push-delivery-rows';
export * from './memory-records';
export * from './memory-vectors';
