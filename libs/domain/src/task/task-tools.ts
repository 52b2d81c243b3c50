import type { ToolEligibility, ToolExecutionMode, ToolInputSchema, ToolKind } from '../tool/tool';
import type { ToolInvocationResult } from '../tool/tool-invocation';

/**
 * Gateway tools of a task: the tool registry's tools a task's planner may call besides the phone's
 * actions and the caller's own tools ({@link Task.tools}). The gateway runs them itself — a call is
 * one step of the task, recorded with its arguments, result and duration — whereas a caller tool is
 * run by the caller while the task waits.
 */

/** One gateway tool a task's planner may call, as {@link TaskTools.list} gives it. */
export interface TaskToolSpec {
  /** The name the planner calls it by (the registry's exposed name): 1–64 of `[A-Za-z0-9_-]`. */
  name: string;
  /** What it does and when to use it, for the model. */
  description: string;
  /** JSON Schema of its arguments (an object schema); the registry checks calls against it. */
  inputSchema: ToolInputSchema;
  /** `ACTION` tools may change the world; those with {@link needsApproval} wait for a person first. */
  kind: ToolKind;
  /** How it runs: `REMOTE_PROXY`, `AGENT_SESSION`, `SKILL` (its result is the skill's instructions), `NATIVE`. */
  mode: ToolExecutionMode;
  /** Its source as `kind:id`, e.g. `catalog:erp`, `skills:workspace`. */
  source: string;
  /** An ineligible tool is listed all the same: the planner is told what it lacks and that it may fail. */
  eligibility: ToolEligibility;
  /** False while its source cannot be reached: a call answers `TOOL_UNAVAILABLE`. */
  available: boolean;
  /** True when a call must be approved by a person first (an `ACTION` tool the planner's policy does not exempt). */
  needsApproval: boolean;
}

/** How the task loop calls a gateway tool ({@link TaskTools.invoke}). */
export interface TaskToolCallOptions {
  /** `<taskId>:<stepIndex>`: the call runs at most once, even when the step is run again. */
  toolCallId: string;
  /** True when a person approved this call (required when the tool {@link TaskToolSpec.needsApproval}). */
  approved?: boolean;
  /** Fires when the task is canceled or the gateway stops: the call answers `ABORTED`. */
  signal: AbortSignal;
  /** How long the call may take, in ms; past it the call answers `TIMEOUT`. */
  deadlineMs: number;
  /** The task's memory scope (`memoryScopeOf(task)`), passed to the tool (the memory tools read and write it). */
  scope?: string;
}

/** A gateway tool call waiting for a person's approval (`Task.pendingToolApproval`, while `input_required`). */
export interface PendingToolApproval {
  /** The step that calls the tool. */
  stepIndex: number;
  /** `<taskId>:<stepIndex>`. */
  toolCallId: string;
  /** The tool's name, as the planner called it. */
  name: string;
  /** The planner's arguments, a JSON object. */
  arguments: Record<string, unknown>;
  kind: ToolKind;
  mode: ToolExecutionMode;
  /** The tool's source as `kind:id`. */
  source: string;
  /** Why it waits, for the person: e.g. `ACTION tool refund_order (catalog:erp) needs a person's approval`. */
  reason: string;
}

/**
 * The port through which the task loop lists and calls gateway tools (the tool registry, as the
 * `planner` caller sees it). Abstract class so that it doubles as the Nest DI token; without a
 * provider, tasks have no gateway tools.
 */
export abstract class TaskTools {
  /** The tools a task's planner may call now, sorted by name. Resolves `[]` when none can be listed; never rejects. */
  abstract list(): Promise<TaskToolSpec[]>;

  /**
   * Calls the tool `name` with `args`. Resolves with the result, never rejects: a success (`content`,
   * `text`, and `verified: false` when the tool's answer shows no sign the tool itself ran), or a
   * failure with a catalog code — `TOOL_NOT_FOUND`, `TOOL_UNAVAILABLE`, `VALIDATION_FAILED`,
   * `APPROVAL_REQUIRED` (not approved), `ABORTED`, `TIMEOUT`, `TOOL_FAILED`, … .
   */
  abstract invoke(name: string, args: Record<string, unknown>, options: TaskToolCallOptions): Promise<ToolInvocationResult>;
}
