/** Test doubles of @mobileclaw/case-memory: an index, files and an embeddings endpoint in memory, and a settable clock. */
export * from './in-memory-memory-index';
export * from './in-memory-memory-files';
export * from './fake-embedding-provider';
export { SettableClock } from '@mobileclaw/domain/testing';
export * from './scripted-memory-summarizer';
export * from './memory-harness';
