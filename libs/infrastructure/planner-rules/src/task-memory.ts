import type { PlannerHistoryEntry } from '@mobileclaw/domain';
import { actionKey } from './action-key';
import type { GoalIntent } from './goal-intent';
import { Screen } from './screen';
import { decideStep } from './step-decision';

/** What the planner knows about one intent of a goal while working on it. */
export interface IntentMemory {
  /** Packages this intent launched with `open`. */
  opened: Set<string>;
  /** Normalised labels this intent tapped (navigation rows, fields, buttons). */
  tapped: Set<string>;
  /** Swipes done to look for a target. */
  scrolls: number;
  /** Free-form facts of the intent's own flow (e.g. `recipientIsNew`, `sent`, `scrolledBeforeHome`). */
  facts: Map<string, boolean | string | number>;
}

/** One planned action, with the screen it was planned on. */
export interface PlannedStep {
  signature: string;
  /** Canonical JSON of the action, to compare actions. */
  actionKey: string;
}

/** What the planner knows about one task: the screens its earlier steps were planned on, the current intent. */
export interface TaskMemory {
  /** Index of the intent being worked on, for compound goals. */
  intentIndex: number;
  intents: IntentMemory[];
  /** Planned actions by step index. */
  steps: Map<number, PlannedStep>;
  /**
   * Actions that must happen at most once (see `StepOutcome.once`), keyed by intent index and
   * description (`2:send "hi" to Alice`), with the step index they were planned at.
   */
  once: Map<string, number>;
}

/**
 * The memory of a task working on `intents` (parsed from `goal`, which the steps may read too), derived from its history alone: every earlier step is
 * planned again, in order, on the observation it was planned on (the planner is deterministic), and
 * what that taught is kept when it yields the action the step took. A step without an observation,
 * or one this planner would not have taken, teaches nothing; the loop guard then falls back to the
 * bare actions of the history. No state outlives the call, so a task can move between planner
 * instances (or a restart) at any step, and a finished task leaves nothing behind.
 */
export function taskMemoryFrom(history: readonly PlannerHistoryEntry[], intents: readonly GoalIntent[], goal?: string): TaskMemory {
  let memory: TaskMemory = { intentIndex: 0, intents: [], steps: new Map(), once: new Map() };
  history.forEach((entry, position) => {
    if (entry.observation === undefined || entry.decision.type !== 'action') return;
    const replayed = structuredClone(memory);
    const screen = new Screen(entry.observation.elements, entry.observation.package);
    const decision = decideStep(intents, replayed, { index: entry.index, screen, history: history.slice(0, position), ...(goal === undefined ? {} : { goal }) });
    if (decision.type === 'action' && actionKey(decision.action) === actionKey(entry.decision.action)) memory = replayed;
  });
  return memory;
}
