import { MobileClawError, type FieldError } from '../errors';
import { TOOL_NAME_PATTERN } from '../tool/tool-name';
import { jsonShapeError } from '../json-shape';

/**
 * Caller tools: capabilities of the task's caller (a business system, through the client SDK) that the
 * planner may call. The gateway never runs one: the task pauses (`input_required` with its
 * {@link PendingToolCall}), the caller runs the tool and answers with a result or a rejection, and the
 * task goes on. A caller that sends `tools` (even `[]`) answers tool calls.
 */

/** What a caller tool does: reads something (`OBSERVATION`) or changes something (`ACTION`). */
export type CallerToolKind = 'OBSERVATION' | 'ACTION';

export const CALLER_TOOL_KINDS: readonly CallerToolKind[] = ['OBSERVATION', 'ACTION'];

/** One tool the caller exposes to a task's planner. */
export interface CallerToolSpec {
  /** 1–64 of `[A-Za-z0-9_-]`, unique within the task, none of {@link RESERVED_TOOL_NAMES}. */
  name: string;
  /** What the tool does, for the planner: 1–1024 characters. */
  description: string;
  /** JSON Schema of the arguments: an object schema (`"type": "object"`), at most 16 KiB as JSON. */
  inputSchema: Record<string, unknown>;
  kind: CallerToolKind;
}

/** A tool call the task waits on (`Task.pendingToolCall`, while `input_required`). */
export interface PendingToolCall {
  /** The step that called the tool. */
  stepIndex: number;
  /** `<taskId>:<stepIndex>`: the same call keeps its id after a restart or a redelivery. */
  toolCallId: string;
  name: string;
  /** The planner's arguments, a JSON object. */
  arguments: Record<string, unknown>;
  /** The spec's kind, when the name is one of the task's tools. */
  kind?: CallerToolKind;
}

/** The caller's answer to a tool call ({@link PendingToolCall}). */
export type ToolCallAnswer =
  | { toolCallId: string; outcome: 'ok'; /** Any JSON value, at most {@link MAX_TOOL_RESULT_BYTES} as JSON. */ result: unknown }
  | { toolCallId: string; outcome: 'rejected'; /** Why the tool did not run: 1–{@link MAX_TOOL_REJECTION_LENGTH} characters. */ reason: string };

export const MAX_TOOL_DESCRIPTION_LENGTH = 1024;
/** Largest `inputSchema`, serialised as JSON, in bytes (UTF-8). */
export const MAX_TOOL_SCHEMA_BYTES = 16 * 1024;
/** Most tools one task offers. */
export const MAX_CALLER_TOOLS = 64;
/** Largest tool result, serialised as JSON, in bytes (UTF-8). */
export const MAX_TOOL_RESULT_BYTES = 64 * 1024;
/** Longest rejection reason, in characters. */
export const MAX_TOOL_REJECTION_LENGTH = 2000;

/**
 * Names no caller tool may take: the phone actions and the end decisions a planner has of its own,
 * under every name a planner gives them (the LLM planner's function names, the agent's action names),
 * so that a caller tool can never be mistaken for one.
 */
export const RESERVED_TOOL_NAMES: readonly string[] = [
  'tap',
  'click',
  'long_press',
  'swipe',
  'type_text',
  'input',
  'open_app',
  'open',
  'back',
  'home',
  'done',
  'fail',
];

/** The id of the tool call made at step `stepIndex` of task `taskId`. */
export function toolCallIdOf(taskId: string, stepIndex: number): string {
  return `${taskId}:${stepIndex}`;
}

/**
 * Field errors of a task's `tools`, with field paths under `field` (e.g. `tools.2.name`); empty when
 * they are valid. Rules: an array of at most {@link MAX_CALLER_TOOLS} objects; `name` matches
 * {@link TOOL_NAME_PATTERN}, is unique and not reserved ({@link RESERVED_TOOL_NAMES}), both ignoring
 * case; `description` 1–{@link MAX_TOOL_DESCRIPTION_LENGTH} characters without control or format
 * characters (tabs and line breaks allowed); `inputSchema` an object with `"type": "object"`, at most
 * 32 levels deep without prototype keys ({@link jsonShapeError}), at most {@link MAX_TOOL_SCHEMA_BYTES}
 * as JSON; `kind` one of {@link CALLER_TOOL_KINDS}; no other member.
 */
export function callerToolsErrors(tools: unknown, field = 'tools'): FieldError[] {
  if (!Array.isArray(tools)) return [{ field, message: `${field} must be an array of tool specs` }];
  if (tools.length > MAX_CALLER_TOOLS) return [{ field, message: `${field} must hold at most ${MAX_CALLER_TOOLS} tools (it has ${tools.length})` }];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  tools.forEach((tool, i) => {
    const at = `${field}.${i}`;
    if (!isPlainObject(tool)) {
      errors.push({ field: at, message: `${at} must be an object {name, description, inputSchema, kind}` });
      return;
    }
    for (const key of Object.keys(tool)) {
      if (!['name', 'description', 'inputSchema', 'kind'].includes(key)) errors.push({ field: `${at}.${key}`, message: `${at}.${key} is not a tool spec member` });
    }
    const { name, description, inputSchema, kind } = tool;
    // Names are compared ignoring case: a planner or a person reading "call lookup" must not be able to
    // mean two tools, and a reserved name stays reserved in any spelling.
    if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
      errors.push({ field: `${at}.name`, message: `${at}.name must be 1–64 characters of [A-Za-z0-9_-]` });
    } else if (RESERVED_TOOL_NAMES.includes(name.toLowerCase())) {
      errors.push({ field: `${at}.name`, message: `tool name ${name} is reserved` });
    } else if (seen.has(name.toLowerCase())) {
      errors.push({ field: `${at}.name`, message: `tool name ${name} is used twice (names are compared ignoring case)` });
    } else {
      seen.add(name.toLowerCase());
    }
    if (typeof description !== 'string' || description.length === 0 || description.length > MAX_TOOL_DESCRIPTION_LENGTH) {
      errors.push({ field: `${at}.description`, message: `${at}.description must be a string of 1–${MAX_TOOL_DESCRIPTION_LENGTH} characters` });
    } else if (/[\p{Cc}\p{Cf}]/u.test(description.replace(/[\t\n\r]/g, ''))) {
      // The description reaches a model's prompt and people's screens: no hidden or reordering characters.
      errors.push({ field: `${at}.description`, message: `${at}.description must not contain control or format characters (tabs and line breaks are fine)` });
    }
    const shape = isPlainObject(inputSchema) ? jsonShapeError(inputSchema, `${at}.inputSchema`) : undefined;
    if (!isPlainObject(inputSchema)) {
      errors.push({ field: `${at}.inputSchema`, message: `${at}.inputSchema must be a JSON Schema object` });
    } else if (shape) {
      errors.push({ field: shape.field, message: `${shape.field}: ${shape.message}` });
    } else if (inputSchema.type !== 'object') {
      errors.push({ field: `${at}.inputSchema.type`, message: `${at}.inputSchema must have "type": "object" (tool arguments are a JSON object)` });
    } else {
      const bytes = jsonBytes(inputSchema);
      if (bytes > MAX_TOOL_SCHEMA_BYTES) errors.push({ field: `${at}.inputSchema`, message: `${at}.inputSchema must be at most ${MAX_TOOL_SCHEMA_BYTES} bytes as JSON (it has ${bytes})` });
    }
    if (typeof kind !== 'string' || !CALLER_TOOL_KINDS.includes(kind as CallerToolKind)) {
      errors.push({ field: `${at}.kind`, message: `${at}.kind must be one of ${CALLER_TOOL_KINDS.join(', ')}` });
    }
  });
  return errors;
}

/**
 * The tools, checked ({@link callerToolsErrors}) and copied with exactly the spec's members.
 * @throws MobileClawError `VALIDATION_FAILED` with a field error per bad member.
 */
export function parseCallerTools(tools: unknown, field = 'tools'): CallerToolSpec[] {
  const errors = callerToolsErrors(tools, field);
  if (errors.length > 0) throw new MobileClawError('VALIDATION_FAILED', errors.map((e) => e.message).join('; '), { fieldErrors: errors });
  return (tools as CallerToolSpec[]).map(({ name, description, inputSchema, kind }) => ({ name, description, inputSchema: structuredClone(inputSchema), kind }));
}

/**
 * Field errors of an answer to a tool call; empty when it is valid: `toolCallId` a non-empty string,
 * `outcome` `ok` (with a JSON `result` at most 32 levels deep without prototype keys and of at most
 * {@link MAX_TOOL_RESULT_BYTES}; absent reads as `null`) or `rejected` (with a `reason` of 1–{@link MAX_TOOL_REJECTION_LENGTH} characters).
 */
export function toolCallAnswerErrors(answer: { toolCallId?: unknown; outcome?: unknown; result?: unknown; reason?: unknown }): FieldError[] {
  const errors: FieldError[] = [];
  if (typeof answer.toolCallId !== 'string' || answer.toolCallId.length === 0) errors.push({ field: 'toolCallId', message: 'toolCallId must be a non-empty string' });
  if (answer.outcome === 'ok') {
    const shape = jsonShapeError(answer.result, 'result');
    const bytes = shape ? Number.NaN : answer.result === undefined ? 4 : jsonBytes(answer.result);
    if (shape) errors.push({ field: shape.field, message: `${shape.field}: ${shape.message}` });
    else if (Number.isNaN(bytes)) errors.push({ field: 'result', message: 'result must be a JSON value' });
    else if (bytes > MAX_TOOL_RESULT_BYTES) errors.push({ field: 'result', message: `result must be at most ${MAX_TOOL_RESULT_BYTES} bytes as JSON (it has ${bytes})` });
  } else if (answer.outcome === 'rejected') {
    if (typeof answer.reason !== 'string' || answer.reason.trim().length === 0 || answer.reason.length > MAX_TOOL_REJECTION_LENGTH) {
      errors.push({ field: 'reason', message: `reason must be a string of 1–${MAX_TOOL_REJECTION_LENGTH} characters when outcome is rejected` });
    }
  } else {
    errors.push({ field: 'outcome', message: 'outcome must be "ok" or "rejected"' });
  }
  return errors;
}

/** Size of a value serialised as JSON, in UTF-8 bytes; NaN when it cannot be serialised. */
function jsonBytes(value: unknown): number {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? Number.NaN : new TextEncoder().encode(text).length;
  } catch {
    return Number.NaN;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
