export * from './memory';
export * from './memory-ports';
export * from './task-memory';
export * from './memory-words';
export * from './secret-words';
export * from './memory-scope-grant';
