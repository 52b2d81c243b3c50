import type { UiElement } from './ui-elements';

/**
 * Words that mark an action as needing a human's approval: deleting data, spending money,
 * subscribing (English and Chinese). Matched on the label of the element an action targets; one list
 * for the case layer's approval policy and for planners that flag such actions themselves.
 */
export const SENSITIVE_ACTION_PATTERN =
  /(?:^|[^\p{L}])(?:delete|remove|erase|wipe|uninstall|factory reset|reset|pay|payment|purchase|buy|checkout|check out|place order|transfer|send money|subscribe)(?:$|[^\p{L}])|删除|移除|清除|清空|卸载|抹掉|重置|恢复出厂|支付|付款|购买|下单|转账|付钱|订阅/iu;

/** The first label that names a sensitive action (see {@link SENSITIVE_ACTION_PATTERN}), or undefined. */
export function sensitiveLabel(labels: readonly (string | undefined)[]): string | undefined {
  return labels.find((label): label is string => !!label && SENSITIVE_ACTION_PATTERN.test(label));
}

/**
 * The first of an element's labels that names a sensitive action: its text, its content description,
 * then its `label` from wherever it came ({@link UiElement.labelSource}: an icon-only "Delete" button
 * is named only by its row, its card or its resource id, and tapping it deletes all the same).
 * `undefined` when none does.
 */
export function sensitiveElementLabel(element: Pick<UiElement, 'text' | 'desc' | 'label'>): string | undefined {
  return sensitiveLabel([element.text, element.desc, element.label]);
}
