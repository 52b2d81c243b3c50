import type { ToolPolicy } from './tool-types';

/** Whether one policy lets `name` through: listed in `allow` (or `allow: '*'`) and not in `deny`. An absent policy allows nothing. */
export function policyAllows(policy: ToolPolicy | undefined, name: string): boolean {
  if (!policy) return false;
  const allowed = policy.allow === '*' || policy.allow.includes(name);
  return allowed && !(policy.deny ?? []).includes(name);
}

/**
 * Why `name` is not exposed under the conversation's and the invocation's policies, or undefined when
 * both allow it. The invocation can only narrow: the conversation's policy is asked first.
 */
export function visibilityRefusal(name: string, conversationPolicy: ToolPolicy | undefined, invocationPolicy: ToolPolicy | undefined): string | undefined {
  if (!conversationPolicy) return `tool ${name} is not exposed: the conversation has no tool policy`;
  if (!policyAllows(conversationPolicy, name)) return `tool ${name} is not exposed: the conversation's tool policy does not allow it`;
  if (!invocationPolicy) return `tool ${name} is not exposed: this invocation has no tool policy`;
  if (!policyAllows(invocationPolicy, name)) return `tool ${name} is not exposed: this invocation's tool policy does not allow it`;
  return undefined;
}
