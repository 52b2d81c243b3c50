export * from './sqlite-task-repository';
export { TASK_SCHEMA_VERSION, type TaskDatabaseSynchronous } from './task-database';
export { CorruptRecordError, type CorruptRecord } from './task-records';
