/** The task rows and their codec, shared with the PostgreSQL store: they live in `@mobileclaw/store-records`. */
export { CorruptRecordError, type CorruptRecord } from '@mobileclaw/store-records';
