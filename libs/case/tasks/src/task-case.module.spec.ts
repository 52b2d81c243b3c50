import { Module, type ValueProvider } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { firstValueFrom, toArray } from 'rxjs';
import { Clock, GATEWAY_INSTANCE_ID, IdSource, MobileClawService, Planner, TaskControlRelay, TaskEventBus, TaskMemory, TaskRepository, type MemoryHit, type MemoryScope, type PlanDecision, type SessionTurn, type Task, type TaskControlHandler, type TaskControlListener, type TaskEvent } from '@mobileclaw/domain';
import { InProcessTaskEventBus } from './in-process-task-event-bus';
import { ScreenSettler, type SettledUi, type UiTreeRead } from './screen-settling';
import { TaskCaseModule } from './task-case.module';
import { TaskService } from './task.service';
import { SettableClock } from '@mobileclaw/domain/testing';
import { InMemoryTaskRepository } from './testing/in-memory-task.repository';
import { ScriptedPhone } from './testing/scripted-phone';
import { SequentialIdSource } from './testing/sequential-id-source';

class DonePlanner extends Planner {
  readonly name = 'done';
  override async plan(): Promise<PlanDecision> {
    return { type: 'done', summary: 'nothing to do', reasoning: 'r' };
  }
}

/** A settler that reads the tree once and calls it settled. */
class OneReadSettler extends ScreenSettler {
  calls = 0;
  override async settle(read: UiTreeRead): Promise<SettledUi> {
    this.calls++;
    return { tree: await read(), settled: true, settleMs: 7 };
  }
}

/** A task memory that recalls nothing and keeps the turns it is given. */
class KeptTurns extends TaskMemory {
  readonly turns: [MemoryScope, string][] = [];
  override async recall(): Promise<MemoryHit[]> {
    return [];
  }
  override record(scope: MemoryScope, turn: SessionTurn): void {
    this.turns.push([scope, turn.text]);
  }
}

/** Builds the module with the required ports, plus `extra` providers from the host. */
async function taskService(extra: ValueProvider[] = [], phone = new ScriptedPhone()): Promise<TaskService> {
  @Module({
    providers: [
      { provide: MobileClawService, useValue: phone },
      { provide: Planner, useClass: DonePlanner },
      { provide: TaskRepository, useValue: new InMemoryTaskRepository() },
      ...extra,
    ],
    exports: [MobileClawService, Planner, TaskRepository, ...extra.map((p) => p.provide)],
  })
  class HostPorts {}
  const moduleRef = await Test.createTestingModule({ imports: [TaskCaseModule.forRoot({ imports: [HostPorts] })] }).compile();
  return moduleRef.get(TaskService);
}

describe('TaskCaseModule', () => {
  it('uses the clock, id source, event bus, instance id and screen settler the host provides', async () => {
    const bus = new InProcessTaskEventBus();
    const onBus: TaskEvent[] = [];
    bus.subscribe().subscribe((event) => onBus.push(event));
    const settler = new OneReadSettler();
    const phone = new ScriptedPhone();
    const service = await taskService(
      [
        { provide: TaskEventBus, useValue: bus },
        { provide: Clock, useValue: new SettableClock('2026-05-01T10:00:00.000Z') },
        { provide: IdSource, useValue: new SequentialIdSource('host-') },
        { provide: GATEWAY_INSTANCE_ID, useValue: 'gw-a' },
        { provide: ScreenSettler, useValue: settler },
      ],
      phone,
    );
    const task = await service.start({ deviceId: 'phone-1', goal: 'nothing' });
    expect(task).toMatchObject({ taskId: 'host-1', createdAt: '2026-05-01T10:00:00.000Z', owner: { instanceId: 'gw-a', leaseExpiresAt: '2026-05-01T10:01:00.000Z' } });
    const events = await firstValueFrom(service.events(task.taskId).pipe(toArray()));
    expect(events.map((e) => e.at)).toEqual(events.map(() => '2026-05-01T10:00:00.000Z'));
    expect(onBus).toEqual(events);
    expect(service.instanceId).toBe('gw-a');
    expect(settler.calls).toBe(1);
    expect(phone.calls.map((c) => c.command.command)).toEqual(['ui_tree', 'screenshot']);
    expect((await service.get(task.taskId)).steps[0].timings.settleMs).toBe(7);
  });

  it('falls back to the system clock, random UUIDs, instance id `local` and settling on two equal trees', async () => {
    const phone = new ScriptedPhone();
    const service = await taskService([], phone);
    const before = Date.now();
    const task = await service.start({ deviceId: 'phone-1', goal: 'nothing' });
    expect(task.taskId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Date.parse(task.createdAt)).toBeGreaterThanOrEqual(before);
    expect(task.owner?.instanceId).toBe('local');
    expect(service.instanceId).toBe('local');
    await service.idle();
    expect(phone.calls.map((c) => c.command.command)).toEqual(['ui_tree', 'ui_tree', 'screenshot']);
  });

  it('gives tasks the TaskMemory the host provides', async () => {
    const memory = new KeptTurns();
    const service = await taskService([{ provide: TaskMemory, useValue: memory }]);
    const task = await service.start({ deviceId: 'phone-1', goal: 'nothing' });
    await firstValueFrom(service.events(task.taskId).pipe(toArray()));
    expect(memory.turns).toEqual([
      ['device:phone-1', 'nothing'],
      ['device:phone-1', 'done: nothing to do'],
      ['device:phone-1', 'task completed: nothing to do'],
    ]);
  });

  it('answers task control through the TaskControlRelay the host provides, from start-up to shutdown', async () => {
    class RecordingRelay extends TaskControlRelay {
      handler?: TaskControlHandler;
      closed = false;
      override async send(): Promise<Task> {
        throw new Error('not used');
      }
      override async listen(handler: TaskControlHandler): Promise<TaskControlListener> {
        this.handler = handler;
        return { close: async () => void (this.closed = true) };
      }
    }
    const relay = new RecordingRelay();
    const service = await taskService([{ provide: TaskControlRelay, useValue: relay }]);
    await service.onApplicationBootstrap();
    await expect(relay.handler!({ op: 'cancel', taskId: 'nope', reason: 'r' })).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
    await service.beforeApplicationShutdown();
    expect(relay.closed).toBe(true);
  });
});
