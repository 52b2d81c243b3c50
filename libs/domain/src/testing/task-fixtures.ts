import type { Task, TaskStep } from '../task';

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

/** A complete step: observed, planned (tap on the Wi-Fi switch), acted and verified. */
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
    },
    plan: {
      type: 'action',
      action: { command: 'click', x: 964, y: 326 },
      reasoning: 'The Wi-Fi switch is off; tap it. 打开 Wi-Fi 👋',
      elementIndex: 4,
    },
    result: { status: 'success', verified: true },
    timings: { captureMs: 41.5, transferMs: 12.25, planningMs: 3, actionMs: 88 },
    ...overrides,
  };
}
