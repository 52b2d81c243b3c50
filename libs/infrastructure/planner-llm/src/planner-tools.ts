import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { CallerToolSpec, TaskToolSpec } from '@mobileclaw/domain';

/** Names of the tools the model may call; each call is one step. */
export const PLANNER_TOOL_NAMES = [
  'tap',
  'long_press',
  'swipe',
  'type_text',
  'open_app',
  'back',
  'home',
  'done',
  'fail',
] as const;

export type PlannerToolName = (typeof PLANNER_TOOL_NAMES)[number];

/** Bounds of gesture durations the model may ask for, in ms. */
export const GESTURE_DURATION_MS = { min: 1, max: 10_000 } as const;

/** Swipe directions: where the finger moves (`up` scrolls the content up, revealing what is below). */
export const SWIPE_DIRECTIONS = ['up', 'down', 'left', 'right'] as const;
export type SwipeDirection = (typeof SWIPE_DIRECTIONS)[number];

type JsonSchema = Record<string, unknown>;

const reasoning: JsonSchema = {
  type: 'string',
  description: 'Why this step: what you see on the screen and how this step moves toward the goal.',
};

/** Arguments every action tool (not done/fail) accepts, to ask a human before the action runs. */
const approval: Record<string, JsonSchema> = {
  needs_approval: {
    type: 'boolean',
    description:
      'true when this action has effects a human must approve first: paying or buying, deleting data, ' +
      'sending a message or email to a recipient not contacted before, changing security or account settings.',
  },
  approval_reason: {
    type: 'string',
    description: 'Required when needs_approval is true: what the action will do, in one sentence for the human.',
  },
};

const elementIndex = (what: string): JsonSchema => ({
  type: 'integer',
  minimum: 0,
  description: `Index [n] of the ${what} in the element list. Preferred over coordinates; takes precedence when both are given.`,
});

const coordinate = (axis: 'x' | 'y'): JsonSchema => ({
  type: 'integer',
  minimum: 0,
  description: `${axis} in the coordinate space stated in the prompt (px); only when no listed element fits.`,
});

const durationMs: JsonSchema = {
  type: 'integer',
  minimum: GESTURE_DURATION_MS.min,
  maximum: GESTURE_DURATION_MS.max,
  description: 'Gesture duration in ms; omit for the phone default.',
};

function tool(
  name: PlannerToolName,
  description: string,
  properties: Record<string, JsonSchema>,
  required: string[],
): ChatCompletionFunctionTool {
  return {
    type: 'function',
    function: {
      name,
      description,
      parameters: { type: 'object', properties: { reasoning, ...properties }, required: ['reasoning', ...required] },
    },
  };
}

/**
 * The tools sent with every request (standard `tools` field: JSON-schema function definitions only).
 * One tool call is one step: there is no tool that chains actions (e.g. `type_text` never taps first).
 */
export const PLANNER_TOOLS: readonly ChatCompletionFunctionTool[] = [
  tool(
    'tap',
    'Tap an element (by element_index) or a point (x, y).',
    { element_index: elementIndex('element to tap'), x: coordinate('x'), y: coordinate('y'), ...approval },
    [],
  ),
  tool(
    'long_press',
    'Press and hold an element (by element_index) or a point (x, y).',
    {
      element_index: elementIndex('element to press'),
      x: coordinate('x'),
      y: coordinate('y'),
      duration_ms: durationMs,
      ...approval,
    },
    [],
  ),
  tool(
    'swipe',
    'Swipe in a direction (the way the finger moves: "up" scrolls content up to reveal what is below), inside a ' +
      'scrollable element (element_index) or on the whole screen; or swipe from (x1, y1) to (x2, y2).',
    {
      direction: { type: 'string', enum: [...SWIPE_DIRECTIONS], description: 'Direction the finger moves.' },
      element_index: elementIndex('element to swipe inside (with direction)'),
      x1: coordinate('x'),
      y1: coordinate('y'),
      x2: coordinate('x'),
      y2: coordinate('y'),
      duration_ms: durationMs,
      ...approval,
    },
    [],
  ),
  tool(
    'type_text',
    'Type text into the focused input field. Tap the field in an earlier step first; if element_index is given, ' +
      'that field must be the focused one.',
    {
      text: { type: 'string', description: 'The text to type (any Unicode).' },
      clear: { type: 'boolean', description: 'true to replace the field\'s current text; default false (insert).' },
      element_index: elementIndex('focused input field'),
      ...approval,
    },
    ['text'],
  ),
  tool(
    'open_app',
    'Launch an app by its Android package name.',
    { package: { type: 'string', description: 'Android package name, e.g. com.android.settings.' }, ...approval },
    ['package'],
  ),
  tool('back', 'Press the Back button.', { ...approval }, []),
  tool('home', 'Press the Home button.', { ...approval }, []),
  tool(
    'done',
    'The goal is achieved, as the current screen shows. Ends the task.',
    { summary: { type: 'string', description: 'What was done, in one or two sentences.' } },
    ['summary'],
  ),
  tool(
    'fail',
    'The goal cannot be achieved (impossible, blocked, or needs information you do not have). Ends the task.',
    { reason: { type: 'string', description: 'Why the goal cannot be achieved.' } },
    ['reason'],
  ),
];

/** Marks a caller tool's description, so the model tells it from the phone's tools. */
export const CALLER_TOOL_MARK = '[caller tool]';

/**
 * The caller's tools as functions beside {@link PLANNER_TOOLS}: the spec's name, its description
 * (marked {@link CALLER_TOOL_MARK} and with its kind) and its argument schema as given — the caller
 * validates the arguments against it. Their names never clash with the phone's tools (the domain
 * reserves those).
 */
export function callerToolFunctions(tools: readonly CallerToolSpec[] | undefined): ChatCompletionFunctionTool[] {
  return (tools ?? []).map((spec) => ({
    type: 'function',
    function: { name: spec.name, description: `${CALLER_TOOL_MARK} (${spec.kind}) ${spec.description}`, parameters: spec.inputSchema },
  }));
}

/** Marks a gateway tool's description, so the model tells it from the phone's and the caller's tools. */
export const GATEWAY_TOOL_MARK = '[gateway tool]';

/** Longest gateway tool description sent to the model, in characters. */
const GATEWAY_TOOL_DESCRIPTION_LIMIT = 1024;

/**
 * What the model is told about a gateway tool besides its description: its kind and mode, that a
 * person approves it first, that it may fail for lack of something (`missing env:X`), that it is
 * unavailable now. E.g. `ACTION, REMOTE_PROXY; a person approves each call; may fail: missing env:ERP_TOKEN`.
 */
export function gatewayToolNotes(tool: TaskToolSpec): string {
  const notes = [`${tool.kind}, ${tool.mode}`];
  if (tool.mode === 'SKILL') notes.push("returns the skill's instructions, to follow with the phone's tools");
  if (tool.needsApproval) notes.push('a person approves each call first');
  if (!tool.eligibility.eligible) notes.push(`may fail: missing ${tool.eligibility.missing.join(', ')}`);
  if (!tool.available) notes.push('unavailable now: a call fails until its source is back');
  return notes.join('; ');
}

/**
 * The gateway's tools the model may call as functions beside {@link PLANNER_TOOLS} and the caller's
 * tools: the name, the description (marked {@link GATEWAY_TOOL_MARK}, with {@link gatewayToolNotes},
 * at most 1024 characters) and the argument schema as listed — the gateway validates the arguments.
 * A name clash is settled for the phone's tools and the caller's: a gateway tool named like one of
 * them (ignoring case) is left out (the task loop leaves it out of the list too).
 */
export function gatewayToolFunctions(tools: readonly TaskToolSpec[] | undefined, callerTools: readonly CallerToolSpec[] | undefined): ChatCompletionFunctionTool[] {
  const taken = new Set([...PLANNER_TOOL_NAMES, ...(callerTools ?? []).map((tool) => tool.name.toLowerCase())]);
  return (tools ?? [])
    .filter((tool) => !taken.has(tool.name.toLowerCase()))
    .map((tool) => {
      const description = `${GATEWAY_TOOL_MARK} (${gatewayToolNotes(tool)}) ${tool.description}`;
      return {
        type: 'function',
        function: {
          name: tool.name,
          description: description.length > GATEWAY_TOOL_DESCRIPTION_LIMIT ? `${description.slice(0, GATEWAY_TOOL_DESCRIPTION_LIMIT - 1)}…` : description,
          parameters: tool.inputSchema,
        },
      };
    });
}
