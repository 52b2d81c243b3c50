import { sensitiveElementLabel, sensitiveLabel, type UiElement } from '@mobileclaw/domain';

/**
 * Why tapping needs approval, or `undefined` when it does not: when one of `names` (the goal's name
 * of the target) or a label of one of `elements` (the element tapped and the one whose label
 * matched: own text, description, or a label borrowed from its row, card or resource id) names
 * deleting data or spending money.
 */
export function sensitiveTapReason(names: readonly string[], elements: readonly UiElement[] = []): string | undefined {
  const hit = sensitiveLabel(names) ?? elements.map(sensitiveElementLabel).find((label) => label !== undefined);
  return hit === undefined ? undefined : `tapping ${JSON.stringify(hit)} may delete data or spend money`;
}
