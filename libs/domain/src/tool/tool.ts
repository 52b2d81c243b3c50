/**
 * What an agent can do besides looking at the screen: a tool. One shape for every source — the phone's
 * own actions, a remote MCP server's or HTTP catalog's tools, another agent, a SKILL.md folder — so that
 * every face (the planner, MCP, REST, the phone) lists and calls them alike.
 */

/**
 * Whether calling a tool changes anything. `OBSERVATION` only reads (a lookup, a skill's instructions);
 * `ACTION` may change the world (a payment, a booking, a message sent) and so goes through the same
 * approval as sensitive phone actions unless a policy allows it.
 */
export type ToolKind = 'OBSERVATION' | 'ACTION';

/** Every {@link ToolKind}. */
export const TOOL_KINDS = ['OBSERVATION', 'ACTION'] as const satisfies readonly ToolKind[];

/**
 * How a call runs:
 * - `NATIVE`: in the gateway itself (the phone's actions, gateway-local tools);
 * - `REMOTE_PROXY`: forwarded to a remote tool server (an MCP server, an HTTP tool catalog);
 * - `AGENT_SESSION`: delegated to another agent, which is asked to call the tool and answer;
 * - `SKILL`: a SKILL.md skill; calling it (activating it) returns its instructions for the planner to follow.
 */
export type ToolExecutionMode = 'NATIVE' | 'REMOTE_PROXY' | 'AGENT_SESSION' | 'SKILL';

/** Every {@link ToolExecutionMode}. */
export const TOOL_EXECUTION_MODES = ['NATIVE', 'REMOTE_PROXY', 'AGENT_SESSION', 'SKILL'] as const satisfies readonly ToolExecutionMode[];

/**
 * The kinds of tool source: the gateway's own tools, a remote MCP server, a remote HTTP tool catalog, a
 * remote agent, and folders of SKILL.md skills.
 */
export type ToolSourceKind = 'native' | 'mcp' | 'catalog' | 'agent' | 'skills';

/** Every {@link ToolSourceKind}. */
export const TOOL_SOURCE_KINDS = ['native', 'mcp', 'catalog', 'agent', 'skills'] as const satisfies readonly ToolSourceKind[];

/** A source id: 1–32 of `[A-Za-z0-9_-]`, so that `<id>_<name>` can prefix a colliding tool name. */
export const TOOL_SOURCE_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Which source a tool comes from: its kind and an id unique among the sources of that kind (a
 * configured server's or catalog's name, `workspace` for the SKILL.md folders). Written `kind:id`
 * ({@link toolSourceKey}), e.g. `skills:workspace`, `mcp:erp`.
 */
export interface ToolSourceRef {
  kind: ToolSourceKind;
  /** Matches {@link TOOL_SOURCE_ID_PATTERN}. */
  id: string;
}

/** A source's `kind:id` form, e.g. `skills:workspace`: unique among sources, stable across restarts. */
export function toolSourceKey(ref: ToolSourceRef): string {
  return `${ref.kind}:${ref.id}`;
}

/**
 * Whether a tool can run here, and if not, what it lacks. An ineligible tool stays listed (people see
 * what to install or set; the planner is told it may fail); it is not hidden.
 */
export interface ToolEligibility {
  /** True exactly when {@link missing} is empty. */
  eligible: boolean;
  /**
   * What is missing, one entry each, as `what:detail` so that people and models can read it, e.g.
   * `env:WEATHER_API_KEY` (an unset environment variable), `bin:ffmpeg` (a program not on `PATH`).
   * Each source documents the forms it reports.
   */
  missing: string[];
}

/** The eligibility of a tool lacking `missing` (eligible when it lacks nothing). */
export function toolEligibility(missing: readonly string[] = []): ToolEligibility {
  return { eligible: missing.length === 0, missing: [...missing] };
}

/**
 * A tool's arguments as a JSON Schema (draft 2020-12 keywords) of an object: `type` is always
 * `'object'`; `properties`, `required` and any other keyword as the schema needs them.
 */
export interface ToolInputSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [keyword: string]: unknown;
}

/** The schema of a tool that takes no arguments: `{type: 'object', properties: {}}`. */
export function emptyToolInputSchema(): ToolInputSchema {
  return { type: 'object', properties: {} };
}

/**
 * One tool as its source lists it. Plain data (JSON-serialisable), the same for every execution mode.
 * A source's tool is identified by `(source, name)`; a registry that merges sources adds its own view
 * on top (which entry shadows which, as `shadows` / `shadowedBy` referring to other `(source, name)`
 * pairs) without changing this shape.
 */
export interface ToolDescriptor {
  /** Matches {@link TOOL_NAME_PATTERN}; unique within its source. A foreign name is sanitised ({@link sanitizeToolName}). */
  name: string;
  /** The foreign name before sanitising, present only when it differed from {@link name}. */
  originalName?: string;
  /** What the tool does and when to use it, for the model and for people. */
  description: string;
  /** Its arguments. */
  inputSchema: ToolInputSchema;
  kind: ToolKind;
  mode: ToolExecutionMode;
  source: ToolSourceRef;
  /**
   * Where within its source the tool is defined, for people: e.g. a skill's root and path
   * (`workspace:booking/SKILL.md`), a remote tool's server. Never carries credentials.
   */
  location?: string;
  eligibility: ToolEligibility;
  /**
   * False while the tool cannot be reached right now (its remote server is down): it stays listed,
   * and a call answers `TOOL_UNAVAILABLE` until the source is back.
   */
  available: boolean;
}
