import { isTerminalTaskStatus, type AgentAction, type PlanDecision, type StepResult, type StepTimings, type Task, type TaskEvent, type TaskStatus } from '@mobileclaw/domain';

/** One line for an action: `click (964, 326)`, `swipe (540, 1800) → (540, 600)`, `type "hello"` (as the live view words it). */
export function describeAction(action: AgentAction): string {
  switch (action.command) {
    case 'click':
      return `click (${action.x}, ${action.y})`;
    case 'long_press':
      return `long press (${action.x}, ${action.y})${action.durationMs !== undefined ? ` for ${action.durationMs} ms` : ''}`;
    case 'swipe':
      return `swipe (${action.x1}, ${action.y1}) → (${action.x2}, ${action.y2})${action.durationMs !== undefined ? ` in ${action.durationMs} ms` : ''}`;
    case 'input':
      return `type ${JSON.stringify(action.text)}${action.clear ? ' (replacing the field)' : ''}`;
    case 'open':
      return `open ${action.app}`;
    case 'back':
      return 'press Back';
    case 'home':
      return 'press Home';
  }
}

/** A finished step as the terminal shows it. */
export interface StepSummary {
  /** 0-based, as the gateway counts; shown from 1. */
  index: number;
  /** The action (`click (964, 326)`), or `done` / `give up` for the planner's last word. */
  description: string;
  /** The planner's reasoning; for `give up`, its reason. */
  reasoning?: string;
  /** `failed`: the action failed, was denied or canceled, or the next screen did not show its effect. */
  outcome: 'ok' | 'failed';
  /** Whether the next screen showed the action's effect; undefined when it could not be told (or there is no next screen). */
  verified?: boolean;
  /** Why the action failed, e.g. `denied`, `DEVICE_ERROR: app not found`. */
  problem?: string;
  /** Phase durations known, in ms. */
  timings: Partial<StepTimings>;
}

/** How a task ended. */
export interface TaskOutcome {
  taskId: string;
  status: TaskStatus;
  summary?: string;
  error?: { code: string; message: string };
  /** Steps taken. */
  steps: number;
  /** From the task's start (or acceptance) to its end, in ms; undefined when the events do not tell. */
  durationMs?: number;
}

/** What changes on the terminal after one event. */
export type ProgressUpdate =
  /** What the task is doing now: the spinner's text. */
  | { kind: 'activity'; text: string }
  /** A step that is over: a line that stays. */
  | { kind: 'step'; step: StepSummary }
  /** A line that stays, about the task rather than a step. */
  | { kind: 'notice'; text: string }
  /** The task waits for a human to approve `action` of step `stepIndex` (0-based). */
  | { kind: 'approval'; taskId: string; stepIndex: number; action: string; reason: string }
  /** The task ended; no update follows. */
  | { kind: 'finished'; outcome: TaskOutcome };

/** What is known of one step while it runs. */
interface StepState {
  index: number;
  plan?: PlanDecision;
  result?: StepResult;
  timings: Partial<StepTimings>;
  /** Acted, waiting for the next observation to judge it. */
  awaitingVerdict: boolean;
  shown: boolean;
}

/**
 * A task's event stream (README, "SSE events") turned into what a terminal shows: a spinner text
 * per phase (observing, planning, acting, checking) and one line per finished step with its action,
 * reasoning, ✓/✗ verdict and timings. A step's verdict comes with the next step's observation
 * (`verifiedStep`), so its line is shown then, or when the task ends. Pure: feed it events in id
 * order, render the updates.
 */
export class TaskProgress {
  private task: Pick<Task, 'taskId' | 'deviceId' | 'goal'> | undefined;
  private readonly steps = new Map<number, StepState>();
  private startedAt: string | undefined;
  private finished = false;

  constructor(readonly taskId: string) {}

  /** True once the terminal event was applied. */
  get isFinished(): boolean {
    return this.finished;
  }

  apply(event: TaskEvent): ProgressUpdate[] {
    const data = event.data;
    const index = typeof data['index'] === 'number' ? data['index'] : -1;
    const step = (): StepState => this.step(index);
    switch (event.type) {
      case 'task.accepted': {
        const task = data['task'] as Task;
        this.task = task;
        this.startedAt = event.at;
        return [
          { kind: 'notice', text: `task ${task.taskId} on ${task.deviceId}: ${JSON.stringify(task.goal)} (planner ${task.planner}, at most ${task.maxSteps} steps)` },
          { kind: 'activity', text: 'waiting to start' },
        ];
      }
      case 'task.queued':
        return [{ kind: 'activity', text: `queued behind the task running on ${this.task?.deviceId ?? 'the phone'} (position ${String(data['position'])})` }];
      case 'task.started':
        this.startedAt = event.at;
        return [{ kind: 'activity', text: 'starting' }];
      case 'step.started':
        step();
        return [{ kind: 'activity', text: `step ${index + 1} · looking at the screen` }];
      case 'step.observed': {
        const updates: ProgressUpdate[] = [];
        const verdict = data['verifiedStep'] as { index: number; verified: boolean } | undefined;
        for (const earlier of this.steps.values()) {
          if (earlier.index >= index || !earlier.awaitingVerdict) continue;
          updates.push(this.show(earlier, verdict?.index === earlier.index ? verdict.verified : undefined));
        }
        Object.assign(step().timings, data['timings']);
        updates.push({ kind: 'activity', text: `step ${index + 1} · planning` });
        return updates;
      }
      case 'step.planning':
        return [{ kind: 'activity', text: `step ${index + 1} · planning (asking the model, attempt ${String(data['attempt'])} of ${String(data['maxAttempts'])})` }];
      case 'step.planned': {
        const current = step();
        current.plan = data['plan'] as PlanDecision;
        current.timings.planningMs = data['planningMs'] as number;
        return current.plan.type === 'action' ? [{ kind: 'activity', text: `step ${index + 1} · ${describeAction(current.plan.action)} · ${current.plan.reasoning}` }] : [];
      }
      case 'task.input_required': {
        // A call of the caller's tool: its caller answers it, not the person at this terminal.
        const toolCall = data['toolCall'] as { name: string; toolCallId: string } | undefined;
        if (toolCall) return [{ kind: 'notice', text: `waiting for the caller's tool ${toolCall.name} (${toolCall.toolCallId})` }];
        // A call of the gateway's tool waiting for a person: asked like an action (denied, only the call is skipped).
        const toolApproval = data['toolApproval'] as { stepIndex: number; name: string; arguments: Record<string, unknown>; source: string; reason: string } | undefined;
        if (toolApproval) {
          return [{ kind: 'approval', taskId: event.taskId, stepIndex: toolApproval.stepIndex, action: `call ${toolApproval.name} ${JSON.stringify(toolApproval.arguments)} (${toolApproval.source})`, reason: toolApproval.reason }];
        }
        const pending = data['pendingAction'] as { stepIndex: number; action: AgentAction; reason: string };
        return [{ kind: 'approval', taskId: event.taskId, stepIndex: pending.stepIndex, action: describeAction(pending.action), reason: pending.reason }];
      }
      case 'task.resumed': {
        const current = this.steps.get(data['stepIndex'] as number);
        if (current?.plan?.type === 'tool_call') return [{ kind: 'notice', text: current.plan.gatewayTool ? `answered: the call of ${current.plan.name}` : `the caller answered ${current.plan.name}` }];
        const action = current?.plan?.type === 'action' ? describeAction(current.plan.action) : 'the action';
        return [{ kind: 'notice', text: `approved: ${action}` }];
      }
      case 'task.taken_over': {
        const takeover = data['takeover'] as { holder: string } | undefined;
        return [{ kind: 'notice', text: `${takeover?.holder ?? 'a person'} took the phone over; the task waits until they hand it back` }];
      }
      case 'task.handed_back':
        return [{ kind: 'notice', text: `${String(data['holder'] ?? 'the person')} handed the phone back` }];
      case 'step.acted': {
        const current = step();
        current.result = data['result'] as StepResult;
        Object.assign(current.timings, data['timings']);
        if (current.plan?.type === 'action' && current.result.status === 'success') {
          current.awaitingVerdict = true;
          return [{ kind: 'activity', text: `step ${index + 1} · ${describeAction(current.plan.action)} · checking the next screen` }];
        }
        // A give-up's reason is also the task's failure message: its line waits for the task's end,
        // so that the reason is shown once.
        if (current.plan?.type === 'fail') return [];
        return [this.show(current, undefined)];
      }
      case 'task.completed':
      case 'task.failed':
      case 'task.canceled':
      case 'task.interrupted': {
        this.finished = true;
        const status = (data['status'] as TaskStatus | undefined) ?? (event.type.slice('task.'.length) as TaskStatus);
        // `task.interrupted` carries its reason alone; the task's error is INTERRUPTED with it.
        const reason = data['reason'];
        const error = (data['error'] as TaskOutcome['error']) ?? (event.type === 'task.interrupted' && typeof reason === 'string' ? { code: 'INTERRUPTED', message: reason } : undefined);
        const updates: ProgressUpdate[] = [...this.steps.values()].filter((s) => !s.shown && (s.awaitingVerdict || s.result || s.plan)).map((s) => this.show(s, undefined, error?.message));
        const summary = data['summary'] as string | undefined;
        const durationMs = this.startedAt ? Date.parse(event.at) - Date.parse(this.startedAt) : undefined;
        updates.push({
          kind: 'finished',
          outcome: {
            taskId: event.taskId,
            status: isTerminalTaskStatus(status) ? status : (event.type.slice('task.'.length) as TaskStatus),
            ...(summary !== undefined ? { summary } : {}),
            ...(error ? { error } : {}),
            steps: this.steps.size,
            ...(durationMs !== undefined && Number.isFinite(durationMs) ? { durationMs } : {}),
          },
        });
        return updates;
      }
    }
  }

  private step(index: number): StepState {
    let state = this.steps.get(index);
    if (!state) {
      state = { index, timings: {}, awaitingVerdict: false, shown: false };
      this.steps.set(index, state);
    }
    return state;
  }

  /**
   * The line of a step that is over.
   * @param told the task's failure message when the task has ended: a give-up whose reason it is
   *   shows the planner's reasoning instead, so that the reason is shown once (on the outcome line).
   */
  private show(state: StepState, verified: boolean | undefined, told?: string): ProgressUpdate {
    state.shown = true;
    state.awaitingVerdict = false;
    const { plan, result } = state;
    const problem =
      result === undefined
        ? plan?.type === 'action'
          ? 'not performed'
          : undefined
        : result.status === 'success'
          ? undefined
        : result.status === 'error'
          ? `${result.errorCode ?? 'failed'}${result.message ? `: ${result.message}` : ''}`
          : result.status === 'canceled'
            ? `canceled${result.message ? `: ${result.message}` : ''}`
            : 'denied';
    const description = !plan ? 'no decision' : plan.type === 'action' ? describeAction(plan.action) : plan.type === 'done' ? 'done' : plan.type === 'tool_call' ? `${plan.gatewayTool ? 'gateway tool' : 'caller tool'} ${plan.name}` : 'give up';
    const reasoning = !plan ? undefined : plan.type === 'fail' && plan.reason !== told ? plan.reason : plan.reasoning;
    const failed = problem !== undefined || verified === false || plan?.type === 'fail';
    return {
      kind: 'step',
      step: {
        index: state.index,
        description,
        ...(reasoning ? { reasoning } : {}),
        outcome: failed ? 'failed' : 'ok',
        ...(verified !== undefined ? { verified } : {}),
        ...(problem ? { problem } : {}),
        timings: { ...state.timings },
      },
    };
  }
}
