import type { RecoveryHint } from './errors';

/**
 * What an invocation reports, as a closed union discriminated by `type`: a `switch (event.type)` with a
 * `default: assertNever(event)` is checked exhaustive by the compiler. Every event carries the
 * `invocationRef` and the `conversationId`; `eventId` is the gateway's event id (per task, from 1)
 * for events that come from the gateway's stream, absent for those the SDK makes itself.
 */
export type InvocationEvent =
  | InvocationAcceptedEvent
  | StatusChangedEvent
  | StepProgressEvent
  | InputRequiredEvent
  | ToolCallRequiresConfirmationEvent
  | CompletedEvent
  | FailedEvent
  | CanceledEvent
  | ProgressUncertainEvent;

/** Statuses of the gateway's task (the same words as its REST API). */
export type InvocationStatus = 'queued' | 'running' | 'input_required' | 'completed' | 'failed' | 'canceled' | 'interrupted';

export const TERMINAL_STATUSES: readonly InvocationStatus[] = ['completed', 'failed', 'canceled', 'interrupted'];

export function isTerminalStatus(status: InvocationStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

interface EventBase {
  invocationRef: string;
  conversationId: string;
  /** The gateway's event id (integer, per task, from 1); absent on events the SDK makes. */
  eventId?: number;
}

/** The gateway accepted the task (its first event). */
export interface InvocationAcceptedEvent extends EventBase {
  type: 'accepted';
}

/** The task moved to `status` (queued behind another task, started, resumed, a person took the phone over or handed it back). */
export interface StatusChangedEvent extends EventBase {
  type: 'status_changed';
  status: InvocationStatus;
  /** 1-based place in the phone's queue, with `queued`. */
  queuePosition?: number;
}

/** A phone action as the gateway describes it: `command` (`click`, `input`, `open`, …) and its parameters (coordinates in device px). */
export interface PhoneCommand {
  command: string;
  [parameter: string]: unknown;
}

/** How a step's action ended. */
export interface StepOutcome {
  status: 'success' | 'error' | 'denied' | 'canceled';
  /** The gateway's code, when the action failed. */
  errorCode?: string;
  message?: string;
  /** True when the next screen confirms the effect, false when it contradicts it, absent when unknown. */
  verified?: boolean;
  /** A tool's result, on a tool call's step (a caller tool's, or a gateway tool's content). */
  output?: unknown;
}

/** One step of the agent loop: `planned` (decided, with the action) or `acted` (the action's outcome). */
export interface StepProgressEvent extends EventBase {
  type: 'step_progress';
  /** 0-based. */
  stepIndex: number;
  phase: 'planned' | 'acted';
  /** What the planner means to do (`planned`) or how it went (`acted`), in words. */
  description: string;
  /** With `planned` when the step acts on the phone. */
  action?: PhoneCommand;
  /** With `acted`. */
  result?: StepOutcome;
}

/** The action waiting for the app's approval. */
export interface PendingPhoneAction {
  /** 0-based. */
  stepIndex: number;
  command: PhoneCommand;
  /** Why it needs approval (paying, deleting, messaging a new recipient…). */
  reason: string;
}

/**
 * The task waits for the app's approval of a sensitive phone action (`pendingAction`) or of a call of one
 * of the gateway's tools (`pendingToolApproval`); exactly one of the two is present. Answer with
 * `client.approve(invocationRef, true|false)`: false cancels the task with `APPROVAL_DENIED` for a phone
 * action, and skips a gateway tool's call (its step ends `denied`, the task goes on).
 */
export interface InputRequiredEvent extends EventBase {
  type: 'input_required';
  pendingAction?: PendingPhoneAction;
  pendingToolApproval?: PendingGatewayToolCall;
  /**
   * The question in words, e.g. `Approve step 3: click (send a message to a new recipient)?` or
   * `Approve step 3: call refund_order {"orderId":"A-17"} (catalog:erp)?`.
   */
  question: string;
}

/** A call of one of the gateway's tools (its registry: business systems, agents, skills) waiting for the app's approval. */
export interface PendingGatewayToolCall {
  /** 0-based. */
  stepIndex: number;
  /** `<task id>:<stepIndex>`: the call runs at most once. */
  toolCallId: string;
  name: string;
  arguments: Record<string, unknown>;
  kind: 'OBSERVATION' | 'ACTION';
  /** How it runs: `REMOTE_PROXY`, `AGENT_SESSION`, `SKILL`, `NATIVE`. */
  mode: string;
  /** Its source, `kind:id`, e.g. `catalog:erp`. */
  source: string;
  /** Why it waits, in words. */
  reason: string;
}

/** An `ACTION` local tool waits for the app's approval handler before it runs. */
export interface ToolCallRequiresConfirmationEvent extends EventBase {
  type: 'tool_call_requires_confirmation';
  toolCallId: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface CompletedEvent extends EventBase {
  type: 'completed';
  /** The planner's summary. */
  summary: string;
}

/** The task failed or was interrupted (the gateway stopped under it): `error.code` is the gateway's catalog code (`GOAL_FAILED`, `MAX_STEPS`, `INTERRUPTED`, …). */
export interface FailedEvent extends EventBase {
  type: 'failed';
  error: { code: string; message: string };
}

/** The task was canceled (by `client.cancel`, or an approval denied). */
export interface CanceledEvent extends EventBase {
  type: 'canceled';
  reason: string;
}

/**
 * The SDK could not establish what happened. `hint` says what is safe: `QUERY_LATER_DO_NOT_REINVOKE`
 * (the task exists; ask later) or `RESEND_WITH_SAME_IDEMPOTENCY_KEY` (creation was never acknowledged;
 * invoke again with this `idempotencyKey` and the same content). Always the last event of its iteration.
 */
export interface ProgressUncertainEvent extends EventBase {
  type: 'progress_uncertain';
  hint: RecoveryHint;
  idempotencyKey: string;
  /** The last failure, in words. */
  cause: string;
}

/** The invocation's state as the gateway last reported it. */
export interface InvocationState {
  invocationRef: string;
  conversationId: string;
  status: InvocationStatus;
  /** With `completed`. */
  summary?: string;
  /** With `failed`, `canceled`, `interrupted`. */
  error?: { code: string; message: string };
  /** With `input_required` for an approval. */
  pendingAction?: PendingPhoneAction;
  /** With `input_required` for an approval of a gateway tool's call. */
  pendingToolApproval?: PendingGatewayToolCall;
  /** Steps taken so far. */
  stepCount: number;
  /** The gateway's task id, for debugging only: everything the app does takes the `invocationRef`. */
  taskRef?: string;
}

/** What `BLOCKING` resolves with: the state once terminal, or once it waits for the app's approval (`input_required` with `pendingAction` or `pendingToolApproval`). */
export type InvocationResult = InvocationState;

/** What `ASYNC` resolves with once the gateway accepted the task. */
export interface InvocationAccepted {
  invocationRef: string;
  conversationId: string;
  idempotencyKey: string;
  /** `queued` or `running` (or later, when a re-sent creation found the task already going). */
  status: InvocationStatus;
  /** 1-based place in the phone's queue, with `queued`. */
  queuePosition?: number;
}

/**
 * For the `default` branch of an exhaustive `switch` over {@link InvocationEvent}: does not compile
 * while a member is unhandled. @throws Error at run time when reached with a value the union lacks.
 */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}

