import type { AgentAction, TaskStatus, TaskStep } from '@mobileclaw/domain';
import type { ActionExpectation, RealScreenExpectation, RealScreenOutcome, ScreenBounds } from './expectation';

/** What one run of a goal on a recorded screen did, as the classifier reads it. */
export interface RealScreenRun {
  /** The task's final status. */
  status: TaskStatus;
  /** The task's stored steps, oldest first. */
  steps: readonly TaskStep[];
  /** Every agent action the phone received, in order (observations excluded). */
  received: readonly AgentAction[];
}

/** The first action that reached the phone, with the element the planner said it targets. */
export interface SentAction {
  action: AgentAction;
  elementIndex?: number;
}

export interface RealScreenVerdict {
  outcome: RealScreenOutcome;
  /** Why, in one sentence (also for a success). */
  reason: string;
  /** The first action sent, when one was. */
  firstAction?: SentAction;
}

/**
 * Bounds of the element at `index` in the element list the planner was given, or `undefined` when
 * there is no such element.
 */
export type ElementBounds = (index: number) => ScreenBounds | undefined;

/**
 * The first action sent to the phone: the first step whose plan is an action that was executed (a
 * result other than `denied`: an action denied approval never leaves the gateway); failing that,
 * the first action the phone reports receiving.
 */
export function firstSentAction(run: RealScreenRun): SentAction | undefined {
  for (const step of run.steps) {
    if (step.plan?.type !== 'action' || step.result === undefined || step.result.status === 'denied') continue;
    return step.plan.elementIndex === undefined ? { action: step.plan.action } : { action: step.plan.action, elementIndex: step.plan.elementIndex };
  }
  const received = run.received[0];
  return received === undefined ? undefined : { action: received };
}

/**
 * Judges one run against its expectation (see {@link RealScreenOutcome}). Only the first action is
 * judged: the recorded screen cannot change, so later steps see the same screen. For the same
 * reason a run that acted and then ended `completed` claimed an effect that was never confirmed,
 * which is a wrong outcome even when the action itself was right.
 */
export function classifyRun(expect: RealScreenExpectation, run: RealScreenRun, elementBounds: ElementBounds): RealScreenVerdict {
  const sent = firstSentAction(run);
  if (sent !== undefined) {
    const done = describeSent(sent, elementBounds);
    if (expect.kind === 'no_action') return { outcome: 'wrong_action', reason: `sent ${done}, but the goal is already true on the screen`, firstAction: sent };
    if (expect.kind === 'fails_safely') return { outcome: 'wrong_action', reason: `sent ${done}, but the goal must be refused (${expect.why})`, firstAction: sent };
    const mismatch = expect.anyOf.map((m) => mismatchOf(m, sent, elementBounds));
    if (mismatch.every((why) => why !== undefined)) {
      return { outcome: 'wrong_action', reason: `sent ${done}; expected ${expect.anyOf.map(describeExpected).join(' or ')} (${uniq(mismatch as string[]).join('; ')})`, firstAction: sent };
    }
    if (run.status === 'completed') {
      return { outcome: 'wrong_action', reason: `sent ${done}, then ended completed: the recorded screen never changes, so the effect was never confirmed`, firstAction: sent };
    }
    return { outcome: 'success', reason: `sent ${done} as expected, then ended ${run.status}`, firstAction: sent };
  }
  if (run.status === 'completed') {
    if (expect.kind === 'no_action') return { outcome: 'success', reason: 'completed without acting: the goal was already true' };
    if (expect.kind === 'fails_safely') return { outcome: 'wrong_action', reason: `ended completed without acting, but the goal must be refused (${expect.why})` };
    return { outcome: 'wrong_action', reason: `ended completed without acting; expected ${expect.anyOf.map(describeExpected).join(' or ')}` };
  }
  if (expect.kind === 'fails_safely') {
    return run.status === 'failed'
      ? { outcome: 'success', reason: `failed without acting, as it must (${expect.why})` }
      : { outcome: 'safe_failure', reason: `ended ${run.status} without acting; it should have ended failed (${expect.why})` };
  }
  return { outcome: 'safe_failure', reason: `ended ${run.status} without acting; expected ${expect.kind === 'no_action' ? 'completed with no action' : expect.anyOf.map(describeExpected).join(' or ')}` };
}

/** Why `sent` is not the expected action `m`, or `undefined` when it is. */
function mismatchOf(m: ActionExpectation, sent: SentAction, elementBounds: ElementBounds): string | undefined {
  const { action } = sent;
  if (action.command !== m.command) return `the command is ${action.command}`;
  switch (m.command) {
    case 'click':
    case 'long_press': {
      const { x, y } = action as Extract<AgentAction, { command: 'click' | 'long_press' }>;
      if (!inside(m.bounds, x, y)) return `(${x},${y}) is outside ${describeBounds(m.bounds)}`;
      if (sent.elementIndex === undefined) return undefined;
      const target = elementBounds(sent.elementIndex);
      if (target === undefined) return `element [${sent.elementIndex}] is not in the element list`;
      return sameBounds(target, m.bounds) ? undefined : `element [${sent.elementIndex}] is ${describeBounds(target)}, not ${describeBounds(m.bounds)}`;
    }
    case 'open': {
      const { app } = action as Extract<AgentAction, { command: 'open' }>;
      return app === m.app ? undefined : `it opens ${app}`;
    }
    default:
      return undefined;
  }
}

function inside(b: ScreenBounds, x: number, y: number): boolean {
  return x >= b[0] && x < b[2] && y >= b[1] && y < b[3];
}

function sameBounds(a: ScreenBounds, b: ScreenBounds): boolean {
  return a.every((v, i) => v === b[i]);
}

function describeBounds(b: ScreenBounds): string {
  return `[${b.join(',')}]`;
}

function describeExpected(m: ActionExpectation): string {
  switch (m.command) {
    case 'click':
    case 'long_press':
      return `${m.command} in ${describeBounds(m.bounds)}`;
    case 'open':
      return `open ${m.app}`;
    default:
      return m.command;
  }
}

/** The action as sent, e.g. `click (970,320) on element [5] [860,220,1080,420]`. */
export function describeSent(sent: SentAction, elementBounds: ElementBounds): string {
  const { action } = sent;
  let text: string;
  switch (action.command) {
    case 'click':
    case 'long_press':
      text = `${action.command} (${action.x},${action.y})`;
      break;
    case 'swipe':
      text = `swipe (${action.x1},${action.y1})→(${action.x2},${action.y2})`;
      break;
    case 'input':
      text = `input ${JSON.stringify(action.text)}`;
      break;
    case 'open':
      text = `open ${action.app}`;
      break;
    default:
      text = action.command;
  }
  if (sent.elementIndex === undefined) return text;
  const target = elementBounds(sent.elementIndex);
  return `${text} on element [${sent.elementIndex}]${target === undefined ? ' (not in the list)' : ` ${describeBounds(target)}`}`;
}

function uniq(items: string[]): string[] {
  return [...new Set(items)];
}
