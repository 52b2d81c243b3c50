import type { ActionTarget, PlanDecision } from '@mobileclaw/domain';
import { SECRET_TURN_TEXT, decisionTurnText, finalTurnText, resultTurnText } from './task-turns';

const field = { type: 'EditText', bounds: [0, 60, 100, 100] as [number, number, number, number], editable: true };

describe('task turns', () => {
  it('names an action by what people read on its target, and by its point without one', () => {
    const tap = (target?: ActionTarget): PlanDecision => ({ type: 'action', action: { command: 'click', x: 5, y: 6 }, reasoning: '', ...(target ? { target } : {}) });
    expect(decisionTurnText(tap({ type: 'Switch', bounds: [0, 0, 1, 1], label: 'Wi-Fi', text: 'On' }))).toBe('tap "Wi-Fi"');
    expect(decisionTurnText(tap({ type: 'ImageButton', bounds: [0, 0, 1, 1], resourceId: 'com.x:id/send' }))).toBe('tap com.x:id/send');
    expect(decisionTurnText(tap())).toBe('tap (5, 6)');
    expect(decisionTurnText({ type: 'action', action: { command: 'open', app: 'com.android.settings' }, reasoning: '' })).toBe('open com.android.settings');
    expect(decisionTurnText({ type: 'action', action: { command: 'swipe', x1: 1, y1: 2, x2: 3, y2: 4 }, reasoning: '' })).toBe('swipe (1, 2) → (3, 4)');
    expect(decisionTurnText({ type: 'action', action: { command: 'back' }, reasoning: '' })).toBe('back');
  });

  it('keeps a typed text only where the field is known and no password field; a field is never named by its value', () => {
    const typed = (target?: ActionTarget): PlanDecision => ({ type: 'action', action: { command: 'input', text: 'hunter2' }, reasoning: '', ...(target ? { target } : {}) });
    expect(decisionTurnText(typed({ ...field, password: true, label: 'Password' }))).toBe(`type ${SECRET_TURN_TEXT} into "Password"`);
    expect(decisionTurnText(typed())).toBe('type [secret]');
    expect(decisionTurnText(typed({ ...field, text: 'old value', label: 'Message' }))).toBe('type "hunter2" into "Message"');
    expect(decisionTurnText(typed({ ...field, text: 'old value' }))).toBe('type "hunter2" into EditText');
  });

  it('gives tool calls, ends and results as short text, long texts cut', () => {
    expect(decisionTurnText({ type: 'tool_call', name: 'memory_store', arguments: { text: 'mom is Alice' }, reasoning: '' })).toBe('call memory_store {"text":"mom is Alice"}');
    expect(decisionTurnText({ type: 'done', summary: 'x'.repeat(400), reasoning: '' })).toBe(`done: ${'x'.repeat(300)}…`);
    expect(decisionTurnText({ type: 'fail', reason: 'no such contact', reasoning: '' })).toBe('fail: no such contact');
    expect(resultTurnText({ status: 'success' })).toBe('ok');
    expect(resultTurnText({ status: 'success', message: 'Remembered.' })).toBe('ok: Remembered.');
    expect(resultTurnText({ status: 'error', errorCode: 'TOOL_FAILED', message: 'down' })).toBe('error TOOL_FAILED');
    expect(resultTurnText({ status: 'denied', message: 'no' })).toBe('denied');
    expect(finalTurnText({ status: 'completed', summary: 'sent' })).toBe('task completed: sent');
    expect(finalTurnText({ status: 'canceled', error: { code: 'CANCELED', message: 'by the caller' } })).toBe('task canceled: CANCELED by the caller');
  });
});
