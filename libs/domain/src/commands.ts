/**
 * Commands a phone executes, as a discriminated union on `command` (names follow wire protocol v1,
 * docs/protocol.md). Coordinates are device pixels in the current rotation;
 * durations are milliseconds.
 */
export interface OpenCommand {
  command: 'open';
  /** Android package name, e.g. `com.android.settings`. */
  app: string;
}
export interface ClickCommand {
  command: 'click';
  x: number;
  y: number;
}
export interface LongPressCommand {
  command: 'long_press';
  x: number;
  y: number;
  durationMs?: number;
}
export interface SwipeCommand {
  command: 'swipe';
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  durationMs?: number;
}
export interface InputCommand {
  command: 'input';
  /** Text typed into the focused editable node (any Unicode). */
  text: string;
  /** Replace the field's text instead of appending. */
  clear?: boolean;
}
export interface BackCommand {
  command: 'back';
}
export interface HomeCommand {
  command: 'home';
}
export interface ScreenshotCommand {
  command: 'screenshot';
  format?: 'png' | 'jpeg';
  /** JPEG quality 1–100. */
  quality?: number;
  /** Downscale so that the image is at most this wide, in px (aspect kept). */
  maxWidth?: number;
}
export interface UiTreeCommand {
  command: 'ui_tree';
}

export type Command =
  | OpenCommand
  | ClickCommand
  | LongPressCommand
  | SwipeCommand
  | InputCommand
  | BackCommand
  | HomeCommand
  | ScreenshotCommand
  | UiTreeCommand;

export type CommandName = Command['command'];

export const COMMAND_NAMES: readonly CommandName[] = [
  'open',
  'click',
  'long_press',
  'swipe',
  'input',
  'back',
  'home',
  'screenshot',
  'ui_tree',
];

/** Per-call options of {@link MobileClawService.execute}. */
export interface ExecuteOptions {
  /** Deadline in ms from the call (queue time included). Default: the gateway's (30 000 ms). */
  timeoutMs?: number;
  /** Cancels the command whether queued or in flight; the caller gets `ABORTED` at once. */
  signal?: AbortSignal;
  /**
   * The frame (from a `screenshot`/`ui_tree` result) the command was planned on; the phone answers
   * `STALE_FRAME` when the screen size or rotation changed since.
   */
  frameId?: string;
  /**
   * A read nobody waits on in person (the live screen's screenshots): it queues and runs like any
   * command, but the phone's status stays `online` while it runs, so watching a phone never makes it
   * look `busy` nor floods `device.status` events. Default false.
   */
  background?: boolean;
}
