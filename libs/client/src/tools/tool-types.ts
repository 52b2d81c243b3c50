/**
 * Local tools: capabilities of the business app that the phone agent may call back. The app registers
 * them; nothing is exposed until a policy says so.
 */

/** JSON values a tool takes and returns. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * What the agent is told about a tool, sent with the invocation (the gateway's `CallerToolSpec`).
 * `name`: 1–64 of `A-Z a-z 0-9 _ -`; `description`: 1–1,024 characters; `inputSchema`: a JSON Schema
 * with `"type": "object"` (at most 16 KiB serialised).
 */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: { type: 'object'; [keyword: string]: unknown };
  /** `OBSERVATION`: reads only, runs without approval. `ACTION`: changes something, needs the app's approval by default. */
  kind: 'OBSERVATION' | 'ACTION';
}

/** Where a call comes from, as a tool's `execute` sees it. */
export interface ToolCallContext {
  toolCallId: string;
  invocationRef: string;
  conversationId: string;
  /** Fires when the invocation is canceled; long tools should stop. */
  signal: AbortSignal;
}

/** A tool the app registers: its spec and what runs it. */
export interface LocalTool extends ToolSpec {
  /** Runs the tool with arguments already validated against `inputSchema`; the returned value (JSON) goes to the agent. Throwing rejects the call with the error's message. */
  execute(args: Record<string, unknown>, context: ToolCallContext): Promise<JsonValue> | JsonValue;
  /** For `ACTION` tools: false runs them without asking the approval handler (default true). Ignored for `OBSERVATION` tools. */
  requiresApproval?: boolean;
}

/**
 * Which registered tools a conversation or an invocation exposes. `allow`: names, or `'*'` for every
 * registered tool; `deny` removes names again. The invocation's policy can only narrow the
 * conversation's: a tool is exposed when both allow it (an absent policy allows nothing).
 */
export interface ToolPolicy {
  allow: readonly string[] | '*';
  deny?: readonly string[];
}

/** One call of a local tool, as the gateway delivers it. */
export interface ToolCallRequest {
  toolCallId: string;
  name: string;
  arguments: Record<string, unknown>;
  invocationRef: string;
  conversationId: string;
}

/** What the gateway is told: the tool's result, or why it did not run. */
export type ToolCallOutcome = { outcome: 'ok'; result: JsonValue } | { outcome: 'rejected'; reason: string };

/** The question put to the app's approval handler before an `ACTION` tool runs. */
export interface ToolApprovalRequest extends ToolCallRequest {
  kind: 'ACTION';
  description: string;
}

/** The app's decision: true/false, or with a reason the agent is told when refused. */
export type ToolApprovalDecision = boolean | { approved: boolean; reason?: string };

export type ToolApprovalHandler = (request: ToolApprovalRequest) => Promise<ToolApprovalDecision> | ToolApprovalDecision;

/** What the pipeline did with one call, kept so that a `toolCallId` executes at most once. */
export interface ToolCallRecord {
  toolCallId: string;
  name: string;
  /** `running` while it executes (a crash leaves it so: it is then not run again, and answered as rejected). */
  state: 'running' | 'done';
  outcome?: ToolCallOutcome;
  /** ISO-8601. */
  startedAt: string;
  endedAt?: string;
}

/** A policy guard's verdict on one call: allowed, or refused with the reason the agent is told. */
export type ToolGuardDecision = { allowed: true } | { allowed: false; reason: string };

/**
 * The app's own rule, run after the arguments are validated and before approval, e.g. "refunds only
 * below 100 €" or a rate limit. Throwing refuses the call with the error's message.
 */
export type ToolCallGuard = (call: ToolCallRequest, spec: ToolSpec) => Promise<ToolGuardDecision> | ToolGuardDecision;
