import type { PlanDecision, PlannerHistoryEntry } from '@mobileclaw/domain';
import { actionKey } from './action-key';
import { describeGoal, describeIntent, type GoalIntent } from './goal-intent';
import type { LastStep, StepInput, StepOutcome } from './intent-step';
import { planOpen } from './open-step';
import { planOpenUrl } from './open-url-step';
import type { Screen } from './screen';
import { planSendMessage } from './send-message-step';
import { planBack, planHome } from './system-navigation-step';
import { planTap } from './tap-step';
import type { IntentMemory, TaskMemory } from './task-memory';
import { planToggle } from './toggle-step';
import { planType } from './type-step';

/** How many times the same action may be planned on an unchanged screen before the task fails. */
const MAX_REPEATS = 2;

/** The step being decided. */
export interface StepContext {
  /** 0-based index of the step. */
  index: number;
  /** The screen it is planned on. */
  screen: Screen;
  /** The task's earlier steps, oldest first. */
  history: readonly PlannerHistoryEntry[];
  /**
   * The goal as the user wrote it, when known: the words an intent's parse leaves out (the verb of
   * "show password", the "app" of "open Clock app") may still name the target (see `planOpen`).
   */
  goal?: string;
}

function newIntentMemory(): IntentMemory {
  return { opened: new Set(), tapped: new Set(), scrolls: 0, facts: new Map() };
}

function planIntent(intent: GoalIntent, input: StepInput, goal: string | undefined): StepOutcome {
  switch (intent.kind) {
    case 'open':
      return planOpen(intent.name, input, intent.orSwitchOn === true, goal);
    case 'tap':
      return planTap(intent, input);
    case 'type':
      return planType(intent.text, intent.field, input);
    case 'toggle':
      return planToggle(intent.setting, intent.on, input);
    case 'send_message':
      return planSendMessage(intent.recipient, intent.text, input);
    case 'open_url':
      return planOpenUrl(intent.url, input);
    case 'back':
      return planBack(input);
    case 'home':
      return planHome(input);
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Decides one step of a task working on `intents` (at least one): runs the current intent's rules on
 * the screen, moving on to the next intent while the screen shows one done, and guards against
 * repeating an action that cannot be undone or that has no effect. Updates `memory` with what the
 * step taught (the planner's memory of the task after this step); reads nothing else.
 */
export function decideStep(intents: readonly GoalIntent[], memory: TaskMemory, step: StepContext): PlanDecision {
  const understood = describeGoal(intents);
  const signature = step.screen.signature();
  let last = lastStep(memory, step.history, signature);
  const summaries: string[] = [];

  while (memory.intentIndex < intents.length) {
    const intent = intents[memory.intentIndex] as GoalIntent;
    const intentMemory = (memory.intents[memory.intentIndex] ??= newIntentMemory());
    const outcome = planIntent(intent, { screen: step.screen, memory: intentMemory, last }, step.goal);
    if (outcome.kind === 'done') {
      summaries.push(outcome.summary);
      memory.intentIndex++;
      last = undefined;
      continue;
    }
    if (outcome.kind === 'fail') {
      const where = intents.length > 1 ? ` At step "${describeIntent(intent)}":` : '';
      return { type: 'fail', reason: `Goal understood as: ${understood}.${where} ${capitalize(outcome.reason)}.`, reasoning: capitalize(outcome.reason) + '.' };
    }
    if (outcome.once !== undefined) {
      // Never repeated, not even once more as the loop guard below would allow: it cannot be undone.
      const onceKey = `${memory.intentIndex}:${outcome.once}`;
      const plannedAt = memory.once.get(onceKey);
      if (plannedAt !== undefined && plannedAt !== step.index) {
        const reason = `${outcome.once} was already done at step ${plannedAt}; it cannot be undone, so it is not repeated`;
        return { type: 'fail', reason: `Goal understood as: ${understood}. ${capitalize(reason)}.`, reasoning: 'Stopping instead of repeating an action that cannot be undone.' };
      }
      memory.once.set(onceKey, step.index);
    }
    const key = actionKey(outcome.action);
    const repeats = countRepeats(memory, step.history, signature, key);
    if (repeats >= MAX_REPEATS) {
      const reason = `the same action (${key}) was already tried ${repeats} times on this screen without any change`;
      return { type: 'fail', reason: `Goal understood as: ${understood}. ${capitalize(reason)}.`, reasoning: 'Stopping instead of repeating an action that has no effect.' };
    }
    memory.steps.set(step.index, { signature, actionKey: key });
    const decision: PlanDecision = { type: 'action', action: outcome.action, reasoning: outcome.reasoning };
    if (outcome.element) decision.elementIndex = outcome.element.index;
    if (outcome.approval) decision.approval = outcome.approval;
    return decision;
  }
  const summary = summaries.length > 0 ? summaries.join(' ') : 'Nothing left to do.';
  return { type: 'done', summary, reasoning: `The screen shows the goal reached (${understood}).` };
}

/** The previous step with whether the screen changed since it was planned (unknown when the memory has no record of it). */
function lastStep(memory: TaskMemory, history: readonly PlannerHistoryEntry[], signature: string): LastStep | undefined {
  const entry = history[history.length - 1];
  if (!entry) return undefined;
  const planned = memory.steps.get(entry.index);
  const last: LastStep = {};
  if (entry.decision.type === 'action') {
    last.action = entry.decision.action;
    if (entry.decision.elementIndex !== undefined) last.elementIndex = entry.decision.elementIndex;
  }
  if (entry.result) last.result = entry.result;
  if (planned) last.changed = planned.signature !== signature;
  return last;
}

/**
 * How many earlier steps planned action `key` on this very screen. Steps the memory has no record of
 * (no observation in the history) count when they are the latest run of `key`.
 */
function countRepeats(memory: TaskMemory, history: readonly PlannerHistoryEntry[], signature: string, key: string): number {
  let count = 0;
  for (const entry of history) {
    const planned = memory.steps.get(entry.index);
    if (planned && planned.signature === signature && planned.actionKey === key) count++;
  }
  if (count > 0) return count;
  let tail = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const entry = history[i] as PlannerHistoryEntry;
    if (memory.steps.has(entry.index) || entry.decision.type !== 'action' || actionKey(entry.decision.action) !== key) break;
    tail++;
  }
  return tail;
}
