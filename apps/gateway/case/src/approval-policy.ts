import type { AgentAction, ApprovalRequest, PlanDecision, UiElement } from '@mobileclaw/domain';

/**
 * Words that mark an action as sensitive (paying, buying, deleting, transferring money, uninstalling),
 * matched on the target element's label and on typed text. English and Chinese.
 */
export const SENSITIVE_ACTION_PATTERN =
  /\b(pay|payment|purchase|buy|checkout|place order|delete|remove|erase|reset|transfer|uninstall|subscribe)\b|付款|支付|购买|下单|删除|清除|转账|卸载|订阅|恢复出厂/i;

/**
 * Decides whether an action needs a human's approval before it runs. The planner's own request wins;
 * otherwise a tap or long press on an element (or a point inside one) whose text or description
 * matches {@link SENSITIVE_ACTION_PATTERN} needs approval. Returns the reason, or undefined.
 */
export function approvalFor(decision: PlanDecision, elements: UiElement[], pattern = SENSITIVE_ACTION_PATTERN): ApprovalRequest | undefined {
  if (decision.type !== 'action') return undefined;
  if (decision.approval) return decision.approval;
  const target = targetOf(decision.action, decision.elementIndex, elements);
  const label = target ? [target.text, target.desc].filter(Boolean).join(' ') : '';
  if (label && pattern.test(label)) return { reason: `"${label}" looks like a sensitive action (payment, deletion or similar)` };
  return undefined;
}

function targetOf(action: AgentAction, elementIndex: number | undefined, elements: UiElement[]): UiElement | undefined {
  if (elementIndex !== undefined && elements[elementIndex]) return elements[elementIndex];
  if (action.command !== 'click' && action.command !== 'long_press') return undefined;
  // The innermost labelled element under the point (later elements are deeper in document order).
  const hits = elements.filter(
    (e) => (e.text || e.desc) && action.x >= e.bounds[0] && action.x < e.bounds[2] && action.y >= e.bounds[1] && action.y < e.bounds[3],
  );
  return hits[hits.length - 1];
}
