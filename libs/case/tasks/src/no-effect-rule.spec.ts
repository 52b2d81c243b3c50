import type { PlanDecision, UiElement } from '@mobileclaw/domain';
import { NoEffectRule, actionKey, describeAction } from './no-effect-rule';

const act = (action: Extract<PlanDecision, { type: 'action' }>['action']): PlanDecision => ({ type: 'action', action, reasoning: 'r' });
const unchanged = { verified: false as const, unseen: 'the screen did not change' };
const wifi: UiElement = { index: 3, nodeId: 'n3', type: 'Switch', label: 'Wi-Fi', labelSource: 'row', bounds: [900, 250, 1040, 350], center: [970, 300], checkable: true };

describe('actionKey', () => {
  it('is the same for the same command and arguments in any order, undefined arguments left out', () => {
    expect(actionKey({ command: 'click', x: 1, y: 2 })).toBe(actionKey({ y: 2, x: 1, command: 'click' } as never));
    expect(actionKey({ command: 'input', text: 'hi', clear: undefined })).toBe(actionKey({ command: 'input', text: 'hi' }));
    expect(actionKey({ command: 'click', x: 1, y: 2 })).not.toBe(actionKey({ command: 'click', x: 1, y: 3 }));
    expect(actionKey({ command: 'input', text: 'hi', clear: true })).not.toBe(actionKey({ command: 'input', text: 'hi' }));
    expect(actionKey({ command: 'back' })).not.toBe(actionKey({ command: 'home' }));
  });
});

describe('describeAction', () => {
  it('names each command with its arguments in device px, and the target by its label', () => {
    expect(describeAction({ command: 'click', x: 970, y: 300 }, wifi)).toBe('tap on "Wi-Fi" at (970, 300)');
    expect(describeAction({ command: 'click', x: 970, y: 300 })).toBe('tap at (970, 300)');
    expect(describeAction({ command: 'long_press', x: 5, y: 6 }, { ...wifi, label: undefined, text: 'Photo' })).toBe('long press on "Photo" at (5, 6)');
    expect(describeAction({ command: 'swipe', x1: 540, y1: 1800, x2: 540, y2: 600 })).toBe('swipe from (540, 1800) to (540, 600)');
    expect(describeAction({ command: 'input', text: '你好 "x"' })).toBe('type "你好 \\"x\\""');
    expect(describeAction({ command: 'open', app: 'com.android.settings' })).toBe('open com.android.settings');
    expect(describeAction({ command: 'back' })).toBe('press Back');
    expect(describeAction({ command: 'home' })).toBe('press Home');
  });
});

describe('NoEffectRule', () => {
  const tap = act({ command: 'click', x: 970, y: 300 });
  const flipless = { verified: false as const, unseen: 'the switch "Wi-Fi" did not flip' };

  it('fails the second no-effect of the same action in a row, not the first', () => {
    const rule = new NoEffectRule();
    expect(rule.judge(0, tap, flipless, wifi)).toBeUndefined();
    expect(rule.judge(1, tap, flipless, wifi)).toEqual({
      code: 'NO_EFFECT',
      message: 'the action (tap on "Wi-Fi" at (970, 300)) had no visible effect, also when tried again: the switch "Wi-Fi" did not flip',
    });
  });

  it('lets a different action, an action with effect, or a step without verdict in between reset the count', () => {
    const rule = new NoEffectRule();
    expect(rule.judge(0, tap, flipless)).toBeUndefined();
    expect(rule.judge(1, act({ command: 'click', x: 971, y: 300 }), unchanged)).toBeUndefined();
    expect(rule.judge(2, tap, flipless)).toBeUndefined();
    expect(rule.judge(3, tap, { verified: true })).toBeUndefined();
    expect(rule.judge(4, tap, flipless)).toBeUndefined();
    // Step 5 failed on the phone (no verdict, not judged): step 6 is not a repeat of step 4.
    expect(rule.judge(6, tap, flipless)).toBeUndefined();
    expect(rule.judge(7, act({ command: 'swipe', x1: 0, y1: 9, x2: 0, y2: 1 }), undefined)).toBeUndefined();
    expect(rule.judge(8, tap, flipless)).toBeUndefined();
  });

  it('refuses done right after an action with no visible effect, and only then', () => {
    const rule = new NoEffectRule();
    expect(rule.refuseDone(0)).toBeUndefined();
    rule.judge(0, act({ command: 'back' }), unchanged);
    expect(rule.refuseDone(1)).toEqual({ code: 'NO_EFFECT', message: 'the last action (press Back) had no visible effect (the screen did not change), so the goal is not confirmed' });
    expect(rule.refuseDone(2)).toBeUndefined();
    rule.judge(1, act({ command: 'back' }), { verified: true });
    expect(rule.refuseDone(2)).toBeUndefined();
  });
});
