/**
 * The schema of the PostgreSQL stores, as versioned migrations: entry `n - 1` brings a database from
 * version `n - 1` to `n` (table `schema_migrations`, one row per applied version). Append new ones;
 * never edit a released one. Times are `bigint` ms since the epoch in `*_at` columns (ordering,
 * retention, leases); the domain's exact ISO-8601 strings stay inside the JSON documents, stored as
 * `text` (byte-exact round trips; `jsonb` would refuse `\u0000`).
 *
 * - 1: every store of one gateway cluster.
 *   - `tasks`: the whole task as JSON in `data` (without `tools`), copies of the queried fields, and
 *     `last_event_id`, the per-task event counter: an append increments it and inserts the event in
 *     one statement, so that concurrent appends (on any instance) get gap-free ids.
 *   - `task_tools`: a task's caller tools (JSON array), kept apart since they may be large and are
 *     fixed at creation while the task row is rewritten at every step.
 *   - `steps`, `events`, `screenshots` (the image bytes as `bytea`: instances share no disk).
 *   - `idempotency_keys`, `push_configs`, `push_deliveries` (`delivery_id` an identity, never reused),
 *     `tool_calls` (indexed by `begun_at` for pruning).
 * - 2: `memories`, the memory index: one row per memory (`id` unique), its scope, layer, text,
 *   category, priority, creation time (`created_at` in ms for filters and order, `created_iso`
 *   exactly as given), source file and line, content hash, embedding state (`present` | `missing` |
 *   `none`) and vector (little-endian float32, `dims` values; NULL when none), and for lexical search
 *   its words (`words`, as `memoryWords` segments the text: NFKC, lower-cased, Chinese split into
 *   words; GIN-indexed) and their count (`word_count`, the document length of BM25).
 * - 3: `memory_files`, the memory documents (what `MarkdownMemoryFiles` keeps as files): one row per
 *   document, `path` its path relative to a memory directory (e.g. `device/sim-1/2026-12-02.md`), its
 *   scope, layer, day (`YYYY-MM-DD` for a daily document, NULL for `MEMORY.md`), its Markdown as
 *   `bytea` (byte for byte as a file would hold it, NUL characters included) and `updated_at` (ms,
 *   the time of its last write: a file's modification time).
 */
export const POSTGRES_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE tasks (
    task_id           text PRIMARY KEY,
    device_id         text NOT NULL,
    status            text NOT NULL,
    created_at        bigint NOT NULL,
    ended_at          bigint,
    owner_instance_id text,
    lease_expires_at  bigint,
    context_id        text,
    last_event_id     bigint NOT NULL DEFAULT 0,
    data              text NOT NULL
  );
  CREATE INDEX tasks_by_created ON tasks (created_at DESC, task_id DESC);
  CREATE INDEX tasks_by_device ON tasks (device_id, created_at DESC, task_id DESC);
  CREATE INDEX tasks_by_status ON tasks (status, created_at DESC, task_id DESC);
  CREATE INDEX tasks_by_context ON tasks (context_id, created_at DESC, task_id DESC);
  CREATE INDEX tasks_by_lease ON tasks (lease_expires_at) WHERE owner_instance_id IS NOT NULL;

  CREATE TABLE task_tools (
    task_id text PRIMARY KEY REFERENCES tasks (task_id) ON DELETE CASCADE,
    data    text NOT NULL
  );

  CREATE TABLE steps (
    task_id text NOT NULL REFERENCES tasks (task_id) ON DELETE CASCADE,
    idx     integer NOT NULL,
    data    text NOT NULL,
    PRIMARY KEY (task_id, idx)
  );

  CREATE TABLE events (
    task_id text NOT NULL REFERENCES tasks (task_id) ON DELETE CASCADE,
    id      bigint NOT NULL,
    type    text NOT NULL,
    at      text NOT NULL,
    data    text NOT NULL,
    PRIMARY KEY (task_id, id)
  );

  CREATE TABLE screenshots (
    task_id    text NOT NULL REFERENCES tasks (task_id) ON DELETE CASCADE,
    step_index integer NOT NULL,
    mime       text NOT NULL,
    bytes      bytea NOT NULL,
    PRIMARY KEY (task_id, step_index)
  );

  CREATE TABLE idempotency_keys (
    scope        text NOT NULL,
    key          text NOT NULL,
    request_hash text NOT NULL,
    expires_at   bigint NOT NULL,
    response     text,
    PRIMARY KEY (scope, key)
  );
  CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);

  CREATE TABLE push_configs (
    task_id   text NOT NULL,
    config_id text NOT NULL,
    data      text NOT NULL,
    PRIMARY KEY (task_id, config_id)
  );

  CREATE TABLE push_deliveries (
    delivery_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    task_id     text NOT NULL,
    config_id   text NOT NULL,
    event_id    bigint NOT NULL,
    body        text NOT NULL,
    attempts    integer NOT NULL,
    due_at      bigint NOT NULL,
    last_error  text,
    claimant    text
  );
  CREATE INDEX push_deliveries_by_queue ON push_deliveries (task_id, config_id, delivery_id);
  CREATE INDEX push_deliveries_by_claimant ON push_deliveries (claimant) WHERE claimant IS NOT NULL;

  CREATE TABLE tool_calls (
    caller       text NOT NULL,
    tool_call_id text NOT NULL,
    tool         text NOT NULL,
    begun_at     bigint NOT NULL,
    outcome      text,
    PRIMARY KEY (caller, tool_call_id)
  );
  CREATE INDEX tool_calls_by_begun ON tool_calls (begun_at);
  `,
  `
  CREATE TABLE memories (
    id           text PRIMARY KEY,
    scope        text NOT NULL,
    layer        text NOT NULL,
    text         text NOT NULL,
    category     text NOT NULL,
    priority     double precision NOT NULL,
    created_at   bigint NOT NULL,
    created_iso  text NOT NULL,
    file         text NOT NULL,
    line         integer NOT NULL,
    content_hash text NOT NULL,
    embedding    text NOT NULL,
    vector       bytea,
    dims         integer,
    words        text[] NOT NULL,
    word_count   integer NOT NULL
  );
  CREATE INDEX memories_by_scope ON memories (scope, layer, created_at, id);
  CREATE INDEX memories_by_hash ON memories (scope, content_hash);
  CREATE INDEX memories_by_file ON memories (file, line, id);
  CREATE INDEX memories_by_embedding ON memories (embedding, created_at, id);
  CREATE INDEX memories_by_word ON memories USING gin (words);
  `,
  `
  CREATE TABLE memory_files (
    path       text PRIMARY KEY,
    scope      text NOT NULL,
    layer      text NOT NULL,
    day        text,
    content    bytea NOT NULL,
    updated_at bigint NOT NULL
  );
  CREATE INDEX memory_files_by_day ON memory_files (scope, layer, day);
  `,
];

/** The schema version {@link POSTGRES_MIGRATIONS} bring a database to. */
export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.length;
