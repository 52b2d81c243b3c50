import { ERROR_CATALOG } from '@mobileclaw/domain';
import { describeTaskRepositoryContract, domainRejection, taskFixture } from '@mobileclaw/domain/testing';
import { PostgresDatabase } from './postgres-database';
import { PostgresTaskRepository } from './postgres-task-repository';
import type { CorruptRecord } from './task-rows';
import { postgresStoreLifecycle, useSpecDatabase } from './testing';

const spec = useSpecDatabase('task_repository');
// What the repositories of a test reported as corrupt.
let reported: CorruptRecord[] = [];
const lifecycle = postgresStoreLifecycle(spec, (database) => new PostgresTaskRepository(database, { onCorruptRecord: (record) => reported.push(record) }));

describeTaskRepositoryContract('PostgresTaskRepository', lifecycle);

// What only this adapter has: rows other programs may have written, several instances (pools) on
// one database, and a server that makes statements wait. The port's behaviour is the contract's (above).
describe('PostgresTaskRepository', () => {
  const T0 = '2026-03-01T10:00:00.000Z';
  let repository: PostgresTaskRepository;
  let raw: PostgresDatabase;

  beforeEach(async () => {
    reported = [];
    repository = await lifecycle.create();
    raw = PostgresDatabase.open({ url: spec.url });
  });
  afterEach(async () => {
    await lifecycle.dispose();
    await raw.close();
  });

  it('reports a task row whose JSON is corrupt and skips it in reads; interrupting it still ends it, with its event', async () => {
    await repository.createTask(taskFixture({ taskId: 'good', createdAt: T0 }));
    await repository.createTask(taskFixture({ taskId: 'broken', createdAt: '2026-03-01T10:01:00.000Z' }));
    await raw.query("UPDATE tasks SET data = '{not json' WHERE task_id = 'broken'");

    expect(await repository.getTask('broken')).toBeUndefined();
    expect((await repository.listTasks({ limit: 10 })).tasks.map((task) => task.taskId)).toStrictEqual(['good']);
    expect(await repository.countTasks({})).toBe(2);
    expect((await repository.interruptUnfinished('gw-a', 'restart', '2026-03-01T11:00:00.000Z')).map((task) => task.taskId)).toStrictEqual(['good']);
    expect(await raw.query("SELECT status, ended_at FROM tasks WHERE task_id = 'broken'")).toStrictEqual([{ status: 'interrupted', ended_at: Date.parse('2026-03-01T11:00:00.000Z') }]);
    expect((await repository.listEvents('broken')).map((event) => [event.id, event.type])).toStrictEqual([[1, 'task.interrupted']]);
    expect(reported.map((record) => [record.table, record.key])).toStrictEqual([
      ['tasks', 'broken'],
      ['tasks', 'broken'],
      ['tasks', 'broken'],
    ]);
  });

  it('interrupts each expired task once when the sweeps of three instances (pools) run at once', async () => {
    const instances = [repository, lifecycle.open(), lifecycle.open()];
    for (let i = 0; i < 12; i += 1) {
      await repository.createTask(taskFixture({ taskId: `task-${i}`, createdAt: new Date(Date.parse(T0) + i).toISOString(), owner: { instanceId: 'gw-dead', leaseExpiresAt: T0 } }));
    }
    const sweeps = await Promise.all(instances.map((instance, i) => instance.interruptExpired(`sweep ${i}`, '2026-03-01T11:00:00.000Z')));
    expect(sweeps.flat().map((task) => task.taskId).sort()).toStrictEqual(Array.from({ length: 12 }, (_, i) => `task-${i}`).sort());
    for (let i = 0; i < 12; i += 1) expect((await repository.listEvents(`task-${i}`)).map((event) => event.id)).toStrictEqual([1]);
  });

  it('fails with retryable STORAGE_ERROR when a statement waits beyond the statement timeout, writing nothing, and works once the lock is gone', async () => {
    const patient = new PostgresTaskRepository(PostgresDatabase.open({ url: spec.url, statementTimeoutMs: 100 }));
    await repository.createTask(taskFixture({ taskId: 'kept' }));
    await raw.transaction(async (tx) => {
      // Another program holds the table: every read and write of it waits.
      await tx.query('LOCK TABLE tasks IN ACCESS EXCLUSIVE MODE');
      for (const [method, call] of [
        ['createTask', () => patient.createTask(taskFixture({ taskId: 'blocked' }))],
        ['getTask', () => patient.getTask('kept')],
        ['checkWritable', () => patient.checkWritable()],
      ] as const) {
        const err = await domainRejection(call());
        expect({ method, code: err.code, retryable: ERROR_CATALOG[err.code].retryable, message: err.message }).toStrictEqual({
          method,
          code: 'STORAGE_ERROR',
          retryable: true,
          message: expect.stringContaining('57014') as unknown as string,
        });
      }
    });
    expect(await patient.getTask('blocked')).toBeUndefined();
    await patient.createTask(taskFixture({ taskId: 'blocked' }));
    expect((await repository.listTasks({ limit: 10 })).tasks.map((task) => task.taskId).sort()).toStrictEqual(['blocked', 'kept']);
    await patient.close();
    await patient.database.close();
  });
});
