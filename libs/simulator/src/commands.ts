/**
 * Validates an `action` frame's arguments and runs it on a {@link PhoneUi}. Shared by the network
 * phone and by tests that want the wire behaviour without a socket.
 */
import { describeValue as describe, numberArg as num, optionalNumberArg as optionalNum, stringArg as str } from '@mobileclaw/phone-link';
import { PhoneError } from './phone-error';
import type { PhoneUi } from './phone-ui';
import { renderScreenshot } from './screenshot';

/** Every command the simulated phone performs (announced as `capabilities` in hello). */
export const COMMANDS = ['open', 'click', 'long_press', 'swipe', 'input', 'back', 'home', 'screenshot', 'ui_tree'] as const;

export type CommandName = (typeof COMMANDS)[number];

/** The body of a `response` frame (without `type`/`requestId`). */
export type CommandReply =
  | { status: 'success'; data: Record<string, unknown> }
  | { status: 'error'; error: { code: string; message: string } };

/** An action as received: `command` plus its arguments at the top level, optional `frameId`. */
export interface CommandRequest {
  command: string;
  frameId?: unknown;
  [arg: string]: unknown;
}

async function dispatch(ui: PhoneUi, args: CommandRequest): Promise<Record<string, unknown>> {
  switch (args.command as CommandName) {
    case 'open':
      return ui.open(str(args, 'app', false));
    case 'click':
      return ui.click(num(args, 'x'), num(args, 'y'));
    case 'long_press': {
      const x = num(args, 'x');
      const y = num(args, 'y');
      optionalNum(args, 'durationMs', 0);
      return ui.longPress(x, y);
    }
    case 'swipe': {
      const [x1, y1, x2, y2] = [num(args, 'x1'), num(args, 'y1'), num(args, 'x2'), num(args, 'y2')];
      optionalNum(args, 'durationMs', 0);
      return ui.swipe(x1, y1, x2, y2);
    }
    case 'input': {
      const text = str(args, 'text', true);
      if (args['clear'] !== undefined && typeof args['clear'] !== 'boolean') throw new PhoneError('INVALID_ARGUMENT', `"clear" must be a boolean, got ${describe(args['clear'])}`);
      return ui.input(text, args['clear'] === true);
    }
    case 'back':
      return ui.back();
    case 'home':
      return ui.home();
    case 'screenshot': {
      const format = args['format'] ?? 'png';
      if (format !== 'png' && format !== 'jpeg') throw new PhoneError('INVALID_ARGUMENT', `"format" must be "png" or "jpeg", got ${describe(format)}`);
      const quality = optionalNum(args, 'quality', 1, 100);
      const maxWidth = optionalNum(args, 'maxWidth', 1);
      return { ...(await renderScreenshot(ui, { format, ...(quality === undefined ? {} : { quality }), ...(maxWidth === undefined ? {} : { maxWidth }) })) };
    }
    case 'ui_tree':
      return { ...ui.uiTree() };
    default:
      throw new PhoneError('UNSUPPORTED_COMMAND', `command ${describe(args.command)} is not supported; supported: ${COMMANDS.join(', ')}`);
  }
}

/**
 * Performs one command and resolves with its `data`. Throws {@link PhoneError}: STALE_FRAME (checked
 * first when `frameId` is given), UNSUPPORTED_COMMAND, INVALID_ARGUMENT, APP_NOT_FOUND,
 * NO_FOCUSED_INPUT or OUT_OF_BOUNDS.
 */
export async function executeCommand(ui: PhoneUi, args: CommandRequest): Promise<Record<string, unknown>> {
  if (!(COMMANDS as readonly string[]).includes(args.command)) throw new PhoneError('UNSUPPORTED_COMMAND', `command ${describe(args.command)} is not supported; supported: ${COMMANDS.join(', ')}`);
  if (args.frameId !== undefined) {
    if (typeof args.frameId !== 'string') throw new PhoneError('INVALID_ARGUMENT', `"frameId" must be a string, got ${describe(args.frameId)}`);
    ui.checkFrame(args.frameId);
  }
  return dispatch(ui, args);
}

/**
 * Runs one command. Never throws: refusals become `{status: 'error', error: {code, message}}` with
 * INVALID_ARGUMENT, UNSUPPORTED_COMMAND, APP_NOT_FOUND, NO_FOCUSED_INPUT, OUT_OF_BOUNDS or
 * STALE_FRAME (checked first when `frameId` is given), and an unexpected failure is INTERNAL_ERROR.
 */
export async function runCommand(ui: PhoneUi, args: CommandRequest): Promise<CommandReply> {
  try {
    return { status: 'success', data: await executeCommand(ui, args) };
  } catch (err) {
    if (err instanceof PhoneError) return { status: 'error', error: { code: err.code, message: err.message } };
    return { status: 'error', error: { code: 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err) } };
  }
}
