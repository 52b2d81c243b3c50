import { readTaskEvent } from './task-event-mapping';

const ids = { invocationRef: 'inv-1', conversationId: 'c-1' };
const read = (type: string, data: Record<string, unknown> = {}) => readTaskEvent({ id: 7, type, at: '2026-01-01T00:00:00.000Z', data }, ids);

describe('readTaskEvent', () => {
  it('maps queueing, starting, resuming and takeovers to status_changed', () => {
    expect(read('task.queued', { position: 2 })).toEqual({ status: 'queued', event: { ...ids, eventId: 7, type: 'status_changed', status: 'queued', queuePosition: 2 } });
    expect(read('task.started').event).toMatchObject({ type: 'status_changed', status: 'running' });
    expect(read('task.resumed', { stepIndex: 3 }).event).toMatchObject({ type: 'status_changed', status: 'running' });
    expect(read('task.taken_over').event).toMatchObject({ type: 'status_changed', status: 'input_required' });
    expect(read('task.input_required', { status: 'input_required', takeover: { reason: 'a person took over' } })).toMatchObject({ status: 'input_required', event: { type: 'status_changed' } });
    expect(read('task.handed_back').event).toMatchObject({ type: 'status_changed', status: 'running' });
  });

  it('maps the ends: failed (and interrupted) with the catalog code, canceled with the reason', () => {
    expect(read('task.failed', { error: { code: 'MAX_STEPS', message: 'step budget of 3 exhausted' } })).toEqual({ status: 'failed', event: { ...ids, eventId: 7, type: 'failed', error: { code: 'MAX_STEPS', message: 'step budget of 3 exhausted' } } });
    expect(read('task.interrupted', { reason: 'the gateway stopped', status: 'interrupted' })).toEqual({ status: 'interrupted', event: { ...ids, eventId: 7, type: 'failed', error: { code: 'INTERRUPTED', message: 'the gateway stopped' } } });
    expect(read('task.canceled', { error: { code: 'APPROVAL_DENIED', message: 'a human denied the action' } }).event).toEqual({ ...ids, eventId: 7, type: 'canceled', reason: 'a human denied the action' });
  });

  it('keeps a tool call to the SDK: no app event, the call to answer', () => {
    const toolCall = { toolCallId: 't:1', name: 'lookup_order', arguments: { orderId: 'A-17' }, kind: 'OBSERVATION', stepIndex: 1 };
    expect(read('task.input_required', { toolCall })).toEqual({ status: 'input_required', toolCall });
  });

  it('describes failed steps and tool-call plans', () => {
    expect(read('step.acted', { index: 2, result: { status: 'error', errorCode: 'TIMEOUT', message: 'no reply in 10000 ms' } }).event).toMatchObject({ phase: 'acted', stepIndex: 2, description: 'error: no reply in 10000 ms', result: { errorCode: 'TIMEOUT' } });
    expect(read('step.planned', { index: 0, plan: { type: 'tool_call', name: 'lookup_order', arguments: {}, reasoning: 'r' } }).event).toMatchObject({ phase: 'planned', description: 'call lookup_order' });
    expect(read('step.planned', { index: 4, plan: { type: 'fail', reason: 'no such app', reasoning: 'r' } }).event).toMatchObject({ description: 'give up: no such app' });
  });

  it('shows the app nothing for observations, planning attempts and unknown types', () => {
    for (const type of ['step.started', 'step.observed', 'step.planning', 'task.something_new']) expect(read(type)).toEqual({});
  });
});
