import type { StoredImage, Task, TaskQuery, TaskRepository } from '../task';
import { domainRejection } from './rejections';
import { RETENTION_SCENARIO_TASK_IDS, approvalTaskFixture, minutesAfter, seedRetentionScenario, stepFixture, taskFixture } from './task-fixtures';

/** How the contract suite gets the repository under test. */
export interface TaskRepositoryContractHooks {
  /** Opens a new, empty repository; called before every test. */
  create(): Promise<TaskRepository>;
  /**
   * Opens the storage of the repository `create` made once more, after that one was closed. Given
   * by stores that keep data beyond one connection (a file, a database server); the durability tests
   * run only then.
   */
  reopen?(): Promise<TaskRepository>;
  /** Called after every test, once every repository the test opened is closed (e.g. removes a temporary directory). */
  dispose?(): Promise<void>;
}

const T0 = '2026-03-01T10:00:00.000Z';

/**
 * Registers the `describe`/`it` blocks every {@link TaskRepository} adapter must pass: each port
 * method's documented behaviour (round trips with the task owner, paging, step replacement, gap-free
 * event ids, screenshots, interrupting unfinished tasks under the ownership rule, retention, close),
 * its documented failures (`TASK_STATE_CONFLICT`, `TASK_NOT_FOUND` with nothing inserted,
 * `VALIDATION_FAILED` naming each bad field), and with `reopen`, durability. `STORAGE_ERROR` is left
 * to each adapter's own tests: only the adapter knows how to make its store fail. Call it at the top
 * level of an adapter's spec file.
 */
export function describeTaskRepositoryContract(name: string, hooks: TaskRepositoryContractHooks): void {
  describe(`${name} (TaskRepository contract)`, () => {
    let repository: TaskRepository;
    const opened: TaskRepository[] = [];

    beforeEach(async () => {
      repository = await hooks.create();
      opened.push(repository);
    });

    afterEach(async () => {
      for (const each of opened.splice(0)) await each.close();
      await hooks.dispose?.();
    });

    async function reopen(): Promise<TaskRepository> {
      await repository.close();
      repository = await (hooks.reopen as NonNullable<TaskRepositoryContractHooks['reopen']>)();
      opened.push(repository);
      return repository;
    }

    describe('tasks', () => {
      const task = approvalTaskFixture();

      it('stores a task and reads back exactly the same value; update replaces it', async () => {
        await repository.createTask(task);
        expect(await repository.getTask(task.taskId)).toStrictEqual(task);

        const { pendingAction: _pendingAction, ...rest } = task;
        const done: Task = { ...rest, status: 'completed', endedAt: '2026-03-01T10:01:30.125Z', summary: 'Message sent', stepCount: 4 };
        await repository.updateTask(done);
        expect(await repository.getTask(task.taskId)).toStrictEqual(done);
        expect(await repository.getTask('00000000-0000-0000-0000-000000000000')).toBeUndefined();
      });

      it('refuses a duplicate task id with TASK_STATE_CONFLICT and keeps the stored task', async () => {
        await repository.createTask(task);
        expect((await domainRejection(repository.createTask({ ...task, goal: 'other' }))).code).toBe('TASK_STATE_CONFLICT');
        expect(await repository.getTask(task.taskId)).toStrictEqual(task);
      });

      it('round-trips the owner: stored with the task, replaced by an update (a renewed lease), removed by an update without one', async () => {
        const owned = taskFixture({ taskId: 'owned', owner: { instanceId: 'gw-a', leaseExpiresAt: '2026-03-01T10:10:00.000Z' } });
        await repository.createTask(owned);
        expect(await repository.getTask('owned')).toStrictEqual(owned);

        const renewed: Task = { ...owned, stepCount: 1, owner: { instanceId: 'gw-a', leaseExpiresAt: '2026-03-01T10:20:00.500Z' } };
        await repository.updateTask(renewed);
        expect(await repository.getTask('owned')).toStrictEqual(renewed);
        expect((await repository.listTasks({ limit: 10 })).tasks).toStrictEqual([renewed]);

        const { owner: _owner, ...unowned } = renewed;
        await repository.updateTask(unowned);
        expect(await repository.getTask('owned')).toStrictEqual(unowned);
      });

      it('keeps the later lease when an update of the same owner carries an earlier one; another owner replaces it', async () => {
        const owned = taskFixture({ taskId: 'owned', owner: { instanceId: 'gw-a', leaseExpiresAt: '2026-03-01T10:20:00.000Z' } });
        await repository.createTask(owned);

        // A copy taken before a renewal, written afterwards: every field but the lease is replaced.
        await repository.updateTask({ ...owned, stepCount: 2, owner: { instanceId: 'gw-a', leaseExpiresAt: '2026-03-01T10:10:00.000Z' } });
        expect(await repository.getTask('owned')).toStrictEqual({ ...owned, stepCount: 2 });

        const taken: Task = { ...owned, stepCount: 3, owner: { instanceId: 'gw-b', leaseExpiresAt: '2026-03-01T10:05:00.000Z' } };
        await repository.updateTask(taken);
        expect(await repository.getTask('owned')).toStrictEqual(taken);
      });

      it('refuses to update a task that is not stored, storing nothing', async () => {
        await repository.createTask(task);
        expect((await domainRejection(repository.updateTask({ ...task, taskId: 'missing-task' }))).code).toBe('TASK_NOT_FOUND');
        expect(await repository.getTask('missing-task')).toBeUndefined();
        expect((await repository.listTasks({ limit: 10 })).tasks.map((t) => t.taskId)).toEqual([task.taskId]);
      });

      it('hands out copies: changing a saved or a returned task changes nothing stored', async () => {
        const mine = structuredClone(task);
        await repository.createTask(mine);
        mine.goal = 'changed after create';
        const read = (await repository.getTask(task.taskId)) as Task;
        read.stepCount = 99;
        (read.pendingAction as NonNullable<Task['pendingAction']>).reason = 'changed after read';
        const listed = (await repository.listTasks({ limit: 1 })).tasks[0] as Task;
        listed.status = 'failed';
        expect(await repository.getTask(task.taskId)).toStrictEqual(task);
      });
    });

    describe('caller tools', () => {
      const tools: NonNullable<Task['tools']> = [
        { name: 'lookup_order', description: 'Finds an order. 查订单', inputSchema: { type: 'object', properties: { orderId: { type: 'string', pattern: '^[A-Z]-\\d+$' } }, required: ['orderId'] }, kind: 'OBSERVATION' },
        { name: 'refund', description: 'Refunds an order.', inputSchema: { type: 'object' }, kind: 'ACTION' },
      ];
      const pendingToolCall = { stepIndex: 1, toolCallId: 'tools-a:1', name: 'lookup_order', arguments: { orderId: 'A-17', nested: { list: [1, 'two', null] } }, kind: 'OBSERVATION' as const };

      it('round-trips tools (also none, `[]`, which is not the same as absent) and the pending tool call through create, update, get and list', async () => {
        const waiting = taskFixture({ taskId: 'tools-a', status: 'input_required', stepCount: 2, tools, pendingToolCall });
        const empty = taskFixture({ taskId: 'tools-b', createdAt: minutesAfter(T0, 1), tools: [] });
        const none = taskFixture({ taskId: 'tools-c', createdAt: minutesAfter(T0, 2) });
        for (const task of [waiting, empty, none]) await repository.createTask(task);
        expect(await repository.getTask('tools-a')).toStrictEqual(waiting);
        expect(await repository.getTask('tools-b')).toStrictEqual(empty);
        expect(await repository.getTask('tools-c')).toStrictEqual(none);
        expect((await repository.listTasks({ limit: 10 })).tasks).toStrictEqual([none, empty, waiting]);

        const { pendingToolCall: _pending, ...rest } = waiting;
        const resumed: Task = { ...rest, status: 'running', stepCount: 3 };
        await repository.updateTask(resumed);
        expect(await repository.getTask('tools-a')).toStrictEqual(resumed);
        const { tools: _tools, ...withoutTools } = resumed;
        await repository.updateTask(withoutTools);
        expect(await repository.getTask('tools-a')).toStrictEqual(withoutTools);
        await repository.updateTask({ ...none, tools: [tools[1]] });
        expect(await repository.getTask('tools-c')).toStrictEqual({ ...none, tools: [tools[1]] });
      });

      it('round-trips a tool-call step with its output, and hands out copies of the tools', async () => {
        const task = taskFixture({ taskId: 'tools-s', tools });
        await repository.createTask(task);
        const step = stepFixture('tools-s', 0, {
          plan: { type: 'tool_call', name: 'lookup_order', arguments: { orderId: 'A-17' }, reasoning: 'the goal asks for it', toolCallId: 'tools-s:0' },
          result: { status: 'success', output: { status: 'shipped', items: [{ sku: 'x', qty: 2 }], note: null } },
        });
        const rejected = stepFixture('tools-s', 1, { plan: { type: 'tool_call', name: 'refund', arguments: {}, reasoning: 'r', toolCallId: 'tools-s:1' }, result: { status: 'denied', message: 'not approved' } });
        const late = stepFixture('tools-s', 2, { plan: { type: 'tool_call', name: 'refund', arguments: {}, reasoning: 'r', toolCallId: 'tools-s:2' }, result: { status: 'error', errorCode: 'TOOL_RESULT_TIMEOUT', message: 'no answer' } });
        for (const each of [step, rejected, late]) await repository.saveStep(each);
        expect(await repository.listSteps('tools-s')).toStrictEqual([step, rejected, late]);
        const read = (await repository.getTask('tools-s')) as Task;
        (read.tools as NonNullable<Task['tools']>)[0].description = 'changed after read';
        expect(await repository.getTask('tools-s')).toStrictEqual(task);
      });

      it('interrupts a task waiting for a tool call: the pending call goes, the tools stay', async () => {
        const waiting = taskFixture({ taskId: 'tools-w', status: 'input_required', tools, pendingToolCall: { ...pendingToolCall, toolCallId: 'tools-w:1' } });
        await repository.createTask(waiting);
        const at = '2026-03-01T11:00:00.000Z';
        const { pendingToolCall: _pending, ...rest } = waiting;
        const expected: Task = { ...rest, status: 'interrupted', endedAt: at, error: { code: 'INTERRUPTED', message: 'restart' } };
        expect(await repository.interruptUnfinished('gw-a', 'restart', at)).toStrictEqual([expected]);
        expect(await repository.getTask('tools-w')).toStrictEqual(expected);
      });
    });

    describe('listTasks', () => {
      // Seven tasks, newest last; t3 and t4 share a creation time (tie broken by taskId, descending).
      const tasks: Task[] = [
        taskFixture({ taskId: 't0', deviceId: 'phone-a', status: 'completed', createdAt: minutesAfter(T0, 0) }),
        taskFixture({ taskId: 't1', deviceId: 'phone-b', status: 'failed', createdAt: minutesAfter(T0, 1) }),
        taskFixture({ taskId: 't2', deviceId: 'phone-a', status: 'completed', createdAt: minutesAfter(T0, 2) }),
        taskFixture({ taskId: 't3', deviceId: 'phone-b', status: 'completed', createdAt: minutesAfter(T0, 3) }),
        taskFixture({ taskId: 't4', deviceId: 'phone-a', status: 'running', createdAt: minutesAfter(T0, 3) }),
        taskFixture({ taskId: 't5', deviceId: 'phone-b', status: 'queued', createdAt: minutesAfter(T0, 5), queuePosition: 1 }),
        taskFixture({ taskId: 't6', deviceId: 'phone-a', status: 'completed', createdAt: minutesAfter(T0, 6) }),
      ];

      /** Stores the tasks in an order unrelated to their creation times (newest first, t3/t4 swapped). */
      async function seed(): Promise<void> {
        for (const task of [tasks[6], tasks[5], tasks[3], tasks[4], tasks[2], tasks[1], tasks[0]] as Task[]) await repository.createTask(task);
      }

      async function allPages(query: Omit<TaskQuery, 'cursor'>): Promise<string[][]> {
        const pages: string[][] = [];
        let cursor: string | undefined;
        do {
          const page = await repository.listTasks({ ...query, cursor });
          pages.push(page.tasks.map((t) => t.taskId));
          cursor = page.nextCursor;
        } while (cursor !== undefined);
        return pages;
      }

      it('pages newest first (createdAt, then taskId, descending); the last page has no cursor', async () => {
        await seed();
        const first = await repository.listTasks({ limit: 3 });
        expect(first.tasks).toStrictEqual([tasks[6], tasks[5], tasks[4]]);
        expect(typeof first.nextCursor).toBe('string');
        expect(await allPages({ limit: 3 })).toEqual([
          ['t6', 't5', 't4'],
          ['t3', 't2', 't1'],
          ['t0'],
        ]);
        expect(await allPages({ limit: 7 })).toEqual([['t6', 't5', 't4', 't3', 't2', 't1', 't0']]);
        expect(await allPages({ limit: 200 })).toEqual([['t6', 't5', 't4', 't3', 't2', 't1', 't0']]);
        expect(await allPages({ limit: 1 })).toEqual([['t6'], ['t5'], ['t4'], ['t3'], ['t2'], ['t1'], ['t0']]);
        expect(await repository.listTasks({ limit: 10, deviceId: 'phone-c' })).toStrictEqual({ tasks: [] });
      });

      it('filters by phone, by status, and by both', async () => {
        await seed();
        expect(await allPages({ deviceId: 'phone-a', limit: 3 })).toEqual([['t6', 't4', 't2'], ['t0']]);
        expect(await allPages({ status: 'completed', limit: 3 })).toEqual([['t6', 't3', 't2'], ['t0']]);
        expect(await allPages({ deviceId: 'phone-b', status: 'completed', limit: 3 })).toEqual([['t3']]);
        expect(await allPages({ deviceId: 'phone-c', limit: 3 })).toEqual([[]]);
      });

      it('filters by conversation (contextId), also with other filters and paging, and round-trips it', async () => {
        const inContext = (n: number, contextId?: string) =>
          taskFixture({ taskId: `c${n}`, createdAt: minutesAfter(T0, n), ...(contextId === undefined ? {} : { contextId }), ...(n === 2 ? { deviceId: 'phone-z' } : {}) });
        for (const [n, contextId] of [[0, 'order-1'], [1, 'order-2'], [2, 'order-1'], [3, undefined], [4, 'order-1']] as const) await repository.createTask(inContext(n, contextId));
        expect(await allPages({ contextId: 'order-1', limit: 2 })).toEqual([['c4', 'c2'], ['c0']]);
        expect(await allPages({ contextId: 'order-1', deviceId: 'phone-z', limit: 2 })).toEqual([['c2']]);
        expect(await allPages({ contextId: 'order-3', limit: 2 })).toEqual([[]]);
        expect(await repository.getTask('c1')).toStrictEqual(inContext(1, 'order-2'));
      });

      it('continues after the last task of the previous page when tasks are created in between', async () => {
        await seed();
        const first = await repository.listTasks({ limit: 3 });
        await repository.createTask(taskFixture({ taskId: 'newest', createdAt: minutesAfter(T0, 60) }));
        await repository.createTask(taskFixture({ taskId: 'oldest', createdAt: minutesAfter(T0, -60) }));
        const second = await repository.listTasks({ limit: 3, cursor: first.nextCursor });
        expect(second.tasks.map((t) => t.taskId)).toEqual(['t3', 't2', 't1']);
        const third = await repository.listTasks({ limit: 3, cursor: second.nextCursor });
        expect(third).toStrictEqual({ tasks: [tasks[0], expect.objectContaining({ taskId: 'oldest' })] });
      });

      it('counts the tasks a filter selects across all its pages', async () => {
        await seed();
        expect(await repository.countTasks({})).toBe(7);
        expect(await repository.countTasks({ status: 'completed' })).toBe(4);
        expect(await repository.countTasks({ deviceId: 'phone-a' })).toBe(4);
        expect(await repository.countTasks({ deviceId: 'phone-b', status: 'completed' })).toBe(1);
        expect(await repository.countTasks({ deviceId: 'phone-c' })).toBe(0);
        await repository.createTask(taskFixture({ taskId: 'ctx-1', contextId: 'order-9', createdAt: minutesAfter(T0, 7) }));
        await repository.createTask(taskFixture({ taskId: 'ctx-2', contextId: 'order-9', status: 'completed', createdAt: minutesAfter(T0, 8) }));
        expect(await repository.countTasks({ contextId: 'order-9' })).toBe(2);
        expect(await repository.countTasks({ contextId: 'order-9', status: 'completed' })).toBe(1);
        expect((await allPages({ status: 'completed', limit: 2 })).flat()).toHaveLength(await repository.countTasks({ status: 'completed' }));
        const err = await domainRejection(repository.countTasks({ status: 'lost' as Task['status'] }));
        expect(err.code).toBe('VALIDATION_FAILED');
        expect(err.fieldErrors?.map((e) => e.field)).toEqual(['status']);
      });

      it('refuses a cursor it did not issue, a limit outside 1–200 and an unknown status with VALIDATION_FAILED', async () => {
        await seed();
        for (const cursor of ['garbage!', '', '0', '-1', 'bm90IGpzb24']) {
          const err = await domainRejection(repository.listTasks({ limit: 3, cursor }));
          expect(err.code).toBe('VALIDATION_FAILED');
          expect(err.fieldErrors?.map((e) => e.field)).toEqual(['cursor']);
        }
        for (const limit of [0, 201, 2.5, Number.NaN]) {
          const err = await domainRejection(repository.listTasks({ limit }));
          expect(err.code).toBe('VALIDATION_FAILED');
          expect(err.fieldErrors?.map((e) => e.field)).toEqual(['limit']);
        }
        const err = await domainRejection(repository.listTasks({ limit: 3, status: 'lost' as Task['status'] }));
        expect(err.code).toBe('VALIDATION_FAILED');
        expect(err.fieldErrors?.map((e) => e.field)).toEqual(['status']);
      });
    });

    describe('steps', () => {
      it('keeps who took a step (a person during a takeover) and the takeover a task waits on', async () => {
        const paused: Task = { ...taskFixture({ taskId: 'task-h', status: 'input_required', stepCount: 2 }), takeover: { reason: 'a person took over', holder: 'Ada', since: '2026-03-01T10:00:05.000Z' } };
        await repository.createTask(paused);
        const human = stepFixture('task-h', 1, { actor: 'human', holder: 'Ada', plan: { type: 'action', action: { command: 'click', x: 10, y: 20 }, reasoning: 'by Ada' } });
        await repository.saveStep(stepFixture('task-h', 0));
        await repository.saveStep(human);
        expect(await repository.getTask('task-h')).toStrictEqual(paused);
        // A step without `actor` (the agent's, or stored before people could act) reads back without one.
        expect(await repository.listSteps('task-h')).toStrictEqual([stepFixture('task-h', 0), human]);
      });

      it('stores steps by (task, index), replaces a step, lists them in index order', async () => {
        await repository.createTask(taskFixture({ taskId: 'task-a' }));
        await repository.createTask(taskFixture({ taskId: 'task-b' }));
        for (const index of [2, 0, 1]) await repository.saveStep(stepFixture('task-a', index));
        const { endedAt: _endedAt, result: _result, ...unfinished } = stepFixture('task-b', 0);
        await repository.saveStep(unfinished);
        const failed = stepFixture('task-a', 1, { result: { status: 'error', errorCode: 'STALE_FRAME', message: 'screen changed', verified: false } });
        await repository.saveStep(failed);
        expect(await repository.listSteps('task-a')).toStrictEqual([stepFixture('task-a', 0), failed, stepFixture('task-a', 2)]);
        expect(await repository.listSteps('task-b')).toStrictEqual([unfinished]);
        expect(await repository.listSteps('other-task')).toEqual([]);
      });

      it('refuses a step of a task that is not stored', async () => {
        expect((await domainRejection(repository.saveStep(stepFixture('other-task', 0)))).code).toBe('TASK_NOT_FOUND');
        expect(await repository.listSteps('other-task')).toEqual([]);
        expect(await repository.getTask('other-task')).toBeUndefined();
      });

      it('refuses a step index that is not an integer ≥ 0 with VALIDATION_FAILED on `index`, storing nothing', async () => {
        await repository.createTask(taskFixture({ taskId: 'task-a' }));
        for (const index of [-1, 1.5, Number.NaN]) {
          const err = await domainRejection(repository.saveStep(stepFixture('task-a', index)));
          expect(err.code).toBe('VALIDATION_FAILED');
          expect(err.fieldErrors?.map((e) => e.field)).toEqual(['index']);
        }
        expect(await repository.listSteps('task-a')).toEqual([]);
      });

      it('hands out copies: changing a saved or a returned step changes nothing stored', async () => {
        await repository.createTask(taskFixture({ taskId: 'task-a' }));
        const mine = stepFixture('task-a', 0);
        await repository.saveStep(mine);
        mine.timings.actionMs = 1;
        const [read] = await repository.listSteps('task-a');
        (read?.timings as { actionMs: number }).actionMs = 2;
        expect(await repository.listSteps('task-a')).toStrictEqual([stepFixture('task-a', 0)]);
      });
    });

    describe('events', () => {
      it('appends events with ids 1, 2, 3 and replays those after an id', async () => {
        const task = taskFixture({ taskId: 'task-a' });
        await repository.createTask(task);
        const first = await repository.appendEvent(task.taskId, 'task.accepted', { status: 'queued', goal: task.goal }, '2026-03-01T10:00:00.001Z');
        expect(first).toStrictEqual({
          taskId: task.taskId,
          id: 1,
          type: 'task.accepted',
          at: '2026-03-01T10:00:00.001Z',
          data: { status: 'queued', goal: task.goal },
        });
        const before = Date.now();
        const second = await repository.appendEvent(task.taskId, 'step.started', { index: 0 });
        const after = Date.now();
        expect(second.id).toBe(2);
        // `at` defaults to the time of the append.
        expect(new Date(second.at).toISOString()).toBe(second.at);
        expect(Date.parse(second.at)).toBeGreaterThanOrEqual(before);
        expect(Date.parse(second.at)).toBeLessThanOrEqual(after);
        const third = await repository.appendEvent(task.taskId, 'step.acted', { index: 0, result: { status: 'success', verified: true } }, '2026-03-01T10:00:02.000Z');
        expect(await repository.listEvents(task.taskId)).toStrictEqual([first, second, third]);
        expect(await repository.listEvents(task.taskId, 0)).toStrictEqual([first, second, third]);
        expect(await repository.listEvents(task.taskId, 1)).toStrictEqual([second, third]);
        expect(await repository.listEvents(task.taskId, 3)).toEqual([]);
        expect(await repository.listEvents('other-task')).toEqual([]);
      });

      it('numbers each task on its own, without gaps, also when appends run concurrently', async () => {
        await repository.createTask(taskFixture({ taskId: 'task-a' }));
        await repository.createTask(taskFixture({ taskId: 'task-b' }));
        const ids: string[] = [];
        for (const taskId of ['task-a', 'task-b', 'task-a', 'task-a', 'task-b']) ids.push(`${taskId}#${(await repository.appendEvent(taskId, 'step.started', {})).id}`);
        expect(ids).toEqual(['task-a#1', 'task-b#1', 'task-a#2', 'task-a#3', 'task-b#2']);

        // Concurrent appends may be numbered in any order, but each gets its own id and none is lost.
        const concurrent = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => repository.appendEvent(i % 2 === 0 ? 'task-a' : 'task-b', 'step.acted', { i })));
        const ofTask = (taskId: string) => concurrent.filter((e) => e.taskId === taskId).sort((x, y) => x.id - y.id);
        expect(ofTask('task-a').map((e) => e.id)).toEqual([4, 5, 6]);
        expect(ofTask('task-b').map((e) => e.id)).toEqual([3, 4, 5]);
        expect((await repository.listEvents('task-a')).map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6]);
        expect((await repository.listEvents('task-b')).map((e) => e.id)).toEqual([1, 2, 3, 4, 5]);
        expect(await repository.listEvents('task-a', 3)).toStrictEqual(ofTask('task-a'));
        expect(await repository.listEvents('task-b', 2)).toStrictEqual(ofTask('task-b'));
      });

      it('refuses an event of a task that is not stored, numbering nothing', async () => {
        expect((await domainRejection(repository.appendEvent('unknown-task', 'task.started', {}))).code).toBe('TASK_NOT_FOUND');
        expect(await repository.listEvents('unknown-task')).toEqual([]);
        await repository.createTask(taskFixture({ taskId: 'unknown-task' }));
        expect((await repository.appendEvent('unknown-task', 'task.started', {})).id).toBe(1);
      });

      it('refuses an `at` that is not an ISO-8601 time with VALIDATION_FAILED on `at`, numbering nothing', async () => {
        await repository.createTask(taskFixture({ taskId: 'task-a' }));
        await repository.appendEvent('task-a', 'task.accepted', {}, T0);
        for (const at of ['soon', '', '2026-13-45T99:00:00Z']) {
          const err = await domainRejection(repository.appendEvent('task-a', 'task.started', {}, at));
          expect(err.code).toBe('VALIDATION_FAILED');
          expect(err.fieldErrors?.map((e) => e.field)).toEqual(['at']);
        }
        expect((await repository.listEvents('task-a')).map((e) => e.id)).toEqual([1]);
        expect((await repository.appendEvent('task-a', 'task.started', {}, T0)).id).toBe(2);
      });

      it('hands out copies: changing appended data or a returned event changes nothing stored', async () => {
        await repository.createTask(taskFixture({ taskId: 'task-a' }));
        const data = { nested: { n: 1 } };
        const appended = await repository.appendEvent('task-a', 'step.started', data, T0);
        data.nested.n = 2;
        appended.data.extra = true;
        const [read] = await repository.listEvents('task-a');
        (read as { type: string }).type = 'task.failed';
        expect(await repository.listEvents('task-a')).toStrictEqual([{ taskId: 'task-a', id: 1, type: 'step.started', at: T0, data: { nested: { n: 1 } } }]);
      });
    });

    describe('screenshots', () => {
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
      const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 7, 7, 0xff, 0xd9]);
      const webp = new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2, 3]);

      it('round-trips the exact bytes and mime type of each step, replacing a step’s earlier screenshot', async () => {
        await repository.createTask(taskFixture({ taskId: 'task-a' }));
        await repository.createTask(taskFixture({ taskId: 'task-b' }));
        await repository.saveScreenshot('task-a', 0, { mime: 'image/png', bytes: png });
        await repository.saveScreenshot('task-a', 1, { mime: 'image/webp', bytes: webp });
        await repository.saveScreenshot('task-b', 0, { mime: 'image/jpeg', bytes: jpeg });
        expect(await repository.getScreenshot('task-a', 0)).toStrictEqual({ mime: 'image/png', bytes: png });
        expect(await repository.getScreenshot('task-a', 1)).toStrictEqual({ mime: 'image/webp', bytes: webp });
        expect(await repository.getScreenshot('task-b', 0)).toStrictEqual({ mime: 'image/jpeg', bytes: jpeg });

        await repository.saveScreenshot('task-a', 0, { mime: 'image/jpeg', bytes: jpeg });
        expect(await repository.getScreenshot('task-a', 0)).toStrictEqual({ mime: 'image/jpeg', bytes: jpeg });
        expect(await repository.getScreenshot('task-a', 1)).toStrictEqual({ mime: 'image/webp', bytes: webp });
        expect(await repository.getScreenshot('task-a', 2)).toBeUndefined();
        expect(await repository.getScreenshot('task-c', 0)).toBeUndefined();
      });

      it('stores a copy of the bytes: changing them after saving or reading changes nothing stored', async () => {
        await repository.createTask(taskFixture({ taskId: 'task-a' }));
        const bytes = new Uint8Array(png);
        await repository.saveScreenshot('task-a', 0, { mime: 'image/png', bytes });
        bytes.fill(0);
        const read = (await repository.getScreenshot('task-a', 0)) as StoredImage;
        read.bytes.fill(1);
        expect(await repository.getScreenshot('task-a', 0)).toStrictEqual({ mime: 'image/png', bytes: png });
      });

      it('refuses a screenshot of a task that is not stored', async () => {
        expect((await domainRejection(repository.saveScreenshot('unknown-task', 0, { mime: 'image/png', bytes: png }))).code).toBe('TASK_NOT_FOUND');
        expect(await repository.getScreenshot('unknown-task', 0)).toBeUndefined();
        expect(await repository.getTask('unknown-task')).toBeUndefined();
      });

      it('refuses a bad step index, mime type or bytes with VALIDATION_FAILED naming each field, storing nothing', async () => {
        await repository.createTask(taskFixture({ taskId: 'task-a' }));
        const notBytes = [1, 2, 3] as unknown as Uint8Array;
        const cases: [number, StoredImage, string[]][] = [
          [-1, { mime: 'image/png', bytes: png }, ['stepIndex']],
          [0.5, { mime: 'image/png', bytes: png }, ['stepIndex']],
          [0, { mime: 'png', bytes: png }, ['mime']],
          [0, { mime: 'image/png', bytes: notBytes }, ['bytes']],
          [-2, { mime: '', bytes: notBytes }, ['stepIndex', 'mime', 'bytes']],
        ];
        for (const [stepIndex, image, fields] of cases) {
          const err = await domainRejection(repository.saveScreenshot('task-a', stepIndex, image));
          expect(err.code).toBe('VALIDATION_FAILED');
          expect(err.fieldErrors?.map((e) => e.field)).toEqual(fields);
        }
        expect(await repository.getScreenshot('task-a', 0)).toBeUndefined();
      });
    });

    describe('interruptUnfinished', () => {
      it('marks queued, running and waiting tasks interrupted in one go, each with a task.interrupted event', async () => {
        const queued = taskFixture({ taskId: 'q', status: 'queued', queuePosition: 2, createdAt: minutesAfter(T0, 2) });
        const running = taskFixture({ taskId: 'r', status: 'running', stepCount: 2, createdAt: minutesAfter(T0, 0) });
        const waiting = taskFixture({
          taskId: 'w',
          status: 'input_required',
          createdAt: minutesAfter(T0, 1),
          pendingAction: { stepIndex: 0, action: { command: 'click', x: 10, y: 20 }, reason: 'pays' },
        });
        const completed = taskFixture({ taskId: 'c', status: 'completed', endedAt: minutesAfter(T0, 1), summary: 'done' });
        for (const task of [queued, running, waiting, completed]) {
          await repository.createTask(task);
          await repository.appendEvent(task.taskId, 'task.accepted', {}, T0);
        }
        await repository.saveStep(stepFixture('r', 0));
        await repository.saveStep(stepFixture('r', 1));
        await repository.appendEvent('r', 'step.started', { index: 1 }, T0);

        const at = '2026-03-01T11:00:00.000Z';
        const error = { code: 'INTERRUPTED', message: 'gateway restarted' } as const;
        const { queuePosition: _q, ...queuedRest } = queued;
        const { pendingAction: _p, ...waitingRest } = waiting;
        const expected: Task[] = [
          { ...running, status: 'interrupted', endedAt: at, error },
          { ...waitingRest, status: 'interrupted', endedAt: at, error },
          { ...queuedRest, status: 'interrupted', endedAt: at, error },
        ];
        expect(await repository.interruptUnfinished('gw-a', 'gateway restarted', at)).toStrictEqual(expected);
        for (const task of expected) expect(await repository.getTask(task.taskId)).toStrictEqual(task);
        expect(await repository.getTask('c')).toStrictEqual(completed);

        const interruptedEvent = { type: 'task.interrupted', at, data: { reason: 'gateway restarted', status: 'interrupted' } };
        expect(await repository.listEvents('r', 2)).toStrictEqual([{ taskId: 'r', id: 3, ...interruptedEvent }]);
        expect(await repository.listEvents('q', 1)).toStrictEqual([{ taskId: 'q', id: 2, ...interruptedEvent }]);
        expect(await repository.listEvents('w', 1)).toStrictEqual([{ taskId: 'w', id: 2, ...interruptedEvent }]);
        expect((await repository.listEvents('c')).map((e) => e.type)).toEqual(['task.accepted']);
        expect(await repository.listSteps('r')).toStrictEqual([stepFixture('r', 0), stepFixture('r', 1)]);

        expect(await repository.interruptUnfinished('gw-a', 'again', at)).toEqual([]);
        expect((await repository.listEvents('r')).map((e) => e.id)).toEqual([1, 2, 3]);
      });

      it('stamps the current time when no time is given, and touches nothing when every task is finished', async () => {
        expect(await repository.interruptUnfinished('gw-a', 'nothing stored')).toEqual([]);
        const finished = ['completed', 'failed', 'canceled', 'interrupted'] as const;
        for (const status of finished) await repository.createTask(taskFixture({ taskId: status, status, endedAt: T0 }));
        await repository.createTask(taskFixture({ taskId: 'running' }));
        const before = Date.now();
        const [interrupted] = await repository.interruptUnfinished('gw-a', 'restart');
        const after = Date.now();
        expect(interrupted?.endedAt).toBe(new Date(Date.parse(interrupted?.endedAt as string)).toISOString());
        expect(Date.parse(interrupted?.endedAt as string)).toBeGreaterThanOrEqual(before);
        expect(Date.parse(interrupted?.endedAt as string)).toBeLessThanOrEqual(after);
        expect((await repository.listEvents('running')).map((e) => e.at)).toEqual([interrupted?.endedAt]);
        for (const status of finished) {
          expect(await repository.getTask(status)).toStrictEqual(taskFixture({ taskId: status, status, endedAt: T0 }));
          expect(await repository.listEvents(status)).toEqual([]);
        }
      });
    });

    describe('interruptUnfinished: task ownership', () => {
      const at = '2026-03-01T11:00:00.000Z';

      it('interrupts unowned tasks, its own and expired leases; leaves a task another instance holds under an unexpired lease', async () => {
        const tasks = [
          taskFixture({ taskId: 'unowned', createdAt: minutesAfter(T0, 0) }),
          taskFixture({ taskId: 'mine', createdAt: minutesAfter(T0, 1), owner: { instanceId: 'gw-a', leaseExpiresAt: minutesAfter(at, 10) } }),
          taskFixture({ taskId: 'expired', status: 'queued', createdAt: minutesAfter(T0, 2), owner: { instanceId: 'gw-b', leaseExpiresAt: at } }),
          taskFixture({ taskId: 'held', status: 'input_required', createdAt: minutesAfter(T0, 3), owner: { instanceId: 'gw-b', leaseExpiresAt: '2026-03-01T11:00:00.001Z' } }),
          taskFixture({ taskId: 'done', status: 'completed', endedAt: T0, owner: { instanceId: 'gw-b', leaseExpiresAt: T0 } }),
        ];
        for (const task of tasks) await repository.createTask(task);

        // A lease that ends exactly at `at` has expired; the owner stays on the interrupted task.
        const error = { code: 'INTERRUPTED', message: 'restart' } as const;
        const interrupted = tasks.slice(0, 3).map((task): Task => ({ ...task, status: 'interrupted', endedAt: at, error }));
        expect(await repository.interruptUnfinished('gw-a', 'restart', at)).toStrictEqual(interrupted);
        for (const task of interrupted) expect(await repository.getTask(task.taskId)).toStrictEqual(task);
        expect(await repository.getTask('held')).toStrictEqual(tasks[3]);
        expect(await repository.listEvents('held')).toEqual([]);
        expect(await repository.getTask('done')).toStrictEqual(tasks[4]);
        expect(await repository.listEvents('done')).toEqual([]);

        // Once its lease runs out, the other instance's task is interrupted too.
        expect((await repository.interruptUnfinished('gw-a', 'restart', '2026-03-01T11:00:00.001Z')).map((t) => t.taskId)).toEqual(['held']);
        expect((await repository.listEvents('held')).map((e) => [e.id, e.type, e.at])).toEqual([[1, 'task.interrupted', '2026-03-01T11:00:00.001Z']]);
      });

      it('follows the lease as updates renew it, and lets the owning instance interrupt its own task before the lease ends', async () => {
        const held = taskFixture({ taskId: 'held', owner: { instanceId: 'gw-b', leaseExpiresAt: minutesAfter(at, 1) } });
        await repository.createTask(held);
        const renewed: Task = { ...held, stepCount: 1, owner: { instanceId: 'gw-b', leaseExpiresAt: minutesAfter(at, 10) } };
        await repository.updateTask(renewed);

        // The first lease would have expired by then; the renewed one has not.
        expect(await repository.interruptUnfinished('gw-a', 'restart', minutesAfter(at, 5))).toEqual([]);
        expect(await repository.getTask('held')).toStrictEqual(renewed);

        const error = { code: 'INTERRUPTED', message: 'gw-b restarted' } as const;
        expect(await repository.interruptUnfinished('gw-b', 'gw-b restarted', minutesAfter(at, 6))).toStrictEqual([
          { ...renewed, status: 'interrupted', endedAt: minutesAfter(at, 6), error },
        ]);
      });

      it('refuses an `at` that is not an ISO-8601 time with VALIDATION_FAILED on `at`, interrupting nothing', async () => {
        const running = taskFixture({ taskId: 'running' });
        await repository.createTask(running);
        const err = await domainRejection(repository.interruptUnfinished('gw-a', 'restart', 'later'));
        expect(err.code).toBe('VALIDATION_FAILED');
        expect(err.fieldErrors?.map((e) => e.field)).toEqual(['at']);
        expect(await repository.getTask('running')).toStrictEqual(running);
        expect(await repository.listEvents('running')).toEqual([]);
      });
    });

    describe('renewLeases', () => {
      const at = '2026-03-01T11:00:00.000Z';

      it("extends the unfinished tasks of one instance, never shortening a lease, and leaves others' and finished tasks alone", async () => {
        const tasks = [
          taskFixture({ taskId: 'running', createdAt: minutesAfter(T0, 0), owner: { instanceId: 'gw-a', leaseExpiresAt: at } }),
          taskFixture({ taskId: 'queued', status: 'queued', createdAt: minutesAfter(T0, 1), owner: { instanceId: 'gw-a', leaseExpiresAt: at } }),
          taskFixture({ taskId: 'waiting', status: 'input_required', createdAt: minutesAfter(T0, 2), owner: { instanceId: 'gw-a', leaseExpiresAt: minutesAfter(at, 30) } }),
          taskFixture({ taskId: 'other', createdAt: minutesAfter(T0, 3), owner: { instanceId: 'gw-b', leaseExpiresAt: at } }),
          taskFixture({ taskId: 'unowned', createdAt: minutesAfter(T0, 4) }),
          taskFixture({ taskId: 'done', status: 'completed', endedAt: T0, createdAt: minutesAfter(T0, 5), owner: { instanceId: 'gw-a', leaseExpiresAt: at } }),
        ];
        for (const task of tasks) await repository.createTask(task);

        expect(await repository.renewLeases('gw-a', minutesAfter(at, 10))).toBe(2);
        const lease = (taskId: string) => repository.getTask(taskId).then((task) => task?.owner?.leaseExpiresAt);
        expect(await lease('running')).toBe(minutesAfter(at, 10));
        expect(await lease('queued')).toBe(minutesAfter(at, 10));
        expect(await lease('waiting')).toBe(minutesAfter(at, 30));
        expect(await lease('other')).toBe(at);
        expect(await repository.getTask('unowned')).toStrictEqual(tasks[4]);
        expect(await repository.getTask('done')).toStrictEqual(tasks[5]);
        // Only the lease moved: the rest of each task is as stored, and no event was appended.
        expect(await repository.getTask('running')).toStrictEqual({ ...tasks[0], owner: { instanceId: 'gw-a', leaseExpiresAt: minutesAfter(at, 10) } });
        expect(await repository.listEvents('running')).toEqual([]);

        // A renewed task outlives the sweep its old lease would have lost.
        expect((await repository.interruptExpired('swept', minutesAfter(at, 5))).map((task) => task.taskId)).toEqual(['other']);
        expect(await repository.renewLeases('gw-c', minutesAfter(at, 10))).toBe(0);
      });

      it('with task ids, extends only those of the instance\'s unfinished tasks', async () => {
        for (const taskId of ['held', 'orphan', 'queued']) await repository.createTask(taskFixture({ taskId, owner: { instanceId: 'gw-a', leaseExpiresAt: at } }));
        await repository.createTask(taskFixture({ taskId: 'other', owner: { instanceId: 'gw-b', leaseExpiresAt: at } }));

        expect(await repository.renewLeases('gw-a', minutesAfter(at, 10), ['held', 'queued', 'other', 'absent'])).toBe(2);
        const lease = (taskId: string) => repository.getTask(taskId).then((task) => task?.owner?.leaseExpiresAt);
        expect(await lease('held')).toBe(minutesAfter(at, 10));
        expect(await lease('queued')).toBe(minutesAfter(at, 10));
        expect(await lease('orphan')).toBe(at);
        expect(await lease('other')).toBe(at);
        expect(await repository.renewLeases('gw-a', minutesAfter(at, 20), [])).toBe(0);
        expect(await lease('held')).toBe(minutesAfter(at, 10));
      });

      it('refuses a lease end that is not an ISO-8601 time with VALIDATION_FAILED on `leaseExpiresAt`, renewing nothing', async () => {
        const owned = taskFixture({ taskId: 'owned', owner: { instanceId: 'gw-a', leaseExpiresAt: at } });
        await repository.createTask(owned);
        const err = await domainRejection(repository.renewLeases('gw-a', 'soon'));
        expect(err.code).toBe('VALIDATION_FAILED');
        expect(err.fieldErrors?.map((e) => e.field)).toEqual(['leaseExpiresAt']);
        expect(await repository.getTask('owned')).toStrictEqual(owned);
      });
    });

    describe('interruptExpired', () => {
      const at = '2026-03-01T11:00:00.000Z';

      it('interrupts only owned tasks whose lease ended at or before `at`, with the event, oldest first', async () => {
        const tasks = [
          taskFixture({ taskId: 'unowned', createdAt: minutesAfter(T0, 0) }),
          taskFixture({ taskId: 'expired-b', status: 'queued', createdAt: minutesAfter(T0, 2), owner: { instanceId: 'gw-b', leaseExpiresAt: at } }),
          taskFixture({ taskId: 'expired-a', createdAt: minutesAfter(T0, 1), owner: { instanceId: 'gw-a', leaseExpiresAt: minutesAfter(at, -1) } }),
          taskFixture({ taskId: 'held', status: 'input_required', createdAt: minutesAfter(T0, 3), owner: { instanceId: 'gw-b', leaseExpiresAt: '2026-03-01T11:00:00.001Z' } }),
          taskFixture({ taskId: 'done', status: 'failed', endedAt: T0, createdAt: minutesAfter(T0, 4), owner: { instanceId: 'gw-b', leaseExpiresAt: T0 } }),
        ];
        for (const task of tasks) await repository.createTask(task);

        const error = { code: 'INTERRUPTED', message: 'its gateway stopped renewing the lease' } as const;
        const expected = [tasks[2], tasks[1]].map((task): Task => {
          const { queuePosition: _position, pendingAction: _pending, ...rest } = task as Task;
          return { ...rest, status: 'interrupted', endedAt: at, error };
        });
        expect(await repository.interruptExpired('its gateway stopped renewing the lease', at)).toStrictEqual(expected);
        for (const task of expected) {
          expect(await repository.getTask(task.taskId)).toStrictEqual(task);
          expect(await repository.listEvents(task.taskId)).toStrictEqual([
            { id: 1, taskId: task.taskId, type: 'task.interrupted', at, data: { reason: 'its gateway stopped renewing the lease', status: 'interrupted' } },
          ]);
        }
        expect(await repository.getTask('unowned')).toStrictEqual(tasks[0]);
        expect(await repository.getTask('held')).toStrictEqual(tasks[3]);
        expect(await repository.getTask('done')).toStrictEqual(tasks[4]);
        expect(await repository.listEvents('held')).toEqual([]);

        // Interrupted once: a second sweep finds nothing more until the next lease runs out.
        expect(await repository.interruptExpired('again', at)).toEqual([]);
        expect((await repository.interruptExpired('later', '2026-03-01T11:00:00.001Z')).map((task) => task.taskId)).toEqual(['held']);
      });

      it('interrupts each task once when sweeps run concurrently', async () => {
        for (let i = 0; i < 5; i += 1) {
          await repository.createTask(taskFixture({ taskId: `task-${i}`, createdAt: minutesAfter(T0, i), owner: { instanceId: 'gw-b', leaseExpiresAt: T0 } }));
        }
        const sweeps = await Promise.all([repository.interruptExpired('one', at), repository.interruptExpired('two', at), repository.interruptExpired('three', at)]);
        expect(sweeps.flat().map((task) => task.taskId).sort()).toEqual(['task-0', 'task-1', 'task-2', 'task-3', 'task-4']);
        for (let i = 0; i < 5; i += 1) expect((await repository.listEvents(`task-${i}`)).map((event) => event.id)).toEqual([1]);
      });

      it('refuses an `at` that is not an ISO-8601 time with VALIDATION_FAILED on `at`, interrupting nothing', async () => {
        const owned = taskFixture({ taskId: 'owned', owner: { instanceId: 'gw-b', leaseExpiresAt: T0 } });
        await repository.createTask(owned);
        const err = await domainRejection(repository.interruptExpired('sweep', 'now'));
        expect(err.code).toBe('VALIDATION_FAILED');
        expect(err.fieldErrors?.map((e) => e.field)).toEqual(['at']);
        expect(await repository.getTask('owned')).toStrictEqual(owned);
      });
    });

    describe('prune', () => {
      const now = new Date('2026-03-10T00:00:00.000Z');
      const png = { mime: 'image/png', bytes: new Uint8Array([1, 2, 3]) };
      const day = 24 * 60 * 60 * 1000;
      const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
      const seededIds = RETENTION_SCENARIO_TASK_IDS;
      const seed = () => seedRetentionScenario(repository, now);

      async function remaining(): Promise<string[]> {
        return (await repository.listTasks({ limit: 200 })).tasks.map((t) => t.taskId).sort();
      }

      /** Every trace of a task is gone (and the id can be used afresh), or every trace is kept. */
      async function expectGone(taskId: string): Promise<void> {
        expect(await repository.getTask(taskId)).toBeUndefined();
        expect(await repository.listSteps(taskId)).toEqual([]);
        expect(await repository.listEvents(taskId)).toEqual([]);
        expect(await repository.getScreenshot(taskId, 0)).toBeUndefined();
      }
      async function expectKept(taskId: string): Promise<void> {
        expect(await repository.getTask(taskId)).toMatchObject({ taskId });
        expect(await repository.listSteps(taskId)).toStrictEqual([stepFixture(taskId, 0)]);
        expect((await repository.listEvents(taskId)).map((e) => [e.id, e.type])).toEqual([[1, 'task.accepted']]);
        expect(await repository.getScreenshot(taskId, 0)).toStrictEqual(png);
      }

      it('deletes finished tasks that ended longer ago than maxAgeMs, with their steps, events and screenshots', async () => {
        await seed();
        expect(await repository.prune({ maxAgeMs: 5 * day }, now)).toBe(2);
        expect(await remaining()).toEqual(['mid-canceled', 'new-done', 'new-interrupted', 'old-queued', 'old-running']);
        for (const taskId of ['old-done', 'old-failed']) await expectGone(taskId);
        for (const taskId of seededIds.filter((id) => !['old-done', 'old-failed'].includes(id))) await expectKept(taskId);
        expect(await repository.prune({ maxAgeMs: 5 * day }, now)).toBe(0);

        // The id of a pruned task starts afresh: no step, event or screenshot of the old one shows through.
        await repository.createTask(taskFixture({ taskId: 'old-done' }));
        expect((await repository.appendEvent('old-done', 'task.accepted', {})).id).toBe(1);
        expect(await repository.listSteps('old-done')).toEqual([]);
        expect(await repository.getScreenshot('old-done', 0)).toBeUndefined();
      });

      it('keeps only the newest maxTasks finished tasks and never touches unfinished ones', async () => {
        await seed();
        expect(await repository.prune({ maxTasks: 2 }, now)).toBe(3);
        expect(await remaining()).toEqual(['new-done', 'new-interrupted', 'old-queued', 'old-running']);
        for (const taskId of ['old-done', 'old-failed', 'mid-canceled']) await expectGone(taskId);
        expect(await repository.prune({ maxTasks: 0, maxAgeMs: 0 }, now)).toBe(2);
        expect(await remaining()).toEqual(['old-queued', 'old-running']);
        for (const taskId of ['old-queued', 'old-running']) await expectKept(taskId);
      });

      it('applies both bounds together, counts a task without endedAt from its createdAt, and refuses a bad policy', async () => {
        await seed();
        await repository.createTask(taskFixture({ taskId: 'no-end', status: 'failed', createdAt: ago(8 * day) }));
        expect(await repository.prune({ maxAgeMs: 7 * day, maxTasks: 4 }, now)).toBe(2);
        expect(await remaining()).toEqual(['mid-canceled', 'new-done', 'new-interrupted', 'old-failed', 'old-queued', 'old-running']);
        expect(await repository.prune({ maxAgeMs: 7 * day, maxTasks: 3 }, now)).toBe(1);
        expect(await remaining()).toEqual(['mid-canceled', 'new-done', 'new-interrupted', 'old-queued', 'old-running']);
        expect(await repository.prune({}, now)).toBe(0);
        const err = await domainRejection(repository.prune({ maxAgeMs: -1, maxTasks: 1.5 }, now));
        expect(err.code).toBe('VALIDATION_FAILED');
        expect(err.fieldErrors?.map((e) => e.field)).toEqual(['maxAgeMs', 'maxTasks']);
        expect(await remaining()).toEqual(['mid-canceled', 'new-done', 'new-interrupted', 'old-queued', 'old-running']);
      });
    });

    describe('checkWritable', () => {
      it('resolves on an open store and changes nothing', async () => {
        await repository.createTask(taskFixture({ taskId: 'task-a' }));
        await repository.checkWritable();
        await repository.checkWritable();
        expect((await repository.listTasks({ limit: 10 })).tasks.map((t) => t.taskId)).toEqual(['task-a']);
        expect(await repository.listEvents('task-a')).toEqual([]);
      });
    });

    describe('close', () => {
      it('resolves, again when called twice, and every other method rejects with SHUTTING_DOWN afterwards', async () => {
        await repository.createTask(taskFixture({ taskId: 'task-a' }));
        await repository.close();
        await repository.close();
        expect((await domainRejection(repository.getTask('task-a'))).code).toBe('SHUTTING_DOWN');
        expect((await domainRejection(repository.createTask(taskFixture({ taskId: 'task-b' })))).code).toBe('SHUTTING_DOWN');
        expect((await domainRejection(repository.listTasks({ limit: 10 }))).code).toBe('SHUTTING_DOWN');
        expect((await domainRejection(repository.countTasks({}))).code).toBe('SHUTTING_DOWN');
        expect((await domainRejection(repository.appendEvent('task-a', 'task.started', {}))).code).toBe('SHUTTING_DOWN');
        expect((await domainRejection(repository.listEvents('task-a'))).code).toBe('SHUTTING_DOWN');
        expect((await domainRejection(repository.saveStep(stepFixture('task-a', 0)))).code).toBe('SHUTTING_DOWN');
        expect((await domainRejection(repository.listSteps('task-a'))).code).toBe('SHUTTING_DOWN');
        expect((await domainRejection(repository.saveScreenshot('task-a', 0, { mime: 'image/png', bytes: new Uint8Array([1]) }))).code).toBe('SHUTTING_DOWN');
        expect((await domainRejection(repository.getScreenshot('task-a', 0))).code).toBe('SHUTTING_DOWN');
        expect((await domainRejection(repository.interruptUnfinished('gw-a', 'restart'))).code).toBe('SHUTTING_DOWN');
        expect((await domainRejection(repository.renewLeases('gw-a', T0))).code).toBe('SHUTTING_DOWN');
        expect((await domainRejection(repository.interruptExpired('sweep'))).code).toBe('SHUTTING_DOWN');
        expect((await domainRejection(repository.prune({ maxTasks: 0 }))).code).toBe('SHUTTING_DOWN');
        expect((await domainRejection(repository.checkWritable())).code).toBe('SHUTTING_DOWN');
      });
    });

    if (hooks.reopen) {
      describe('durability', () => {
        it('keeps every write across close and reopen, a screenshot still being written included', async () => {
          const task = taskFixture({ taskId: 'task-a', status: 'input_required', pendingAction: { stepIndex: 0, action: { command: 'home' }, reason: 'r' } });
          await repository.createTask(task);
          await repository.saveStep(stepFixture('task-a', 0));
          const event = await repository.appendEvent('task-a', 'task.accepted', { goal: task.goal }, T0);
          const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 9, 8, 7]);
          // Not awaited: close waits for it.
          const saving = repository.saveScreenshot('task-a', 0, { mime: 'image/png', bytes });
          await reopen();
          await saving;
          expect(await repository.getTask('task-a')).toStrictEqual(task);
          expect(await repository.listSteps('task-a')).toStrictEqual([stepFixture('task-a', 0)]);
          expect(await repository.listEvents('task-a')).toStrictEqual([event]);
          expect(await repository.getScreenshot('task-a', 0)).toStrictEqual({ mime: 'image/png', bytes });
        });

        it('continues event ids 1..n without gaps after reopening', async () => {
          await repository.createTask(taskFixture({ taskId: 'task-a' }));
          await repository.createTask(taskFixture({ taskId: 'task-b' }));
          for (let i = 0; i < 3; i++) await repository.appendEvent('task-a', 'step.started', { index: i });
          await repository.appendEvent('task-b', 'task.started', {});
          await reopen();
          const appended = await Promise.all([0, 1, 2, 3].map((i) => repository.appendEvent('task-a', 'step.acted', { index: i })));
          const byId = [...appended].sort((x, y) => x.id - y.id);
          expect(byId.map((e) => e.id)).toEqual([4, 5, 6, 7]);
          expect((await repository.listEvents('task-a')).map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
          expect(await repository.listEvents('task-a', 3)).toStrictEqual(byId);
          expect((await repository.listEvents('task-b')).map((e) => e.id)).toEqual([1]);
        });
      });
    }
  });
}
