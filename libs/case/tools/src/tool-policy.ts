import type { ToolKind } from '@mobileclaw/domain';

/**
 * What one caller may call, by exposed tool name:
 * - `allow`: the tools it may call (`'*'`: every tool); any other answers `TOOL_NOT_FOUND`, as if it
 *   did not exist, so a caller learns nothing about tools it may not use;
 * - `allowActionsWithoutApproval`: the `ACTION` tools it may call without a person's approval (`'*'`:
 *   all); any other `ACTION` tool needs `approved: true` on the call, else `APPROVAL_REQUIRED`.
 *   `OBSERVATION` tools never need approval.
 */
export interface ToolPolicy {
  allow: readonly string[] | '*';
  allowActionsWithoutApproval?: readonly string[] | '*';
}

/** The default policy: every tool, every `ACTION` tool only with approval. */
export const DEFAULT_TOOL_POLICY: ToolPolicy = { allow: '*', allowActionsWithoutApproval: [] };

/**
 * Policies by caller id (e.g. `rest`, `openclaw`, `phone:<deviceId>`); a caller without an entry gets
 * `defaultPolicy` ({@link DEFAULT_TOOL_POLICY} unless given).
 */
export interface ToolPolicies {
  byCaller?: Readonly<Record<string, ToolPolicy>>;
  defaultPolicy?: ToolPolicy;
}

/** The policy of `caller` under `policies`. */
export function toolPolicyFor(policies: ToolPolicies, caller: string): ToolPolicy {
  const own = policies.byCaller && Object.prototype.hasOwnProperty.call(policies.byCaller, caller) ? policies.byCaller[caller] : undefined;
  return own ?? policies.defaultPolicy ?? DEFAULT_TOOL_POLICY;
}

/** True when `policy` lets its caller call the tool `name`. */
export function toolAllowed(policy: ToolPolicy, name: string): boolean {
  return policy.allow === '*' || policy.allow.includes(name);
}

/** True when a call of `name` (of `kind`) needs a person's approval under `policy`. */
export function toolNeedsApproval(policy: ToolPolicy, name: string, kind: ToolKind): boolean {
  if (kind !== 'ACTION') return false;
  const without = policy.allowActionsWithoutApproval ?? [];
  return !(without === '*' || without.includes(name));
}
