import type { Command, ScreenshotCommand, UiTreeCommand } from '../commands';
import type { ErrorCode } from '../errors';
import type { ScreenInfo } from '../results';
import type { ToolExecutionMode, ToolKind } from '../tool/tool';
import type { CallerToolSpec, PendingToolCall } from './caller-tool';
import type { PendingToolApproval } from './task-tools';

/**
 * Task model of the agent workflow: a goal run on one phone as observe → plan → act → record
 * steps. Times are ISO-8601 strings; durations are ms; coordinates are device px.
 */
export type TaskStatus =
  | 'queued'
  | 'running'
  | 'input_required'
  | 'completed'
  | 'failed'
  | 'canceled'
  | 'interrupted';

export const TASK_STATUSES: readonly TaskStatus[] = [
  'queued',
  'running',
  'input_required',
  'completed',
  'failed',
  'canceled',
  'interrupted',
];

/** Statuses a task never leaves. */
export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'canceled', 'interrupted'];

export function isTerminalTaskStatus(status: TaskStatus): boolean {
  return TERMINAL_TASK_STATUSES.includes(status);
}

/** The actions an agent may take on a phone: every command but the observing ones, which are the loop's own. */
export type AgentAction = Exclude<Command, ScreenshotCommand | UiTreeCommand>;

export const AGENT_ACTION_NAMES: readonly AgentAction['command'][] = [
  'open',
  'click',
  'long_press',
  'swipe',
  'input',
  'back',
  'home',
];

/** Why an action needs a human's approval before it runs (paying, deleting, messaging a new recipient…). */
export interface ApprovalRequest {
  reason: string;
}

/**
 * What identifies the element an action targeted, as the screen showed it when the step was planned:
 * the element's short class (`type`), own text, content description, best human label, resource id
 * and state, the foreground app's package, and its bounds (`[left, top, right, bottom]`, device px;
 * the last resort for finding it again). Recorded by the task loop from the element list the step was
 * planned on, so that a later run (a learned skill's replay) can find the same element again even where
 * it moved. A password field's text is never part of it (the element list never has it).
 */
export interface ActionTarget {
  type: string;
  text?: string;
  desc?: string;
  label?: string;
  resourceId?: string;
  /** The foreground app's package when the step was planned. */
  package?: string;
  bounds: [number, number, number, number];
  editable?: boolean;
  checkable?: boolean;
  checked?: boolean;
  password?: boolean;
}

/** What a planner decided for one step. */
export type PlanDecision =
  | {
      type: 'action';
      action: AgentAction;
      reasoning: string;
      /** Index of the {@link UiElement} the action targets, when it targets one. */
      elementIndex?: number;
      /** Present when this action must wait for a human's approval. */
      approval?: ApprovalRequest;
      /** What identifies the targeted element on screen; set by the task loop (see {@link ActionTarget}), planners leave it out. */
      target?: ActionTarget;
    }
  | {
      type: 'done';
      summary: string;
      reasoning: string;
      /**
       * The last action's target as the final screen shows it (its text and checked state then), when
       * it is still on screen; set by the task loop, planners leave it out. A learned skill's replay
       * checks its final screen against it.
       */
      evidence?: ActionTarget;
    }
  | { type: 'fail'; reason: string; reasoning: string }
  | {
      /**
       * A call of a tool: one of the caller's tools ({@link Task.tools}), for which the task waits for the
       * caller's answer, or a gateway tool ({@link PlanningContext.gatewayTools}), which the gateway runs at once.
       */
      type: 'tool_call';
      name: string;
      /** The tool's arguments, a JSON object. */
      arguments: Record<string, unknown>;
      reasoning: string;
      /** Set by the task loop (`<taskId>:<stepIndex>`); planners leave it out. */
      toolCallId?: string;
      /** Set by the task loop when the name is a gateway tool's (not the caller's): which tool runs; planners leave it out. */
      gatewayTool?: GatewayToolCallRef;
    };

/** Which gateway tool a `tool_call` step called: its source (`kind:id`), kind and execution mode. */
export interface GatewayToolCallRef {
  source: string;
  kind: ToolKind;
  mode: ToolExecutionMode;
}

/**
 * Code of a task's `error`: the code of whatever ended it — a command error that stopped the loop
 * (`DEVICE_DISCONNECTED`, or the last code after too many failed actions in a row), a store error
 * (`STORAGE_ERROR`), or one of the task outcomes below. All are catalog codes; the outcomes are:
 * - `PLANNER_ERROR`: the planner threw (bad LLM answer after retries, LLM endpoint down, …);
 * - `GOAL_FAILED`: the planner decided the goal cannot be reached (`fail`);
 * - `NO_EFFECT`: an action had no visible effect on the next screen and, planned again, none again; or
 *   the planner declared the goal reached (`done`) right after an action with no visible effect;
 * - `MAX_STEPS`: the step budget ran out;
 * - `APPROVAL_DENIED`: a human denied a pending action;
 * - `TOOL_RESULT_TIMEOUT` never ends a task: it is the result of a tool-call step the caller did not
 *   answer in time (`step.result.errorCode`), and the planner goes on from it;
 * - `CANCELED`: a caller canceled the task;
 * - `INTERRUPTED`: the gateway stopped (or crashed) under it;
 * - `INTERNAL_ERROR`: a bug in the gateway (an unexpected exception); the message says what.
 */
export type TaskErrorCode = ErrorCode;

export interface TaskError {
  code: TaskErrorCode;
  message: string;
}

/**
 * Which gateway instance runs a task, and until when that claim holds. Set when the instance accepts
 * the task and renewed when it starts running it; start-up interrupts only unfinished tasks that it
 * owns, whose lease has expired, or that have no owner (see `TaskRepository.interruptUnfinished`).
 */
export interface TaskOwner {
  /** The owning instance's id (the `GATEWAY_INSTANCE_ID` value). */
  instanceId: string;
  /** ISO-8601. After it, the owner is presumed dead and another instance's start-up may interrupt the task. */
  leaseExpiresAt: string;
}

/** Why a task waits while a person holds its phone (`Task.takeover`). Times are ISO-8601. */
export interface TaskTakeover {
  /** Always `a person took over`: the task waits until the phone is handed back. */
  reason: string;
  /** The holder's display name. */
  holder: string;
  /** When they took the phone. */
  since: string;
}

/** The reason of every {@link TaskTakeover}. */
export const TAKEOVER_REASON = 'a person took over';

/** Who took a step: the agent loop (observe → plan → act), or a person who took the phone over. */
export type StepActor = 'agent' | 'human';

export interface Task {
  taskId: string;
  deviceId: string;
  goal: string;
  /**
   * The caller's conversation this task belongs to (a business system's id, A2A `contextId`):
   * 1–256 printable characters, chosen by the caller, shared by the tasks of one conversation.
   */
  contextId?: string;
  status: TaskStatus;
  /** Step budget; the task fails with `MAX_STEPS` when it runs out. */
  maxSteps: number;
  /** Name of the planner that runs it, e.g. `rule-based` or `llm:qwen-vl-max`. */
  planner: string;
  createdAt: string;
  startedAt?: string;
  endedAt?: string;
  /** The planner's summary, when `completed`. */
  summary?: string;
  /** Why it failed, was canceled or interrupted. */
  error?: TaskError;
  /** 1-based place in the phone's task queue, while `queued`. */
  queuePosition?: number;
  /** The action waiting for approval, while `input_required`. */
  pendingAction?: { stepIndex: number; action: AgentAction; reason: string };
  /**
   * The caller's tools its planner may call (names, descriptions, argument schemas, kinds). Present
   * (even `[]`) when the caller answers tool calls; absent otherwise, and then a tool call is denied.
   */
  tools?: CallerToolSpec[];
  /** The tool call waiting for the caller's answer, while `input_required`. */
  pendingToolCall?: PendingToolCall;
  /**
   * The gateway tool call waiting for a person's approval, while `input_required`: answered like a
   * pending action (`TaskService.approve`); denied, the step ends `denied` and the planner goes on.
   */
  pendingToolApproval?: PendingToolApproval;
  /**
   * Present while a person holds the task's phone: the task is `input_required` (or stays so, when it
   * was waiting for an approval) and its loop waits until they hand the phone back.
   */
  takeover?: TaskTakeover;
  stepCount: number;
  /** The instance that runs it; absent on tasks stored before ownership was recorded. Not shown by the REST API. */
  owner?: TaskOwner;
}

/** What the loop saw before planning a step. */
export interface StepObservation {
  /** The frame the action was planned on (from the `screenshot` result). */
  frameId?: string;
  /**
   * Media type of the step's full-resolution screenshot, e.g. `image/png`; present exactly when one is
   * stored (read it with `TaskRepository.getScreenshot(taskId, index)`; the REST API adds its URL).
   */
  screenshotMime?: string;
  screen: ScreenInfo;
  /** Number of entries in the compact element list the planner got. */
  elementCount: number;
  /** Package of the foreground app, when the UI tree tells. */
  package?: string;
  /**
   * Whether the UI had settled before the screenshot: true when two consecutive UI trees were equal,
   * false when the settle wait ran out while the screen was still changing (it was observed anyway);
   * absent when settling is off.
   */
  settled?: boolean;
}

export interface StepResult {
  status: 'success' | 'error' | 'denied' | 'canceled';
  /**
   * Why the action failed (`error`): the code its command was rejected with, a
   * `CommandErrorCode` by the port's contract; `ABORTED` when it was `canceled` in flight;
   * `TOOL_RESULT_TIMEOUT` when the caller did not answer a tool call in time; a gateway tool's failure
   * code (`TOOL_NOT_FOUND`, `TOOL_FAILED`, `TIMEOUT`, …) when its call failed.
   */
  errorCode?: ErrorCode;
  /** Why it failed or was denied; for a gateway tool's `success`, the result as text. */
  message?: string;
  /** A tool's result (`success` of a `tool_call` step): any JSON value (a gateway tool's `content`). */
  output?: unknown;
  /**
   * For an action: true when the next observation confirms the effect (text present, switch toggled,
   * app opened), false when it contradicts it, absent when it cannot tell. For a gateway tool's
   * `success`: false when its answer shows no sign the tool itself ran (a delegated call answered in
   * prose) — an unverified result; absent when the tool ran the call itself.
   */
  verified?: boolean;
}

/** Phase durations of one step, in ms. */
export interface StepTimings {
  /**
   * Time spent waiting for the UI to settle before the screenshot: the UI trees read meanwhile and the
   * pauses between them. 0 when settling is off; absent on steps stored before it was measured.
   */
  settleMs?: number;
  /**
   * Time the phone spent capturing the screenshot and the UI tree read after it (as it reports); a
   * settled tree used as the observation's tree counts in `settleMs` instead.
   */
  captureMs: number;
  /** Round-trip time of the screenshot (and the tree read after it) minus capture: the wire and the gateway. */
  transferMs: number;
  planningMs: number;
  actionMs: number;
}

export interface TaskStep {
  taskId: string;
  /** 0-based. */
  index: number;
  /**
   * `human` for an action a person took during a takeover: its `plan` holds the action (reasoning
   * `by <holder>`), its observation the screen it was taken on. Absent on the agent's steps (and on
   * steps stored before people could act), which reads as `agent`.
   */
  actor?: StepActor;
  /** The person's display name, on `human` steps. */
  holder?: string;
  startedAt: string;
  endedAt?: string;
  observation?: StepObservation;
  plan?: PlanDecision;
  result?: StepResult;
  timings: StepTimings;
}

/** Every task event type, in the order a run emits them. */
export const TASK_EVENT_TYPES = [
  'task.accepted',
  'task.queued',
  'task.started',
  'step.started',
  'step.observed',
  'step.planning',
  'step.planned',
  'step.acted',
  'task.input_required',
  'task.resumed',
  'task.taken_over',
  'task.handed_back',
  'task.completed',
  'task.failed',
  'task.canceled',
  'task.interrupted',
] as const;

export type TaskEventType = (typeof TASK_EVENT_TYPES)[number];

/** Terminal event types: the event stream of a task ends after one of them. */
export const TERMINAL_TASK_EVENT_TYPES: readonly TaskEventType[] = [
  'task.completed',
  'task.failed',
  'task.canceled',
  'task.interrupted',
];

/** One progress event; `id` increases by one per task, from 1, with no gaps. */
export interface TaskEvent {
  taskId: string;
  id: number;
  type: TaskEventType;
  at: string;
  data: Record<string, unknown>;
}
