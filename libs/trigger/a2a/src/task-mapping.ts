import type { Task, TaskStatus } from '@mobileclaw/domain';
import { Role, TaskState, type Message, type Part, type Task as A2aTask, type TaskStatus as A2aTaskStatus } from './a2a-sdk';

/**
 * How our tasks look to A2A callers. States map one to one: `queued` → SUBMITTED, `running` → WORKING,
 * `input_required` → INPUT_REQUIRED (the pending action, or the pending call of a caller tool, in the
 * status message), `completed`,
 * `failed`, `canceled` as named; `interrupted` (the gateway stopped under the task) → FAILED with the
 * reason. The status message is the agent's: the summary, the error (`CODE: message`), the approval
 * question with a data part `{pendingAction}` — or, for a call of one of the gateway's tools, with a
 * data part `{pendingToolApproval}` —, or `Tool call <name> (<toolCallId>): waiting for the
 * caller's result.` with a data part `{toolCall: {toolCallId, name, arguments, kind?}}`.
 */
export const A2A_STATE_BY_STATUS: Record<TaskStatus, TaskState> = {
  queued: TaskState.TASK_STATE_SUBMITTED,
  running: TaskState.TASK_STATE_WORKING,
  input_required: TaskState.TASK_STATE_INPUT_REQUIRED,
  completed: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  canceled: TaskState.TASK_STATE_CANCELED,
  interrupted: TaskState.TASK_STATE_FAILED,
};

/** Our statuses an A2A state filter (`ListTasks.status`) selects. */
export function statusesOfState(state: TaskState): TaskStatus[] {
  return (Object.keys(A2A_STATE_BY_STATUS) as TaskStatus[]).filter((status) => A2A_STATE_BY_STATUS[status] === state);
}

/** A2A states after which a stream ends: the terminal ones and INPUT_REQUIRED (the caller must answer). */
export function endsStream(state: TaskState): boolean {
  return state !== TaskState.TASK_STATE_SUBMITTED && state !== TaskState.TASK_STATE_WORKING;
}

export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

export function dataPart(value: Record<string, unknown>): Part {
  return { content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' };
}

/** An agent message of a task, e.g. a status message; `messageId` is derived from `key`, so the same status has the same id. */
export function agentMessage(task: Task, key: string, parts: Part[]): Message {
  return { messageId: `${task.taskId}:${key}`, contextId: contextIdOf(task), taskId: task.taskId, role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}

/** The A2A context of a task: its `contextId`, or its own id for tasks created without one. */
export function contextIdOf(task: Task): string {
  return task.contextId ?? task.taskId;
}

/** What a task waiting for the caller's tool result says, in words. */
export function toolCallQuestion(call: NonNullable<Task['pendingToolCall']>): string {
  return `Tool call ${call.name} (${call.toolCallId}): waiting for the caller's result.`;
}

/** The question a task waiting for approval asks, in words. */
export function approvalQuestion(task: Task): string {
  const tool = task.pendingToolApproval;
  if (tool) {
    return `Approval needed for step ${tool.stepIndex}: a call of the ${tool.kind} tool ${tool.name} (${tool.source}) with ${JSON.stringify(tool.arguments)}. Reply "yes" to run it or "no" to skip it, the task going on (or a data part {"approved": true|false}).`;
  }
  const pending = task.pendingAction;
  if (!pending) return 'Approval needed.';
  return `Approval needed for step ${pending.stepIndex} (${pending.action.command}): ${pending.reason}. Reply "yes" to run it or "no" to cancel the task (or a data part {"approved": true|false}).`;
}

export function toA2aStatus(task: Task): A2aTaskStatus {
  const state = A2A_STATE_BY_STATUS[task.status];
  const timestamp = task.endedAt ?? task.startedAt ?? task.createdAt;
  let message: Message | undefined;
  if (task.status === 'input_required' && task.pendingToolCall) {
    const { toolCallId, name, arguments: args, kind } = task.pendingToolCall;
    message = agentMessage(task, `status:input_required:${task.pendingToolCall.stepIndex}`, [textPart(toolCallQuestion(task.pendingToolCall)), dataPart({ toolCall: { toolCallId, name, arguments: args, ...(kind ? { kind } : {}) } })]);
  } else if (task.status === 'input_required' && task.pendingToolApproval) {
    message = agentMessage(task, `status:input_required:${task.pendingToolApproval.stepIndex}`, [textPart(approvalQuestion(task)), dataPart({ pendingToolApproval: task.pendingToolApproval })]);
  } else if (task.status === 'input_required') {
    message = agentMessage(task, `status:input_required:${task.pendingAction?.stepIndex ?? 0}`, [textPart(approvalQuestion(task)), dataPart({ pendingAction: task.pendingAction })]);
  } else if (task.status === 'completed' && task.summary !== undefined) {
    message = agentMessage(task, 'status:completed', [textPart(task.summary)]);
  } else if (task.error) {
    const reason = task.status === 'interrupted' ? `interrupted: ${task.error.message}` : task.error.message;
    message = agentMessage(task, `status:${task.status}`, [textPart(`${task.error.code}: ${reason}`), dataPart({ error: task.error, status: task.status })]);
  }
  return { state, message, timestamp };
}

/** The task as an A2A Task: status, no history or artifacts; `metadata` holds the phone, goal, step count and our status. */
export function toA2aTask(task: Task): A2aTask {
  return {
    id: task.taskId,
    contextId: contextIdOf(task),
    status: toA2aStatus(task),
    artifacts: [],
    history: [],
    metadata: { deviceId: task.deviceId, goal: task.goal, status: task.status, stepCount: task.stepCount, maxSteps: task.maxSteps, createdAt: task.createdAt },
  };
}
