import { Subject, firstValueFrom, toArray, type Observable } from 'rxjs';
import { TaskEventBus, type PlanDecision, type TaskEvent } from '@mobileclaw/domain';
import { InProcessTaskEventBus } from './in-process-task-event-bus';
import { StableTreeSettler } from './screen-settling';
import { DEFAULT_TASK_CASE_OPTIONS } from './task-case.options';
import { TaskService } from './task.service';
import { InMemoryTaskRepository } from './testing/in-memory-task.repository';
import { InstantSettleTimer } from './testing/instant-settle-timer';
import { ScriptedPhone } from './testing/scripted-phone';
import { ScriptedPlanner } from './testing/scripted-planner';

const tapWifi = (): PlanDecision => ({ type: 'action', action: { command: 'click', x: 50, y: 25 }, reasoning: 'tap the Wi-Fi switch', elementIndex: 0 });
const done = (): PlanDecision => ({ type: 'done', summary: 'Wi-Fi is on', reasoning: 'the switch is checked' });

/** A broker-like bus that loses the events whose ids are in `dropped` and delivers the others twice. */
class LossyBus extends TaskEventBus {
  private readonly inner = new InProcessTaskEventBus();
  readonly delivered: number[] = [];
  /** What {@link resync} emits: the test says when the "link" came back. */
  readonly resyncs = new Subject<void>();
  constructor(private readonly dropped: Set<number>) {
    super();
  }
  override async publish(event: TaskEvent): Promise<void> {
    if (this.dropped.has(event.id)) return;
    this.delivered.push(event.id);
    await this.inner.publish(event);
    await this.inner.publish(structuredClone(event));
  }
  override subscribe(taskId?: string): Observable<TaskEvent> {
    return this.inner.subscribe(taskId);
  }
  override resync(): Observable<void> {
    return this.resyncs.asObservable();
  }
}

function setup(bus: TaskEventBus, planner: ScriptedPlanner) {
  const repository = new InMemoryTaskRepository();
  const settler = new StableTreeSettler({ timeoutMs: DEFAULT_TASK_CASE_OPTIONS.settleTimeoutMs, pollMs: DEFAULT_TASK_CASE_OPTIONS.settlePollMs }, new InstantSettleTimer());
  const service = new TaskService(new ScriptedPhone(), planner, repository, DEFAULT_TASK_CASE_OPTIONS, undefined, undefined, bus, undefined, settler);
  return { repository, service };
}

describe('TaskService.events over a bus that drops and repeats events', () => {
  it('reads the ids the bus skipped from the store and sends each event once, in id order, to the end', async () => {
    // 3–4 and 7 are lost; every other event arrives twice.
    const bus = new LossyBus(new Set([3, 4, 7]));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { repository, service } = setup(
      bus,
      new ScriptedPlanner([
        async () => {
          await gate;
          return tapWifi();
        },
        done,
      ]),
    );
    const task = await service.start({ deviceId: 'phone-1', goal: 'turn on Wi-Fi' });
    // Opened while the task runs: the replay gives ids 1–4, the live part has gaps to fill.
    const streamed = firstValueFrom(service.events(task.taskId).pipe(toArray()));
    release();
    const events = await streamed;
    const stored = await repository.listEvents(task.taskId);
    expect(events).toEqual(stored);
    expect(events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(bus.delivered).toEqual([1, 2, 5, 6, 8, 9, 10, 11]);
  });

  it('resumes after a given id when the event right after it was lost', async () => {
    const bus = new LossyBus(new Set([6]));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let planned!: () => void;
    const planning = new Promise<void>((resolve) => (planned = resolve));
    const { repository, service } = setup(
      bus,
      new ScriptedPlanner([
        async () => {
          planned();
          await gate;
          return tapWifi();
        },
        done,
      ]),
    );
    const task = await service.start({ deviceId: 'phone-1', goal: 'turn on Wi-Fi' });
    await planning;
    const lastSeen = await service.lastEventId(task.taskId);
    const streamed = firstValueFrom(service.events(task.taskId, lastSeen).pipe(toArray()));
    release();
    expect((await streamed).map((e) => e.id)).toEqual((await repository.listEvents(task.taskId, lastSeen)).map((e) => e.id));
    expect(lastSeen).toBe(4);
  });

  it('reads the store when the bus signals a resync, so that a lost terminal event still ends the stream', async () => {
    // The last three events, the task's end among them, are lost; nothing arrives after them.
    const bus = new LossyBus(new Set([9, 10, 11]));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { repository, service } = setup(
      bus,
      new ScriptedPlanner([
        async () => {
          await gate;
          return tapWifi();
        },
        done,
      ]),
    );
    const task = await service.start({ deviceId: 'phone-1', goal: 'turn on Wi-Fi' });
    const events: TaskEvent[] = [];
    let completed = false;
    let sawEight!: () => void;
    const eight = new Promise<void>((resolve) => (sawEight = resolve));
    const ended = new Promise<void>((resolve) =>
      service.events(task.taskId).subscribe({
        next: (e) => {
          events.push(e);
          if (e.id === 8) sawEight();
        },
        complete: () => {
          completed = true;
          resolve();
        },
      }),
    );
    release();
    await service.idle();
    await eight;
    expect(events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(completed).toBe(false);

    bus.resyncs.next();
    await ended;
    expect(events).toEqual(await repository.listEvents(task.taskId));
    expect(events.at(-1)?.type).toBe('task.completed');
  });

  it('goes on with the task when the bus refuses publishes (the store is the record), and streams fill the gap', async () => {
    class RefusingBus extends LossyBus {
      override async publish(event: TaskEvent): Promise<void> {
        if (event.id === 5 || event.id === 11) throw new Error('the cluster link is down');
        await super.publish(event);
      }
    }
    const bus = new RefusingBus(new Set());
    const { repository, service } = setup(bus, new ScriptedPlanner([tapWifi, done]));
    const task = await service.start({ deviceId: 'phone-1', goal: 'turn on Wi-Fi' });
    const streamed = firstValueFrom(service.events(task.taskId, 2).pipe(toArray()));
    await service.idle();
    // The end (11) was refused too: the stream ends once the bus resyncs.
    bus.resyncs.next();
    expect(await streamed).toEqual(await repository.listEvents(task.taskId, 2));
    expect((await repository.getTask(task.taskId))?.status).toBe('completed');
  });
});
