/**
 * Words that mark an action as needing a human's approval: deleting data and spending money
 * (English and Chinese).
 */
const SENSITIVE = /(?:^|[^\p{L}])(?:delete|remove|erase|wipe|uninstall|factory reset|reset|pay|payment|purchase|buy|checkout|check out|place order|transfer|send money)(?:$|[^\p{L}])|删除|移除|清除|清空|卸载|抹掉|重置|恢复出厂|支付|付款|购买|下单|转账|付钱/iu;

/** Why tapping something labelled by `labels` needs approval, or `undefined` when it does not. */
export function sensitiveTapReason(labels: readonly string[]): string | undefined {
  const hit = labels.find((l) => SENSITIVE.test(l));
  return hit === undefined ? undefined : `tapping ${JSON.stringify(hit)} may delete data or spend money`;
}
