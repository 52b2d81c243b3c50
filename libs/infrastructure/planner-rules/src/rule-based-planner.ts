import { MobileClawError, Planner, type PlanDecision, type PlannerHistoryEntry, type PlanningContext } from '@mobileclaw/domain';
import { describeGoal, describeIntent, type GoalIntent } from './goal-intent';
import { parseGoal } from './goal-parser';
import type { LastStep, StepInput, StepOutcome } from './intent-step';
import { planOpen } from './open-step';
import { planOpenUrl } from './open-url-step';
import { Screen } from './screen';
import { planSendMessage } from './send-message-step';
import { planBack, planHome } from './system-navigation-step';
import { planTap } from './tap-step';
import { actionKey, newIntentMemory, TaskMemoryStore, type TaskMemory } from './task-memory';
import { planToggle } from './toggle-step';
import { planType } from './type-step';

/** The kinds of goal the planner handles, for the reason given when it does not understand one. */
const SUPPORTED_KINDS =
  'open an app ("open Settings", "打开设置"), tap an element by its text ("tap Network & internet", "点击 蓝牙"), ' +
  'type text into a field ("type hello into Search", "在搜索框输入 你好"), turn a setting on or off ("turn on Wi-Fi", "关闭蓝牙"), ' +
  'send a message ("send \'hi\' to Alice", "给 Alice 发消息 你好"), open a web address in the browser ("open example.com in browser"), ' +
  'go back or home ("go back", "回到主屏幕"), or several of these joined by "and"/"然后"';

/** How many times the same action may be planned on an unchanged screen before the task fails. */
const MAX_REPEATS = 2;

export interface RuleBasedPlannerOptions {
  /** Tasks whose memory is kept (least recently planned evicted first). Default 256. */
  memoryCapacity?: number;
}

function planIntent(intent: GoalIntent, input: StepInput): StepOutcome {
  switch (intent.kind) {
    case 'open':
      return planOpen(intent.name, input);
    case 'tap':
      return planTap(intent.target, input);
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
 * The embedded default {@link Planner}: deterministic rules over the compact UI element list, no
 * model. It parses the goal into intents (see `SUPPORTED_GOAL_FORMS`), then decides one step from
 * the current screen: an action on an element's centre, `done` only when the screen shows the goal
 * reached, or `fail` with a reason (goal not understood, target not found, the same action twice on
 * an unchanged screen). Messages to new recipients and deleting/paying taps carry `approval`.
 * Actions that cannot be undone (tapping Send, deleting/paying taps) are planned at most once per
 * intent of a task: the loop guard never retries them.
 *
 * It remembers, per task id, the screens it planned on and its progress through compound goals;
 * a task's memory restarts at its first step.
 */
export class RuleBasedPlanner extends Planner {
  readonly name = 'rule-based';
  private readonly memories: TaskMemoryStore;

  constructor(options: RuleBasedPlannerOptions = {}) {
    super();
    this.memories = new TaskMemoryStore(options.memoryCapacity ?? 256);
  }

  /** @throws MobileClawError `ABORTED` when `ctx.signal` has fired. */
  async plan(ctx: PlanningContext): Promise<PlanDecision> {
    if (ctx.signal.aborted) throw new MobileClawError('ABORTED', 'planning was canceled');
    const intents = parseGoal(ctx.goal);
    if (!intents) {
      return {
        type: 'fail',
        reason: `I do not understand the goal ${JSON.stringify(ctx.goal)}. The rule-based planner can: ${SUPPORTED_KINDS}.`,
        reasoning: 'The goal matches none of the supported goal forms.',
      };
    }
    const screen = new Screen(ctx.observation.elements, ctx.observation.package);
    const signature = screen.signature();
    const memory = this.memories.get(ctx.taskId, ctx.goal, ctx.history.length === 0);
    const understood = describeGoal(intents);
    let last = this.lastStep(memory, ctx.history, signature);
    const summaries: string[] = [];

    while (memory.intentIndex < intents.length) {
      const intent = intents[memory.intentIndex] as GoalIntent;
      const intentMemory = (memory.intents[memory.intentIndex] ??= newIntentMemory());
      const outcome = planIntent(intent, { screen, memory: intentMemory, last });
      if (outcome.kind === 'done') {
        summaries.push(outcome.summary);
        memory.intentIndex++;
        last = undefined;
        continue;
      }
      if (outcome.kind === 'fail') {
        const step = intents.length > 1 ? ` At step "${describeIntent(intent)}":` : '';
        return { type: 'fail', reason: `Goal understood as: ${understood}.${step} ${capitalize(outcome.reason)}.`, reasoning: capitalize(outcome.reason) + '.' };
      }
      if (outcome.once !== undefined) {
        // Never repeated, not even once more as the loop guard below would allow: it cannot be undone.
        const onceKey = `${memory.intentIndex}:${outcome.once}`;
        const plannedAt = memory.once.get(onceKey);
        if (plannedAt !== undefined && plannedAt !== ctx.stepIndex) {
          const reason = `${outcome.once} was already done at step ${plannedAt}; it cannot be undone, so it is not repeated`;
          return { type: 'fail', reason: `Goal understood as: ${understood}. ${capitalize(reason)}.`, reasoning: 'Stopping instead of repeating an action that cannot be undone.' };
        }
        memory.once.set(onceKey, ctx.stepIndex);
      }
      const key = actionKey(outcome.action);
      const repeats = this.repeats(memory, ctx, signature, key);
      if (repeats >= MAX_REPEATS) {
        const reason = `the same action (${key}) was already tried ${repeats} times on this screen without any change`;
        return { type: 'fail', reason: `Goal understood as: ${understood}. ${capitalize(reason)}.`, reasoning: 'Stopping instead of repeating an action that has no effect.' };
      }
      memory.steps.set(ctx.stepIndex, { signature, actionKey: key });
      const decision: PlanDecision = { type: 'action', action: outcome.action, reasoning: outcome.reasoning };
      if (outcome.element) decision.elementIndex = outcome.element.index;
      if (outcome.approval) decision.approval = outcome.approval;
      return decision;
    }
    const summary = summaries.length > 0 ? summaries.join(' ') : 'Nothing left to do.';
    return { type: 'done', summary, reasoning: `The screen shows the goal reached (${understood}).` };
  }

  /** The previous step with whether the screen changed since it was planned (unknown without memory of it). */
  private lastStep(memory: TaskMemory, history: readonly PlannerHistoryEntry[], signature: string): LastStep | undefined {
    const entry = history[history.length - 1];
    if (!entry) return undefined;
    const planned = memory.steps.get(entry.index);
    const last: LastStep = {};
    if (entry.decision.type === 'action') last.action = entry.decision.action;
    if (entry.result) last.result = entry.result;
    if (planned) last.changed = planned.signature !== signature;
    return last;
  }

  /**
   * How many earlier steps planned action `key` on this very screen. Steps planned before this
   * planner's memory of the task (e.g. after a restart) count when they are the latest run of `key`.
   */
  private repeats(memory: TaskMemory, ctx: PlanningContext, signature: string, key: string): number {
    let count = 0;
    for (const entry of ctx.history) {
      const planned = memory.steps.get(entry.index);
      if (planned) {
        if (planned.signature === signature && planned.actionKey === key) count++;
      }
    }
    if (count > 0) return count;
    let tail = 0;
    for (let i = ctx.history.length - 1; i >= 0; i--) {
      const entry = ctx.history[i] as PlannerHistoryEntry;
      if (memory.steps.has(entry.index) || entry.decision.type !== 'action' || actionKey(entry.decision.action) !== key) break;
      tail++;
    }
    return tail;
  }
}
