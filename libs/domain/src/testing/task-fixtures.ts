import type { Task, TaskRepository, TaskStep } from '../task';

/** `base` plus `minutes`, as an ISO-8601 string. */
export function minutesAfter(base: string, minutes: number): string {
  return new Date(Date.parse(base) + minutes * 60_000).toISOString();
}

/** A plausible task (running on `sim-1`), with `overrides` applied. */
export function taskFixture(overrides: Partial<Task> & Pick<Task, 'taskId'>): Task {
  return {
    deviceId: 'sim-1',
    goal: 'Turn on Wi-Fi',
    status: 'running',
    maxSteps: 25,
    planner: 'rule-based',
    createdAt: '2026-03-01T10:00:00.000Z',
    startedAt: '2026-03-01T10:00:00.250Z',
    stepCount: 0,
    ...overrides,
  };
}

/** A complete step: observed on a settled screen, planned (tap on the Wi-Fi switch), acted and verified. */
export function stepFixture(taskId: string, index: number, overrides: Partial<TaskStep> = {}): TaskStep {
  return {
    taskId,
    index,
    startedAt: `2026-03-01T10:00:0${index % 10}.000Z`,
    endedAt: `2026-03-01T10:00:0${index % 10}.900Z`,
    observation: {
      frameId: `frame-${index}`,
      screenshotMime: 'image/png',
      screen: { width: 1080, height: 2400, densityDpi: 420, rotation: 0 },
      elementCount: 17,
      package: 'com.android.settings',
      settled: true,
    },
    plan: {
      type: 'action',
      action: { command: 'click', x: 964, y: 326 },
      reasoning: 'The Wi-Fi switch is off; tap it. 打开 Wi-Fi 👋',
      elementIndex: 4,
    },
    result: { status: 'success', verified: true },
    timings: { settleMs: 230, captureMs: 41.5, transferMs: 12.25, planningMs: 3, actionMs: 88 },
    ...overrides,
  };
}

/** Ids of the tasks {@link seedRetentionScenario} stores, oldest first where it matters. */
export const RETENTION_SCENARIO_TASK_IDS = ['old-done', 'old-failed', 'old-running', 'old-queued', 'mid-canceled', 'new-interrupted', 'new-done'] as const;

/**
 * Stores seven tasks around `now` for retention tests, each with one step, one event and one PNG
 * screenshot: finished 8 and 6 days ago (`old-done`, `old-failed`), unfinished for 9 days
 * (`old-running`, `old-queued`), finished 3 days, 1 day and 1 s ago (`mid-canceled`,
 * `new-interrupted`, `new-done`).
 */
export async function seedRetentionScenario(repository: TaskRepository, now: Date): Promise<void> {
  const day = 24 * 60 * 60 * 1000;
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const tasks = [
    taskFixture({ taskId: 'old-done', status: 'completed', createdAt: ago(9 * day), endedAt: ago(8 * day) }),
    taskFixture({ taskId: 'old-failed', status: 'failed', createdAt: ago(7 * day), endedAt: ago(6 * day) }),
    taskFixture({ taskId: 'old-running', status: 'running', createdAt: ago(9 * day) }),
    taskFixture({ taskId: 'old-queued', status: 'queued', createdAt: ago(9 * day), queuePosition: 1 }),
    taskFixture({ taskId: 'mid-canceled', status: 'canceled', createdAt: ago(3 * day), endedAt: ago(3 * day - 1000) }),
    taskFixture({ taskId: 'new-interrupted', status: 'interrupted', createdAt: ago(2 * day), endedAt: ago(1 * day) }),
    taskFixture({ taskId: 'new-done', status: 'completed', createdAt: ago(60_000), endedAt: ago(1000) }),
  ];
  for (const task of tasks) {
    await repository.createTask(task);
    await repository.saveStep(stepFixture(task.taskId, 0));
    await repository.appendEvent(task.taskId, 'task.accepted', {});
    await repository.saveScreenshot(task.taskId, 0, { mime: 'image/png', bytes: new Uint8Array([1, 2, 3]) });
  }
}

/**
 * A task paused for approval of a message with CJK text and an emoji, three steps in: the richest
 * shape a task takes (pending action, non-ASCII goal), for round-trip tests of stores.
 */
export function approvalTaskFixture(): Task {
  return taskFixture({
    taskId: '6f1c2a9e-1b7d-4c55-9a51-2f3e4d5c6b7a',
    goal: '给 Alice 发消息 "Hello 世界 👋"',
    status: 'input_required',
    stepCount: 3,
    pendingAction: { stepIndex: 2, action: { command: 'input', text: 'Hello 世界 👋', clear: true }, reason: 'sends a message to a new recipient' },
  });
}
