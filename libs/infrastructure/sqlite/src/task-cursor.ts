/** The task list cursor, shared with the PostgreSQL store: it lives in `@mobileclaw/store-records`. */
export { decodeTaskCursor, encodeTaskCursor, type TaskCursor } from '@mobileclaw/store-records';
