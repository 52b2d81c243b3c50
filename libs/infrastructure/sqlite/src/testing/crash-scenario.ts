import type { StoredImage, Task, TaskEventType, TaskRepository, TaskStep } from '@mobileclaw/domain';
import { minutesAfter, stepFixture, taskFixture } from '@mobileclaw/domain/testing';

const T0 = '2026-03-01T10:00:00.000Z';

/** One event as the scenario writes it (ids are the store's). */
interface ScenarioEvent {
  type: TaskEventType;
  data: Record<string, unknown>;
  at: string;
}

const finished = taskFixture({
  taskId: '11111111-1111-4111-8111-111111111111',
  status: 'completed',
  createdAt: T0,
  endedAt: minutesAfter(T0, 1),
  summary: 'Wi-Fi is on',
  stepCount: 2,
});
const running = taskFixture({ taskId: '22222222-2222-4222-8222-222222222222', createdAt: minutesAfter(T0, 2), stepCount: 2 });
const queued = taskFixture({ taskId: '33333333-3333-4333-8333-333333333333', status: 'queued', queuePosition: 1, createdAt: minutesAfter(T0, 3) });

function stepEvents(index: number, at: string): ScenarioEvent[] {
  return [
    { type: 'step.started', data: { index }, at },
    { type: 'step.acted', data: { index, status: 'success' }, at },
  ];
}

/**
 * What the crash test's child writes, shared with the test so that it knows the exact values:
 * a finished task, a running one (two steps, with screenshots) and a queued one written before
 * `ready`; afterwards the child adds step `firstLoopStep`, `firstLoopStep + 1`, … to the running task.
 */
export const crashScenario = {
  finished,
  running,
  queued,
  firstLoopStep: 2,
  finishedEvents: [
    { type: 'task.accepted', data: { status: 'running' }, at: T0 },
    ...stepEvents(0, T0),
    ...stepEvents(1, T0),
    { type: 'task.completed', data: { summary: 'Wi-Fi is on' }, at: minutesAfter(T0, 1) },
  ] as ScenarioEvent[],
  runningEvents: [
    { type: 'task.accepted', data: { status: 'running' }, at: minutesAfter(T0, 2) },
    ...stepEvents(0, minutesAfter(T0, 2)),
    ...stepEvents(1, minutesAfter(T0, 2)),
  ] as ScenarioEvent[],
  queuedEvents: [{ type: 'task.queued', data: { position: 1 }, at: minutesAfter(T0, 3) }] as ScenarioEvent[],

  /** Time of the events of loop step `index`. */
  at(index: number): string {
    return minutesAfter(T0, 10 + index);
  },
  step(index: number): TaskStep {
    return stepFixture(running.taskId, index);
  },
  screenshot(taskId: string, index: number): StoredImage {
    return { mime: 'image/png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, taskId.charCodeAt(0), index, 0, 255]) };
  },

  async writeBeforeReady(repository: TaskRepository): Promise<void> {
    const tasks: [Task, ScenarioEvent[], number][] = [
      [{ ...finished, status: 'running', endedAt: undefined, summary: undefined }, crashScenario.finishedEvents, 2],
      [running, crashScenario.runningEvents, 2],
      [queued, crashScenario.queuedEvents, 0],
    ];
    for (const [task, events, steps] of tasks) {
      await repository.createTask(task);
      for (const event of events) await repository.appendEvent(task.taskId, event.type, event.data, event.at);
      for (let index = 0; index < steps; index++) {
        await repository.saveStep(stepFixture(task.taskId, index));
        await repository.saveScreenshot(task.taskId, index, crashScenario.screenshot(task.taskId, index));
      }
    }
    await repository.updateTask(finished);
  },
};
