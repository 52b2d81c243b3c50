import type { AgentAction, TaskEvent, TaskEventType } from '@mobileclaw/domain';
import { TaskProgressLines, describeAction, progressLine } from './task-tools';

const event = (type: TaskEventType, data: Record<string, unknown> = {}): TaskEvent => ({ taskId: 't1', id: 1, type, at: '2026-07-28T10:00:00.000Z', data });

describe('describeAction', () => {
  it.each([
    [{ command: 'click', x: 540, y: 1210 }, 'click (540,1210)'],
    [{ command: 'long_press', x: 1, y: 2, durationMs: 800 }, 'long_press (1,2)'],
    [{ command: 'swipe', x1: 540, y1: 1920, x2: 540, y2: 480 }, 'swipe (540,1920)→(540,480)'],
    [{ command: 'input', text: 'hello "you"' }, 'input "hello \\"you\\""'],
    [{ command: 'open', app: 'com.android.settings' }, 'open com.android.settings'],
    [{ command: 'back' }, 'back'],
    [{ command: 'home' }, 'home'],
  ] as [AgentAction, string][])('describes %j as %s', (action, line) => {
    expect(describeAction(action)).toBe(line);
  });

  it('keeps typed text of 40 characters whole and cuts longer text after 40, counting code points', () => {
    expect(describeAction({ command: 'input', text: 'a'.repeat(40) })).toBe(`input "${'a'.repeat(40)}"`);
    expect(describeAction({ command: 'input', text: 'a'.repeat(41) })).toBe(`input "${'a'.repeat(40)}…"`);
    // 45 emoji are 90 UTF-16 units: the cut keeps 40 whole emoji, never half of one.
    expect(describeAction({ command: 'input', text: '👟'.repeat(45) })).toBe(`input "${'👟'.repeat(40)}…"`);
    expect(describeAction({ command: 'input', text: '👟'.repeat(40) })).toBe(`input "${'👟'.repeat(40)}"`);
  });
});

describe('progressLine', () => {
  it.each([
    [event('task.queued', { queuePosition: 2 }), 'queued behind 2 task(s) on the phone'],
    [event('task.queued'), 'queued behind other task(s) on the phone'],
    [event('task.started'), 'started'],
    [event('step.planned', { index: 0, plan: { type: 'action', action: { command: 'click', x: 10, y: 20 } } }), 'step 1: click (10,20)'],
    [event('step.planned', { index: 4, plan: { type: 'done', summary: 'Wi-Fi is on' } }), 'step 5: goal reached — Wi-Fi is on'],
    [event('step.planned', { index: 4, plan: { type: 'done' } }), 'step 5: goal reached'],
    [event('step.planned', { index: 2, plan: { type: 'fail', reason: 'no such app' } }), 'step 3: giving up — no such app'],
    [event('step.planned', { plan: { type: 'fail' } }), 'step: giving up'],
    [event('step.acted', { index: 0, result: { status: 'success', verified: true } }), 'step 1: success, verified on the next screen'],
    [event('step.acted', { index: 1, result: { status: 'success', verified: false } }), 'step 2: success, not confirmed by the next screen'],
    [event('step.acted', { index: 2, result: { status: 'error', message: 'TIMEOUT' } }), 'step 3: error (TIMEOUT)'],
    [event('step.acted', { index: 3 }), 'step 4: done'],
    [event('task.input_required', { pendingAction: { reason: 'tapping "Pay" spends money' } }), 'waiting for approval: tapping "Pay" spends money'],
    [event('task.input_required'), 'waiting for approval: a sensitive action'],
    [event('task.resumed'), 'approved; resuming'],
  ])('reports %j as %j', (e, line) => {
    expect(progressLine(e)).toBe(line);
  });

  it.each(['task.accepted', 'step.started', 'step.observed', 'step.planning', 'task.completed', 'task.failed', 'task.canceled', 'task.interrupted'] as const)(
    'reports nothing for %s',
    (type) => {
      expect(progressLine(event(type, { index: 0 }))).toBeUndefined();
    },
  );

  it('reports nothing for a plan it does not know', () => {
    expect(progressLine(event('step.planned', { index: 0, plan: { type: 'action' } }))).toBeUndefined();
    expect(progressLine(event('step.planned', { index: 0 }))).toBeUndefined();
  });
});

describe('TaskProgressLines', () => {
  it('leaves out the result of a step that planned done or fail, and of no other step', () => {
    const lines = new TaskProgressLines();
    const events = [
      event('task.started'),
      event('step.planned', { index: 0, plan: { type: 'action', action: { command: 'home' } } }),
      event('step.acted', { index: 0, result: { status: 'success' } }),
      event('step.planned', { index: 1, plan: { type: 'done', summary: 'Wi-Fi is on.' } }),
      event('step.acted', { index: 1, result: { status: 'success' } }),
    ];
    expect(events.map((e) => lines.line(e))).toEqual(['started', 'step 1: home', 'step 1: success', 'step 2: goal reached — Wi-Fi is on.', undefined]);
    const failing = new TaskProgressLines();
    expect(failing.line(event('step.planned', { index: 0, plan: { type: 'fail', reason: 'no such app' } }))).toBe('step 1: giving up — no such app');
    expect(failing.line(event('step.acted', { index: 0, result: { status: 'success' } }))).toBeUndefined();
  });
});
