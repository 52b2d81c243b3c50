import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Logger } from '@nestjs/common';
import { ERROR_CATALOG, MobileClawError, type Task } from '@mobileclaw/domain';
import { approvalTaskFixture, describeTaskRepositoryContract, domainRejection, minutesAfter, seedRetentionScenario, stepFixture, taskFixture } from '@mobileclaw/domain/testing';
import { SqliteTaskRepository, toStorageError, type SqliteTaskRepositoryOptions } from './sqlite-task-repository';
import { TASK_MIGRATIONS, TASK_SCHEMA_VERSION } from './task-database';
import { encodeTaskCursor } from './task-cursor';
import type { CorruptRecord } from './task-records';
import { temporaryDataDir } from './testing/temporary-data-dir';

const T0 = '2026-03-01T10:00:00.000Z';

let dataDir: { dir: string; remove(): void };
const repositories: SqliteTaskRepository[] = [];
const corrupt: CorruptRecord[] = [];

function open(options: Partial<SqliteTaskRepositoryOptions> = {}): SqliteTaskRepository {
  const repository = SqliteTaskRepository.open({ dataDir: dataDir.dir, onCorruptRecord: (record) => corrupt.push(record), ...options });
  repositories.push(repository);
  return repository;
}

/** A second, raw connection to the same database file (for inspecting or damaging it). */
function rawConnection(): Database.Database {
  return new Database(join(dataDir.dir, 'mobileclaw.db'));
}

function sqliteCodeOf(err: unknown): unknown {
  return (err as { code?: unknown } | undefined)?.code;
}

beforeEach(() => {
  dataDir = temporaryDataDir();
  corrupt.length = 0;
});

afterEach(async () => {
  for (const repository of repositories.splice(0)) await repository.close();
  dataDir.remove();
});

describeTaskRepositoryContract('SqliteTaskRepository (data directory)', {
  create: async () => open(),
  reopen: async () => open(),
});

describeTaskRepositoryContract('SqliteTaskRepository (memory)', {
  create: async () => {
    const repository = SqliteTaskRepository.open({ memory: true });
    repositories.push(repository);
    return repository;
  },
});

// What only this adapter has: a file layout, its own validation and error codes, several connections,
// corrupt records. The port's behaviour is the contract's (above).
describe('SqliteTaskRepository', () => {
  describe('opening', () => {
    it('creates the data directory and a WAL database at the current schema version with its tables', async () => {
      const nested = join(dataDir.dir, 'a', 'b');
      const repository = open({ dataDir: nested });
      expect(repository.path).toBe(join(nested, 'mobileclaw.db'));
      const raw = new Database(repository.path);
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.pragma('user_version', { simple: true })).toBe(TASK_SCHEMA_VERSION);
      expect(TASK_SCHEMA_VERSION).toBe(8);
      const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
      expect(tables).toEqual(['events', 'idempotency_keys', 'memories', 'memories_fts', 'memories_fts_config', 'memories_fts_data', 'memories_fts_docsize', 'memories_fts_idx', 'push_configs', 'push_deliveries', 'screenshots', 'sqlite_sequence', 'steps', 'task_tools', 'tasks', 'tool_calls']);
      raw.close();
    });

    it('honours fileName and refuses one that is a path', () => {
      const repository = open({ fileName: 'tasks.sqlite' });
      expect(repository.path).toBe(join(dataDir.dir, 'tasks.sqlite'));
      expect(() => SqliteTaskRepository.open({ dataDir: dataDir.dir, fileName: '../escape.db' })).toThrow(MobileClawError);
      expect(existsSync(join(dataDir.dir, '..', 'escape.db'))).toBe(false);
    });

    it('refuses a database whose schema is newer than it knows', async () => {
      await open().close();
      const raw = rawConnection();
      raw.pragma(`user_version = ${TASK_SCHEMA_VERSION + 1}`);
      raw.close();
      expect(() => open()).toThrow(new RegExp(`schema version ${TASK_SCHEMA_VERSION + 1} is newer than this gateway supports \\(${TASK_SCHEMA_VERSION}\\)`));
    });

    it('keeps a task\'s caller tools in task_tools, out of the task row, and deletes them with the task', async () => {
      const tools = [{ name: 'lookup_order', description: 'Finds an order.', inputSchema: { type: 'object' }, kind: 'OBSERVATION' as const }];
      const repository = open();
      const task = taskFixture({ taskId: 'with-tools', status: 'completed', endedAt: minutesAfter(T0, 1), tools });
      await repository.createTask(task);
      await repository.updateTask({ ...task, summary: 'done' });
      const raw = rawConnection();
      expect(JSON.parse(raw.prepare('SELECT data FROM tasks WHERE task_id = ?').pluck().get('with-tools') as string)).not.toHaveProperty('tools');
      expect(JSON.parse(raw.prepare('SELECT data FROM task_tools WHERE task_id = ?').pluck().get('with-tools') as string)).toEqual(tools);
      raw.close();
      expect(await repository.prune({ maxTasks: 0 }, new Date(minutesAfter(T0, 2)))).toBe(1);
      const after = rawConnection();
      expect(after.prepare('SELECT COUNT(*) FROM task_tools').pluck().get()).toBe(0);
      after.close();
      await repository.close();
    });

    it('migrates a database written by schema version 1 and keeps working with it', async () => {
      // What version 1 of the gateway left behind: its schema, a finished task and a running one whose
      // step still carries the screenshot URL that version stored.
      const raw = rawConnection();
      raw.pragma('journal_mode = WAL');
      raw.exec(TASK_MIGRATIONS[0]);
      raw.pragma('user_version = 1');
      const finished = taskFixture({ taskId: 'old-done', status: 'completed', endedAt: minutesAfter(T0, 1), summary: 'done' });
      const running = taskFixture({ taskId: 'old-running', status: 'running', stepCount: 1, createdAt: minutesAfter(T0, 2) });
      const insertTask = raw.prepare('INSERT INTO tasks (task_id, device_id, status, created_at, ended_at, data) VALUES (?, ?, ?, ?, ?, ?)');
      insertTask.run(finished.taskId, finished.deviceId, finished.status, Date.parse(finished.createdAt), Date.parse(finished.endedAt!), JSON.stringify(finished));
      insertTask.run(running.taskId, running.deviceId, running.status, Date.parse(running.createdAt), null, JSON.stringify(running));
      const legacyStep = { ...stepFixture('old-running', 0), observation: { ...stepFixture('old-running', 0).observation!, screenshotUrl: '/api/tasks/old-running/steps/0/screenshot' } };
      raw.prepare('INSERT INTO steps (task_id, idx, data) VALUES (?, ?, ?)').run('old-running', 0, JSON.stringify(legacyStep));
      raw.prepare('INSERT INTO events (task_id, id, type, at, data) VALUES (?, ?, ?, ?, ?)').run('old-running', 1, 'task.accepted', T0, JSON.stringify({ task: running }));
      raw.close();

      const repository = open();
      const migrated = rawConnection();
      expect(migrated.pragma('user_version', { simple: true })).toBe(TASK_SCHEMA_VERSION);
      const columns = migrated.prepare("SELECT name FROM pragma_table_info('tasks') ORDER BY cid").pluck().all();
      expect(columns).toEqual(['task_id', 'device_id', 'status', 'created_at', 'ended_at', 'data', 'owner_instance_id', 'lease_expires_at', 'context_id']);
      migrated.close();
      expect(await repository.getTask('old-done')).toStrictEqual(finished);
      expect(await repository.listSteps('old-running')).toStrictEqual([legacyStep]);
      expect(await repository.listEvents('old-running')).toStrictEqual([{ taskId: 'old-running', id: 1, type: 'task.accepted', at: T0, data: { task: running } }]);

      // A task without an owner (all of version 1's) is interrupted by whichever instance starts.
      const at = minutesAfter(T0, 5);
      const error = { code: 'INTERRUPTED', message: 'restart' } as const;
      expect(await repository.interruptUnfinished('gw-a', 'restart', at)).toStrictEqual([{ ...running, status: 'interrupted', endedAt: at, error }]);
      expect((await repository.listEvents('old-running')).map((e) => [e.id, e.type])).toEqual([
        [1, 'task.accepted'],
        [2, 'task.interrupted'],
      ]);

      // New tasks, with owners, are stored beside the old ones.
      const owned = taskFixture({ taskId: 'new-task', createdAt: minutesAfter(T0, 6), owner: { instanceId: 'gw-a', leaseExpiresAt: minutesAfter(T0, 16) } });
      await repository.createTask(owned);
      expect(await repository.getTask('new-task')).toStrictEqual(owned);
      expect((await repository.listTasks({ limit: 10 })).tasks.map((t) => t.taskId)).toEqual(['new-task', 'old-running', 'old-done']);
    });

    it('refuses a file that is not a database with a clear error', () => {
      writeFileSync(join(dataDir.dir, 'mobileclaw.db'), 'this is not a database, just text '.repeat(200));
      expect(() => open()).toThrow(/cannot open task database .*mobileclaw\.db/);
    });
  });

  describe('round trips', () => {
    const task = approvalTaskFixture();

    it('refuses invalid times and statuses, listing each field', async () => {
      const repository = open();
      const err = await domainRejection(repository.createTask({ ...task, createdAt: 'yesterday', status: 'sleeping' as Task['status'] }));
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(err.fieldErrors?.map((e) => e.field)).toEqual(['status', 'createdAt']);
    });

    it('stores screenshots as files beside the database, with their mime type, atomically replaced', async () => {
      const repository = open();
      await repository.createTask(task);
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
      const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 7, 7, 0xff, 0xd9]);
      const webp = new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2, 3]);
      await repository.saveScreenshot(task.taskId, 0, { mime: 'image/png', bytes: png });
      await repository.saveScreenshot(task.taskId, 1, { mime: 'image/webp', bytes: webp });
      expect(await repository.getScreenshot(task.taskId, 0)).toStrictEqual({ mime: 'image/png', bytes: png });
      expect(await repository.getScreenshot(task.taskId, 1)).toStrictEqual({ mime: 'image/webp', bytes: webp });
      const folder = join(dataDir.dir, 'screenshots', task.taskId);
      expect(new Uint8Array(readFileSync(join(folder, '0.png')))).toEqual(png);
      expect(new Uint8Array(readFileSync(join(folder, '1.bin')))).toEqual(webp);

      await repository.saveScreenshot(task.taskId, 0, { mime: 'image/jpeg', bytes: jpeg });
      expect(await repository.getScreenshot(task.taskId, 0)).toStrictEqual({ mime: 'image/jpeg', bytes: jpeg });
      expect(readdirSync(folder).sort()).toEqual(['0.jpg', '1.bin']);

      expect(await repository.getScreenshot(task.taskId, 2)).toBeUndefined();
      rmSync(join(folder, '1.bin'));
      expect(await repository.getScreenshot(task.taskId, 1)).toBeUndefined();
      expect((await domainRejection(repository.saveScreenshot('unknown-task', 0, { mime: 'image/png', bytes: png }))).code).toBe('TASK_NOT_FOUND');
      expect((await domainRejection(repository.saveScreenshot(task.taskId, 0, { mime: 'png', bytes: png }))).fieldErrors).toEqual([
        { field: 'mime', message: 'mime must be a media type such as image/png' },
      ]);
      expect(existsSync(join(dataDir.dir, 'screenshots', 'unknown-task'))).toBe(false);
    });

    describe('file modes (private data), under a umask that would leave everything world-readable', () => {
      let umask: number;
      beforeEach(() => {
        umask = process.umask(0);
      });
      afterEach(() => {
        process.umask(umask);
      });
      const mode = (path: string) => statSync(path).mode & 0o777;

      it('creates the directories 0700 and the database, its WAL files and screenshots 0600', async () => {
        const dir = join(dataDir.dir, 'private');
        const repository = open({ dataDir: dir });
        await repository.createTask(task);
        await repository.saveScreenshot(task.taskId, 0, { mime: 'image/png', bytes: new Uint8Array([0x89, 0x50]) });
        const folder = join(dir, 'screenshots', task.taskId);
        expect({
          dir: mode(dir),
          db: mode(join(dir, 'mobileclaw.db')),
          wal: mode(join(dir, 'mobileclaw.db-wal')),
          shm: mode(join(dir, 'mobileclaw.db-shm')),
          screenshots: mode(join(dir, 'screenshots')),
          folder: mode(folder),
          files: readdirSync(folder).map((f) => [f, mode(join(folder, f))]),
        }).toEqual({ dir: 0o700, db: 0o600, wal: 0o600, shm: 0o600, screenshots: 0o700, folder: 0o700, files: [['0.png', 0o600]] });
      });

      it('narrows a data directory and database files left readable by others, with one warning', async () => {
        await open().close();
        mkdirSync(join(dataDir.dir, 'screenshots'));
        for (const file of ['mobileclaw.db', 'mobileclaw.db-wal', 'mobileclaw.db-shm']) writeFileSync(join(dataDir.dir, file), '', { flag: 'a' });
        for (const file of ['mobileclaw.db', 'mobileclaw.db-wal', 'mobileclaw.db-shm']) chmodSync(join(dataDir.dir, file), 0o644);
        chmodSync(dataDir.dir, 0o755);
        chmodSync(join(dataDir.dir, 'screenshots'), 0o755);
        const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
        try {
          const repository = open();
          expect([mode(dataDir.dir), mode(join(dataDir.dir, 'screenshots')), ...['mobileclaw.db', 'mobileclaw.db-wal', 'mobileclaw.db-shm'].map((f) => mode(join(dataDir.dir, f)))]).toEqual([0o700, 0o700, 0o600, 0o600, 0o600]);
          await repository.close();
          expect(warn.mock.calls).toEqual([[`${dataDir.dir} was readable by others (mode 755): narrowed to 700, it holds private task data`], [`${join(dataDir.dir, 'screenshots')} was readable by others (mode 755): narrowed to 700, it holds private task data`]]);
          await open().close();
          expect(warn).toHaveBeenCalledTimes(2);
        } finally {
          warn.mockRestore();
        }
      });
    });

    it('in memory, keeps screenshots in memory too: nothing is written to disk', async () => {
      const repository = SqliteTaskRepository.open({ memory: true });
      repositories.push(repository);
      expect(repository.path).toBe(':memory:');
      await repository.createTask(task);
      await repository.saveStep(stepFixture(task.taskId, 0));
      await repository.appendEvent(task.taskId, 'task.started', {}, T0);
      const bytes = new Uint8Array([1, 2, 3]);
      await repository.saveScreenshot(task.taskId, 0, { mime: 'image/png', bytes });
      expect(await repository.getScreenshot(task.taskId, 0)).toStrictEqual({ mime: 'image/png', bytes });
      expect(readdirSync(dataDir.dir)).toEqual([]);
    });
  });

  describe('event ids', () => {
    it('stay unique and gap-free when two connections append to the same task in turn', async () => {
      const first = open();
      const second = open();
      await first.createTask(taskFixture({ taskId: 'shared' }));
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) ids.push((await (i % 2 === 0 ? first : second).appendEvent('shared', 'step.started', { i })).id);
      expect(ids).toEqual([1, 2, 3, 4, 5, 6]);
      expect((await first.listEvents('shared')).map((e) => e.data.i)).toEqual([0, 1, 2, 3, 4, 5]);
    });
  });

  describe('listTasks cursors', () => {
    it('are base64url text, and forgeries of their own format are refused', async () => {
      const repository = open();
      for (const taskId of ['t0', 't1', 't2']) await repository.createTask(taskFixture({ taskId, createdAt: minutesAfter(T0, Number(taskId.slice(1))) }));
      const first = await repository.listTasks({ limit: 1 });
      expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(first.nextCursor).toBe(encodeTaskCursor({ createdAtMs: Date.parse(minutesAfter(T0, 2)), taskId: 't2' }));
      const forged = [
        Buffer.from(JSON.stringify({ createdAtMs: 1, taskId: 't1' })).toString('base64url'),
        Buffer.from(JSON.stringify([2, 1, 't1'])).toString('base64url'),
        Buffer.from(JSON.stringify([1, 'x', 't1'])).toString('base64url'),
        encodeTaskCursor({ createdAtMs: Date.parse(T0), taskId: 't1' }) + 'A',
      ];
      for (const cursor of forged) {
        const err = await domainRejection(repository.listTasks({ limit: 3, cursor }));
        expect(err.code).toBe('VALIDATION_FAILED');
        expect(err.fieldErrors?.map((e) => e.field)).toEqual(['cursor']);
      }
    });
  });

  describe('task ownership', () => {
    // The port's ownership rule is the contract's; here, the columns start-up selects by in SQL.
    it('copies Task.owner into owner_instance_id and lease_expires_at (ms) on every write, NULL without an owner', async () => {
      const repository = open();
      const at = '2026-03-01T11:00:00.000Z';
      const owned = taskFixture({ taskId: 'owned', createdAt: minutesAfter(T0, 1), owner: { instanceId: 'gw-b', leaseExpiresAt: at } });
      await repository.createTask(taskFixture({ taskId: 'unowned', createdAt: minutesAfter(T0, 0) }));
      await repository.createTask(owned);
      const columns = () => {
        const raw = rawConnection();
        try {
          return raw.prepare('SELECT task_id, owner_instance_id, lease_expires_at FROM tasks ORDER BY created_at, task_id').all();
        } finally {
          raw.close();
        }
      };
      expect(columns()).toEqual([
        { task_id: 'unowned', owner_instance_id: null, lease_expires_at: null },
        { task_id: 'owned', owner_instance_id: 'gw-b', lease_expires_at: Date.parse(at) },
      ]);

      await repository.updateTask({ ...owned, owner: { instanceId: 'gw-a', leaseExpiresAt: minutesAfter(at, 10) } });
      await repository.updateTask(taskFixture({ taskId: 'unowned', createdAt: minutesAfter(T0, 0), owner: { instanceId: 'gw-a', leaseExpiresAt: '2026-03-01T11:00:00.001Z' } }));
      expect(columns()).toEqual([
        { task_id: 'unowned', owner_instance_id: 'gw-a', lease_expires_at: Date.parse(at) + 1 },
        { task_id: 'owned', owner_instance_id: 'gw-a', lease_expires_at: Date.parse(minutesAfter(at, 10)) },
      ]);

      const { owner: _owner, ...released } = owned;
      await repository.updateTask(released);
      expect(columns()[1]).toEqual({ task_id: 'owned', owner_instance_id: null, lease_expires_at: null });
    });

    it('refuses an owner without an instance id or lease time', async () => {
      const repository = open();
      const err = await domainRejection(repository.createTask(taskFixture({ taskId: 't', owner: { instanceId: '', leaseExpiresAt: 'later' } })));
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(err.fieldErrors?.map((e) => e.field)).toEqual(['owner.instanceId', 'owner.leaseExpiresAt']);
    });
  });

  describe('prune', () => {
    const now = new Date('2026-03-10T00:00:00.000Z');
    const day = 24 * 60 * 60 * 1000;

    async function seeded(): Promise<SqliteTaskRepository> {
      const repository = open();
      await seedRetentionScenario(repository, now);
      return repository;
    }

    function screenshotFolders(): string[] {
      return readdirSync(join(dataDir.dir, 'screenshots')).sort();
    }

    it('deletes the rows and screenshot folders of pruned tasks, by age and by count', async () => {
      const repository = await seeded();
      expect(await repository.prune({ maxAgeMs: 5 * day }, now)).toBe(2);
      expect(screenshotFolders()).toEqual(['mid-canceled', 'new-done', 'new-interrupted', 'old-queued', 'old-running']);
      const raw = rawConnection();
      for (const table of ['steps', 'events', 'screenshots']) {
        expect(raw.prepare(`SELECT COUNT(*) FROM ${table} WHERE task_id IN ('old-done', 'old-failed')`).pluck().get()).toBe(0);
        expect(raw.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get()).toBe(5);
      }
      raw.close();
      expect(await repository.prune({ maxTasks: 2 }, now)).toBe(1);
      expect(screenshotFolders()).toEqual(['new-done', 'new-interrupted', 'old-queued', 'old-running']);
      expect(existsSync(join(dataDir.dir, 'screenshots', 'mid-canceled'))).toBe(false);
    });

    it('sweeps screenshot folders of tasks that are not stored (left by a crash)', async () => {
      const repository = await seeded();
      mkdirSync(join(dataDir.dir, 'screenshots', 'orphan-after-crash'));
      writeFileSync(join(dataDir.dir, 'screenshots', 'orphan-after-crash', '0.png'), 'x');
      expect(await repository.prune({}, now)).toBe(0);
      expect(existsSync(join(dataDir.dir, 'screenshots', 'orphan-after-crash'))).toBe(false);
      expect(screenshotFolders()).toEqual(['mid-canceled', 'new-done', 'new-interrupted', 'old-done', 'old-failed', 'old-queued', 'old-running']);
    });
  });

  describe('store failures', () => {
    it('translate SQLite and file-system failure codes into STORAGE_ERROR with the original as cause, and nothing else', () => {
      for (const code of ['SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_READONLY', 'SQLITE_BUSY', 'SQLITE_CORRUPT', 'ENOSPC', 'EROFS', 'EIO', 'EACCES']) {
        const failure = Object.assign(new Error(`${code} happened`), { code });
        const translated = toStorageError(failure) as MobileClawError;
        expect(translated).toBeInstanceOf(MobileClawError);
        expect({ code: translated.code, message: translated.message, cause: translated.cause }).toEqual({
          code: 'STORAGE_ERROR',
          message: `the task store failed (${code}): ${code} happened`,
          cause: failure,
        });
      }
      const domain = new MobileClawError('TASK_NOT_FOUND', 'task x is not stored');
      const constraint = Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
      const missing = Object.assign(new Error('no such file'), { code: 'ENOENT' });
      const bug = new TypeError('undefined is not a function');
      for (const err of [domain, constraint, missing, bug, 'text']) expect(toStorageError(err)).toBe(err);
    });

    it('reject every kind of write as retryable STORAGE_ERROR while another connection holds the write lock, and succeed once it is released', async () => {
      const repository = open({ busyTimeoutMs: 0 });
      await repository.createTask(taskFixture({ taskId: 'kept' }));
      const raw = rawConnection();
      raw.exec('BEGIN IMMEDIATE');
      try {
        const writes: [string, () => Promise<unknown>][] = [
          ['createTask', () => repository.createTask(taskFixture({ taskId: 'new-task' }))],
          ['updateTask', () => repository.updateTask(taskFixture({ taskId: 'kept', status: 'completed' }))],
          ['saveStep', () => repository.saveStep(stepFixture('kept', 0))],
          ['appendEvent', () => repository.appendEvent('kept', 'task.started', {}, T0)],
          ['interruptUnfinished', () => repository.interruptUnfinished('gw-a', 'restart', T0)],
          ['prune', () => repository.prune({ maxTasks: 0 })],
          ['checkWritable', () => repository.checkWritable()],
        ];
        for (const [method, write] of writes) {
          const err = await domainRejection(write());
          expect({ method, code: err.code, retryable: ERROR_CATALOG[err.code].retryable, cause: sqliteCodeOf(err.cause) }).toEqual({ method, code: 'STORAGE_ERROR', retryable: true, cause: 'SQLITE_BUSY' });
        }
        // Readers are not blocked (WAL), and the domain's own errors stay what they are.
        expect((await repository.getTask('kept'))?.status).toBe('running');
        expect((await domainRejection(repository.listTasks({ limit: 0 }))).code).toBe('VALIDATION_FAILED');
      } finally {
        raw.exec('ROLLBACK');
        raw.close();
      }
      await repository.checkWritable();
      await repository.createTask(taskFixture({ taskId: 'new-task' }));
      expect((await repository.listTasks({ limit: 10 })).tasks.map((t) => t.taskId).sort()).toEqual(['kept', 'new-task']);
    });

    it('checkWritable leaves no transaction open and writes nothing to the database file', async () => {
      const repository = open();
      await repository.createTask(taskFixture({ taskId: 'kept' }));
      const raw = rawConnection();
      try {
        const before = raw.pragma('data_version', { simple: true });
        await repository.checkWritable();
        expect(raw.pragma('data_version', { simple: true })).toBe(before);
        // Another connection can take the write lock at once: the check released it.
        raw.exec('BEGIN IMMEDIATE');
        raw.exec('ROLLBACK');
      } finally {
        raw.close();
      }
    });
  });

  describe('unsafe task ids (path traversal)', () => {
    const evil = ['../escape', '..', '.', 'a/b', 'a\\b', '/etc', '.hidden', '', 'x'.repeat(129), 'nul\u0000byte'];

    it('are refused by writes before anything is written and found nowhere by reads', async () => {
      const repository = open();
      for (const taskId of evil) {
        const err = await domainRejection(repository.createTask(taskFixture({ taskId })));
        expect(err.code).toBe('VALIDATION_FAILED');
        expect(err.fieldErrors?.map((e) => e.field)).toEqual(['taskId']);
        const save = await domainRejection(repository.saveScreenshot(taskId, 0, { mime: 'image/png', bytes: new Uint8Array([1]) }));
        expect(save.fieldErrors?.map((e) => e.field)).toEqual(['taskId']);
        expect(await repository.getScreenshot(taskId, 0)).toBeUndefined();
        expect(await repository.getTask(taskId)).toBeUndefined();
      }
      const err = await domainRejection(repository.saveScreenshot('fine-id', -1, { mime: 'image/png', bytes: new Uint8Array([1]) }));
      expect(err.fieldErrors?.map((e) => e.field)).toEqual(['stepIndex']);
      expect(await repository.getScreenshot('fine-id', -1)).toBeUndefined();
      expect(readdirSync(dataDir.dir).sort()).toEqual(['mobileclaw.db', 'mobileclaw.db-shm', 'mobileclaw.db-wal']);
      expect(existsSync(join(dataDir.dir, '..', 'escape'))).toBe(false);
    });
  });

  describe('corrupt records', () => {
    it('are reported and skipped without failing reads of other records', async () => {
      const repository = open();
      for (const taskId of ['good-1', 'bad', 'good-2', 'bad-running']) {
        await repository.createTask(taskFixture({ taskId, status: taskId === 'bad-running' || taskId === 'good-2' ? 'running' : 'completed' }));
      }
      await repository.saveStep(stepFixture('good-1', 0));
      await repository.saveStep(stepFixture('good-1', 1));
      await repository.appendEvent('good-1', 'task.accepted', {}, T0);
      await repository.appendEvent('good-1', 'task.started', {}, T0);
      const raw = rawConnection();
      raw.prepare("UPDATE tasks SET data = '{\"taskId\": \"bad\", trunc' WHERE task_id IN ('bad', 'bad-running')").run();
      raw.prepare("UPDATE steps SET data = '[1, 2]' WHERE task_id = 'good-1' AND idx = 0").run();
      raw.prepare("UPDATE events SET data = 'null' WHERE task_id = 'good-1' AND id = 1").run();
      raw.close();

      expect((await repository.listTasks({ limit: 10 })).tasks.map((t) => t.taskId).sort()).toEqual(['good-1', 'good-2']);
      expect(await repository.getTask('bad')).toBeUndefined();
      expect(await repository.listSteps('good-1')).toStrictEqual([stepFixture('good-1', 1)]);
      expect((await repository.listEvents('good-1')).map((e) => e.id)).toEqual([2]);
      expect(corrupt.map((r) => `${r.table} ${r.key}`)).toEqual(['tasks bad-running', 'tasks bad', 'tasks bad', 'steps good-1#0', 'events good-1#1']);
      expect(corrupt[0].reason).toMatch(/^invalid JSON/);
      expect(corrupt[3].reason).toBe('not a JSON object');

      corrupt.length = 0;
      const interrupted = await repository.interruptUnfinished('gw-a', 'restart', T0);
      expect(interrupted.map((t) => t.taskId)).toEqual(['good-2']);
      expect(corrupt.map((r) => `${r.table} ${r.key}`)).toEqual(['tasks bad-running']);
      expect((await repository.listEvents('bad-running')).map((e) => [e.id, e.type])).toEqual([[1, 'task.interrupted']]);
      expect(await repository.interruptUnfinished('gw-a', 'restart', T0)).toEqual([]);
    });
  });
});
