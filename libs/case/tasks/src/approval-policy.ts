import { SENSITIVE_ACTION_PATTERN, boundsContain, type AgentAction, type ApprovalRequest, type PlanDecision, type UiElement } from '@mobileclaw/domain';

/**
 * Decides whether an action needs a human's approval before it runs. The planner's own request wins;
 * otherwise a tap or long press on an element (or a point inside one) whose text, description or
 * borrowed label ({@link UiElement.label}: an icon-only button named by its row or card) matches
 * {@link SENSITIVE_ACTION_PATTERN} needs approval. Returns the reason, or undefined.
 */
export function approvalFor(decision: PlanDecision, elements: UiElement[], pattern = SENSITIVE_ACTION_PATTERN): ApprovalRequest | undefined {
  if (decision.type !== 'action') return undefined;
  if (decision.approval) return decision.approval;
  const target = targetOf(decision.action, decision.elementIndex, elements);
  if (!target) return undefined;
  const own = [target.text, target.desc].filter(Boolean).join(' ');
  const label = own && pattern.test(own) ? own : target.label && pattern.test(target.label) ? target.label : undefined;
  if (label) return { reason: `"${label}" looks like a sensitive action (payment, deletion or similar)` };
  return undefined;
}

function targetOf(action: AgentAction, elementIndex: number | undefined, elements: UiElement[]): UiElement | undefined {
  if (elementIndex !== undefined && elements[elementIndex]) return elements[elementIndex];
  if (action.command !== 'click' && action.command !== 'long_press') return undefined;
  // The innermost labelled element under the point (later elements are deeper in document order).
  const hits = elements.filter((e) => (e.text || e.desc || e.label) && boundsContain(e.bounds, action.x, action.y));
  return hits[hits.length - 1];
}
