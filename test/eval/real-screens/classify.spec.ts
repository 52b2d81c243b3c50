import type { AgentAction, PlanDecision, StepResult, TaskStatus, TaskStep } from '@mobileclaw/domain';
import { classifyRun, describeSent, firstSentAction, type ElementBounds, type RealScreenRun } from './classify';
import { failsSafely, firstAction, inScope, NO_ACTION, tapAny, type ScreenBounds } from './expectation';

const ROW: ScreenBounds = [0, 558, 1080, 720];
const SWITCH: ScreenBounds = [882, 573, 1036, 705];
const OTHER: ScreenBounds = [0, 720, 1080, 935];
/** The element list the planner saw: [0] the row, [1] its switch, [2] another row. */
const ELEMENTS: ElementBounds = (index) => [ROW, SWITCH, OTHER][index];

const click = (x: number, y: number): AgentAction => ({ command: 'click', x, y });

function step(index: number, plan: PlanDecision, result?: StepResult): TaskStep {
  return {
    taskId: 't-1',
    index,
    startedAt: '2026-01-01T00:00:00.000Z',
    plan,
    ...(result === undefined ? {} : { result }),
    timings: { captureMs: 1, transferMs: 1, planningMs: 1, actionMs: 1 },
  };
}

function acted(action: AgentAction, elementIndex?: number, status: StepResult['status'] = 'success'): TaskStep {
  const plan: PlanDecision = elementIndex === undefined ? { type: 'action', action, reasoning: 'r' } : { type: 'action', action, reasoning: 'r', elementIndex };
  return step(0, plan, { status });
}

const failed = (index: number): TaskStep => step(index, { type: 'fail', reason: 'cannot', reasoning: 'r' });
const done = (index: number): TaskStep => step(index, { type: 'done', summary: 'done', reasoning: 'r' });

/** A run that sent `action` (planned on `elementIndex`) and ended `status`. */
function ranAction(action: AgentAction, status: TaskStatus, elementIndex?: number): RealScreenRun {
  return { status, steps: [acted(action, elementIndex), status === 'completed' ? done(1) : failed(1)], received: [action] };
}

const noAction = (status: TaskStatus): RealScreenRun => ({ status, steps: [status === 'completed' ? done(0) : failed(0)], received: [] });

describe('classifyRun: a goal with an expected first action', () => {
  const expect_ = tapAny(ROW, SWITCH);

  it('is a success when the tap lands inside an expected element and the task does not claim success', () => {
    expect(classifyRun(expect_, ranAction(click(540, 639), 'failed', 0), ELEMENTS)).toEqual({
      outcome: 'success',
      reason: 'sent click (540,639) on element [0] [0,558,1080,720] as expected, then ended failed',
      firstAction: { action: click(540, 639), elementIndex: 0 },
    });
    expect(classifyRun(expect_, ranAction(click(959, 639), 'failed', 1), ELEMENTS).outcome).toBe('success');
    // Without an element index, the point alone decides.
    expect(classifyRun(expect_, ranAction(click(1, 558), 'canceled'), ELEMENTS).outcome).toBe('success');
  });

  it('is a wrong action when the tap lands outside every expected element', () => {
    expect(classifyRun(expect_, ranAction(click(540, 800), 'failed', 2), ELEMENTS)).toEqual({
      outcome: 'wrong_action',
      reason:
        'sent click (540,800) on element [2] [0,720,1080,935]; expected click in [0,558,1080,720] or click in [882,573,1036,705] ' +
        '((540,800) is outside [0,558,1080,720]; (540,800) is outside [882,573,1036,705])',
      firstAction: { action: click(540, 800), elementIndex: 2 },
    });
    // Right and bottom edges are exclusive.
    expect(classifyRun(tapAny(SWITCH), ranAction(click(1036, 600), 'failed'), ELEMENTS).outcome).toBe('wrong_action');
    expect(classifyRun(tapAny(SWITCH), ranAction(click(900, 705), 'failed'), ELEMENTS).outcome).toBe('wrong_action');
  });

  it('is a wrong action when the named element is not the expected one, even if the point is inside', () => {
    // The switch's point lies inside the row too, but only the switch was named: the row alone is expected.
    expect(classifyRun(tapAny(ROW), ranAction(click(959, 639), 'failed', 1), ELEMENTS)).toMatchObject({
      outcome: 'wrong_action',
      reason: expect.stringContaining('element [1] is [882,573,1036,705], not [0,558,1080,720]'),
    });
    expect(classifyRun(tapAny(ROW), ranAction(click(540, 639), 'failed', 7), ELEMENTS)).toMatchObject({
      outcome: 'wrong_action',
      reason: expect.stringContaining('element [7] is not in the element list'),
    });
  });

  it('is a wrong action when another command is sent', () => {
    const open: AgentAction = { command: 'open', app: 'com.android.settings' };
    expect(classifyRun(expect_, ranAction(open, 'failed'), ELEMENTS)).toMatchObject({
      outcome: 'wrong_action',
      reason: 'sent open com.android.settings; expected click in [0,558,1080,720] or click in [882,573,1036,705] (the command is open)',
    });
    expect(classifyRun(expect_, ranAction({ command: 'home' }, 'failed'), ELEMENTS).outcome).toBe('wrong_action');
    expect(classifyRun(expect_, ranAction({ command: 'long_press', x: 540, y: 639 }, 'failed'), ELEMENTS).outcome).toBe('wrong_action');
  });

  it('is a wrong action when the right action is followed by `completed`: the effect was never confirmed', () => {
    expect(classifyRun(expect_, ranAction(click(540, 639), 'completed', 0), ELEMENTS)).toEqual({
      outcome: 'wrong_action',
      reason: 'sent click (540,639) on element [0] [0,558,1080,720], then ended completed: the recorded screen never changes, so the effect was never confirmed',
      firstAction: { action: click(540, 639), elementIndex: 0 },
    });
  });

  it('is a safe failure when the task fails or stops without acting, and a wrong action when it claims success without acting', () => {
    expect(classifyRun(expect_, noAction('failed'), ELEMENTS)).toEqual({
      outcome: 'safe_failure',
      reason: 'ended failed without acting; expected click in [0,558,1080,720] or click in [882,573,1036,705]',
    });
    expect(classifyRun(expect_, noAction('canceled'), ELEMENTS).outcome).toBe('safe_failure');
    expect(classifyRun(expect_, noAction('completed'), ELEMENTS)).toEqual({
      outcome: 'wrong_action',
      reason: 'ended completed without acting; expected click in [0,558,1080,720] or click in [882,573,1036,705]',
    });
  });

  it('matches open by package, and swipe, back and home by command alone', () => {
    const launch = firstAction({ command: 'click', bounds: ROW }, { command: 'open', app: 'com.android.chrome' });
    expect(classifyRun(launch, ranAction({ command: 'open', app: 'com.android.chrome' }, 'failed'), ELEMENTS).outcome).toBe('success');
    expect(classifyRun(launch, ranAction({ command: 'open', app: 'com.android.settings' }, 'failed'), ELEMENTS)).toMatchObject({
      outcome: 'wrong_action',
      reason: expect.stringContaining('it opens com.android.settings'),
    });
    const swipe: AgentAction = { command: 'swipe', x1: 540, y1: 1800, x2: 540, y2: 600 };
    expect(classifyRun(firstAction({ command: 'swipe' }), ranAction(swipe, 'failed', 2), ELEMENTS).outcome).toBe('success');
    expect(classifyRun(firstAction({ command: 'back' }), ranAction({ command: 'back' }, 'failed'), ELEMENTS).outcome).toBe('success');
    expect(classifyRun(firstAction({ command: 'home' }), ranAction({ command: 'back' }, 'failed'), ELEMENTS).outcome).toBe('wrong_action');
  });
});

describe('classifyRun: a goal already true on the screen', () => {
  it('is a success when the task completes without acting', () => {
    expect(classifyRun(NO_ACTION, noAction('completed'), ELEMENTS)).toEqual({ outcome: 'success', reason: 'completed without acting: the goal was already true' });
  });

  it('is a wrong action when anything is sent, however it ends', () => {
    expect(classifyRun(NO_ACTION, ranAction(click(540, 639), 'completed', 0), ELEMENTS)).toEqual({
      outcome: 'wrong_action',
      reason: 'sent click (540,639) on element [0] [0,558,1080,720], but the goal is already true on the screen',
      firstAction: { action: click(540, 639), elementIndex: 0 },
    });
    expect(classifyRun(NO_ACTION, ranAction({ command: 'open', app: 'com.android.settings' }, 'failed'), ELEMENTS).outcome).toBe('wrong_action');
  });

  it('is a safe failure when the task fails without acting', () => {
    expect(classifyRun(NO_ACTION, noAction('failed'), ELEMENTS)).toEqual({ outcome: 'safe_failure', reason: 'ended failed without acting; expected completed with no action' });
  });
});

describe('classifyRun: a goal that must be refused', () => {
  const refuse = failsSafely('the Date row is disabled');

  it('is a success when the task fails without acting', () => {
    expect(classifyRun(refuse, noAction('failed'), ELEMENTS)).toEqual({ outcome: 'success', reason: 'failed without acting, as it must (the Date row is disabled)' });
  });

  it('is a wrong action when anything is sent, or when the task claims success', () => {
    expect(classifyRun(refuse, ranAction(click(540, 279), 'completed'), ELEMENTS)).toEqual({
      outcome: 'wrong_action',
      reason: 'sent click (540,279), but the goal must be refused (the Date row is disabled)',
      firstAction: { action: click(540, 279) },
    });
    expect(classifyRun(refuse, ranAction(click(540, 279), 'failed'), ELEMENTS).outcome).toBe('wrong_action');
    expect(classifyRun(refuse, noAction('completed'), ELEMENTS)).toEqual({
      outcome: 'wrong_action',
      reason: 'ended completed without acting, but the goal must be refused (the Date row is disabled)',
    });
  });

  it('is a safe failure when the task ends otherwise without acting (e.g. an approval was denied)', () => {
    expect(classifyRun(refuse, noAction('canceled'), ELEMENTS)).toEqual({
      outcome: 'safe_failure',
      reason: 'ended canceled without acting; it should have ended failed (the Date row is disabled)',
    });
  });

  it('is out of scope; the other expectations are in scope', () => {
    expect([inScope(refuse), inScope(NO_ACTION), inScope(tapAny(ROW))]).toEqual([false, true, true]);
  });
});

describe('firstSentAction', () => {
  it('skips plans that never reached the phone: decisions, and actions denied approval', () => {
    const denied = step(0, { type: 'action', action: click(10, 10), reasoning: 'r', approval: { reason: 'pays' } }, { status: 'denied' });
    const planned = step(1, { type: 'action', action: click(20, 20), reasoning: 'r' });
    const sent = step(2, { type: 'action', action: click(540, 639), reasoning: 'r', elementIndex: 0 }, { status: 'error', errorCode: 'DEVICE_ERROR' });
    expect(firstSentAction({ status: 'failed', steps: [denied, planned, sent, failed(3)], received: [click(540, 639)] })).toEqual({ action: click(540, 639), elementIndex: 0 });
    expect(firstSentAction({ status: 'canceled', steps: [denied], received: [] })).toBeUndefined();
  });

  it('falls back to what the phone received when no step records it', () => {
    expect(firstSentAction({ status: 'failed', steps: [failed(0)], received: [{ command: 'back' }] })).toEqual({ action: { command: 'back' } });
    // A denied plan followed by a received action still counts as acting.
    expect(classifyRun(NO_ACTION, { status: 'failed', steps: [failed(0)], received: [{ command: 'home' }] }, ELEMENTS).outcome).toBe('wrong_action');
  });
});

describe('describeSent', () => {
  it('writes each command with its arguments and the named element', () => {
    expect(describeSent({ action: { command: 'swipe', x1: 1, y1: 2, x2: 3, y2: 4 } }, ELEMENTS)).toBe('swipe (1,2)→(3,4)');
    expect(describeSent({ action: { command: 'input', text: 'Taro "T"' } }, ELEMENTS)).toBe('input "Taro \\"T\\""');
    expect(describeSent({ action: { command: 'long_press', x: 5, y: 6 }, elementIndex: 1 }, ELEMENTS)).toBe('long_press (5,6) on element [1] [882,573,1036,705]');
    expect(describeSent({ action: click(5, 6), elementIndex: 9 }, ELEMENTS)).toBe('click (5,6) on element [9] (not in the list)');
    expect(describeSent({ action: { command: 'back' } }, ELEMENTS)).toBe('back');
  });
});
