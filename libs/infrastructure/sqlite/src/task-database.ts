import Database from 'better-sqlite3';

/** The connection type of `better-sqlite3`. */
export type TaskDatabase = Database.Database;

/**
 * How hard each commit waits for the disk (SQLite `PRAGMA synchronous`, in WAL mode):
 * - `FULL`: every commit is fsynced to the WAL before it returns; committed rows survive a process
 *   kill, an OS crash and a power cut.
 * - `NORMAL`: a commit is written to the WAL (OS page cache) without fsync; committed rows survive a
 *   process crash or SIGKILL, only an OS crash or power cut can lose the last transactions (never
 *   corrupts the database). Fsync happens at checkpoints.
 */
export type TaskDatabaseSynchronous = 'FULL' | 'NORMAL';

export interface TaskDatabaseOptions {
  /** Default `FULL`. */
  synchronous?: TaskDatabaseSynchronous;
  /** How long a write waits for another connection's lock before failing with `SQLITE_BUSY`, in ms. Default 5000. */
  busyTimeoutMs?: number;
}

/** The schema version {@link migrateTaskDatabase} brings a database to (`PRAGMA user_version`). */
export const TASK_SCHEMA_VERSION = 8;

/**
 * Migrations by target version: entry `n - 1` brings a database from version `n - 1` to `n`. Append
 * new ones; never edit a released one. Times are integer ms since the epoch in `*_at` columns of
 * `tasks` (for ordering, retention and leases) and the exact ISO-8601 strings inside the JSON documents.
 *
 * - 1: tasks, steps, events, screenshots.
 * - 2: `tasks.owner_instance_id` and `tasks.lease_expires_at`, copies of `Task.owner` (NULL for rows
 *   written by version 1, whose tasks have no owner).
 * - 3: idempotent creation and A2A push notifications, in tables of their own: `idempotency_keys`
 *   (a caller's key, the hash of its request, the answer once given, its expiry in ms) and
 *   `push_configs` (a task's webhook configurations as JSON); `tasks.context_id`, a copy of
 *   `Task.contextId` (NULL for older rows, whose tasks have none), indexed for listing one conversation.
 * - 4: `task_tools`, a task's caller tools (`Task.tools`, a JSON array; a row exactly when the task has
 *   `tools`, `[]` included). They are kept out of `tasks.data` because they are fixed at creation and
 *   may be large (64 specs of up to 16 KiB), while the task row is rewritten at every step. A regular
 *   rowid table, since its rows can be large.
 * - 5: `push_deliveries`, the outbox of A2A push notifications: one row per status change and webhook
 *   (`task_id`, `config_id`; the request body as sent), the failed attempts, the next attempt's time in
 *   ms (`due_at`; while claimed, when the claim lapses) and the claiming instance; `delivery_id` never
 *   reused (AUTOINCREMENT) so that it orders each webhook's queue.
 * - 6: `tool_calls`, the ledger that makes a tool call id execute at most once: one row per caller and
 *   call id, the tool called, when the call began (ms) and, once it ended, its outcome as JSON (NULL
 *   while it runs, or when the process running it stopped first).
 * - 7: `tool_calls_by_begun`, so that pruning the ledger's old calls (`begun_at` before a cutoff) reads
 *   only the rows it removes.
 * - 8: the memory index. `memories`: one row per stored memory (`id` unique; `seq`, an explicit
 *   rowid alias so that `VACUUM` never renumbers it, links the lexical entry), its scope, layer, text,
 *   category, priority, creation time (`created_at` in ms for filters and order, `created_iso` exactly
 *   as given), source file and line, content hash, embedding state (`present` | `missing` | `none`)
 *   and vector (little-endian float32, `dims` values; NULL when none). `memories_fts`: a contentless
 *   FTS5 table (deletable by rowid) whose `words` are the memory's words as `memoryWords` segments
 *   them, joined by spaces, so that the `unicode61` tokenizer sees Chinese and other unspaced scripts
 *   as words too, and whose `tags` (`d<YYYYMMDD>`, the day of `created_at`) let a search of recent
 *   days match only those days' rows.
 */
export const TASK_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE tasks (
    task_id    TEXT PRIMARY KEY NOT NULL,
    device_id  TEXT NOT NULL,
    status     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    ended_at   INTEGER,
    data       TEXT NOT NULL
  ) STRICT;
  CREATE INDEX tasks_by_created ON tasks (created_at DESC, task_id DESC);
  CREATE INDEX tasks_by_device ON tasks (device_id, created_at DESC, task_id DESC);
  CREATE INDEX tasks_by_status ON tasks (status, created_at DESC, task_id DESC);

  CREATE TABLE steps (
    task_id TEXT NOT NULL REFERENCES tasks (task_id) ON DELETE CASCADE,
    idx     INTEGER NOT NULL,
    data    TEXT NOT NULL,
    PRIMARY KEY (task_id, idx)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE events (
    task_id TEXT NOT NULL REFERENCES tasks (task_id) ON DELETE CASCADE,
    id      INTEGER NOT NULL,
    type    TEXT NOT NULL,
    at      TEXT NOT NULL,
    data    TEXT NOT NULL,
    PRIMARY KEY (task_id, id)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE screenshots (
    task_id    TEXT NOT NULL REFERENCES tasks (task_id) ON DELETE CASCADE,
    step_index INTEGER NOT NULL,
    mime       TEXT NOT NULL,
    file_name  TEXT NOT NULL,
    byte_size  INTEGER NOT NULL,
    PRIMARY KEY (task_id, step_index)
  ) STRICT, WITHOUT ROWID;
  `,
  `
  ALTER TABLE tasks ADD COLUMN owner_instance_id TEXT;
  ALTER TABLE tasks ADD COLUMN lease_expires_at INTEGER;
  `,
  `
  CREATE TABLE idempotency_keys (
    scope         TEXT NOT NULL,
    key           TEXT NOT NULL,
    request_hash  TEXT NOT NULL,
    expires_at    INTEGER NOT NULL,
    response      TEXT,
    PRIMARY KEY (scope, key)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);

  CREATE TABLE push_configs (
    task_id   TEXT NOT NULL,
    config_id TEXT NOT NULL,
    data      TEXT NOT NULL,
    PRIMARY KEY (task_id, config_id)
  ) STRICT, WITHOUT ROWID;

  ALTER TABLE tasks ADD COLUMN context_id TEXT;
  CREATE INDEX tasks_by_context ON tasks (context_id, created_at DESC, task_id DESC);
  `,
  `
  CREATE TABLE task_tools (
    task_id TEXT PRIMARY KEY NOT NULL REFERENCES tasks (task_id) ON DELETE CASCADE,
    data    TEXT NOT NULL
  ) STRICT;
  `,
  `
  CREATE TABLE push_deliveries (
    delivery_id INTEGER PRIMARY KEY AUTOINCREMENT,
    task_id     TEXT NOT NULL,
    config_id   TEXT NOT NULL,
    event_id    INTEGER NOT NULL,
    body        TEXT NOT NULL,
    attempts    INTEGER NOT NULL,
    due_at      INTEGER NOT NULL,
    last_error  TEXT,
    claimant    TEXT
  ) STRICT;
  CREATE INDEX push_deliveries_by_queue ON push_deliveries (task_id, config_id, delivery_id);
  CREATE INDEX push_deliveries_by_claimant ON push_deliveries (claimant) WHERE claimant IS NOT NULL;
  `,
  `
  CREATE TABLE tool_calls (
    caller       TEXT NOT NULL,
    tool_call_id TEXT NOT NULL,
    tool         TEXT NOT NULL,
    begun_at     INTEGER NOT NULL,
    outcome      TEXT,
    PRIMARY KEY (caller, tool_call_id)
  ) STRICT;
  `,
  `
  CREATE INDEX tool_calls_by_begun ON tool_calls (begun_at);
  `,
  `
  CREATE TABLE memories (
    seq          INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    scope        TEXT NOT NULL,
    layer        TEXT NOT NULL,
    text         TEXT NOT NULL,
    category     TEXT NOT NULL,
    priority     INTEGER NOT NULL,
    created_at   INTEGER NOT NULL,
    created_iso  TEXT NOT NULL,
    file         TEXT NOT NULL,
    line         INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    embedding    TEXT NOT NULL,
    vector       BLOB,
    dims         INTEGER
  ) STRICT;
  CREATE INDEX memories_by_scope ON memories (scope, layer, created_at, id);
  CREATE INDEX memories_by_hash ON memories (scope, content_hash);
  CREATE INDEX memories_by_file ON memories (file);
  CREATE INDEX memories_by_embedding ON memories (embedding, created_at);
  CREATE VIRTUAL TABLE memories_fts USING fts5 (words, tags, content = '', contentless_delete = 1, tokenize = 'unicode61');
  `,
];

/**
 * Opens (creating when absent) the task database at `path` (`:memory:` for a private in-memory one),
 * sets the connection pragmas and migrates the schema to {@link TASK_SCHEMA_VERSION}.
 * Pragmas: `journal_mode=WAL` (file databases), `synchronous` per options, `foreign_keys=ON`,
 * `busy_timeout`.
 * @throws Error when the file cannot be opened, is not a SQLite database, or has a schema newer than
 *   this code knows.
 */
export function openTaskDatabase(path: string, options: TaskDatabaseOptions = {}): TaskDatabase {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const db = new Database(path, { timeout: busyTimeoutMs });
  try {
    if (path !== ':memory:') {
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (String(mode).toLowerCase() !== 'wal') throw new Error(`journal_mode WAL refused (got ${String(mode)})`);
    }
    db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
    migrateTaskDatabase(db);
    return db;
  } catch (err) {
    db.close();
    throw new Error(`cannot open task database ${path}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Applies the missing migrations in one immediate transaction (the version is read under the write
 * lock, so two processes opening the same file migrate once), ending with the `user_version` bump:
 * a crash leaves the database at its old version or the new one.
 * @returns the version before migrating.
 * @throws Error when the database's version is newer than {@link TASK_SCHEMA_VERSION}.
 */
export function migrateTaskDatabase(db: TaskDatabase): number {
  return db
    .transaction(() => {
      const from = Number(db.pragma('user_version', { simple: true }));
      if (from > TASK_SCHEMA_VERSION) {
        throw new Error(`schema version ${from} is newer than this gateway supports (${TASK_SCHEMA_VERSION})`);
      }
      for (let version = from + 1; version <= TASK_SCHEMA_VERSION; version++) db.exec(TASK_MIGRATIONS[version - 1]);
      if (from !== TASK_SCHEMA_VERSION) db.pragma(`user_version = ${TASK_SCHEMA_VERSION}`);
      return from;
    })
    .immediate();
}
