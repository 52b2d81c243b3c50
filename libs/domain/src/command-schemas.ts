import type { CommandName } from './commands';
import type { ToolInputSchema, ToolKind } from './tool/tool';

/**
 * Each phone command's arguments as JSON Schema (draft 2020-12), for faces that describe commands to
 * a caller that is not TypeScript: a tool registry, a model, a schema validator (ajv). One entry per
 * {@link CommandName}, checked at compile time: a command added to the union without its entry here
 * fails the type-check. Bounds are those of the REST command API: coordinates 0–100 000 device px,
 * gesture durations 1–60 000 ms, text at most 100 000 UTF-16 code units.
 */
export interface CommandSchema {
  /**
   * `OBSERVATION` for the commands that only read the screen (`screenshot`, `ui_tree`), `ACTION` for
   * every command that changes what the phone shows.
   */
  kind: ToolKind;
  /** What the command does, in one or two sentences for a model or a person (units included). */
  description: string;
  /** The command's arguments without `command` itself; `additionalProperties: false`. */
  arguments: ToolInputSchema;
}

/** Largest coordinate accepted, in px (no phone screen is larger). */
export const MAX_COMMAND_COORDINATE_PX = 100_000;
/** Longest gesture, in ms. */
export const MAX_GESTURE_DURATION_MS = 60_000;
/** Longest text an `input` command types, in UTF-16 code units. */
export const MAX_INPUT_TEXT_LENGTH = 100_000;
/** An Android package name: two or more dot-separated segments, as Android requires. */
export const ANDROID_PACKAGE_PATTERN = '^[A-Za-z]\\w*(\\.[A-Za-z_]\\w*)+$';

const coordinate = (description: string) => ({ type: 'integer', minimum: 0, maximum: MAX_COMMAND_COORDINATE_PX, description: `${description}, in device px of the current rotation.` });
const gestureDuration = (description: string) => ({ type: 'integer', minimum: 1, maximum: MAX_GESTURE_DURATION_MS, description: `${description}, in ms; the phone's default when absent.` });

/** An object schema of `properties`, `required` ones required, nothing else allowed. */
function args(properties: Record<string, unknown> = {}, required: string[] = []): ToolInputSchema {
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/**
 * The argument schema of every command, keyed by name (see {@link CommandSchema}). Read-only data:
 * copy an entry (`structuredClone`) before handing it to code that may change it.
 */
export const COMMAND_SCHEMAS = {
  open: {
    kind: 'ACTION',
    description: 'Opens an app by its Android package name (e.g. com.android.settings) and brings it to the foreground.',
    arguments: args({ app: { type: 'string', maxLength: 255, pattern: ANDROID_PACKAGE_PATTERN, description: 'Android package name, e.g. com.android.settings.' } }, ['app']),
  },
  click: {
    kind: 'ACTION',
    description: 'Taps a point of the screen, in device px of the current rotation.',
    arguments: args({ x: coordinate('Horizontal position'), y: coordinate('Vertical position') }, ['x', 'y']),
  },
  long_press: {
    kind: 'ACTION',
    description: 'Presses a point of the screen and holds, in device px of the current rotation.',
    arguments: args({ x: coordinate('Horizontal position'), y: coordinate('Vertical position'), durationMs: gestureDuration('How long to hold') }, ['x', 'y']),
  },
  swipe: {
    kind: 'ACTION',
    description: 'Swipes from (x1, y1) to (x2, y2), in device px of the current rotation: a finger moving up scrolls the content so that what is below comes into view.',
    arguments: args(
      {
        x1: coordinate('Start, horizontal'),
        y1: coordinate('Start, vertical'),
        x2: coordinate('End, horizontal'),
        y2: coordinate('End, vertical'),
        durationMs: gestureDuration('Duration of the swipe'),
      },
      ['x1', 'y1', 'x2', 'y2'],
    ),
  },
  input: {
    kind: 'ACTION',
    description: 'Types text into the focused field (tap the field first); any Unicode is sent exactly.',
    arguments: args(
      {
        text: { type: 'string', maxLength: MAX_INPUT_TEXT_LENGTH, description: `Text to type, at most ${MAX_INPUT_TEXT_LENGTH} UTF-16 code units.` },
        clear: { type: 'boolean', description: "Replace the field's text instead of appending. Default false." },
      },
      ['text'],
    ),
  },
  back: { kind: 'ACTION', description: 'Presses the Back button.', arguments: args() },
  home: { kind: 'ACTION', description: 'Presses the Home button (goes to the launcher).', arguments: args() },
  screenshot: {
    kind: 'OBSERVATION',
    description: "Captures the phone's screen as an image, with its frameId (the screen the image shows) and the screen size in px.",
    arguments: args({
      format: { type: 'string', enum: ['png', 'jpeg'], description: 'Image format the phone captures in (default png).' },
      quality: { type: 'integer', minimum: 1, maximum: 100, description: 'JPEG quality, 1–100.' },
      maxWidth: { type: 'integer', minimum: 16, maximum: MAX_COMMAND_COORDINATE_PX, description: 'Downscale to at most this width, in px (aspect kept).' },
    }),
  },
  ui_tree: {
    kind: 'OBSERVATION',
    description: "Reads the screen's accessibility tree: every node with its text, description, resource id, bounds [left, top, right, bottom] in device px and flags (clickable, editable…), with the frameId.",
    arguments: args(),
  },
} as const satisfies { readonly [K in CommandName]: CommandSchema };
