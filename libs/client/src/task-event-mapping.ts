import type { InvocationEvent, InvocationStatus, PendingGatewayToolCall, PendingPhoneAction, PhoneCommand, StepOutcome } from './events';
import type { PendingToolCallResource, TaskEventRecord } from './gateway-api';

/** Whose event it is: every {@link InvocationEvent} names its invocation and conversation. */
export interface InvocationIds {
  invocationRef: string;
  conversationId: string;
}

/** What one gateway event says about the task's state. */
export interface TaskEventMeaning {
  /** The status the task is in after the event, when the event changes it. */
  status?: InvocationStatus;
  /** With `task.input_required` for an approval. */
  pendingAction?: PendingPhoneAction;
  /** With `task.input_required` for an approval of a gateway tool's call. */
  pendingToolApproval?: PendingGatewayToolCall;
  /** With `task.input_required` for a caller tool call: the SDK answers it itself. */
  toolCall?: PendingToolCallResource;
  /** What the app sees; undefined for events the SDK keeps to itself (observations, planning attempts, tool-call waits). */
  event?: InvocationEvent;
}

/**
 * Reads one gateway task event (`task.*`, `step.*` as `GET /api/tasks/:id/events` sends them) into the
 * state it implies and the {@link InvocationEvent} the app sees. Each gateway event gives at most one
 * app event, carrying its `eventId`.
 */
export function readTaskEvent(record: TaskEventRecord, ids: InvocationIds): TaskEventMeaning {
  const base = { ...ids, eventId: record.id };
  const data = record.data;
  switch (record.type) {
    case 'task.accepted':
      return { event: { ...base, type: 'accepted' } };
    case 'task.queued':
      return withStatus('queued', base, typeof data['position'] === 'number' ? { queuePosition: data['position'] } : {});
    case 'task.started':
    case 'task.resumed':
    case 'task.handed_back':
      return withStatus('running', base);
    case 'task.taken_over':
      return withStatus('input_required', base);
    case 'step.planned':
      return { event: planned(data, base) };
    case 'step.acted':
      return { event: acted(data, base) };
    case 'task.input_required':
      return inputRequired(data, base);
    case 'task.completed':
      return { status: 'completed', event: { ...base, type: 'completed', summary: stringOf(data['summary']) } };
    case 'task.failed':
      return { status: 'failed', event: { ...base, type: 'failed', error: errorOf(data['error'], 'the task failed') } };
    case 'task.interrupted':
      return { status: 'interrupted', event: { ...base, type: 'failed', error: errorOf(data['error'], stringOf(data['reason']) || 'the gateway stopped under the task', 'INTERRUPTED') } };
    case 'task.canceled':
      return { status: 'canceled', event: { ...base, type: 'canceled', reason: errorOf(data['error'], 'canceled').message } };
    default:
      // step.started, step.observed, step.planning and types added later: nothing for the app.
      return {};
  }
}

function withStatus(status: InvocationStatus, base: InvocationIds & { eventId: number }, extra: { queuePosition?: number } = {}): TaskEventMeaning {
  return { status, event: { ...base, type: 'status_changed', status, ...extra } };
}

function planned(data: Record<string, unknown>, base: InvocationIds & { eventId: number }): InvocationEvent {
  const plan = (isObject(data['plan']) ? data['plan'] : {}) as { type?: string; action?: PhoneCommand; reasoning?: string; summary?: string; reason?: string; name?: string };
  const description =
    plan.type === 'done' ? `done: ${plan.summary ?? ''}` : plan.type === 'fail' ? `give up: ${plan.reason ?? ''}` : plan.type === 'tool_call' ? `call ${plan.name ?? 'a tool'}` : (plan.reasoning ?? '');
  return { ...base, type: 'step_progress', stepIndex: numberOf(data['index']), phase: 'planned', description, ...(isObject(plan.action) ? { action: plan.action } : {}) };
}

function acted(data: Record<string, unknown>, base: InvocationIds & { eventId: number }): InvocationEvent {
  const result = (isObject(data['result']) ? data['result'] : { status: 'success' }) as unknown as StepOutcome;
  const description = result.status === 'success' ? 'succeeded' : `${result.status}${result.message ? `: ${result.message}` : ''}`;
  return { ...base, type: 'step_progress', stepIndex: numberOf(data['index']), phase: 'acted', description, result };
}

function inputRequired(data: Record<string, unknown>, base: InvocationIds & { eventId: number }): TaskEventMeaning {
  if (isObject(data['toolCall'])) return { status: 'input_required', toolCall: data['toolCall'] as unknown as PendingToolCallResource };
  if (isObject(data['pendingAction'])) {
    const pendingAction = pendingActionOf(data['pendingAction']);
    return { status: 'input_required', pendingAction, event: { ...base, type: 'input_required', pendingAction, question: questionOf(pendingAction) } };
  }
  if (isObject(data['toolApproval'])) {
    const pendingToolApproval = pendingToolApprovalOf(data['toolApproval']);
    return {
      status: 'input_required',
      pendingToolApproval,
      event: { ...base, type: 'input_required', pendingToolApproval, question: toolApprovalQuestionOf(pendingToolApproval) },
    };
  }
  // A person took the phone over: the task waits for them, not for the app.
  return withStatus('input_required', base);
}

/** The gateway's `pendingAction` `{stepIndex, action, reason}` as the SDK shows it. */
export function pendingActionOf(value: unknown): PendingPhoneAction {
  const raw = value as { stepIndex?: unknown; action?: unknown; reason?: unknown };
  return { stepIndex: numberOf(raw.stepIndex), command: (isObject(raw.action) ? raw.action : { command: 'unknown' }) as PhoneCommand, reason: stringOf(raw.reason) };
}

/** The gateway's `pendingToolApproval` (or the `toolApproval` of its event) as the SDK shows it. */
export function pendingToolApprovalOf(value: unknown): PendingGatewayToolCall {
  const raw = value as Record<string, unknown>;
  return {
    stepIndex: numberOf(raw['stepIndex']),
    toolCallId: stringOf(raw['toolCallId']),
    name: stringOf(raw['name']),
    arguments: (isObject(raw['arguments']) ? raw['arguments'] : {}) as Record<string, unknown>,
    kind: raw['kind'] === 'OBSERVATION' ? 'OBSERVATION' : 'ACTION',
    mode: stringOf(raw['mode']),
    source: stringOf(raw['source']),
    reason: stringOf(raw['reason']),
  };
}

/** e.g. `Approve step 3: call refund_order {"orderId":"A-17"} (catalog:erp)?` */
export function toolApprovalQuestionOf(call: PendingGatewayToolCall): string {
  return `Approve step ${call.stepIndex}: call ${call.name} ${JSON.stringify(call.arguments)} (${call.source})?`;
}

/** e.g. `Approve step 3: click (sends a message to a new recipient)?` */
export function questionOf(action: PendingPhoneAction): string {
  return `Approve step ${action.stepIndex}: ${action.command.command} (${action.reason})?`;
}

function errorOf(value: unknown, fallbackMessage: string, fallbackCode = 'FAILED'): { code: string; message: string } {
  const raw = (isObject(value) ? value : {}) as { code?: unknown; message?: unknown };
  return { code: typeof raw.code === 'string' ? raw.code : fallbackCode, message: typeof raw.message === 'string' ? raw.message : fallbackMessage };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function numberOf(value: unknown): number {
  return typeof value === 'number' ? value : -1;
}
