import type { AgentAction } from '@mobileclaw/domain';

/** Canonical JSON of an action (keys sorted), to compare actions: `{"command":"click","x":540,"y":497}`. */
export function actionKey(action: AgentAction): string {
  const entries = Object.entries(action).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(Object.fromEntries(entries));
}
