export * from './sqlite-task-repository';
export { TASK_SCHEMA_VERSION, type TaskDatabaseSynchronous } from './task-database';
export { CorruptRecordError, type CorruptRecord } from '@mobileclaw/store-records';
export { ensurePrivateDirectory, ensurePrivateFile, PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from './private-files';
export * from './sqlite-idempotency-store';
export * from './sqlite-push-notification-config-store';
export * from './sqlite-push-delivery-outbox';
export * from './sqlite-tool-call-ledger';
export * from './sqlite-memory-index';
