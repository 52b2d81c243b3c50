import { toolSourceKey, type ToolSourceKind, type ToolSourceRef } from '@mobileclaw/domain';

/**
 * Which source wins a tool name two sources list. Native tools (the phone's actions, the gateway's own
 * tools) always come first and cannot be shadowed — a skill or a remote server must never redefine what
 * `tap` does; the other kinds follow in `tiers` order, strongest first. Kinds in one tier rank by
 * `sourceOrder` (the configuration order of their sources), then sources it does not name by their
 * `kind:id`. A kind in no tier ranks after every tier.
 */
export interface ToolPrecedence {
  /** Tiers of source kinds after `native`, strongest first. `native` may not appear (it is pinned first). */
  tiers: readonly (readonly Exclude<ToolSourceKind, 'native'>[])[];
  /** Source keys (`kind:id`, e.g. `mcp:erp`) in configuration order: the order within a tier. */
  sourceOrder?: readonly string[];
}

/**
 * The default: native > workspace SKILL.md skills > agent sessions > remote catalogs (MCP servers and
 * HTTP catalogs, one tier, in configuration order). Written knowledge a person put in the workspace
 * beats what a remote agent or server offers under the same name.
 */
export const DEFAULT_TOOL_PRECEDENCE: ToolPrecedence = { tiers: [['skills'], ['agent'], ['mcp', 'catalog']] };

/** A source's place in the precedence: compare with {@link compareToolSourceRanks}; lower wins. */
export interface ToolSourceRank {
  tier: number;
  order: number;
  key: string;
}

/**
 * The rank of each source under `precedence`.
 * @throws Error when `precedence` lists `native` or one kind twice.
 */
export function toolSourceRanker(precedence: ToolPrecedence): (ref: ToolSourceRef) => ToolSourceRank {
  const tierOf = new Map<string, number>();
  precedence.tiers.forEach((tier, index) => {
    for (const kind of tier) {
      if ((kind as string) === 'native') throw new Error('tool precedence: native is always first and cannot be placed in a tier');
      if (tierOf.has(kind)) throw new Error(`tool precedence: source kind ${kind} appears twice`);
      tierOf.set(kind, index + 1);
    }
  });
  const orderOf = new Map((precedence.sourceOrder ?? []).map((key, index) => [key, index] as const));
  return (ref) => {
    const key = toolSourceKey(ref);
    return {
      tier: ref.kind === 'native' ? 0 : (tierOf.get(ref.kind) ?? precedence.tiers.length + 1),
      order: orderOf.get(key) ?? Number.MAX_SAFE_INTEGER,
      key,
    };
  };
}

/** Negative when `a` wins over `b`. Total: two distinct sources never tie (their keys differ). */
export function compareToolSourceRanks(a: ToolSourceRank, b: ToolSourceRank): number {
  return a.tier - b.tier || a.order - b.order || compareStrings(a.key, b.key);
}

/** Code-unit order, the same in every locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
