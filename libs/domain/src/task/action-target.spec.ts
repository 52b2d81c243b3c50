import { actionTargetOf, describeActionTarget, findActionTarget, recordActionTarget, targetedElement } from './action-target';
import type { ActionTarget, PlanDecision } from './task';
import type { UiElement } from './ui-elements';

const el = (index: number, e: Partial<UiElement> & Pick<UiElement, 'type' | 'bounds'>): UiElement => ({
  index,
  nodeId: `n${index}`,
  center: [Math.floor((e.bounds[0] + e.bounds[2]) / 2), Math.floor((e.bounds[1] + e.bounds[3]) / 2)],
  ...e,
});

/** Two rows with the same switch id, told apart by their labels; a field; a row whose text carries its state. */
const screen: UiElement[] = [
  el(0, { type: 'LinearLayout', text: 'Wi-Fi · Off', bounds: [0, 200, 1080, 400], clickable: true }),
  el(1, { type: 'Switch', desc: 'Wi-Fi', label: 'Wi-Fi', labelSource: 'desc', resourceId: 'app:id/switch', bounds: [900, 250, 1040, 350], clickable: true, checkable: true, checked: false }),
  el(2, { type: 'Switch', desc: 'Bluetooth', label: 'Bluetooth', labelSource: 'desc', resourceId: 'app:id/switch', bounds: [900, 450, 1040, 550], clickable: true, checkable: true, checked: false }),
  el(3, { type: 'EditText', text: 'hello', label: 'Search', labelSource: 'hint', resourceId: 'app:id/search', bounds: [0, 600, 1080, 700], editable: true, clickable: true }),
  el(4, { type: 'EditText', label: 'Password', labelSource: 'preceding', bounds: [0, 800, 1080, 900], editable: true, password: true }),
];

describe('action targets', () => {
  it('records what identifies an element, never a password field\'s text nor a field\'s value as its label', () => {
    expect(actionTargetOf(screen[1]!, 'com.android.settings')).toEqual({
      type: 'Switch', desc: 'Wi-Fi', label: 'Wi-Fi', resourceId: 'app:id/switch', package: 'com.android.settings', bounds: [900, 250, 1040, 350], checkable: true, checked: false,
    });
    expect(actionTargetOf({ ...screen[4]!, text: 'hunter2' }, undefined)).toEqual({ type: 'EditText', label: 'Password', bounds: [0, 800, 1080, 900], editable: true, password: true });
    expect(actionTargetOf(el(5, { type: 'EditText', text: 'typed', label: 'typed', labelSource: 'text', bounds: [0, 0, 10, 10], editable: true }), undefined)).toEqual({ type: 'EditText', text: 'typed', bounds: [0, 0, 10, 10], editable: true });
  });

  it('finds the element a decision targets: by index, under a tapped point, the focused or only field', () => {
    const tap = (x: number, y: number): Extract<PlanDecision, { type: 'action' }> => ({ type: 'action', action: { command: 'click', x, y }, reasoning: '' });
    expect(targetedElement({ ...tap(0, 0), elementIndex: 2 }, screen)?.index).toBe(2);
    // The switch inside the row, not the row: the innermost actionable element under the point.
    expect(targetedElement(tap(950, 300), screen)?.index).toBe(1);
    expect(targetedElement(tap(5, 1500), screen)).toBeUndefined();
    const typing: Extract<PlanDecision, { type: 'action' }> = { type: 'action', action: { command: 'input', text: 'x' }, reasoning: '' };
    expect(targetedElement(typing, screen)).toBeUndefined();
    expect(targetedElement(typing, [screen[0]!, { ...screen[4]!, focused: true }, screen[3]!])?.index).toBe(4);
    expect(targetedElement({ type: 'action', action: { command: 'open', app: 'a' }, reasoning: '' }, screen)).toBeUndefined();
  });

  it('finds a recorded target again by class, resource id, description and label, on its current bounds', () => {
    const wifi = actionTargetOf(screen[1]!, 'com.android.settings');
    const moved = screen.map((e) => (e.index === 1 ? { ...e, bounds: [900, 1250, 1040, 1350] as UiElement['bounds'], center: [970, 1300] as UiElement['center'] } : e));
    expect(findActionTarget(wifi, moved, 'com.android.settings')).toEqual({ element: moved[1] });
    // A field is found whatever text it shows now.
    const search = actionTargetOf(screen[3]!, 'p');
    expect(findActionTarget(search, [{ ...screen[3]!, text: 'other' }], 'p')).toMatchObject({ element: { index: 3 } });
  });

  it('says how a screen differs: another app, no such element, several, a toggle in the other state', () => {
    const wifi = actionTargetOf(screen[1]!, 'com.android.settings');
    expect(findActionTarget(wifi, screen, 'com.android.chrome')).toEqual({ differs: 'expected Switch "Wi-Fi" (id app:id/switch) in com.android.settings, but com.android.chrome is in the foreground' });
    expect(findActionTarget(wifi, [screen[2]!], 'com.android.settings')).toEqual({ differs: 'expected Switch "Wi-Fi" (id app:id/switch), but no such element is on screen' });
    const twice = [screen[1]!, { ...screen[1]!, index: 9, bounds: [0, 0, 10, 10] as UiElement['bounds'] }, { ...screen[1]!, index: 10, bounds: [0, 20, 10, 30] as UiElement['bounds'] }];
    expect(findActionTarget({ ...wifi, bounds: [1, 1, 2, 2] }, twice, 'com.android.settings')).toEqual({ differs: 'expected one Switch "Wi-Fi" (id app:id/switch), but 3 elements match' });
    // Of several alike, the one at the recorded bounds.
    expect(findActionTarget(wifi, twice, 'com.android.settings')).toEqual({ element: screen[1] });
    const on = [{ ...screen[1]!, checked: true }];
    expect(findActionTarget(wifi, on, 'com.android.settings')).toEqual({ differs: 'expected Switch "Wi-Fi" (id app:id/switch) unchecked, but it is checked' });
    expect(findActionTarget(wifi, on, 'com.android.settings', { compareState: false })).toEqual({ element: on[0] });
    // A row's text names it, state and all.
    const row = actionTargetOf(screen[0]!, undefined);
    expect(findActionTarget(row, [{ ...screen[0]!, text: 'Wi-Fi · On' }], undefined)).toEqual({ differs: 'expected LinearLayout "Wi-Fi · Off", but no such element is on screen' });
  });

  it('identifies a target with nothing that names it by its exact bounds only', () => {
    const bare: ActionTarget = { type: 'View', bounds: [10, 10, 20, 20] };
    expect(describeActionTarget(bare)).toBe('View at [10,10,20,20]');
    const view = el(0, { type: 'View', bounds: [10, 10, 20, 20], clickable: true });
    expect(findActionTarget(bare, [view], undefined)).toEqual({ element: view });
    expect(findActionTarget(bare, [{ ...view, bounds: [10, 10, 20, 21] }], undefined)).toEqual({ differs: 'expected View at [10,10,20,20], but no such element is on screen' });
  });

  it('records a typing step\'s field (the one tapped before when none has the focus) and a done\'s evidence', () => {
    const tapField: PlanDecision = { type: 'action', action: { command: 'click', x: 540, y: 850 }, reasoning: '', elementIndex: 4 };
    recordActionTarget(tapField, screen, 'p', []);
    expect(tapField).toMatchObject({ target: { type: 'EditText', label: 'Password', password: true } });
    const typing: PlanDecision = { type: 'action', action: { command: 'input', text: 'hunter2' }, reasoning: '' };
    recordActionTarget(typing, screen, 'p', [{ index: 0, decision: tapField }]);
    expect(typing).toMatchObject({ target: { label: 'Password', password: true } });
    expect(JSON.stringify(typing.type === 'action' && typing.target)).not.toContain('hunter2');

    const typeSearch: PlanDecision = { type: 'action', action: { command: 'input', text: 'news' }, reasoning: '', elementIndex: 3 };
    recordActionTarget(typeSearch, screen, 'p', []);
    const done: PlanDecision = { type: 'done', summary: 's', reasoning: 'r' };
    recordActionTarget(done, [{ ...screen[3]!, text: 'news' }], 'p', [{ index: 0, decision: typeSearch }]);
    expect(done).toEqual({ type: 'done', summary: 's', reasoning: 'r', evidence: { type: 'EditText', text: 'news', label: 'Search', resourceId: 'app:id/search', package: 'p', bounds: [0, 600, 1080, 700], editable: true } });
    const gone: PlanDecision = { type: 'done', summary: 's', reasoning: 'r' };
    recordActionTarget(gone, [], 'p', [{ index: 0, decision: typeSearch }]);
    expect(gone).not.toHaveProperty('evidence');
  });
});
