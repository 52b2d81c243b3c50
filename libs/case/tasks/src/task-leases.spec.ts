import { firstValueFrom, toArray } from 'rxjs';
import { MobileClawError, type PlanDecision, type Task, type TaskEvent } from '@mobileclaw/domain';
import { SettableClock } from '@mobileclaw/domain/testing';
import { InProcessTaskEventBus } from './in-process-task-event-bus';
import { StableTreeSettler } from './screen-settling';
import { DEFAULT_TASK_CASE_OPTIONS, type TaskCaseOptions } from './task-case.options';
import { TaskService } from './task.service';
import { InMemoryTaskRepository } from './testing/in-memory-task.repository';
import { InstantSettleTimer } from './testing/instant-settle-timer';
import { ScriptedPhone } from './testing/scripted-phone';
import { ScriptedPlanner, gatedPlanner } from './testing/scripted-planner';
import { SequentialIdSource } from './testing/sequential-id-source';

const T0 = '2026-05-01T10:00:00.000Z';
const LEASE_MS = 60_000;
const SWEEP_REASON = 'the gateway instance that held the task stopped renewing its lease';
const tapWifi = (): PlanDecision => ({ type: 'action', action: { command: 'click', x: 50, y: 25 }, reasoning: 'tap the Wi-Fi switch', elementIndex: 0 });

/** `ms` after `at` (ISO-8601), as ISO-8601. */
function after(at: string, ms: number): string {
  return new Date(Date.parse(at) + ms).toISOString();
}

/** Instance `instanceId` on a shared store and bus, its clock `clock`. */
function instance(instanceId: string, repository: InMemoryTaskRepository, clock: SettableClock, options: { bus?: InProcessTaskEventBus; planner?: ScriptedPlanner; phone?: ScriptedPhone } = {}) {
  const all: TaskCaseOptions = { ...DEFAULT_TASK_CASE_OPTIONS, leaseMs: LEASE_MS };
  const phone = options.phone ?? new ScriptedPhone();
  const settler = new StableTreeSettler({ timeoutMs: all.settleTimeoutMs, pollMs: all.settlePollMs }, new InstantSettleTimer());
  const service = new TaskService(phone, options.planner ?? gatedPlanner().planner, repository, all, clock, new SequentialIdSource(`${instanceId}-task-`), options.bus ?? new InProcessTaskEventBus(), instanceId, settler);
  return { service, phone };
}

const running = (taskId: string, owner: Task['owner'], status: Task['status'] = 'running'): Task => ({ taskId, deviceId: 'phone-9', goal: 'g', status, maxSteps: 5, planner: 'p', createdAt: T0, stepCount: 0, owner });

describe('TaskService task leases (several instances on one store)', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'Date', 'performance', 'hrtime'] }));
  afterEach(() => jest.useRealTimers());

  it('renews the lease of each of its unfinished tasks, running and queued, every leaseMs / 3', async () => {
    const repository = new InMemoryTaskRepository();
    const clock = new SettableClock(T0);
    const gate = gatedPlanner();
    const { service } = instance('gw-a', repository, clock, { planner: gate.planner });
    await service.onApplicationBootstrap();
    const held = await service.start({ deviceId: 'phone-1', goal: 'held' });
    await gate.planning;
    const queued = await service.start({ deviceId: 'phone-1', goal: 'queued' });
    await repository.createTask(running('other', { instanceId: 'gw-b', leaseExpiresAt: after(T0, 5_000) }));

    clock.set(after(T0, 15_000));
    await jest.advanceTimersByTimeAsync(LEASE_MS / 3 - 1);
    expect((await repository.getTask(held.taskId))?.owner).toEqual({ instanceId: 'gw-a', leaseExpiresAt: after(T0, LEASE_MS) });
    await jest.advanceTimersByTimeAsync(1);
    for (const taskId of [held.taskId, queued.taskId]) expect((await repository.getTask(taskId))?.owner).toEqual({ instanceId: 'gw-a', leaseExpiresAt: after(T0, 15_000 + LEASE_MS) });
    // Another instance's task is that instance's to renew.
    expect((await repository.getTask('other'))?.owner).toEqual({ instanceId: 'gw-b', leaseExpiresAt: after(T0, 5_000) });

    gate.release({ type: 'done', summary: 'done', reasoning: 'r' });
    await service.idle();
    await service.beforeApplicationShutdown();
  });

  it('interrupts a task whose lease expired every leaseMs / 2, and publishes its end, so that a stream of it ends', async () => {
    const repository = new InMemoryTaskRepository();
    const clock = new SettableClock(T0);
    await repository.createTask(running('of-b', { instanceId: 'gw-b', leaseExpiresAt: after(T0, 10_000) }));
    await repository.createTask(running('waits-on-b', { instanceId: 'gw-b', leaseExpiresAt: after(T0, 10_000) }, 'input_required'));
    await repository.createTask(running('of-c', { instanceId: 'gw-c', leaseExpiresAt: after(T0, LEASE_MS) }));
    const { service } = instance('gw-a', repository, clock);
    await service.onApplicationBootstrap();
    const stream = firstValueFrom(service.events('of-b').pipe(toArray()));
    const published: TaskEvent[] = [];
    service.allEvents$.subscribe((event) => published.push(event));

    clock.set(after(T0, 10_000));
    await jest.advanceTimersByTimeAsync(LEASE_MS / 2);
    const interruptedAt = after(T0, 10_000);
    const end = (taskId: string): TaskEvent => ({ taskId, id: 1, type: 'task.interrupted', at: interruptedAt, data: { reason: SWEEP_REASON, status: 'interrupted' } });
    expect(await stream).toEqual([end('of-b')]);
    expect(published).toEqual([end('of-b'), end('waits-on-b')]);
    expect(await repository.getTask('waits-on-b')).toMatchObject({ status: 'interrupted', endedAt: interruptedAt, error: { code: 'INTERRUPTED', message: SWEEP_REASON } });
    expect((await repository.getTask('of-c'))?.status).toBe('running');
    await service.beforeApplicationShutdown();
  });

  it('publishes the end of each task it interrupts at start-up', async () => {
    const repository = new InMemoryTaskRepository();
    await repository.createTask(running('mine', { instanceId: 'gw-a', leaseExpiresAt: after(T0, LEASE_MS) }));
    const bus = new InProcessTaskEventBus();
    const published: TaskEvent[] = [];
    bus.subscribe().subscribe((event) => published.push(event));
    const { service } = instance('gw-a', repository, new SettableClock(T0), { bus });
    await service.onApplicationBootstrap();
    expect(published).toEqual([{ taskId: 'mine', id: 1, type: 'task.interrupted', at: T0, data: { reason: 'the gateway stopped while the task was unfinished', status: 'interrupted' } }]);
    await service.beforeApplicationShutdown();
  });

  it('stops a runner whose task another instance interrupted: it adopts the stored end, acts no more and frees the phone', async () => {
    const repository = new InMemoryTaskRepository();
    const clock = new SettableClock(T0);
    const gate = gatedPlanner();
    const { service, phone } = instance('gw-a', repository, clock, { planner: gate.planner });
    const task = await service.start({ deviceId: 'phone-1', goal: 'held' });
    await gate.planning;
    // gw-a stalls past its lease (no renewal ran) and gw-b's sweep ends the task meanwhile.
    const [swept] = await repository.interruptExpired(SWEEP_REASON, after(T0, LEASE_MS));
    expect(swept.taskId).toBe(task.taskId);
    const storedEvents = await repository.listEvents(task.taskId);

    gate.release(tapWifi());
    await service.idle();
    expect(phone.calls.map((c) => c.command.command)).not.toContain('click');
    expect(await service.find(task.taskId)).toEqual(await repository.getTask(task.taskId));
    expect(await repository.getTask(task.taskId)).toMatchObject({ status: 'interrupted', error: { code: 'INTERRUPTED', message: SWEEP_REASON } });
    // Nothing was written after the end: the terminal event is the last one.
    expect(await repository.listEvents(task.taskId)).toEqual(storedEvents);
    expect(storedEvents.at(-1)?.type).toBe('task.interrupted');
    // The phone's lane is free for the next task.
    const next = await service.start({ deviceId: 'phone-1', goal: 'next' });
    expect(next.status).toBe('running');
    await service.idle();
    expect((await repository.getTask(next.taskId))?.status).toBe('completed');
  });

  it('when its own renewals fail, its sweep interrupts its own expired tasks: the runner stops, the queued task leaves its queue', async () => {
    class FailingRenewals extends InMemoryTaskRepository {
      override async renewLeases(): Promise<number> {
        throw new MobileClawError('STORAGE_ERROR', 'the store refuses the renewal');
      }
    }
    const repository = new FailingRenewals();
    const clock = new SettableClock(T0);
    const gate = gatedPlanner();
    const { service, phone } = instance('gw-a', repository, clock, { planner: gate.planner });
    await service.onApplicationBootstrap();
    const held = await service.start({ deviceId: 'phone-1', goal: 'held' });
    await gate.planning;
    const queued = await service.start({ deviceId: 'phone-1', goal: 'queued' });

    clock.set(after(T0, LEASE_MS));
    const interrupted = await service.interruptExpired();
    expect(interrupted.map((t) => t.taskId)).toEqual([held.taskId, queued.taskId]);
    await service.idle();
    for (const taskId of [held.taskId, queued.taskId]) {
      expect(await repository.getTask(taskId)).toMatchObject({ status: 'interrupted', error: { code: 'INTERRUPTED', message: SWEEP_REASON } });
      expect((await repository.listEvents(taskId)).at(-1)?.type).toBe('task.interrupted');
    }
    // The queued task never ran.
    expect(phone.calls.filter((c) => c.command.command === 'screenshot')).toHaveLength(1);
    await service.beforeApplicationShutdown();
  });
});
