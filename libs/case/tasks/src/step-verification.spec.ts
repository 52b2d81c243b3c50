import type { PlanDecision, UiElement } from '@mobileclaw/domain';
import { verifyAction, type ScreenSnapshot } from './step-verification';

const el = (index: number, over: Partial<UiElement>): UiElement => ({
  index,
  nodeId: `n${index}`,
  type: 'View',
  bounds: [0, 0, 100, 100],
  center: [50, 50],
  ...over,
});
const act = (action: Extract<PlanDecision, { type: 'action' }>['action']): PlanDecision => ({ type: 'action', action, reasoning: 'r' });
const screen = (elements: UiElement[], pkg = 'com.example'): ScreenSnapshot => ({ elements, package: pkg });

describe('verifyAction', () => {
  const row = el(0, { type: 'LinearLayout', clickable: true, text: 'Wi-Fi', bounds: [0, 200, 1080, 400], center: [540, 300] });
  const off = el(1, { type: 'Switch', checkable: true, checked: false, bounds: [900, 250, 1040, 350], center: [970, 300] });
  const on = { ...off, checked: true };
  const field = el(2, { type: 'EditText', editable: true, text: '', bounds: [0, 500, 1080, 600], center: [540, 550] });

  const seen = { verified: true };
  const unchanged = { verified: false, unseen: 'the screen did not change' };

  it('confirms a switch toggled by tapping it or its row, and refutes one that stayed, naming it', () => {
    expect(verifyAction(act({ command: 'click', x: 970, y: 300 }), screen([row, off]), screen([row, on]))).toEqual(seen);
    expect(verifyAction(act({ command: 'click', x: 100, y: 300 }), screen([row, off]), screen([row, on]))).toEqual(seen);
    expect(verifyAction(act({ command: 'click', x: 970, y: 300 }), screen([row, off]), screen([row, off]))).toEqual({ verified: false, unseen: 'the switch did not flip' });
    const labelled = { ...off, label: 'Use Wi-Fi', labelSource: 'row' as const };
    expect(verifyAction(act({ command: 'click', x: 100, y: 300 }), screen([row, labelled]), screen([row, labelled]))).toEqual({ verified: false, unseen: 'the switch "Use Wi-Fi" did not flip' });
  });

  it('counts a row that opened another screen instead of toggling as an effect', () => {
    const detail = el(0, { type: 'TextView', text: 'Wi-Fi preferences', bounds: [0, 200, 1080, 300], center: [540, 250] });
    expect(verifyAction(act({ command: 'click', x: 100, y: 300 }), screen([row, off]), screen([detail]))).toEqual(seen);
    expect(verifyAction(act({ command: 'click', x: 100, y: 300 }), screen([row, off]), screen([row, off], 'com.android.settings'))).toEqual(seen);
  });

  it('confirms typed text in a field, whatever its script, and refutes missing text, quoting it', () => {
    const typed = { ...field, text: 'Hello 世界 👋' };
    expect(verifyAction(act({ command: 'input', text: 'Hello 世界 👋' }), screen([field]), screen([typed]))).toEqual(seen);
    expect(verifyAction(act({ command: 'input', text: 'Hello 世界 👋' }), screen([field]), screen([field]))).toEqual({ verified: false, unseen: 'the text "Hello 世界 👋" did not appear' });
    const long = '👋'.repeat(50);
    expect(verifyAction(act({ command: 'input', text: long }), screen([field]), screen([field]))).toEqual({ verified: false, unseen: `the text "${'👋'.repeat(39)}…" did not appear` });
  });

  it('counts a field gaining focus as the effect of tapping it', () => {
    const focused = { ...field, focused: true };
    expect(verifyAction(act({ command: 'click', x: 540, y: 550 }), screen([field]), screen([focused]))).toEqual(seen);
    expect(verifyAction(act({ command: 'click', x: 540, y: 550 }), screen([field]), screen([field]))).toEqual(unchanged);
    expect(verifyAction(act({ command: 'back' }), screen([field]), screen([field]))).toEqual(unchanged);
  });

  it('checks the foreground app after open, and does not judge a swipe that changed nothing', () => {
    expect(verifyAction(act({ command: 'open', app: 'com.android.settings' }), screen([]), screen([], 'com.android.settings'))).toEqual(seen);
    expect(verifyAction(act({ command: 'open', app: 'com.android.settings' }), screen([]), screen([], 'com.example'))).toEqual({
      verified: false,
      unseen: 'the app in front is com.example, not com.android.settings',
    });
    expect(verifyAction(act({ command: 'open', app: 'com.android.settings' }), screen([]), { elements: [] })).toBeUndefined();
    expect(verifyAction(act({ command: 'swipe', x1: 0, y1: 900, x2: 0, y2: 100 }), screen([row]), screen([row]))).toBeUndefined();
    expect(verifyAction({ type: 'done', summary: 's', reasoning: 'r' }, screen([row]), screen([row]))).toBeUndefined();
  });
});
