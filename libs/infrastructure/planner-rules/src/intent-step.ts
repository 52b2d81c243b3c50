import type { AgentAction, ApprovalRequest, StepResult, UiElement } from '@mobileclaw/domain';
import { actionKey } from './action-key';
import { normalizeLabel } from './goal-text';
import type { Screen } from './screen';
import type { IntentMemory } from './task-memory';

/** The previous step of the task, as the intent being planned sees it. */
export interface LastStep {
  action?: AgentAction;
  /** The element the action was planned on (index into that step's element list). */
  elementIndex?: number;
  result?: StepResult;
  /** Whether the screen differs from the one that action was planned on; `undefined` when unknown. */
  changed?: boolean;
}

/** Everything an intent's step function reads. */
export interface StepInput {
  screen: Screen;
  memory: IntentMemory;
  last?: LastStep;
}

/** What an intent's step function decided. */
export type StepOutcome =
  | {
      kind: 'act';
      action: AgentAction;
      reasoning: string;
      element?: UiElement;
      approval?: ApprovalRequest;
      /**
       * Set on an action whose effect cannot be undone and must happen at most once (sending a
       * message, paying, confirming a deletion): what it does, e.g. `send "hi" to Alice`. The planner
       * never plans the same such action twice for one intent of a task, whatever the screen shows.
       */
      once?: string;
    }
  | { kind: 'done'; summary: string }
  | { kind: 'fail'; reason: string };

/** Swipes tried, per intent, when looking for a target in a scrollable list. */
export const MAX_SCROLLS = 6;

export function done(summary: string): StepOutcome {
  return { kind: 'done', summary };
}

export function fail(reason: string): StepOutcome {
  return { kind: 'fail', reason };
}

/** A click at the element's centre (px); `once` marks a click that must not be repeated (see {@link StepOutcome}). */
export function click(element: UiElement, reasoning: string, approval?: ApprovalRequest, once?: string): StepOutcome {
  const outcome: StepOutcome = { kind: 'act', action: { command: 'click', x: element.center[0], y: element.center[1] }, reasoning, element };
  if (approval) outcome.approval = approval;
  if (once !== undefined) outcome.once = once;
  return outcome;
}

/**
 * Clicks `element` and remembers `label` as tapped by this intent, and the click as the intent's
 * latest tap (see {@link lastTapEffect}), named `what` in reasons (default: `label` quoted).
 */
export function tap(memory: IntentMemory, label: string, element: UiElement, reasoning: string, approval?: ApprovalRequest, once?: string, what = JSON.stringify(label)): StepOutcome {
  memory.tapped.add(normalizeLabel(label));
  const outcome = click(element, reasoning, approval, once);
  if (outcome.kind === 'act') {
    memory.facts.set('lastTap', actionKey(outcome.action));
    memory.facts.set('lastTapLabel', what);
    memory.facts.set('lastTapOnce', once !== undefined);
  }
  return outcome;
}

/**
 * Whether this intent's latest tap (see {@link tap}), when it was the task's last action, had a
 * visible effect: `true` when the screen changed after it, `false` when nothing changed (or the
 * phone reported the tap failed); `undefined` when the last action was not that tap or its effect
 * is unknown. The effect is read from the screens, never from the memory of having tapped.
 */
export function lastTapEffect(input: StepInput): boolean | undefined {
  const { memory, last } = input;
  const key = memory.facts.get('lastTap');
  if (key === undefined || !last?.action || actionKey(last.action) !== key) return undefined;
  if (last.result !== undefined && last.result.status !== 'success') return false;
  return last.changed ?? last.result?.verified;
}

/**
 * After a tap without visible effect ({@link lastTapEffect} false): the same tap once more, since a
 * tap can land while the screen is still busy; after a second one without effect, a failure. A tap
 * whose effect cannot be undone (`once`) is never repeated.
 */
export function retapOrFail(input: StepInput): StepOutcome {
  const { memory, last, screen } = input;
  const key = memory.facts.get('lastTap');
  const label = String(memory.facts.get('lastTapLabel') ?? 'it');
  if (!last?.action || key === undefined) return fail(`tapping ${label} had no visible effect`);
  if (memory.facts.get('lastTapOnce') === true) return fail(`tapping ${label} had no visible effect; it is not tapped again, since what it does cannot be undone`);
  if (memory.facts.get('retapped') === key) return fail(`tapping ${label} had no visible effect, twice (the screen did not change)`);
  memory.facts.set('retapped', key);
  const outcome: StepOutcome = { kind: 'act', action: last.action, reasoning: `Tapping ${label} changed nothing on the screen; tap it once more.` };
  const element = last.elementIndex === undefined ? undefined : screen.elements[last.elementIndex];
  if (element) outcome.element = element;
  return outcome;
}

export function wasTapped(memory: IntentMemory, label: string): boolean {
  return memory.tapped.has(normalizeLabel(label));
}

/** Launches `pkg` and remembers it. */
export function openApp(memory: IntentMemory, pkg: string, appLabel: string): StepOutcome {
  memory.opened.add(pkg);
  return { kind: 'act', action: { command: 'open', app: pkg }, reasoning: `Open the ${appLabel} app.` };
}

/** True when the last step was exactly `command` (and `app` for `open`) and the phone reported success. */
export function lastSucceeded(last: LastStep | undefined, command: AgentAction['command'], app?: string): boolean {
  if (!last?.action || last.action.command !== command) return false;
  if (app !== undefined && (last.action.command !== 'open' || last.action.app !== app)) return false;
  return last.result === undefined || last.result.status === 'success';
}

/** The phone's error for the last step when it was `command` and failed. */
export function lastError(last: LastStep | undefined, command: AgentAction['command']): string | undefined {
  if (last?.action?.command !== command || !last.result || last.result.status === 'success') return undefined;
  return [last.result.errorCode, last.result.message].filter(Boolean).join(': ') || last.result.status;
}

/**
 * A swipe scrolling the main scrollable list (see `Screen.scrollable`) one page towards its end, to
 * look for something named by any of `names`; or `undefined` when there is no list, {@link
 * MAX_SCROLLS} swipes were made, the last swipe changed nothing (the end of the list), or the screen
 * is written in a language none of `names` is in (see `Screen.foreignLanguage`). Counts the swipe
 * in `memory.scrolls`.
 */
export function scrollToFind(input: StepInput, lookingFor: string, names: readonly string[]): StepOutcome | undefined {
  const list = input.screen.scrollable();
  const { memory, last } = input;
  const stuck = memory.scrolls > 0 && last?.action?.command === 'swipe' && last.changed === false;
  if (!list || memory.scrolls >= MAX_SCROLLS || stuck || input.screen.foreignLanguage(names) !== undefined) return undefined;
  memory.scrolls++;
  const [l, t, r, b] = list.bounds;
  const x = Math.floor((l + r) / 2);
  const h = b - t;
  return {
    kind: 'act',
    action: { command: 'swipe', x1: x, y1: Math.floor(t + h * 0.75), x2: x, y2: Math.floor(t + h * 0.25), durationMs: 300 },
    reasoning: `Scroll the list to look for ${lookingFor}.`,
    element: list,
  };
}

/**
 * {@link scrollToFind}, failing with `reason` once there is nothing more to scroll, saying how far it
 * scrolled or in which language the screen is written.
 */
export function scrollOrFail(input: StepInput, lookingFor: string, names: readonly string[], reason: string): StepOutcome {
  return scrollToFind(input, lookingFor, names) ?? fail(`${reason}${whyNotFurther(input, names)}`);
}

/** Why the list was not looked at further: ` (scrolled 2 time(s) to the end of the list)`, `; the screen is written in Japanese`, or nothing. */
export function whyNotFurther(input: StepInput, names: readonly string[]): string {
  const language = input.screen.foreignLanguage(names);
  if (language !== undefined) return `; the screen is written in ${language}, a language the planner has no words for, so its list is not searched`;
  return input.memory.scrolls > 0 ? ` (scrolled ${input.memory.scrolls} time(s) to the end of the list)` : '';
}
