import { MobileClawError, Planner, type PlanDecision, type PlannerHistoryEntry, type PlanningContext } from '@mobileclaw/domain';
import { decideWithToolCalls } from './caller-tool-step';
import { parseGoal } from './goal-parser';
import { normalizeGoal } from './goal-text';
import { aliasNote, memoryAliases, resolveAliases } from './memory-aliases';
import { decideRemember, parseRememberGoal } from './remember-goal';
import { Screen } from './screen';
import { decideStep } from './step-decision';
import { taskMemoryFrom } from './task-memory';
import { ToolClauseError, splitToolCalls, type GoalSegment } from './tool-call-clauses';

/** The kinds of goal the planner handles, for the reason given when it does not understand one. */
const SUPPORTED_KINDS =
  'open an app or a visible item ("open Settings", "打开设置", "go to the Timer tab", "open it with Calendar"), open the page a question is about ("how much storage is left?"), ' +
  'tap an element by its text ("tap Network & internet", "点击 蓝牙"), ' +
  'answer a dialog, permission prompt or tour ("OK", "dismiss the dialog", "skip the tour", "allow", "deny", "wait", "log in", "知道了", "允许", "登录"), ' +
  'use a control of something on the screen ("expand the 9:00 AM alarm", "add X to the cart"), add something ("add an alarm", "添加闹钟"), ' +
  'type text into a field ("type hello into Search", "enter Yamada as my last name", "在搜索框输入 你好"), search for a given query ("search settings for NFC", "搜索 蓝牙耳机"), ' +
  'turn a setting on or off ("turn on Wi-Fi", "关闭蓝牙", "turn on Bluetooth and Wi-Fi", "打开8:30的闹钟"), ' +
  'send a message ("send \'hi\' to Alice", "给 Alice 发消息 你好"), open a web address in the browser ("open example.com in browser"), ' +
  'go back or home ("go back", "回到主屏幕"), remember a fact with the gateway\'s memory_store tool ("remember that mom is Alice", "记住我的办公室Wi-Fi是ACME-5G"), or several of these joined by "and"/"然后" or, in Chinese, written one after the other ("打开浏览器访问 example.com")';

/**
 * The embedded default {@link Planner}: deterministic rules over the compact UI element list, no
 * model. It parses the goal into intents (see `SUPPORTED_GOAL_FORMS`), then decides one step from
 * the current screen: an action on an element's centre, `done` only when the screen shows the goal
 * reached, or `fail` with a reason (goal not understood, target not found, the same action twice on
 * an unchanged screen). Messages to new recipients and deleting/paying taps carry `approval`.
 * Actions that cannot be undone (tapping Send, deleting/paying taps) are planned at most once per
 * intent of a task: the loop guard never retries them.
 *
 * When the task offers caller tools (`ctx.tools`, even `[]`), a goal may call them: `call|use|run
 * <name> [with <JSON object>]` clauses ({@link splitToolCalls}) become `tool_call` steps between the
 * other clauses, any name (the caller rejects one it does not have); see {@link decideWithToolCalls}.
 * The gateway's tools (`ctx.gatewayTools`) resolve the same clauses; a task with gateway tools and
 * no caller tools reads only the explicit `$<name> [<JSON object>]` as a tool call. Without either,
 * such words are read as before.
 *
 * Memory: a goal that asks to remember something ("remember that mom is Alice", "remember my office
 * Wi-Fi is ACME-5G", "记住妈妈是Alice") becomes a `tool_call` of the gateway's `memory_store` and is
 * done once that stored it ({@link decideRemember}). A name a goal uses that the task's memories
 * (`ctx.memories`) state an alias of ("mom is Alice") is planned with the name they give it, and the
 * step's reasoning says so ({@link resolveAliases}).
 *
 * It keeps no state: what it knows about a task (the screens of earlier steps, its progress through
 * a compound goal) is derived from `ctx.history` on every call (see {@link taskMemoryFrom}), so one
 * instance serves any number of tasks, and a task may continue on another instance.
 */
export class RuleBasedPlanner extends Planner {
  readonly name = 'rule-based';

  /** @throws MobileClawError `ABORTED` when `ctx.signal` has fired. */
  async plan(ctx: PlanningContext): Promise<PlanDecision> {
    if (ctx.signal.aborted) throw new MobileClawError('ABORTED', 'planning was canceled');
    // The goal's words as the rules read them: no format characters, one space between words.
    const goal = normalizeGoal(ctx.goal).text;
    if (goal === '') {
      return {
        type: 'fail',
        reason: 'The goal has no visible text: it is only spaces and invisible format characters (such as U+202E, U+200B or U+FEFF).',
        reasoning: 'Nothing is left of the goal once invisible format characters and spaces are removed.',
      };
    }
    const remember = parseRememberGoal(goal);
    if (remember) return decideRemember(remember, ctx.history, ctx.gatewayTools);
    const gatewayNames = (ctx.gatewayTools ?? []).map((tool) => tool.name);
    if (ctx.tools !== undefined || gatewayNames.length > 0) {
      let segments: GoalSegment[];
      try {
        segments = splitToolCalls(ctx.goal, [...(ctx.tools ?? []).map((tool) => tool.name), ...gatewayNames], { dollarOnly: ctx.tools === undefined });
      } catch (err) {
        if (!(err instanceof ToolClauseError)) throw err;
        return { type: 'fail', reason: `The goal's tool call cannot be read: ${err.message}.`, reasoning: 'A tool-call clause of the goal is malformed.' };
      }
      if (segments.some((segment) => segment.kind === 'tool')) {
        return decideWithToolCalls(segments, ctx.history, (text, history) => this.planGoal(text, normalizeGoal(text).text, history, ctx));
      }
    }
    return this.planGoal(ctx.goal, goal, ctx.history, ctx);
  }

  /** One step toward `rawGoal` (`goal` its normalised words) on the current screen, knowing `history`. */
  private planGoal(rawGoal: string, goal: string, history: readonly PlannerHistoryEntry[], ctx: PlanningContext): PlanDecision {
    const parsed = parseGoal(rawGoal);
    if (!parsed) {
      return {
        type: 'fail',
        reason: `I do not understand the goal ${JSON.stringify(rawGoal)}. The rule-based planner can: ${SUPPORTED_KINDS}.`,
        reasoning: 'The goal matches none of the supported goal forms.',
      };
    }
    const { intents, used } = resolveAliases(parsed, memoryAliases(ctx.memories));
    const memory = taskMemoryFrom(history, intents, goal);
    const screen = new Screen(ctx.observation.elements, ctx.observation.package);
    const decision = decideStep(intents, memory, { index: ctx.stepIndex, screen, history, goal });
    return used.length === 0 ? decision : { ...decision, reasoning: `${decision.reasoning} — ${aliasNote(used)}` };
  }
}
