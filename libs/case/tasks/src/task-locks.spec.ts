import { firstValueFrom, toArray } from 'rxjs';
import type { PlanDecision, TaskEvent } from '@mobileclaw/domain';
import { InProcessTaskEventBus } from './in-process-task-event-bus';
import { StableTreeSettler } from './screen-settling';
import { DEFAULT_TASK_CASE_OPTIONS, type TaskCaseOptions } from './task-case.options';
import { TaskService } from './task.service';
import { FakeDeviceTaskLocks } from './testing/fake-device-task-locks';
import { InMemoryTaskRepository } from './testing/in-memory-task.repository';
import { InstantSettleTimer } from './testing/instant-settle-timer';
import { ScriptedPhone } from './testing/scripted-phone';
import { ScriptedPlanner } from './testing/scripted-planner';
import { SequentialIdSource } from './testing/sequential-id-source';

const tapWifi = (): PlanDecision => ({ type: 'action', action: { command: 'click', x: 50, y: 25 }, reasoning: 'tap the Wi-Fi switch', elementIndex: 0 });
const done = (): PlanDecision => ({ type: 'done', summary: 'Wi-Fi is on', reasoning: 'the switch is checked' });

/**
 * Instance `instanceId` of a cluster: its own phone proxy and planner, the store, bus and task locks
 * shared with the other instances given the same ones.
 */
function instance(instanceId: string, shared: { repository: InMemoryTaskRepository; locks: FakeDeviceTaskLocks; bus: InProcessTaskEventBus; phone?: ScriptedPhone }, script = [tapWifi, done]) {
  const all: TaskCaseOptions = { ...DEFAULT_TASK_CASE_OPTIONS };
  const phone = shared.phone ?? new ScriptedPhone();
  const planner = new ScriptedPlanner(script);
  const settler = new StableTreeSettler({ timeoutMs: all.settleTimeoutMs, pollMs: all.settlePollMs }, new InstantSettleTimer());
  const service = new TaskService(
    phone,
    planner,
    shared.repository,
    all,
    undefined,
    new SequentialIdSource(`${instanceId}-task-`),
    shared.bus,
    instanceId,
    settler,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    shared.locks,
  );
  return { service, phone, planner };
}

function cluster() {
  return { repository: new InMemoryTaskRepository(), locks: new FakeDeviceTaskLocks(), bus: new InProcessTaskEventBus(), phone: new ScriptedPhone() };
}

async function finished(service: TaskService, taskId: string): Promise<TaskEvent[]> {
  return firstValueFrom(service.events(taskId).pipe(toArray()));
}

/** A gated action of `phone`: the next action waits until the returned `release` is called. */
function gate(phone: ScriptedPhone): { started: Promise<void>; release: () => void } {
  let release!: () => void;
  phone.gateNextAction = new Promise<void>((resolve) => (release = resolve));
  const started = new Promise<void>((resolve) => (phone.actionStarted = resolve));
  return { started, release };
}

describe('TaskService with cluster-wide task locks (DeviceTaskLocks)', () => {
  it('queues a task for a phone whose lock another instance holds, and starts it only once that task has ended', async () => {
    const shared = cluster();
    const a = instance('gw-a', shared);
    const b = instance('gw-b', shared);
    const held = gate(shared.phone);
    const first = await a.service.start({ deviceId: 'phone-1', goal: 'first' });
    expect(first.status).toBe('running');
    await held.started;

    const second = await b.service.start({ deviceId: 'phone-1', goal: 'second' });
    expect(second).toMatchObject({ status: 'queued', queuePosition: 1, owner: { instanceId: 'gw-b' } });
    expect(b.planner.seen).toHaveLength(0);
    expect(shared.locks.calls).toEqual(['acquire phone-1 gw-a-task-1 → granted', 'acquire phone-1 gw-b-task-1 → held', 'acquire phone-1 gw-b-task-1 → held']);

    held.release();
    const firstEvents = await finished(a.service, first.taskId);
    const secondEvents = await finished(b.service, second.taskId);
    expect(secondEvents.map((e) => e.type).slice(0, 3)).toEqual(['task.accepted', 'task.queued', 'task.started']);
    expect(secondEvents.at(-1)?.type).toBe('task.completed');
    // The second task started after the first released the phone: no step of one overlaps a step of the other.
    const ended = Date.parse(firstEvents.at(-1)!.at);
    const startedAt = Date.parse(secondEvents.find((e) => e.type === 'task.started')!.at);
    expect(startedAt).toBeGreaterThanOrEqual(ended);
    await Promise.all([a.service.idle(), b.service.idle()]);
    expect(shared.locks.calls.slice(3)).toEqual(['release phone-1 gw-a-task-1', 'acquire phone-1 gw-b-task-1 → granted', 'release phone-1 gw-b-task-1']);
    expect(shared.locks.holders.size).toBe(0);
  });

  it("refuses a task with onBusy 'reject' while another instance's task holds the phone: DEVICE_BUSY naming that task and instance, nothing stored", async () => {
    const shared = cluster();
    const b = instance('gw-b', shared);
    shared.locks.holdElsewhere('phone-1', 'gw-a-task-7', 'gw-a');
    await expect(b.service.start({ deviceId: 'phone-1', goal: 'g', onBusy: 'reject' })).rejects.toMatchObject({
      code: 'DEVICE_BUSY',
      message: 'device phone-1 is running task gw-a-task-7 on gateway instance gw-a',
      deviceId: 'phone-1',
    });
    expect(await b.service.count({})).toBe(0);
    // The lane stays free: once the other task ends, a task starts at once.
    await shared.locks.release('phone-1', 'gw-a-task-7');
    const next = await b.service.start({ deviceId: 'phone-1', goal: 'g', onBusy: 'reject' });
    expect(next.status).toBe('running');
    await finished(b.service, next.taskId);
  });

  it('wakes a waiting task when the lock is released elsewhere, and keeps this instance’s queue in order behind it', async () => {
    const shared = cluster();
    const b = instance('gw-b', shared);
    shared.locks.holdElsewhere('phone-1', 'remote-1');
    const t1 = await b.service.start({ deviceId: 'phone-1', goal: 'one' });
    const t2 = await b.service.start({ deviceId: 'phone-1', goal: 'two' });
    expect([t1, t2].map((t) => [t.status, t.queuePosition])).toEqual([
      ['queued', 1],
      ['queued', 2],
    ]);
    await expect(b.service.start({ deviceId: 'phone-1', goal: 'x', onBusy: 'reject' })).rejects.toMatchObject({
      code: 'DEVICE_BUSY',
      message: `device phone-1 has task ${t1.taskId} waiting for it (a task of another gateway instance runs on it)`,
    });
    await shared.locks.release('phone-1', 'remote-1');
    const e1 = await finished(b.service, t1.taskId);
    const e2 = await finished(b.service, t2.taskId);
    expect(e1.at(-1)?.type).toBe('task.completed');
    expect(e2.filter((e) => e.type === 'task.queued').map((e) => e.data.position)).toEqual([2, 1]);
    expect(Date.parse(e2.find((e) => e.type === 'task.started')!.at)).toBeGreaterThanOrEqual(Date.parse(e1.at(-1)!.at));
    await b.service.idle();
    expect(shared.locks.calls.filter((c) => c.includes('granted') || c.startsWith('release'))).toEqual([
      'release phone-1 remote-1',
      'acquire phone-1 gw-b-task-1 → granted',
      'release phone-1 gw-b-task-1',
      'acquire phone-1 gw-b-task-2 → granted',
      'release phone-1 gw-b-task-2',
    ]);
  });

  it('releases the phone at every end: completed, failed, canceled while running, interrupted at shutdown', async () => {
    const shared = cluster();
    const fail = (): PlanDecision => ({ type: 'fail', reason: 'no Wi-Fi switch', reasoning: 'not found' });
    const completed = instance('gw-a', shared, [done]);
    const t1 = await completed.service.start({ deviceId: 'phone-1', goal: 'done' });
    expect((await finished(completed.service, t1.taskId)).at(-1)?.type).toBe('task.completed');

    const failing = instance('gw-b', shared, [fail]);
    const t2 = await failing.service.start({ deviceId: 'phone-1', goal: 'fail' });
    expect((await finished(failing.service, t2.taskId)).at(-1)?.type).toBe('task.failed');

    const canceled = instance('gw-c', shared);
    const held = gate(shared.phone);
    const t3 = await canceled.service.start({ deviceId: 'phone-1', goal: 'cancel' });
    await held.started;
    const stopping = canceled.service.cancel(t3.taskId);
    held.release();
    expect(await stopping).toMatchObject({ status: 'canceled' });

    const shutdown = instance('gw-d', shared);
    const held2 = gate(shared.phone);
    const t4 = await shutdown.service.start({ deviceId: 'phone-1', goal: 'shutdown' });
    await held2.started;
    const closing = shutdown.service.beforeApplicationShutdown();
    held2.release();
    await closing;
    expect((await shutdown.service.find(t4.taskId)).status).toBe('interrupted');

    for (const taskId of [t1.taskId, t2.taskId, t3.taskId, t4.taskId]) expect(shared.locks.calls).toContain(`release phone-1 ${taskId}`);
    expect(shared.locks.holders.size).toBe(0);
  });

  it('releases the phone of a task whose runner crashed', async () => {
    const shared = cluster();
    const a = instance('gw-a', shared, [
      () => {
        throw new Error('planner bug');
      },
    ]);
    const task = await a.service.start({ deviceId: 'phone-1', goal: 'crash' });
    await a.service.idle();
    expect(shared.locks.calls).toContain(`release phone-1 ${task.taskId}`);
    expect(shared.locks.holders.size).toBe(0);
  });

  it('cancels a task waiting for another instance’s task without ever taking the phone', async () => {
    const shared = cluster();
    const b = instance('gw-b', shared);
    shared.locks.holdElsewhere('phone-1', 'remote-1');
    const waiting = await b.service.start({ deviceId: 'phone-1', goal: 'wait' });
    expect(await b.service.cancel(waiting.taskId)).toMatchObject({ status: 'canceled', error: { code: 'CANCELED' } });
    expect((await finished(b.service, waiting.taskId)).map((e) => e.type)).toEqual(['task.accepted', 'task.queued', 'task.canceled']);
    await shared.locks.release('phone-1', 'remote-1');
    await b.service.idle();
    expect(shared.locks.calls.filter((c) => c.includes('granted'))).toEqual([]);
    expect(shared.phone.calls).toEqual([]);
  });

  it('lets a task wait while the locks cannot be reached, and answers STORAGE_ERROR to onBusy reject', async () => {
    const shared = cluster();
    const b = instance('gw-b', shared);
    shared.locks.failing = true;
    await expect(b.service.start({ deviceId: 'phone-1', goal: 'g', onBusy: 'reject' })).rejects.toMatchObject({ code: 'STORAGE_ERROR' });
    const waiting = await b.service.start({ deviceId: 'phone-1', goal: 'g' });
    expect(waiting).toMatchObject({ status: 'queued', queuePosition: 1 });
    await b.service.idle();
    expect(shared.phone.calls).toEqual([]);
    // The storage is back; a release anywhere (or the next sweep tick) lets it try again.
    shared.locks.failing = false;
    shared.locks.holdElsewhere('phone-9', 'remote-9');
    await shared.locks.release('phone-9', 'remote-9');
    expect(b.service['lanes'].get('phone-1')?.waiting).toHaveLength(1);
    b.service['retryLane']('phone-1');
    expect((await finished(b.service, waiting.taskId)).at(-1)?.type).toBe('task.completed');
  });

  it('interrupts a running task whose hold was lost (expired while the storage was out of reach)', async () => {
    const shared = cluster();
    const a = instance('gw-a', shared);
    const held = gate(shared.phone);
    const task = await a.service.start({ deviceId: 'phone-1', goal: 'lost' });
    await held.started;
    shared.locks.loseHold('phone-1', task.taskId, 'not renewed within the TTL', { taskId: 'gw-b-task-1', instanceId: 'gw-b' });
    held.release();
    const events = await finished(a.service, task.taskId);
    expect(events.at(-1)).toMatchObject({ type: 'task.interrupted', data: { reason: 'the task lost its hold on device phone-1: not renewed within the TTL' } });
    // Its release does not free the other task's hold.
    expect(shared.locks.holders.get('phone-1')).toEqual({ taskId: 'gw-b-task-1', instanceId: 'gw-b' });
  });
});
