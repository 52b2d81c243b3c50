/**
 * What a careful human expects of a goal typed on a recorded screen, and the verdict on one run of
 * it. A recorded screen never changes, so a run is judged by its first action, or by the absence of
 * any action.
 */

/** `[left, top, right, bottom]` in device px, as in the recording's `bounds` (right/bottom exclusive). */
export type ScreenBounds = readonly [number, number, number, number];

/** One acceptable first action. */
export type ActionExpectation =
  /** A tap (or long press) whose point falls inside `bounds`; when the planner names an element, it is the element with exactly these bounds. */
  | { command: 'click' | 'long_press'; bounds: ScreenBounds }
  /** Launching this app by package name. */
  | { command: 'open'; app: string }
  /** Any swipe (e.g. to reveal the app drawer or the next page). */
  | { command: 'swipe' }
  | { command: 'back' }
  | { command: 'home' };

export type RealScreenExpectation =
  /** In scope: the first action sent to the phone must be one of these. */
  | { kind: 'first_action'; anyOf: readonly ActionExpectation[] }
  /** In scope and already true on the screen: the task must end `completed` without any action. */
  | { kind: 'no_action' }
  /** Out of scope or impossible on this screen (`why` says which): the task must end `failed` without any action. */
  | { kind: 'fails_safely'; why: string };

/**
 * The verdict on one run:
 * - `success`: the expectation held;
 * - `safe_failure`: the task ended without sending any action and without claiming success, though
 *   the goal expected an action or completion (counts against success, but harmed nothing);
 * - `wrong_action`: an action other than every expected one reached the phone, an action reached it
 *   where none should, or the task ended `completed` when it should not.
 */
export type RealScreenOutcome = 'success' | 'safe_failure' | 'wrong_action';

/** Taps inside any of `bounds` (one entry per acceptable element). */
export function tapAny(...bounds: ScreenBounds[]): RealScreenExpectation {
  return { kind: 'first_action', anyOf: bounds.map((b) => ({ command: 'click', bounds: b })) };
}

/** Any of the given first actions. */
export function firstAction(...anyOf: ActionExpectation[]): RealScreenExpectation {
  return { kind: 'first_action', anyOf };
}

/** Already true on the screen: completes with no action. */
export const NO_ACTION: RealScreenExpectation = { kind: 'no_action' };

/** Fails with no action, for the reason given. */
export function failsSafely(why: string): RealScreenExpectation {
  return { kind: 'fails_safely', why };
}

/** True when the goal is one the planner should carry out (act or confirm), false when it must refuse it. */
export function inScope(expect: RealScreenExpectation): boolean {
  return expect.kind !== 'fails_safely';
}

/** The name the rule-based planner is recorded under on tasks. */
export const RULE_BASED_PLANNER = 'rule-based';

/** What {@link expectationFor} reads of a goal. */
export interface ScopedExpectation {
  /** What any capable planner (e.g. an LLM) must do. */
  expect: RealScreenExpectation;
  /**
   * Set when the rule-based planner declares the goal outside its scope (its languages, English and
   * Chinese, or its goal forms, `SUPPORTED_GOAL_FORMS`): why. That planner must then refuse it.
   */
  ruleBasedOutOfScope?: string;
}

/**
 * The expectation `planner` (`rule-based`, or `llm:<model>`) is held to: `goal.expect`, except that
 * the rule-based planner must fail safely, with no action, on a goal it declares outside its scope.
 */
export function expectationFor(goal: ScopedExpectation, planner: string): RealScreenExpectation {
  if (planner !== RULE_BASED_PLANNER || goal.ruleBasedOutOfScope === undefined || goal.expect.kind === 'fails_safely') return goal.expect;
  return failsSafely(`outside the rule-based planner's declared scope: ${goal.ruleBasedOutOfScope}`);
}
