import type { AgentAction, PlanDecision, TaskError, UiElement } from '@mobileclaw/domain';
import type { ActionVerdict } from './step-verification';

/**
 * An action's command and arguments in one form whatever their order: two plans of "the same action"
 * (same command, same coordinates or text) have the same key. Arguments set to undefined count as absent.
 */
export function actionKey(action: AgentAction): string {
  const args = Object.entries(action)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(args);
}

/**
 * A short description of an action for messages, in device px: `tap on "Wi-Fi" at (50, 25)`,
 * `type "hello"`, `open com.android.settings`, `press Back`, … `target` is the element it was planned
 * on, named by its label when it has one.
 */
export function describeAction(action: AgentAction, target?: UiElement): string {
  const label = target?.label ?? target?.text ?? target?.desc;
  const on = label ? ` on ${JSON.stringify(label)}` : '';
  switch (action.command) {
    case 'click':
      return `tap${on} at (${action.x}, ${action.y})`;
    case 'long_press':
      return `long press${on} at (${action.x}, ${action.y})`;
    case 'swipe':
      return `swipe from (${action.x1}, ${action.y1}) to (${action.x2}, ${action.y2})`;
    case 'input':
      return `type ${JSON.stringify(action.text)}`;
    case 'open':
      return `open ${action.app}`;
    case 'back':
      return 'press Back';
    case 'home':
      return 'press Home';
  }
}

/**
 * The loop's rule against a false success, for every planner: an action whose effect the next screen
 * does not show (its verdict is `verified: false`) may be planned once more; when the same action
 * (same {@link actionKey}) right after it shows no effect either, the task fails with `NO_EFFECT`. A
 * `done` planned right after an action with no visible effect is refused the same way: nothing on
 * screen confirms the goal. A swipe that changed nothing (the end of a list) has no verdict and never
 * counts.
 */
export class NoEffectRule {
  /** The last step whose action had no visible effect. */
  private unseen?: { index: number; key: string; action: string; unseen: string };

  /**
   * Takes the next screen's verdict on step `index`'s action (`decision`, planned on `target` when it
   * names an element); call it once per verified step, in step order.
   * @returns the `NO_EFFECT` error when this action had no visible effect and repeated, with the same
   *   arguments, the action of step `index - 1`, which had none either; else undefined.
   */
  judge(index: number, decision: PlanDecision | undefined, verdict: ActionVerdict | undefined, target?: UiElement): TaskError | undefined {
    const previous = this.unseen;
    this.unseen = undefined;
    if (decision?.type !== 'action' || verdict === undefined || verdict.verified) return undefined;
    const key = actionKey(decision.action);
    this.unseen = { index, key, action: describeAction(decision.action, target), unseen: verdict.unseen };
    if (previous?.index !== index - 1 || previous.key !== key) return undefined;
    return { code: 'NO_EFFECT', message: `the action (${this.unseen.action}) had no visible effect, also when tried again: ${verdict.unseen}` };
  }

  /**
   * @returns the `NO_EFFECT` error for a `done` planned at step `index` right after an action with no
   *   visible effect; undefined when the action before it had one, or had no verdict.
   */
  refuseDone(index: number): TaskError | undefined {
    const last = this.unseen;
    if (last?.index !== index - 1) return undefined;
    return { code: 'NO_EFFECT', message: `the last action (${last.action}) had no visible effect (${last.unseen}), so the goal is not confirmed` };
  }
}
