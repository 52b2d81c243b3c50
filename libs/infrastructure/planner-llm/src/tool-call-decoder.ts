import type { AgentAction, CallerToolSpec, CoordinateSpace, PlanDecision, TaskToolSpec, UiElement } from '@mobileclaw/domain';
import {
  GESTURE_DURATION_MS,
  PLANNER_TOOL_NAMES,
  SWIPE_DIRECTIONS,
  type PlannerToolName,
  type SwipeDirection,
} from './planner-tools';

/** A tool call the model made that cannot be turned into a decision; `message` is sent back to the model. */
export class ToolCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolCallError';
  }
}

/** What a tool call is checked against: the elements listed to the model, its coordinate space and the caller's tools. */
export interface ToolCallScope {
  elements: readonly UiElement[];
  space: CoordinateSpace;
  /** The task's caller tools (`PlanningContext.tools`), offered to the model beside the phone's. */
  callerTools?: readonly CallerToolSpec[];
  /** The gateway's tools (`PlanningContext.gatewayTools`) offered to the model; the phone's and the caller's tools win a name. */
  gatewayTools?: readonly TaskToolSpec[];
}

/** The reasoning of a tool call: the model's text beside the call, else this. */
function toolReasoning(name: string, whose: 'caller' | 'gateway', content: string | null | undefined): string {
  const text = content?.trim();
  return text ? text : whose === 'caller' ? `call the caller's tool ${name}` : `call the gateway tool ${name}`;
}

/**
 * A call of one of the caller's or the gateway's tools as a `tool_call` decision: its arguments must be
 * a JSON object (the caller, or the gateway, checks them against the schema); the reasoning is the
 * model's text beside the call.
 * @throws ToolCallError when the arguments are not a JSON object.
 */
function decodeOtherToolCall(name: string, whose: 'caller' | 'gateway', argumentsJson: string, content: string | null | undefined): PlanDecision {
  const args = parseArguments(argumentsJson);
  return { type: 'tool_call', name, arguments: args, reasoning: toolReasoning(name, whose, content) };
}

/** Android package name: two or more dot-separated segments, each a letter followed by letters, digits or `_`. */
const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;

/** Where a direction swipe starts and ends, as fractions of the swiped area along its axis. */
const SWIPE_SPAN = { from: 0.75, to: 0.25 } as const;

/** Typed reads of one tool call's JSON arguments; each failed check throws a {@link ToolCallError}. */
class Arguments {
  constructor(
    private readonly args: Record<string, unknown>,
    private readonly scope: ToolCallScope,
  ) {}

  has(name: string): boolean {
    return this.args[name] !== undefined && this.args[name] !== null;
  }

  string(name: string, options: { required: true; nonEmpty?: boolean }): string;
  string(name: string, options?: { required?: false; nonEmpty?: boolean }): string | undefined;
  string(name: string, options: { required?: boolean; nonEmpty?: boolean } = {}): string | undefined {
    if (!this.has(name)) {
      if (options.required) throw new ToolCallError(`${name}: required string is missing`);
      return undefined;
    }
    const value = this.args[name];
    if (typeof value !== 'string') throw new ToolCallError(`${name}: must be a string, got ${describe(value)}`);
    if (options.nonEmpty && !value.trim()) throw new ToolCallError(`${name}: must not be empty`);
    return value;
  }

  boolean(name: string): boolean | undefined {
    if (!this.has(name)) return undefined;
    const value = this.args[name];
    if (typeof value !== 'boolean') throw new ToolCallError(`${name}: must be true or false, got ${describe(value)}`);
    return value;
  }

  integer(name: string, min: number, max: number, unit = ''): number | undefined {
    if (!this.has(name)) return undefined;
    const value = this.args[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw new ToolCallError(`${name}: must be an integer from ${min} to ${max}${unit}, got ${describe(value)}`);
    }
    return value;
  }

  element(name = 'element_index'): UiElement | undefined {
    if (!this.has(name)) return undefined;
    const value = this.args[name];
    const element = typeof value === 'number' ? this.scope.elements.find((e) => e.index === value) : undefined;
    if (!element) {
      const listed = this.scope.elements.length === 0 ? 'no elements are listed' : `listed: ${indexRange(this.scope.elements)}`;
      throw new ToolCallError(`${name}: ${describe(value)} is not the index of a listed element (${listed})`);
    }
    return element;
  }

  /** A point in the model's space, converted to device px; `undefined` when neither coordinate is given. */
  point(xName: string, yName: string): [number, number] | undefined {
    if (!this.has(xName) && !this.has(yName)) return undefined;
    const { width, height } = this.scope.space.size;
    const x = this.integer(xName, 0, width - 1, ' (px)');
    const y = this.integer(yName, 0, height - 1, ' (px)');
    if (x === undefined || y === undefined) throw new ToolCallError(`${xName}, ${yName}: give both or neither`);
    return this.scope.space.toDevice(x, y);
  }

  durationMs(): number | undefined {
    return this.integer('duration_ms', GESTURE_DURATION_MS.min, GESTURE_DURATION_MS.max, ' (ms)');
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const json = JSON.stringify(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

function indexRange(elements: readonly UiElement[]): string {
  const indexes = elements.map((e) => e.index);
  return `${Math.min(...indexes)} to ${Math.max(...indexes)}`;
}

function parseArguments(json: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json.trim() === '' ? '{}' : json);
  } catch (err) {
    throw new ToolCallError(`arguments are not valid JSON (${(err as Error).message}): ${describe(json)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ToolCallError(`arguments must be a JSON object, got ${describe(parsed)}`);
  }
  return parsed as Record<string, unknown>;
}

function isToolName(name: string): name is PlannerToolName {
  return (PLANNER_TOOL_NAMES as readonly string[]).includes(name);
}

/** The target of tap/long_press: an element's centre (device px) or a point. */
function target(args: Arguments): { at: [number, number]; element?: UiElement } {
  const element = args.element();
  if (element) return { at: [element.center[0], element.center[1]], element };
  const at = args.point('x', 'y');
  if (!at) throw new ToolCallError('give element_index, or x and y');
  return { at };
}

/** Swipe start and end (device px) for a direction swipe across `bounds`. */
export function directionSwipe(
  direction: SwipeDirection,
  bounds: readonly [number, number, number, number],
): { x1: number; y1: number; x2: number; y2: number } {
  const [l, t, r, b] = bounds;
  const cx = Math.floor((l + r) / 2);
  const cy = Math.floor((t + b) / 2);
  const along = (start: number, end: number, fraction: number): number => Math.round(start + (end - start) * fraction);
  switch (direction) {
    case 'up':
      return { x1: cx, y1: along(t, b, SWIPE_SPAN.from), x2: cx, y2: along(t, b, SWIPE_SPAN.to) };
    case 'down':
      return { x1: cx, y1: along(t, b, SWIPE_SPAN.to), x2: cx, y2: along(t, b, SWIPE_SPAN.from) };
    case 'left':
      return { x1: along(l, r, SWIPE_SPAN.from), y1: cy, x2: along(l, r, SWIPE_SPAN.to), y2: cy };
    case 'right':
      return { x1: along(l, r, SWIPE_SPAN.to), y1: cy, x2: along(l, r, SWIPE_SPAN.from), y2: cy };
  }
}

function swipe(args: Arguments, screen: { width: number; height: number }): { action: AgentAction; element?: UiElement } {
  const durationMs = args.durationMs();
  const withDuration = (action: Extract<AgentAction, { command: 'swipe' }>) =>
    durationMs === undefined ? action : { ...action, durationMs };
  if (args.has('direction')) {
    const direction = args.string('direction', { required: true });
    if (!(SWIPE_DIRECTIONS as readonly string[]).includes(direction)) {
      throw new ToolCallError(`direction: must be one of ${SWIPE_DIRECTIONS.join(', ')}, got ${describe(direction)}`);
    }
    const element = args.element();
    const bounds = element?.bounds ?? [0, 0, screen.width, screen.height];
    const points = directionSwipe(direction as SwipeDirection, bounds);
    return { action: withDuration({ command: 'swipe', ...points }), element };
  }
  const from = args.point('x1', 'y1');
  const to = args.point('x2', 'y2');
  if (!from || !to) throw new ToolCallError('give direction, or x1, y1, x2 and y2');
  return { action: withDuration({ command: 'swipe', x1: from[0], y1: from[1], x2: to[0], y2: to[1] }) };
}

function typeText(args: Arguments): { action: AgentAction; element?: UiElement } {
  const text = args.string('text', { required: true });
  const clear = args.boolean('clear');
  if (text === '' && !clear) throw new ToolCallError('text: must not be empty (set clear: true to empty a field)');
  const element = args.element();
  if (element) {
    if (!element.editable) throw new ToolCallError(`element_index: element [${element.index}] is not an input field`);
    if (!element.focused) {
      throw new ToolCallError(
        `element_index: element [${element.index}] is not focused; call tap on it in this step and type_text in the next`,
      );
    }
  }
  const action: AgentAction = clear === undefined ? { command: 'input', text } : { command: 'input', text, clear };
  return { action, element };
}

function openApp(args: Arguments): AgentAction {
  const app = args.string('package', { required: true }).trim();
  if (!PACKAGE_NAME.test(app)) {
    throw new ToolCallError(`package: must be an Android package name such as com.android.settings, got ${describe(app)}`);
  }
  return { command: 'open', app };
}

/**
 * Checks one tool call and turns it into a decision. Element targets resolve to the element's `center`
 * (device px) and set `elementIndex`; coordinates map from the model's space to device px. A call of
 * one of `scope.callerTools` — or, when no phone tool has its name, of `scope.gatewayTools` — is a
 * `tool_call` with the model's arguments (a JSON object).
 * @param name the called function's name.
 * @param argumentsJson its `arguments` string, as the model wrote it.
 * @param content the model's text beside the call: a caller-tool call's reasoning.
 * @throws ToolCallError saying what is wrong, in words the model can act on.
 */
export function decodeToolCall(name: string, argumentsJson: string, scope: ToolCallScope, content?: string | null): PlanDecision {
  if (scope.callerTools?.some((tool) => tool.name === name)) return decodeOtherToolCall(name, 'caller', argumentsJson, content);
  if (!isToolName(name)) {
    if (scope.gatewayTools?.some((tool) => tool.name === name)) return decodeOtherToolCall(name, 'gateway', argumentsJson, content);
    const names = [...PLANNER_TOOL_NAMES, ...(scope.callerTools ?? []).map((tool) => tool.name), ...(scope.gatewayTools ?? []).map((tool) => tool.name)];
    throw new ToolCallError(`unknown tool ${describe(name)}; use one of ${names.join(', ')}`);
  }
  const args = new Arguments(parseArguments(argumentsJson), scope);
  const reasoning = args.string('reasoning', { required: true, nonEmpty: true });
  if (name === 'done') return { type: 'done', summary: args.string('summary', { required: true, nonEmpty: true }), reasoning };
  if (name === 'fail') return { type: 'fail', reason: args.string('reason', { required: true, nonEmpty: true }), reasoning };

  let action: AgentAction;
  let element: UiElement | undefined;
  switch (name) {
    case 'tap':
    case 'long_press': {
      const hit = target(args);
      element = hit.element;
      const [x, y] = hit.at;
      if (name === 'tap') {
        action = { command: 'click', x, y };
      } else {
        const durationMs = args.durationMs();
        action = durationMs === undefined ? { command: 'long_press', x, y } : { command: 'long_press', x, y, durationMs };
      }
      break;
    }
    case 'swipe':
      ({ action, element } = swipe(args, scope.space.screen));
      break;
    case 'type_text':
      ({ action, element } = typeText(args));
      break;
    case 'open_app':
      action = openApp(args);
      break;
    case 'back':
      action = { command: 'back' };
      break;
    case 'home':
      action = { command: 'home' };
      break;
  }

  const decision: PlanDecision = { type: 'action', action, reasoning };
  if (element) decision.elementIndex = element.index;
  if (args.boolean('needs_approval')) {
    const reason = args.string('approval_reason', { nonEmpty: true });
    if (reason === undefined) throw new ToolCallError('approval_reason: required when needs_approval is true');
    decision.approval = { reason };
  }
  return decision;
}
