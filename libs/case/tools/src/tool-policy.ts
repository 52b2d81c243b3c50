import { toolSourceKey, type ToolKind, type ToolSourceRef } from '@mobileclaw/domain';

/**
 * What one caller may call:
 * - `allow`: the exposed tool names it may call (`'*'`: every tool);
 * - `allowSources`: sources whose every tool it may call, by `kind:id` key (`mcp:erp`) or `kind:*`
 *   (`skills:*`: every skills source); a tool is allowed when its name is in `allow` or its source here.
 *   Any other tool answers `TOOL_NOT_FOUND`, as if it did not exist, so a caller learns nothing about
 *   tools it may not use;
 * - `allowActionsWithoutApproval`: the `ACTION` tools it may call without a person's approval, by
 *   exposed name (`'*'`: all); `allowActionSourcesWithoutApproval`: the same by source (`kind:id` or
 *   `kind:*`). Any other `ACTION` tool needs `approved: true` on the call, else `APPROVAL_REQUIRED`.
 *   `OBSERVATION` tools never need approval.
 */
export interface ToolPolicy {
  allow: readonly string[] | '*';
  allowSources?: readonly string[];
  allowActionsWithoutApproval?: readonly string[] | '*';
  allowActionSourcesWithoutApproval?: readonly string[];
}

/** The default policy: every tool, every `ACTION` tool only with approval. */
export const DEFAULT_TOOL_POLICY: ToolPolicy = { allow: '*', allowActionsWithoutApproval: [] };

/**
 * Policies by caller id (e.g. `rest`, `openclaw`, `mcp`, `planner`, `phone:<deviceId>`). A caller's
 * policy is its own entry, else the entry of its prefix with `*` (`phone:*` for `phone:pixel-7`), else
 * `defaultPolicy` ({@link DEFAULT_TOOL_POLICY} unless given).
 */
export interface ToolPolicies {
  byCaller?: Readonly<Record<string, ToolPolicy>>;
  defaultPolicy?: ToolPolicy;
}

/** The policy of `caller` under `policies`: its own, its `prefix:*` one, or the default. */
export function toolPolicyFor(policies: ToolPolicies, caller: string): ToolPolicy {
  const byCaller = policies.byCaller ?? {};
  const own = (key: string): ToolPolicy | undefined => (Object.prototype.hasOwnProperty.call(byCaller, key) ? byCaller[key] : undefined);
  const colon = caller.indexOf(':');
  const family = colon > 0 ? own(`${caller.slice(0, colon)}:*`) : undefined;
  return own(caller) ?? family ?? policies.defaultPolicy ?? DEFAULT_TOOL_POLICY;
}

/** The tool a policy judges: its exposed name and its source. */
export interface PolicyTool {
  exposedName: string;
  source: ToolSourceRef;
}

/** True when `policy` lets its caller call `tool` (by name or by source). */
export function toolAllowed(policy: ToolPolicy, tool: PolicyTool): boolean {
  return policy.allow === '*' || policy.allow.includes(tool.exposedName) || sourceListed(policy.allowSources, tool.source);
}

/** True when a call of `tool` (of `kind`) needs a person's approval under `policy`. */
export function toolNeedsApproval(policy: ToolPolicy, tool: PolicyTool, kind: ToolKind): boolean {
  if (kind !== 'ACTION') return false;
  const without = policy.allowActionsWithoutApproval ?? [];
  if (without === '*' || without.includes(tool.exposedName)) return false;
  return !sourceListed(policy.allowActionSourcesWithoutApproval, tool.source);
}

/** True when `keys` names `source` by `kind:id` or `kind:*`. */
export function sourceListed(keys: readonly string[] | undefined, source: ToolSourceRef): boolean {
  if (!keys || keys.length === 0) return false;
  return keys.includes(toolSourceKey(source)) || keys.includes(`${source.kind}:*`);
}
