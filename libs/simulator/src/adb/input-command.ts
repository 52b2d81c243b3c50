/**
 * `input` (Android's InputShellCommand) on the simulated UI: `tap`, `swipe` (equal points held for
 * the long-press timeout are a long press, as on a phone), `keyevent` (by name or number),
 * `text`, and `draganddrop` (a swipe here). Like the real command it reports nothing on success,
 * and a touch outside the screen or typing with no focused field silently does nothing; bad
 * arguments print the Java exception the real one prints. `press`, `roll`, `motionevent` and
 * `keycombination` are accepted and have no effect on the simulated screens.
 */
import { PhoneError } from '../phone-error';
import type { PhoneUi } from '../phone-ui';
import { javaException, type ShellCommandContext } from './shell-runtime';

/** `ViewConfiguration.getLongPressTimeout()` on Android 12 and later, in ms. */
export const LONG_PRESS_TIMEOUT_MS = 400;
/** `input swipe`'s duration when none is given, in ms. */
export const DEFAULT_SWIPE_MS = 300;
/** Touch slop in dp: a touch moving less than this is not a drag. */
const TOUCH_SLOP_DP = 8;

const INPUT_SOURCES = new Set(['dpad', 'keyboard', 'mouse', 'touchpad', 'gamepad', 'touchnavigation', 'joystick', 'touchscreen', 'stylus', 'trackball', 'rotaryencoder']);

const USAGE = `Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The sources are:
      dpad
      keyboard
      mouse
      touchpad
      gamepad
      touchnavigation
      joystick
      touchscreen
      stylus
      trackball

-d: specify the display ID.
      (Default: -1 for key event, 0 for motion event if not specified.)
The commands and default sources are:
      text <string> (Default: keyboard)
      keyevent [--longpress|--doubletap|--async|--delay <duration between keycodes in ms>] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      press (Default: trackball)
      roll <dx> <dy> (Default: trackball)
      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)
      keycombination [-t duration(ms)] <key code 1> <key code 2> ... (Default: keyboard, the key order is important here.)
`;

/** Android key codes by name (without the `KEYCODE_` prefix), the ones a bridge plausibly sends. */
export const KEY_CODES: Readonly<Record<string, number>> = {
  UNKNOWN: 0, SOFT_LEFT: 1, SOFT_RIGHT: 2, HOME: 3, BACK: 4, CALL: 5, ENDCALL: 6,
  ...Object.fromEntries([...'0123456789'].map((d, i) => [d, 7 + i])),
  STAR: 17, POUND: 18, DPAD_UP: 19, DPAD_DOWN: 20, DPAD_LEFT: 21, DPAD_RIGHT: 22, DPAD_CENTER: 23,
  VOLUME_UP: 24, VOLUME_DOWN: 25, POWER: 26, CAMERA: 27, CLEAR: 28,
  ...Object.fromEntries([...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [c, 29 + i])),
  COMMA: 55, PERIOD: 56, ALT_LEFT: 57, ALT_RIGHT: 58, SHIFT_LEFT: 59, SHIFT_RIGHT: 60, TAB: 61, SPACE: 62,
  SYM: 63, EXPLORER: 64, ENVELOPE: 65, ENTER: 66, DEL: 67, GRAVE: 68, MINUS: 69, EQUALS: 70,
  LEFT_BRACKET: 71, RIGHT_BRACKET: 72, BACKSLASH: 73, SEMICOLON: 74, APOSTROPHE: 75, SLASH: 76, AT: 77,
  NUM: 78, HEADSETHOOK: 79, FOCUS: 80, PLUS: 81, MENU: 82, NOTIFICATION: 83, SEARCH: 84,
  MEDIA_PLAY_PAUSE: 85, MEDIA_STOP: 86, MEDIA_NEXT: 87, MEDIA_PREVIOUS: 88, PAGE_UP: 92, PAGE_DOWN: 93,
  ESCAPE: 111, FORWARD_DEL: 112, CTRL_LEFT: 113, CTRL_RIGHT: 114, MOVE_HOME: 122, MOVE_END: 123,
  VOLUME_MUTE: 164, APP_SWITCH: 187, SLEEP: 223, WAKEUP: 224,
};

/** The character a key types without modifiers (letters are lower case). */
const TYPED: ReadonlyMap<number, string> = new Map<number, string>([
  ...[...'0123456789'].map((d, i): [number, string] => [7 + i, d]),
  ...[...'abcdefghijklmnopqrstuvwxyz'].map((c, i): [number, string] => [29 + i, c]),
  [17, '*'], [18, '#'], [55, ','], [56, '.'], [61, '\t'], [62, ' '], [68, '`'], [69, '-'], [70, '='],
  [71, '['], [72, ']'], [73, '\\'], [74, ';'], [75, "'"], [76, '/'], [77, '@'], [81, '+'],
]);

/** Characters the virtual keyboard's key map can type; `input text` fails on any other. */
const TYPABLE = /^[\t\n\x20-\x7e]*$/;

/**
 * What `input text ARG` types: Android turns `%s` into a space (the only escape; a `%` before
 * anything else stays), by this exact rule, so that `%%s` gives `% `.
 */
export function decodeInputText(arg: string): string {
  const text = arg.split('');
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    if (escaped) {
      escaped = false;
      if (text[i] === 's') {
        text[i] = ' ';
        text.splice(--i, 1);
      }
    }
    if (text[i] === '%') escaped = true;
  }
  return text.join('');
}

/**
 * A key code from a number (`4`, tried first) or a name (`KEYCODE_BACK`, `BACK`); 0 (unknown)
 * otherwise, as `KeyEvent.keyCodeFromString`: so `8` is KEYCODE_1, and `KEYCODE_8` is 15.
 */
export function keyCodeFromString(arg: string): number {
  if (/^\d+$/.test(arg)) return Number(arg);
  const name = arg.startsWith('KEYCODE_') ? arg.slice('KEYCODE_'.length) : arg;
  return KEY_CODES[name] ?? 0;
}

class InputUsageError extends Error {
  constructor(
    readonly exception: string,
    message: string,
  ) {
    super(message);
  }
}

export async function inputCommand(ctx: ShellCommandContext): Promise<number> {
  const args = [...ctx.args];
  if (args[0] !== undefined && INPUT_SOURCES.has(args[0])) args.shift();
  if (args[0] === '-d') args.splice(0, 2);
  const command = args.shift();
  if (command === undefined || command === '-h' || command === 'help') {
    ctx.stdout.write(USAGE);
    return command === undefined ? 1 : 0;
  }
  const ui = ctx.device.ui;
  try {
    switch (command) {
      case 'text':
        return text(ui, required(args, command), ctx, command);
      case 'keyevent':
        for (const arg of args.filter((a) => !a.startsWith('--'))) key(ui, keyCodeFromString(arg));
        return 0;
      case 'tap': {
        const [x, y] = [float(required(args, command)), float(required(args, command))];
        ignoreMisses(() => ui.click(x, y));
        return 0;
      }
      case 'swipe':
      case 'draganddrop': {
        const [x1, y1, x2, y2] = [0, 1, 2, 3].map(() => float(required(args, command))) as [number, number, number, number];
        const duration = args[0] === undefined ? DEFAULT_SWIPE_MS : integer(args[0]);
        gesture(ui, x1, y1, x2, y2, duration < 0 ? DEFAULT_SWIPE_MS : duration);
        return 0;
      }
      case 'press':
      case 'roll':
      case 'motionevent':
      case 'keycombination':
        return 0;
      default:
        ctx.stderr.write(`Error: Unknown command: ${command}\n${USAGE}`);
        return 1;
    }
  } catch (err) {
    if (!(err instanceof InputUsageError)) throw err;
    ctx.stderr.write(javaException(command, err.exception, err.message));
    return 255;
  }
}

function text(ui: PhoneUi, arg: string, ctx: ShellCommandContext, command: string): number {
  const decoded = decodeInputText(arg);
  // The virtual keyboard's key map has no keys for other characters: the real command dies on a null array.
  if (!TYPABLE.test(decoded)) {
    ctx.stderr.write(javaException(command, 'java.lang.NullPointerException', 'Attempt to get length of null array'));
    return 255;
  }
  ignoreMisses(() => ui.input(decoded));
  return 0;
}

function key(ui: PhoneUi, code: number): void {
  if (code === KEY_CODES['HOME']) ui.home();
  else if (code === KEY_CODES['BACK']) ui.back();
  else if (code === KEY_CODES['DEL']) {
    const current = ui.focusedText;
    if (current !== undefined && current !== '') ui.input(current.slice(0, -1), true);
  } else {
    const typed = TYPED.get(code);
    if (typed !== undefined) ignoreMisses(() => ui.input(typed));
  }
}

/** A touch: a tap or long press when it stays within the touch slop, a swipe otherwise. */
function gesture(ui: PhoneUi, x1: number, y1: number, x2: number, y2: number, durationMs: number): void {
  const slop = (TOUCH_SLOP_DP * ui.screen.densityDpi) / 160;
  if (Math.hypot(x2 - x1, y2 - y1) < slop) {
    ignoreMisses(() => (durationMs >= LONG_PRESS_TIMEOUT_MS ? ui.longPress(x1, y1) : ui.click(x1, y1)));
  } else {
    ignoreMisses(() => ui.swipe(x1, y1, x2, y2));
  }
}

/** A touch off the screen or keys with no focused field reach nothing on a phone, and say nothing. */
function ignoreMisses(action: () => unknown): void {
  try {
    action();
  } catch (err) {
    if (err instanceof PhoneError && (err.code === 'OUT_OF_BOUNDS' || err.code === 'NO_FOCUSED_INPUT')) return;
    throw err;
  }
}

function required(args: string[], command: string): string {
  const arg = args.shift();
  if (arg === undefined) throw new InputUsageError('java.lang.IllegalArgumentException', `Argument expected after "${command}"`);
  return arg;
}

/** `Float.parseFloat`. */
function float(arg: string): number {
  const trimmed = arg.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?$/.test(trimmed)) throw new InputUsageError('java.lang.NumberFormatException', `For input string: "${arg}"`);
  return parseFloat(trimmed);
}

/** `Integer.parseInt`. */
function integer(arg: string): number {
  if (!/^[+-]?\d+$/.test(arg)) throw new InputUsageError('java.lang.NumberFormatException', `For input string: "${arg}"`);
  return Number(arg);
}
