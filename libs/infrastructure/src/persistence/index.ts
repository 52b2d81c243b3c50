export * from './sqlite-task-repository';
export * from './task-database';
export * from './task-cursor';
export { CorruptRecordError, type CorruptRecord } from './task-records';
export * from './screenshot-store';
export * from './safe-file-name';
