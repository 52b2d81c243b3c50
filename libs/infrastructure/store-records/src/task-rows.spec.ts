import type { MobileClawError, TaskStep } from '@mobileclaw/domain';
import { domainRejection, taskFixture } from '@mobileclaw/domain/testing';
import { decodeTaskCursor, encodeTaskCursor } from './task-cursor';
import { CorruptRecordError, decodeRows, stepToRow, taskFromRow, taskToRow, type CorruptRecord } from './task-rows';

const TASK = taskFixture({ taskId: 't-1', owner: { instanceId: 'gw-a', leaseExpiresAt: '2026-03-01T10:00:30.000Z' }, tools: [] });

/** The MobileClawError `run` throws; fails the test when it throws nothing or another error. */
const validationError = (run: () => unknown): Promise<MobileClawError> => domainRejection(Promise.resolve().then(run));

describe('taskToRow', () => {
  it('copies the queried fields (times in ms) and keeps the task without its tools as data', () => {
    const row = taskToRow(TASK);
    expect(row).toEqual({
      task_id: 't-1',
      device_id: 'sim-1',
      status: 'running',
      created_at: Date.parse('2026-03-01T10:00:00.000Z'),
      ended_at: null,
      owner_instance_id: 'gw-a',
      lease_expires_at: Date.parse('2026-03-01T10:00:30.000Z'),
      context_id: null,
      data: row.data,
    });
    const { tools: _tools, ...withoutTools } = TASK;
    expect(JSON.parse(row.data)).toEqual(withoutTools);
    expect(taskFromRow(row)).toEqual(withoutTools);
  });

  it('lists every invalid field', async () => {
    const err = await validationError(() => taskToRow({ ...TASK, taskId: '../x', createdAt: 'soon', owner: { instanceId: '', leaseExpiresAt: 'later' } }));
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.fieldErrors?.map((e) => e.field)).toEqual(['taskId', 'createdAt', 'owner.instanceId', 'owner.leaseExpiresAt']);
  });
});

describe('stepToRow', () => {
  const step = { taskId: 't-1', index: 7 } as TaskStep;

  it('takes indexes up to the column maximum it is given', async () => {
    expect(stepToRow({ ...step, index: 2_147_483_648 }).idx).toBe(2_147_483_648);
    expect((await validationError(() => stepToRow({ ...step, index: 2_147_483_648 }, 2_147_483_647))).fieldErrors).toEqual([{ field: 'index', message: 'index must be an integer ≥ 0' }]);
    expect((await validationError(() => stepToRow({ ...step, index: -1 }))).message).toBe('invalid step: index: index must be an integer ≥ 0');
  });
});

describe('decodeRows', () => {
  it('skips and reports the rows the decoder finds corrupt', () => {
    const reported: CorruptRecord[] = [];
    const rows = [taskToRow(TASK), { task_id: 't-2', status: 'running', data: '{' }, { ...taskToRow(TASK), status: 'failed' }];
    expect(decodeRows(rows, taskFromRow, (record) => reported.push(record)).map((task) => task.taskId)).toEqual(['t-1']);
    expect(reported.map((record) => [record.key, record.reason.split(' (')[0]])).toEqual([
      ['t-2', 'invalid JSON'],
      ['t-1', 'status does not match the row'],
    ]);
  });

  it('lets other errors through', () => {
    const failure = new Error('boom');
    expect(() =>
      decodeRows([1], () => {
        throw failure;
      }, () => undefined),
    ).toThrow(failure);
    expect(new CorruptRecordError({ table: 'steps', key: 't-1#2', reason: 'not a JSON object' }).message).toBe('corrupt steps record t-1#2: not a JSON object');
  });
});

describe('task cursor', () => {
  it('round-trips and refuses anything but its canonical encoding', async () => {
    const cursor = { createdAtMs: 1_772_359_200_000, taskId: 't-1' };
    const text = encodeTaskCursor(cursor);
    expect(Buffer.from(text, 'base64url').toString('utf8')).toBe('[1,1772359200000,"t-1"]');
    expect(decodeTaskCursor(text)).toEqual(cursor);
    for (const bad of [text + 'A', '', 'not base64!', Buffer.from('[2,1,"t"]').toString('base64url')]) {
      expect((await validationError(() => decodeTaskCursor(bad))).fieldErrors).toEqual([{ field: 'cursor', message: 'cursor must be the nextCursor of a previous page' }]);
    }
  });
});
