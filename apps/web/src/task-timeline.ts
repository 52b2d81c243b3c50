import type {
  PendingAction,
  PlanDecision,
  StepObservation,
  StepResult,
  StepTimings,
  Task,
  TaskEvent,
  TaskStatus,
  TaskStep,
  TaskWithSteps,
} from './api-types.js';
import { isTerminalStatus } from './api-types.js';

/** What the page knows of one step; fields fill in as `step.*` events arrive. */
export interface StepState {
  /** 0-based. */
  index: number;
  /** `human` for an action a person took during a takeover; absent for the agent's steps. */
  actor?: 'agent' | 'human';
  /** The person's display name, on `human` steps. */
  holder?: string;
  startedAt?: string;
  observation?: StepObservation;
  plan?: PlanDecision;
  /** The model answer the planner last asked for (`step.planning`), while it plans. */
  planning?: { attempt: number; maxAttempts: number };
  result?: StepResult;
  /** Phase durations known so far, ms. */
  timings: Partial<StepTimings>;
}

/** Outcome of {@link TaskTimeline.apply}. */
export type ApplyOutcome =
  /** The event was the next one (`lastEventId + 1`) and is now part of the timeline. */
  | 'applied'
  /** Already applied (id ≤ `lastEventId`): ignored, so a replay never renders anything twice. */
  | 'duplicate'
  /** An id was skipped: not applied; the caller must resume the stream after `lastEventId`. */
  | 'gap';

/**
 * The state of one task as the page shows it: the task, its steps keyed by index, and the id of the
 * last event applied. Built from a `GET /api/tasks/:id` snapshot and/or the task's event stream, in
 * any overlap: every update only adds what it carries, so replaying events over a newer snapshot
 * ends in the same state (a terminal status is never left).
 */
export class TaskTimeline {
  private taskState: Task | undefined;
  private readonly stepStates = new Map<number, StepState>();
  private readonly appliedEvents: TaskEvent[] = [];

  constructor(readonly taskId: string) {}

  /** The task as last known; undefined until a snapshot or `task.accepted` arrives. */
  get task(): Task | undefined {
    return this.taskState;
  }

  get status(): TaskStatus | undefined {
    return this.taskState?.status;
  }

  /** Id of the last event applied; 0 before any. Resume the stream after it. */
  get lastEventId(): number {
    return this.appliedEvents.length;
  }

  /** Every event applied, in id order (ids 1…lastEventId). */
  get events(): readonly TaskEvent[] {
    return this.appliedEvents;
  }

  /** Steps ordered by index. */
  get steps(): StepState[] {
    return [...this.stepStates.values()].sort((a, b) => a.index - b.index);
  }

  step(index: number): StepState | undefined {
    return this.stepStates.get(index);
  }

  /** Merges a `GET /api/tasks/:id` answer. Returns the indexes of the steps it touched. */
  loadSnapshot(snapshot: TaskWithSteps): number[] {
    const { steps, ...task } = snapshot;
    this.mergeTask(task);
    for (const step of steps) this.mergeStep(step);
    return steps.map((s) => s.index);
  }

  /**
   * Applies the next event of the stream. Returns which step indexes changed through `changedSteps`.
   * Events must come in id order; see {@link ApplyOutcome}.
   */
  apply(event: TaskEvent, changedSteps: number[] = []): ApplyOutcome {
    if (event.id <= this.lastEventId) return 'duplicate';
    if (event.id !== this.lastEventId + 1) return 'gap';
    this.appliedEvents.push(event);
    const data = event.data;
    const index = typeof data['index'] === 'number' ? data['index'] : undefined;
    switch (event.type) {
      case 'task.accepted':
        // The task as it was accepted: fills in what is not known yet, never overrides a snapshot.
        if (data['task']) this.taskState = { ...(data['task'] as Task), ...this.taskState };
        break;
      case 'task.queued':
        this.setStatus('queued', { queuePosition: typeof data['position'] === 'number' ? data['position'] : undefined });
        break;
      case 'task.started':
        this.setStatus('running', { startedAt: this.taskState?.startedAt ?? event.at });
        break;
      case 'task.resumed':
        this.setStatus('running', { pendingAction: undefined, pendingToolCall: undefined, pendingToolApproval: undefined });
        break;
      case 'task.input_required':
        // An approval carries `pendingAction` (or `toolApproval`, a gateway tool's call); a call of the caller's tool carries `toolCall`.
        this.setStatus('input_required', {
          pendingAction: data['pendingAction'] as PendingAction | undefined,
          pendingToolCall: data['toolCall'] as Task['pendingToolCall'],
          pendingToolApproval: data['toolApproval'] as Task['pendingToolApproval'],
        });
        break;
      case 'task.completed':
        this.setStatus('completed', { summary: data['summary'] as string | undefined, endedAt: event.at, pendingAction: undefined, pendingToolCall: undefined, pendingToolApproval: undefined });
        break;
      case 'task.failed':
      case 'task.canceled':
      case 'task.interrupted': {
        const status = event.type.slice('task.'.length) as TaskStatus;
        const error = (data['error'] as Task['error']) ?? (typeof data['reason'] === 'string' ? { code: 'INTERRUPTED', message: data['reason'] } : undefined);
        this.setStatus(status, { error, endedAt: event.at, pendingAction: undefined, pendingToolCall: undefined, pendingToolApproval: undefined });
        break;
      }
      case 'task.taken_over':
        this.setStatus((data['status'] as TaskStatus | undefined) ?? 'input_required', { takeover: data['takeover'] as Task['takeover'] });
        break;
      case 'task.handed_back':
        this.setStatus((data['status'] as TaskStatus | undefined) ?? 'running', { takeover: undefined });
        break;
      case 'step.started':
        if (index !== undefined) this.mergeStep({ index, startedAt: event.at, ...actorOf(data) });
        break;
      case 'step.observed': {
        if (index === undefined) break;
        this.mergeStep({ index, observation: data['observation'] as StepObservation, timings: data['timings'] as Partial<StepTimings> });
        const verified = data['verifiedStep'] as { index: number; verified: boolean } | undefined;
        if (verified) {
          this.mergeStep({ index: verified.index, result: { verified: verified.verified } });
          changedSteps.push(verified.index);
        }
        break;
      }
      case 'step.planning': {
        const attempt = data['attempt'];
        const maxAttempts = data['maxAttempts'];
        if (index !== undefined && typeof attempt === 'number' && typeof maxAttempts === 'number') this.mergeStep({ index, planning: { attempt, maxAttempts } });
        break;
      }
      case 'step.planned':
        if (index !== undefined) this.mergeStep({ index, plan: data['plan'] as PlanDecision, timings: typeof data['planningMs'] === 'number' ? { planningMs: data['planningMs'] } : undefined });
        break;
      case 'step.acted':
        if (index !== undefined) this.mergeStep({ index, result: data['result'] as StepResult, timings: data['timings'] as Partial<StepTimings> });
        break;
    }
    if (index !== undefined) {
      changedSteps.push(index);
      if (this.taskState && index + 1 > this.taskState.stepCount) this.taskState = { ...this.taskState, stepCount: index + 1 };
    }
    return 'applied';
  }

  /** A snapshot is the newest picture: it wins, except that a terminal status is never left. */
  private mergeTask(task: Task): void {
    const current = this.taskState;
    if (current && isTerminalStatus(current.status) && !isTerminalStatus(task.status)) return;
    this.taskState = { ...task, stepCount: Math.max(task.stepCount, current?.stepCount ?? 0) };
  }

  private setStatus(status: TaskStatus, fields: Partial<Task>): void {
    const current = this.taskState;
    if (!current) return;
    if (isTerminalStatus(current.status)) return;
    const next: Task = { ...current, status };
    for (const [key, value] of Object.entries(fields) as [keyof Task, unknown][]) {
      if (value === undefined) delete next[key];
      else (next as unknown as Record<string, unknown>)[key] = value;
    }
    this.taskState = next;
  }

  /** Adds what `update` carries to the step; `result.verified` and timings merge field by field. */
  private mergeStep(update: { index: number; actor?: StepState['actor']; holder?: string; startedAt?: string; observation?: StepObservation; planning?: StepState['planning']; plan?: PlanDecision; result?: Partial<StepResult>; timings?: Partial<StepTimings> } | TaskStep): void {
    const current = this.stepStates.get(update.index) ?? { index: update.index, timings: {} };
    const next: StepState = { ...current, timings: { ...current.timings, ...update.timings } };
    if (update.startedAt) next.startedAt = update.startedAt;
    if (update.actor) next.actor = update.actor;
    if (update.holder) next.holder = update.holder;
    if (update.observation) next.observation = update.observation;
    if ('planning' in update && update.planning) next.planning = update.planning;
    if (update.plan) next.plan = update.plan;
    if (update.result) {
      const merged = { ...current.result, ...update.result } as StepResult;
      // A later `step.acted` replay carries no `verified`: keep the one already known.
      if (merged.verified === undefined && current.result?.verified !== undefined) merged.verified = current.result.verified;
      next.result = merged;
    }
    this.stepStates.set(update.index, next);
  }
}

/** The `actor` and `holder` a step event carries (a person's step), or nothing (the agent's). */
function actorOf(data: Record<string, unknown>): Pick<StepState, 'actor' | 'holder'> {
  return data['actor'] === 'human' ? { actor: 'human', ...(typeof data['holder'] === 'string' ? { holder: data['holder'] } : {}) } : {};
}
