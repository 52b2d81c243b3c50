import { CoordinateSpace, toUiElements, type PlanningContext, type UiElement } from '@mobileclaw/domain';
import { PLANNER_SYSTEM_PROMPT, buildUserPrompt, formatElementForModel, formatHistoryEntry } from './planner-prompt';

const screen = { width: 1080, height: 2400 };
const image = CoordinateSpace.ofImage({ width: 576, height: 1280 }, screen);
const device = CoordinateSpace.ofScreen(screen);

describe('planner prompt', () => {
  it('never shows a password field text, even when an element carries one', () => {
    const leaked: UiElement = {
      index: 4,
      nodeId: 'n4',
      type: 'EditText',
      text: 'hunter2',
      bounds: [40, 460, 1040, 580],
      center: [540, 520],
      editable: true,
      password: true,
    };
    expect(formatElementForModel(leaked, device)).toBe('[4] EditText editable password (40,460,1040,580)');
    expect(formatElementForModel(leaked, image)).toBe('[4] EditText editable password (21,245,555,309)');
  });

  it('lists a switch without text of its own with the title of its row as its label', () => {
    const row = {
      id: 'row',
      class: 'android.widget.LinearLayout',
      clickable: true,
      bounds: [0, 620, 1080, 767] as [number, number, number, number],
      children: [
        { id: 'title', class: 'android.widget.TextView', text: 'Airplane mode', resourceId: 'android:id/title', bounds: [198, 664, 483, 723] as [number, number, number, number] },
        { id: 'switch', class: 'android.widget.Switch', text: 'OFF', resourceId: 'android:id/switch_widget', checkable: true, bounds: [908, 656, 1036, 730] as [number, number, number, number] },
      ],
    };
    const ctx = { goal: 'turn on airplane mode', stepIndex: 0, maxSteps: 10, history: [], observation: { screen, elements: toUiElements([row]) } } as unknown as PlanningContext;
    expect(buildUserPrompt(ctx, device, false).split('\n').slice(-3)).toEqual([
      'UI elements:',
      '[0] LinearLayout "Airplane mode" clickable (0,620,1080,767)',
      '[1] Switch "OFF" id=android:id/switch_widget unchecked label="Airplane mode" (row) (908,656,1036,730)',
    ]);
  });

  it('tells the model the task loop\'s rule on steps without visible effect', () => {
    expect(PLANNER_SYSTEM_PROMPT.split('\n')).toContain(
      '- A step marked "effect NOT seen on screen" that is repeated exactly and again shows no effect fails the task; ' +
        'so does calling done right after such a step. Call done only when the screen confirms the goal.',
    );
  });

  it('describes each kind of earlier step compactly, in the model coordinate space', () => {
    const line = (decision: Parameters<typeof formatHistoryEntry>[0]['decision'], result?: Parameters<typeof formatHistoryEntry>[0]['result']) =>
      formatHistoryEntry({ index: 4, decision, result }, image);
    expect(line({ type: 'action', action: { command: 'swipe', x1: 540, y1: 1800, x2: 540, y2: 600 }, reasoning: 'Scroll.' }, { status: 'success' })).toBe(
      '#5 swipe (288,960)→(288,320) → success — Scroll.',
    );
    expect(line({ type: 'action', action: { command: 'input', text: 'Hi', clear: true }, reasoning: '' }, { status: 'success', verified: false })).toBe(
      '#5 type_text "Hi" (clear) → success (effect NOT seen on screen)',
    );
    expect(line({ type: 'action', action: { command: 'long_press', x: 0, y: 0 }, reasoning: 'r' })).toBe('#5 long_press (0,0) → no result — r');
    expect(line({ type: 'done', summary: 'All set.', reasoning: 'r' })).toBe('#5 done: All set. → no result — r');
    const long = 'x'.repeat(400);
    expect(line({ type: 'action', action: { command: 'home' }, reasoning: long }, { status: 'denied' })).toBe(
      `#5 home → denied — ${'x'.repeat(159)}…`,
    );
  });

  it('states the step budget and the screen coordinate space without an image', () => {
    const ctx = {
      goal: '打开设置',
      stepIndex: 0,
      maxSteps: 10,
      history: [],
      observation: { screen, elements: [] },
    } as unknown as PlanningContext;
    expect(buildUserPrompt(ctx, device, false).split('\n')).toEqual([
      'Goal: 打开设置',
      'Step 1 of at most 10.',
      '',
      'Steps so far: none.',
      '',
      'Screen: 1080x2400 px.',
      'Coordinate space: screen pixels (x 0-1079, y 0-2399, origin top-left). Element bounds below and any x/y you give are in this space.',
      '',
      'UI elements: none found on this screen.',
    ]);
  });
});
