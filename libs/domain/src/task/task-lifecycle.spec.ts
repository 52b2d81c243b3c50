import { MobileClawError } from '../errors';
import { TASK_STATUSES, type Task } from './task';
import { TASK_TRANSITIONS, canTransition, transitionTask } from './task-lifecycle';

const T0 = '2026-12-01T10:00:00.000Z';
const T1 = '2026-12-01T10:00:05.000Z';
const T2 = '2026-12-01T10:00:09.000Z';

const queued: Task = {
  taskId: 't-1',
  deviceId: 'd-1',
  goal: 'Turn on Wi-Fi',
  status: 'queued',
  maxSteps: 25,
  planner: 'rule-based',
  createdAt: T0,
  queuePosition: 2,
  stepCount: 0,
};
const pendingAction = { stepIndex: 3, action: { command: 'click' as const, x: 1, y: 2 }, reason: 'pays money' };

describe('task lifecycle', () => {
  it('a task leaves the queue for running once, alternates with input_required, and ends', () => {
    const running = transitionTask(queued, 'running', T1, { owner: { instanceId: 'a', leaseExpiresAt: T2 } });
    expect(running).toEqual({ ...queued, queuePosition: undefined, status: 'running', startedAt: T1, owner: { instanceId: 'a', leaseExpiresAt: T2 } } as Task);
    expect('queuePosition' in running).toBe(false);

    const waiting = transitionTask(running, 'input_required', T1, { pendingAction });
    expect(waiting).toMatchObject({ status: 'input_required', pendingAction, startedAt: T1 });

    const resumed = transitionTask(waiting, 'running', T2);
    expect(resumed.status).toBe('running');
    expect(resumed.startedAt).toBe(T1);
    expect('pendingAction' in resumed).toBe(false);

    const done = transitionTask(resumed, 'completed', T2, { summary: 'Wi-Fi is on.' });
    expect(done).toMatchObject({ status: 'completed', endedAt: T2, summary: 'Wi-Fi is on.', startedAt: T1 });
  });

  it('ending from the queue or from an approval clears what no longer applies', () => {
    const canceled = transitionTask(queued, 'canceled', T1, { error: { code: 'CANCELED', message: 'by a caller' } });
    expect(canceled).toMatchObject({ status: 'canceled', endedAt: T1, error: { code: 'CANCELED', message: 'by a caller' } });
    expect(canceled.startedAt).toBeUndefined();
    expect('queuePosition' in canceled).toBe(false);

    const waiting = transitionTask(transitionTask(queued, 'running', T1), 'input_required', T1, { pendingAction });
    const interrupted = transitionTask(waiting, 'interrupted', T2, { error: { code: 'INTERRUPTED', message: 'gateway stopped' } });
    expect(interrupted).toMatchObject({ status: 'interrupted', endedAt: T2 });
    expect('pendingAction' in interrupted).toBe(false);
  });

  it('never leaves a terminal status, and refuses every transition the table does not list', () => {
    for (const from of TASK_STATUSES) {
      for (const to of TASK_STATUSES) {
        const task: Task = { ...queued, status: from, ...(from === 'input_required' ? { pendingAction } : {}) };
        const changes = to === 'input_required' ? { pendingAction } : {};
        if (canTransition(from, to)) {
          expect(transitionTask(task, to, T1, changes).status).toBe(to);
        } else {
          const error = (() => {
            try {
              transitionTask(task, to, T1, changes);
            } catch (err) {
              return err;
            }
            return undefined;
          })();
          expect(error).toBeInstanceOf(MobileClawError);
          expect(error).toMatchObject({ code: 'TASK_STATE_CONFLICT' });
        }
      }
    }
    expect(Object.entries(TASK_TRANSITIONS).filter(([, to]) => to.length === 0).map(([from]) => from)).toEqual(['completed', 'failed', 'canceled', 'interrupted']);
  });

  it('refuses to wait for approval without a pending action, and leaves its input untouched', () => {
    const running = transitionTask(queued, 'running', T1);
    expect(() => transitionTask(running, 'input_required', T1)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    expect(queued).toMatchObject({ status: 'queued', queuePosition: 2 });
  });

  it('waits on a takeover instead of an approval, and drops it on resuming or ending', () => {
    const takeover = { reason: 'a person took over', holder: 'Ada', since: T1 };
    const running = transitionTask(queued, 'running', T1);
    const held = transitionTask(running, 'input_required', T1, { takeover });
    expect(held).toMatchObject({ status: 'input_required', takeover });
    expect('takeover' in transitionTask(held, 'running', T2)).toBe(false);
    expect(transitionTask(held, 'canceled', T2)).not.toHaveProperty('takeover');
    expect(() => transitionTask(held, 'completed', T2)).toThrow(expect.objectContaining({ code: 'TASK_STATE_CONFLICT' }));
  });

  it("waits on a gateway tool call's approval, and drops it on resuming or ending", () => {
    const pendingToolApproval = { stepIndex: 1, toolCallId: 't:1', name: 'refund_order', arguments: {}, kind: 'ACTION' as const, mode: 'REMOTE_PROXY' as const, source: 'catalog:erp', reason: 'needs approval' };
    const waiting = transitionTask(transitionTask(queued, 'running', T1), 'input_required', T1, { pendingToolApproval });
    expect(waiting).toMatchObject({ status: 'input_required', pendingToolApproval });
    expect('pendingToolApproval' in transitionTask(waiting, 'running', T2)).toBe(false);
    expect(transitionTask(waiting, 'interrupted', T2)).not.toHaveProperty('pendingToolApproval');
  });
});
