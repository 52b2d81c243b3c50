import type { PlannerHistoryEntry } from './planner';
import type { ActionTarget, PlanDecision } from './task';
import { boundsContain, type UiElement } from './ui-elements';

/**
 * The element an action decision targets on the screen it was planned on: the one at its
 * `elementIndex`; else, for a tap or long press, the innermost actionable element under its point (any
 * element when none is actionable); for a swipe, the innermost scrollable element under its start; for
 * typing, the focused field, else the screen's only field. Undefined for `open`, `home`, `back` and a
 * point on no element.
 */
export function targetedElement(decision: Extract<PlanDecision, { type: 'action' }>, elements: readonly UiElement[]): UiElement | undefined {
  if (decision.elementIndex !== undefined) return elements.find((e) => e.index === decision.elementIndex);
  const action = decision.action;
  const innermost = (list: readonly UiElement[], x: number, y: number): UiElement | undefined => list.filter((e) => boundsContain(e.bounds, x, y)).at(-1);
  switch (action.command) {
    case 'click':
    case 'long_press':
      return innermost(elements.filter(isActionable), action.x, action.y) ?? innermost(elements, action.x, action.y);
    case 'swipe':
      return innermost(elements.filter((e) => e.scrollable), action.x1, action.y1);
    case 'input': {
      const fields = elements.filter((e) => e.editable);
      return fields.find((e) => e.focused) ?? (fields.length === 1 ? fields[0] : undefined);
    }
    default:
      return undefined;
  }
}

function isActionable(e: UiElement): boolean {
  return !!(e.clickable || e.longClickable || e.editable || e.checkable || e.scrollable);
}

/**
 * What identifies `element` on screen (see {@link ActionTarget}), with the foreground package `pkg`. A
 * field's label is left out when it is only the field's own text (its value, which typing changes).
 */
export function actionTargetOf(element: UiElement, pkg: string | undefined): ActionTarget {
  const target: ActionTarget = { type: element.type, bounds: [...element.bounds] };
  if (element.text !== undefined && !element.password) target.text = element.text;
  if (element.desc !== undefined) target.desc = element.desc;
  if (element.label !== undefined && !(element.editable && element.labelSource === 'text')) target.label = element.label;
  if (element.resourceId !== undefined) target.resourceId = element.resourceId;
  if (pkg !== undefined) target.package = pkg;
  if (element.editable) target.editable = true;
  if (element.checkable) {
    target.checkable = true;
    target.checked = !!element.checked;
  }
  if (element.password) target.password = true;
  return target;
}

/**
 * The task loop's record of what a decision acted on, set on the decision before it is stored: an
 * action's {@link ActionTarget} (from {@link targetedElement}; for typing where no field has the focus,
 * the field the previous action tapped), and a `done`'s `evidence`: the target
 * of the last action in `history` found again on the final screen ({@link findActionTarget}, its state
 * not compared), as that screen shows it. Leaves other decisions, and targets it cannot tell, alone.
 */
export function recordActionTarget(decision: PlanDecision, elements: readonly UiElement[], pkg: string | undefined, history: readonly PlannerHistoryEntry[]): void {
  const last = history.filter((h) => h.decision.type === 'action').at(-1)?.decision;
  if (decision.type === 'action') {
    let element = targetedElement(decision, elements);
    // Typing goes to the field the previous step tapped, where the screen does not say which has the focus.
    if (!element && decision.action.command === 'input' && last?.type === 'action' && last.target?.editable) {
      const match = findActionTarget(last.target, elements, pkg, { compareState: false });
      if ('element' in match) element = match.element;
    }
    if (element) decision.target = actionTargetOf(element, pkg);
    return;
  }
  if (decision.type !== 'done') return;
  if (last?.type !== 'action' || !last.target) return;
  const match = findActionTarget(last.target, elements, pkg, { compareState: false });
  if ('element' in match) decision.evidence = actionTargetOf(match.element, pkg);
}

/** A recorded target found again: the element now on screen, or why it is not. */
export type TargetMatch = { element: UiElement } | { differs: string };

/**
 * Finds a recorded {@link ActionTarget} on the current screen. The rule, in order:
 * 1. the foreground package is the recorded one (when both are known);
 * 2. the candidates are the elements of the same `type` with the same resource id, content description
 *    and label — each compared when it was recorded — and the same text when the text names the
 *    element: not for a field (its text is its value) nor a checkable element (its text states on/off).
 *    A target recorded with none of these is identified by its exact bounds;
 * 3. exactly one candidate must remain; of several, those at the recorded bounds; still several, the
 *    screen is ambiguous;
 * 4. with `compareState` (default), a checkable target must be in its recorded state: tapping a switch
 *    in the other state would do the opposite.
 * Act on the element's current bounds: it may have moved.
 */
export function findActionTarget(target: ActionTarget, elements: readonly UiElement[], pkg: string | undefined, { compareState = true }: { compareState?: boolean } = {}): TargetMatch {
  const expected = describeActionTarget(target);
  if (target.package !== undefined && pkg !== undefined && target.package !== pkg) return { differs: `expected ${expected} in ${target.package}, but ${pkg} is in the foreground` };
  const textNames = !target.editable && !target.checkable;
  const named = target.resourceId !== undefined || target.desc !== undefined || target.label !== undefined || (textNames && target.text !== undefined);
  let candidates = elements.filter(
    (e) =>
      e.type === target.type &&
      (target.resourceId === undefined || e.resourceId === target.resourceId) &&
      (target.desc === undefined || e.desc === target.desc) &&
      (target.label === undefined || e.label === target.label) &&
      (!textNames || target.text === undefined || e.text === target.text) &&
      (named || sameBounds(e.bounds, target.bounds)),
  );
  if (candidates.length > 1) {
    const atBounds = candidates.filter((e) => sameBounds(e.bounds, target.bounds));
    if (atBounds.length > 0) candidates = atBounds;
  }
  if (candidates.length === 0) return { differs: `expected ${expected}, but no such element is on screen` };
  if (candidates.length > 1) return { differs: `expected one ${expected}, but ${candidates.length} elements match` };
  const element = candidates[0]!;
  if (compareState && target.checkable && !!element.checked !== !!target.checked) {
    return { differs: `expected ${expected} ${target.checked ? 'checked' : 'unchecked'}, but it is ${element.checked ? 'checked' : 'unchecked'}` };
  }
  return { element };
}

function sameBounds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * A target in words, best identifier first, e.g. `EditText "Search or type web address" (id
 * com.android.chrome:id/url_bar)` or `Switch "Wi-Fi" (id com.android.settings:id/switch_widget)`; a
 * target with no identifier is named by its bounds, `View at [0,0,10,10]`.
 */
export function describeActionTarget(target: ActionTarget): string {
  const name = target.label ?? (target.editable || target.checkable ? undefined : target.text) ?? target.desc;
  const parts = [target.type];
  if (name !== undefined) parts.push(JSON.stringify(name));
  if (target.resourceId !== undefined) parts.push(`(id ${target.resourceId})`);
  if (name === undefined && target.resourceId === undefined) parts.push(`at [${target.bounds.join(',')}]`);
  return parts.join(' ');
}
