import type { Task, TaskEvent } from '@mobileclaw/domain';
import { TaskState } from './a2a-sdk';
import { toA2aStatus } from './task-mapping';
import { isStopEvent } from './task-updates';

const base: Task = { taskId: 't1', deviceId: 'sim-1', goal: 'g', status: 'running', maxSteps: 25, planner: 'rule-based', createdAt: '2026-05-01T10:00:00.000Z', stepCount: 1 };
const toolCall = { stepIndex: 2, toolCallId: 't1:2', name: 'lookup_order', arguments: { orderId: 'A-17' }, kind: 'OBSERVATION' as const };
const event = (data: Record<string, unknown>): TaskEvent => ({ taskId: 't1', id: 5, type: 'task.input_required', at: base.createdAt, data });

describe('A2A stops and status messages for caller tool calls', () => {
  it('stops at the tool call the task waits on now, not at an answered one nor at an approval event', () => {
    const waiting: Task = { ...base, status: 'input_required', pendingToolCall: toolCall };
    expect(isStopEvent(event({ toolCall: { ...toolCall, stepIndex: 2 } }), waiting)).toBe(true);
    expect(isStopEvent(event({ toolCall: { ...toolCall, stepIndex: 0 } }), waiting)).toBe(false);
    expect(isStopEvent(event({ pendingAction: { stepIndex: 2 } }), waiting)).toBe(false);
    const approving: Task = { ...base, status: 'input_required', pendingAction: { stepIndex: 3, action: { command: 'back' }, reason: 'r' } };
    expect(isStopEvent(event({ toolCall }), approving)).toBe(false);
    expect(isStopEvent(event({ pendingAction: { stepIndex: 3 } }), approving)).toBe(true);
    expect(isStopEvent(event({ toolCall }), { ...base, status: 'running' })).toBe(false);
  });

  it('shows the pending tool call in the INPUT_REQUIRED status message: text and a data part {toolCall}', () => {
    const status = toA2aStatus({ ...base, status: 'input_required', pendingToolCall: toolCall });
    expect(status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(status.message?.messageId).toBe('t1:status:input_required:2');
    expect(status.message?.parts.map((part) => part.content?.value)).toStrictEqual([
      'Tool call lookup_order (t1:2): waiting for the caller\'s result.',
      { toolCall: { toolCallId: 't1:2', name: 'lookup_order', arguments: { orderId: 'A-17' }, kind: 'OBSERVATION' } },
    ]);
  });

  it("stops at a gateway tool call's approval and asks for it with a data part {pendingToolApproval}", () => {
    const pendingToolApproval = {
      stepIndex: 4,
      toolCallId: 't1:4',
      name: 'refund_order',
      arguments: { orderId: 'A-17' },
      kind: 'ACTION' as const,
      mode: 'REMOTE_PROXY' as const,
      source: 'catalog:erp',
      reason: 'ACTION tool refund_order (catalog:erp) runs only once a person approves it',
    };
    const approving: Task = { ...base, status: 'input_required', pendingToolApproval };
    expect(isStopEvent(event({ toolApproval: pendingToolApproval }), approving)).toBe(true);
    expect(isStopEvent(event({ toolApproval: { ...pendingToolApproval, stepIndex: 1 } }), approving)).toBe(false);
    expect(isStopEvent(event({ pendingAction: { stepIndex: 4 } }), approving)).toBe(false);
    const status = toA2aStatus(approving);
    expect(status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(status.message?.messageId).toBe('t1:status:input_required:4');
    expect(status.message?.parts.map((part) => part.content?.value)).toStrictEqual([
      'Approval needed for step 4: a call of the ACTION tool refund_order (catalog:erp) with {"orderId":"A-17"}. Reply "yes" to run it or "no" to skip it, the task going on (or a data part {"approved": true|false}).',
      { pendingToolApproval },
    ]);
  });
});
