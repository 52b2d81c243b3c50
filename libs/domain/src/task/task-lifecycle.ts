import { MobileClawError } from '../errors';
import type { Task, TaskStatus } from './task';

/**
 * The statuses a task may move to from each status. A task starts `queued`; `running` and
 * `input_required` alternate while a human decides; the four terminal statuses are never left.
 */
export const TASK_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  queued: ['running', 'failed', 'canceled', 'interrupted'],
  running: ['input_required', 'completed', 'failed', 'canceled', 'interrupted'],
  input_required: ['running', 'failed', 'canceled', 'interrupted'],
  completed: [],
  failed: [],
  canceled: [],
  interrupted: [],
};

/** True when a task in status `from` may move to `to`. */
export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  return TASK_TRANSITIONS[from].includes(to);
}

/** What a transition sets besides the status; `undefined` removes a field. */
export type TaskTransitionChanges = Partial<Pick<Task, 'summary' | 'error' | 'pendingAction' | 'pendingToolCall' | 'pendingToolApproval' | 'owner' | 'takeover'>>;

/**
 * The task after it moves to `to` at `at` (ISO-8601) — the one rule for every status change, used
 * by the task workflow and by stores that change tasks themselves (start-up interruption):
 * - entering `running` the first time sets `startedAt`;
 * - leaving `queued` drops `queuePosition`; leaving `input_required` drops `pendingAction`,
 *   `pendingToolCall`, `pendingToolApproval` and `takeover`;
 * - entering a terminal status sets `endedAt`;
 * - `changes` are applied last (e.g. the `error`, the `summary`, the `pendingAction`, the `owner`).
 * The input is not modified.
 * @throws MobileClawError `TASK_STATE_CONFLICT` when {@link TASK_TRANSITIONS} does not allow it,
 *   `VALIDATION_FAILED` when entering `input_required` with none of `pendingAction`, `pendingToolCall`,
 *   `pendingToolApproval`, `takeover`.
 */
export function transitionTask(task: Task, to: TaskStatus, at: string, changes: TaskTransitionChanges = {}): Task {
  if (!canTransition(task.status, to)) {
    throw new MobileClawError('TASK_STATE_CONFLICT', `task ${task.taskId} is ${task.status}; it cannot become ${to}`);
  }
  const next: Task = { ...task, status: to };
  if (to === 'running' && next.startedAt === undefined) next.startedAt = at;
  if (task.status === 'queued') delete next.queuePosition;
  if (task.status === 'input_required') {
    delete next.pendingAction;
    delete next.pendingToolCall;
    delete next.pendingToolApproval;
    delete next.takeover;
  }
  if (TASK_TRANSITIONS[to].length === 0) {
    next.endedAt = at;
    delete next.queuePosition;
    delete next.pendingAction;
    delete next.pendingToolCall;
    delete next.pendingToolApproval;
    delete next.takeover;
  }
  for (const [key, value] of Object.entries(changes) as [keyof TaskTransitionChanges, unknown][]) {
    if (value === undefined) delete next[key];
    else (next as unknown as Record<string, unknown>)[key] = value;
  }
  if (to === 'input_required' && next.pendingAction === undefined && next.pendingToolCall === undefined && next.pendingToolApproval === undefined && next.takeover === undefined) {
    throw new MobileClawError('VALIDATION_FAILED', `task ${task.taskId} cannot wait without a pending action, a pending tool call, a pending tool approval or a takeover`);
  }
  return next;
}
