import { Module, type ValueProvider } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { firstValueFrom, toArray } from 'rxjs';
import { Clock, GATEWAY_INSTANCE_ID, IdSource, MobileClawService, Planner, TaskEventBus, TaskRepository, type PlanDecision, type TaskEvent } from '@mobileclaw/domain';
import { InProcessTaskEventBus } from './in-process-task-event-bus';
import { TaskCaseModule } from './task-case.module';
import { TaskService } from './task.service';
import { FixedClock } from './testing/fixed-clock';
import { InMemoryTaskRepository } from './testing/in-memory-task.repository';
import { ScriptedPhone } from './testing/scripted-phone';
import { SequentialIdSource } from './testing/sequential-id-source';

class DonePlanner extends Planner {
  readonly name = 'done';
  override async plan(): Promise<PlanDecision> {
    return { type: 'done', summary: 'nothing to do', reasoning: 'r' };
  }
}

/** Builds the module with the required ports, plus `extra` providers from the host. */
async function taskService(extra: ValueProvider[] = []): Promise<TaskService> {
  @Module({
    providers: [
      { provide: MobileClawService, useValue: new ScriptedPhone() },
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
  it('uses the clock, id source, event bus and instance id the host provides', async () => {
    const bus = new InProcessTaskEventBus();
    const onBus: TaskEvent[] = [];
    bus.subscribe().subscribe((event) => onBus.push(event));
    const service = await taskService([
      { provide: TaskEventBus, useValue: bus },
      { provide: Clock, useValue: new FixedClock('2026-05-01T10:00:00.000Z') },
      { provide: IdSource, useValue: new SequentialIdSource('host-') },
      { provide: GATEWAY_INSTANCE_ID, useValue: 'gw-a' },
    ]);
    const task = await service.start({ deviceId: 'phone-1', goal: 'nothing' });
    expect(task).toMatchObject({ taskId: 'host-1', createdAt: '2026-05-01T10:00:00.000Z', owner: { instanceId: 'gw-a', leaseExpiresAt: '2026-05-01T10:10:00.000Z' } });
    const events = await firstValueFrom(service.events(task.taskId).pipe(toArray()));
    expect(events.map((e) => e.at)).toEqual(events.map(() => '2026-05-01T10:00:00.000Z'));
    expect(onBus).toEqual(events);
    expect(service.instanceId).toBe('gw-a');
  });

  it('falls back to the system clock, random UUIDs and instance id `local`', async () => {
    const service = await taskService();
    const before = Date.now();
    const task = await service.start({ deviceId: 'phone-1', goal: 'nothing' });
    expect(task.taskId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Date.parse(task.createdAt)).toBeGreaterThanOrEqual(before);
    expect(task.owner?.instanceId).toBe('local');
    expect(service.instanceId).toBe('local');
    await service.idle();
  });
});
