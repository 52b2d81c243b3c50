import { sensitiveLabel } from '@mobileclaw/domain';

/** Why tapping something labelled by `labels` needs approval, or `undefined` when it does not. */
export function sensitiveTapReason(labels: readonly string[]): string | undefined {
  const hit = sensitiveLabel(labels);
  return hit === undefined ? undefined : `tapping ${JSON.stringify(hit)} may delete data or spend money`;
}
