import { firstValueFrom, shareReplay, toArray } from 'rxjs';
import { MobileClawError, type PlanDecision, type StoredImage, type Task, type TaskEvent, type TaskEventType, type TaskStep } from '@mobileclaw/domain';
import { SettableClock, domainRejection } from '@mobileclaw/domain/testing';
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
const OUTAGE = 'connect ECONNREFUSED 127.0.0.1:5432';
const tapWifi = (): PlanDecision => ({ type: 'action', action: { command: 'click', x: 50, y: 25 }, reasoning: 'tap the Wi-Fi switch', elementIndex: 0 });

/** `ms` after `at` (ISO-8601), as ISO-8601. */
function after(at: string, ms: number): string {
  return new Date(Date.parse(at) + ms).toISOString();
}

/** A store with a fault switch: while {@link down}, every read and write fails with `STORAGE_ERROR`, as a database that stopped. */
class FlakyTaskRepository extends InMemoryTaskRepository {
  down = false;
  /** Tasks whose writes fail with `STORAGE_ERROR` while the rest of the store works. */
  readonly unwritable = new Set<string>();

  override async createTask(task: Task): Promise<void> {
    this.reachable();
    return super.createTask(task);
  }
  override async updateTask(task: Task): Promise<void> {
    this.reachable(task.taskId);
    return super.updateTask(task);
  }
  override async getTask(taskId: string): Promise<Task | undefined> {
    this.reachable();
    return super.getTask(taskId);
  }
  override async saveStep(step: TaskStep): Promise<void> {
    this.reachable();
    return super.saveStep(step);
  }
  override async appendEvent(taskId: string, type: TaskEventType, data: Record<string, unknown>, at?: string): Promise<TaskEvent> {
    this.reachable();
    return super.appendEvent(taskId, type, data, at);
  }
  override async listEvents(taskId: string, afterId?: number): Promise<TaskEvent[]> {
    this.reachable();
    return super.listEvents(taskId, afterId);
  }
  override async saveScreenshot(taskId: string, stepIndex: number, image: StoredImage): Promise<void> {
    this.reachable();
    return super.saveScreenshot(taskId, stepIndex, image);
  }
  override async renewLeases(instanceId: string, leaseExpiresAt: string, taskIds?: readonly string[]): Promise<number> {
    this.reachable();
    return super.renewLeases(instanceId, leaseExpiresAt, taskIds);
  }
  override async interruptExpired(reason: string, at?: string): Promise<Task[]> {
    this.reachable();
    return super.interruptExpired(reason, at);
  }

  private reachable(writtenTaskId?: string): void {
    if (this.down || (writtenTaskId !== undefined && this.unwritable.has(writtenTaskId))) throw new MobileClawError('STORAGE_ERROR', OUTAGE);
  }
}

function instance(repository: FlakyTaskRepository, clock: SettableClock, planner: ScriptedPlanner) {
  const all: TaskCaseOptions = { ...DEFAULT_TASK_CASE_OPTIONS, leaseMs: LEASE_MS };
  const settler = new StableTreeSettler({ timeoutMs: all.settleTimeoutMs, pollMs: all.settlePollMs }, new InstantSettleTimer());
  const bus = new InProcessTaskEventBus();
  const service = new TaskService(new ScriptedPhone(['phone-1', 'phone-2']), planner, repository, all, clock, new SequentialIdSource('gw-a-task-'), bus, 'gw-a', settler);
  return { service, bus };
}

describe('TaskService through a store outage', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'Date', 'performance', 'hrtime'] }));
  afterEach(() => jest.useRealTimers());

  it('stores the end of a task whose runner crashed during the outage once the store takes writes again, and publishes it: its stream ends, cancel says it ended', async () => {
    const repository = new FlakyTaskRepository();
    const clock = new SettableClock(T0);
    const gate = gatedPlanner();
    const { service, bus } = instance(repository, clock, gate.planner);
    await service.onApplicationBootstrap();
    const task = await service.start({ deviceId: 'phone-1', goal: 'held' });
    await gate.planning;
    const events$ = service.events(task.taskId).pipe(shareReplay());
    const stream = firstValueFrom(events$.pipe(toArray()));
    // The stream has read the store (its first event is replayed from it) before the store stops.
    expect((await firstValueFrom(events$)).type).toBe('task.accepted');
    const published: TaskEvent[] = [];
    bus.subscribe(task.taskId).subscribe((event) => published.push(event));

    // The store stops while the task plans: recording the plan fails, and so does recording the failure.
    repository.down = true;
    gate.release(tapWifi());
    await service.idle();
    const failedAt = T0;
    const end = { status: 'failed', endedAt: failedAt, error: { code: 'STORAGE_ERROR', message: OUTAGE } };
    // The gateway answers with the end it knows, not with `running`.
    expect(await service.find(task.taskId)).toMatchObject(end);
    const whileDown = await domainRejection(service.cancel(task.taskId));
    expect(whileDown.code).toBe('TASK_STATE_CONFLICT');
    expect(whileDown.message).toBe(`task ${task.taskId} is already failed`);

    // A renewal tick while the store is still down stores nothing.
    clock.set(after(T0, LEASE_MS / 3));
    await jest.advanceTimersByTimeAsync(LEASE_MS / 3);
    repository.down = false;
    expect(await repository.getTask(task.taskId)).toMatchObject({ status: 'running', owner: { instanceId: 'gw-a', leaseExpiresAt: after(T0, LEASE_MS) } });

    // The store is back: the next tick stores the end and publishes its event.
    await jest.advanceTimersByTimeAsync(LEASE_MS / 3);
    expect(await repository.getTask(task.taskId)).toMatchObject(end);
    const stored = await repository.listEvents(task.taskId);
    const failed = stored.at(-1);
    expect(failed).toEqual({ taskId: task.taskId, id: stored.length, type: 'task.failed', at: after(T0, LEASE_MS / 3), data: { status: 'failed', error: end.error } });
    expect(published.at(-1)).toEqual(failed);
    expect((await stream).at(-1)).toEqual(failed);
    // Stored once: a later tick writes nothing more.
    await jest.advanceTimersByTimeAsync(LEASE_MS / 3);
    expect(await repository.listEvents(task.taskId)).toEqual(stored);
    expect((await domainRejection(service.cancel(task.taskId))).message).toBe(`task ${task.taskId} is already failed`);
    await service.beforeApplicationShutdown();
  });

  it('keeps the end another instance stored meanwhile (its sweep interrupted the task)', async () => {
    const repository = new FlakyTaskRepository();
    const clock = new SettableClock(T0);
    const gate = gatedPlanner();
    const { service } = instance(repository, clock, gate.planner);
    const task = await service.start({ deviceId: 'phone-1', goal: 'held' });
    await gate.planning;
    repository.down = true;
    gate.release(tapWifi());
    await service.idle();
    repository.down = false;
    const [swept] = await repository.interruptExpired(SWEEP_REASON, after(T0, LEASE_MS));
    expect(swept.taskId).toBe(task.taskId);
    const storedEvents = await repository.listEvents(task.taskId);

    expect(await service.recordPendingEnds()).toBe(0);
    expect(await repository.getTask(task.taskId)).toMatchObject({ status: 'interrupted', error: { code: 'INTERRUPTED', message: SWEEP_REASON } });
    expect(await repository.listEvents(task.taskId)).toEqual(storedEvents);
    expect(await service.find(task.taskId)).toMatchObject({ status: 'interrupted' });
  });

  it('renews the tasks it holds also while the store refuses a crashed task\'s end', async () => {
    const repository = new FlakyTaskRepository();
    const clock = new SettableClock(T0);
    const gate = gatedPlanner();
    const { service } = instance(repository, clock, gate.planner);
    const crashed = await service.start({ deviceId: 'phone-1', goal: 'held' });
    await gate.planning;
    repository.down = true;
    gate.release(tapWifi());
    await service.idle();
    repository.down = false;
    // The crashed task's row stays unwritable; the task on the other phone runs on.
    repository.unwritable.add(crashed.taskId);
    const other = gatedPlanner();
    const held = await service.start({ deviceId: 'phone-2', goal: 'held', planner: other.planner });
    await other.planning;

    clock.set(after(T0, LEASE_MS / 3));
    expect(await service.renewLeases()).toBe(1);
    expect((await repository.getTask(held.taskId))?.owner?.leaseExpiresAt).toBe(after(T0, LEASE_MS / 3 + LEASE_MS));
    expect((await repository.getTask(crashed.taskId))?.status).toBe('running');
    repository.unwritable.delete(crashed.taskId);
    expect(await service.recordPendingEnds()).toBe(1);
    expect(await repository.getTask(crashed.taskId)).toMatchObject({ status: 'failed', error: { code: 'STORAGE_ERROR', message: OUTAGE } });

    other.release({ type: 'done', summary: 'done', reasoning: 'r' });
    await service.idle();
    expect((await repository.getTask(held.taskId))?.status).toBe('completed');
  });

  it('renews only the tasks it holds: a task it let go of without storing its end expires and the sweep ends it', async () => {
    const repository = new FlakyTaskRepository();
    const clock = new SettableClock(T0);
    const gate = gatedPlanner();
    const { service, bus } = instance(repository, clock, gate.planner);
    const held = await service.start({ deviceId: 'phone-1', goal: 'held' });
    await gate.planning;
    const queued = await service.start({ deviceId: 'phone-1', goal: 'queued' });
    // Canceling the queued task fails at the store: it has left the queue, but the store still says `queued`.
    repository.down = true;
    expect((await domainRejection(service.cancel(queued.taskId))).code).toBe('STORAGE_ERROR');
    repository.down = false;
    const published: TaskEvent[] = [];
    bus.subscribe(queued.taskId).subscribe((event) => published.push(event));

    clock.set(after(T0, LEASE_MS / 3));
    expect(await service.renewLeases()).toBe(1);
    expect((await repository.getTask(held.taskId))?.owner?.leaseExpiresAt).toBe(after(T0, LEASE_MS / 3 + LEASE_MS));
    expect((await repository.getTask(queued.taskId))?.owner?.leaseExpiresAt).toBe(after(T0, LEASE_MS));

    clock.set(after(T0, LEASE_MS));
    expect((await service.interruptExpired()).map((t) => t.taskId)).toEqual([queued.taskId]);
    expect(await repository.getTask(queued.taskId)).toMatchObject({ status: 'interrupted', error: { code: 'INTERRUPTED', message: SWEEP_REASON } });
    expect(published.map((e) => e.type)).toEqual(['task.interrupted']);
    expect((await repository.getTask(held.taskId))?.status).toBe('running');

    gate.release({ type: 'done', summary: 'done', reasoning: 'r' });
    await service.idle();
    expect((await repository.getTask(held.taskId))?.status).toBe('completed');
  });
});
