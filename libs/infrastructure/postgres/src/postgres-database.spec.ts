import { ERROR_CATALOG, MobileClawError } from '@mobileclaw/domain';
import { domainRejection, taskFixture } from '@mobileclaw/domain/testing';
import { POSTGRES_SCHEMA_VERSION } from './migrations';
import { PostgresDatabase } from './postgres-database';
import { PostgresTaskRepository } from './postgres-task-repository';
import { startPostgresServer, type PostgresServer } from './testing';

// What only this adapter has: a server shared by instances (migrations, pools of several processes)
// and a server that goes away and comes back. The ports' behaviour is the contracts' (other specs).
describe('PostgresDatabase', () => {
  let server: PostgresServer;
  const opened: PostgresDatabase[] = [];
  const open = (url: string, options: { connectionTimeoutMs?: number } = {}): PostgresDatabase => {
    const database = PostgresDatabase.open({ url, ...options });
    opened.push(database);
    return database;
  };

  beforeAll(async () => {
    server = await startPostgresServer();
  }, 60_000);
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('migrates once when three instances start together, recording each version once', async () => {
    const url = await server.createDatabase('concurrent_start');
    const froms = await Promise.all([open(url), open(url), open(url)].map((database) => database.migrate()));
    expect([...froms].sort()).toStrictEqual([0, POSTGRES_SCHEMA_VERSION, POSTGRES_SCHEMA_VERSION]);
    expect(await open(url).query('SELECT version FROM schema_migrations ORDER BY version')).toStrictEqual(
      Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, i) => ({ version: i + 1 })),
    );
    // A later start finds nothing to do.
    expect(await open(url).migrate()).toBe(POSTGRES_SCHEMA_VERSION);
  });

  it('refuses to run on a schema newer than it knows, changing nothing', async () => {
    const url = await server.createDatabase('newer_schema');
    const database = open(url);
    await database.migrate();
    await database.query('INSERT INTO schema_migrations (version) VALUES ($1)', [POSTGRES_SCHEMA_VERSION + 1]);
    await expect(database.migrate()).rejects.toThrow(`database schema version ${POSTGRES_SCHEMA_VERSION + 1} is newer than this gateway supports (${POSTGRES_SCHEMA_VERSION})`);
    // The advisory lock was given back: another instance migrates (and fails the same way) instead of waiting.
    await expect(open(url).migrate()).rejects.toThrow('is newer than this gateway supports');
  });

  it('refuses a URL that is not postgres:// and sizes that are not integers ≥ 1, with VALIDATION_FAILED naming each field', () => {
    for (const url of ['mysql://localhost/db', 'not a url', '', 'postgres://']) {
      const err = (() => {
        try {
          PostgresDatabase.open({ url });
        } catch (caught) {
          return caught as MobileClawError;
        }
        throw new Error(`${url} was accepted`);
      })();
      expect({ url, code: err.code, fields: err.fieldErrors?.map((e) => e.field) }).toStrictEqual({ url, code: 'VALIDATION_FAILED', fields: ['url'] });
    }
    expect(() => PostgresDatabase.open({ url: 'postgres://127.0.0.1/x', maxConnections: 0, statementTimeoutMs: 1.5 })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', fieldErrors: [expect.objectContaining({ field: 'maxConnections' }), expect.objectContaining({ field: 'statementTimeoutMs' })] }),
    );
  });

  it('fails with retryable STORAGE_ERROR while the server is down, and serves again on the same pool once it is back', async () => {
    const url = await server.createDatabase('server_down');
    const database = open(url, { connectionTimeoutMs: 2_000 });
    await database.migrate();
    const repository = new PostgresTaskRepository(database);
    await repository.createTask(taskFixture({ taskId: 'before' }));
    expect((await repository.appendEvent('before', 'task.started', {})).id).toBe(1);

    await server.kill();
    const calls: [string, () => Promise<unknown>][] = [
      ['getTask', () => repository.getTask('before')],
      ['appendEvent', () => repository.appendEvent('before', 'step.started', {})],
      ['createTask', () => repository.createTask(taskFixture({ taskId: 'during' }))],
      ['checkWritable', () => repository.checkWritable()],
    ];
    for (const [method, call] of calls) {
      const err = await domainRejection(call());
      expect({ method, code: err.code, retryable: ERROR_CATALOG[err.code].retryable, cause: Object.prototype.toString.call(err.cause) }).toStrictEqual({
        method,
        code: 'STORAGE_ERROR',
        retryable: true,
        cause: '[object Error]',
      });
    }

    await server.restart();
    expect(await repository.getTask('before')).toStrictEqual(taskFixture({ taskId: 'before' }));
    expect((await repository.appendEvent('before', 'step.started', {})).id).toBe(2);
    await repository.checkWritable();
    expect(await repository.getTask('during')).toBeUndefined();
  });

  it('recovers from a restart in the middle of concurrent appends: failures are STORAGE_ERROR, event ids stay gap-free', async () => {
    const url = await server.createDatabase('restart_mid_use');
    const database = open(url);
    await database.migrate();
    const repository = new PostgresTaskRepository(database);
    await repository.createTask(taskFixture({ taskId: 'busy' }));

    // Four writers append one event after another for as long as the restart takes.
    let restarting = true;
    const restarted = server.restart().finally(() => (restarting = false));
    const outcomes: string[] = [];
    const writer = async (): Promise<void> => {
      while (restarting) {
        outcomes.push(await repository.appendEvent('busy', 'step.started', {}).then(() => 'ok', (err: unknown) => (err instanceof MobileClawError ? err.code : String(err))));
      }
    };
    await Promise.all([writer(), writer(), writer(), writer(), restarted]);
    // Writes that overlap the shutdown may succeed; once it begins, each fails as STORAGE_ERROR, nothing else.
    expect(outcomes).toContain('STORAGE_ERROR');
    expect(outcomes.filter((outcome) => outcome !== 'ok' && outcome !== 'STORAGE_ERROR')).toStrictEqual([]);

    const after = await repository.appendEvent('busy', 'step.acted', {});
    const ids = (await repository.listEvents('busy')).map((event) => event.id);
    expect(ids).toStrictEqual(Array.from({ length: after.id }, (_, i) => i + 1));
    expect(ids.length).toBeGreaterThanOrEqual(outcomes.filter((outcome) => outcome === 'ok').length + 1);
  });

  it('numbers events without gaps when several instances (pools) append to one task at once', async () => {
    const url = await server.createDatabase('instances_append');
    const databases = [open(url), open(url), open(url)];
    await databases[0].migrate();
    const repositories = databases.map((database) => new PostgresTaskRepository(database));
    await repositories[0].createTask(taskFixture({ taskId: 'shared' }));
    const appended = await Promise.all(Array.from({ length: 30 }, (_, i) => repositories[i % 3].appendEvent('shared', 'step.started', { i })));
    expect(appended.map((event) => event.id).sort((a, b) => a - b)).toStrictEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect((await repositories[1].listEvents('shared')).map((event) => event.data['i'])).toStrictEqual(
      [...appended].sort((a, b) => a.id - b.id).map((event) => event.data['i']),
    );
  });
});
