import {
  FrameRegistry,
  numberArg,
  optionalBooleanArg,
  optionalNumberArg,
  PhoneError,
  stringArg,
  describeValue,
  type DeviceDescription,
  type PhoneAction,
  type PhoneExecutor,
} from '@mobileclaw/phone-link';
import { parseUiHierarchyXml, type UiTreeNode } from '@mobileclaw/ui-hierarchy';
import sharp from 'sharp';
import { currentGeometry, parseGetprop, parseRotation, parseWmDensity, parseWmSize, type ScreenGeometry } from './device-facts';
import { AdbDeviceLostError, AdbShellError, AdbShellTimeoutError, type AdbDeviceShell, type AdbExecOptions, type AdbShellResult } from './device-shell';
import { canTypeWithInputText, inputTextCommands, shellQuote } from './input-text';
import { readUiDump, UI_DUMP_COMMAND } from './ui-dump';

/** The commands the bridge performs (announced as `capabilities`), the same set as every MobileClaw phone. */
export const ADB_COMMANDS = ['open', 'click', 'long_press', 'swipe', 'input', 'back', 'home', 'screenshot', 'ui_tree'] as const;

/** The shell commands the executor sends, exactly (tests and the simulated adb server match on them). */
export const ADB_SHELL = {
  getprop: 'getprop',
  density: 'wm density',
  /** The natural size (with override) and the rotation, in one round trip. */
  geometry: "wm size; dumpsys input | grep -E 'SurfaceOrientation|orientation='",
  screencap: 'screencap -p',
  uiDump: UI_DUMP_COMMAND,
  /** Enabled input methods, a separator, then the current one. */
  inputMethods: 'ime list -s; echo ---; settings get secure default_input_method',
} as const;

/** The ADBKeyBoard input method (package `com.android.adbkeyboard`), which types any Unicode text sent by broadcast. */
export const ADB_KEYBOARD_IME = 'com.android.adbkeyboard/.AdbIME';

/** Android key codes used (`KeyEvent.KEYCODE_*`). */
const KEY = { HOME: 3, BACK: 4, DEL: 67, FORWARD_DEL: 112, MOVE_END: 123 } as const;

/** A Java package name: dot-separated identifiers (also what keeps `open` safe to put on a shell line). */
const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)+$/;

/** The deadline when the gateway sends none, in ms (the gateway's own default). */
const DEFAULT_TIMEOUT_MS = 30_000;
/** Time kept back from the action's deadline for the reply to travel, in ms: 10 % of it, at most this. */
const MAX_REPLY_MARGIN_MS = 1000;
/** How long describing the device for hello may take, in ms. */
const DESCRIBE_TIMEOUT_MS = 15_000;
/** Default hold of a long press, in ms (Android's long-press timeout is 400–500 ms). */
const LONG_PRESS_MS = 1000;
/** Default duration of a swipe, in ms. */
const SWIPE_MS = 300;
/** Keys sent to clear a field whose length is unknown (a password field shows no text), and the most ever sent. */
const UNKNOWN_LENGTH_DELETES = 256;
const MAX_DELETES = 4096;
/**
 * Rounds of at most MAX_DELETES deletes `clear` sends to a field longer than that, reading the field
 * back after each, before it gives up (so fields of up to 8 × 4096 characters can be emptied).
 */
const MAX_CLEAR_ROUNDS = 8;
/** Output that means an `input`/`am` tool failed (it prints nothing on success). */
const TOOL_FAILURE = /Exception|^Error:|: not found|Permission denial|SecurityException/im;

export interface AdbExecutorOptions {
  /** The device's shell. */
  shell: AdbDeviceShell;
  /** A monotonic clock in ms. Default `performance.now()`. */
  now?: () => number;
  /** Wait between `uiautomator dump` attempts after a transient failure, in ms. Default 250. */
  uiDumpRetryDelayMs?: number;
  /** Called when a read of the screen finds a size or rotation other than the last one (e.g. to send event `screen`). */
  onScreenChange?: (screen: ScreenGeometry) => void;
  /**
   * Called, and awaited, when a command was cut off because the device left adb or the adb server
   * went away, before the command fails: the bridge stops its gateway connection here, so that the
   * gateway fails the command `DEVICE_DISCONNECTED` instead of hearing a reply. Default: nothing.
   */
  onDeviceLost?: (error: AdbDeviceLostError) => Promise<void>;
  /** Diagnostic output, one line per call. Default: none. */
  log?: (line: string) => void;
}

/** The device facts read for hello. */
export interface AdbDeviceFacts {
  model: string;
  manufacturer: string;
  /** Android version, e.g. `14`. */
  android: string;
  /** API level, e.g. 34; undefined when `ro.build.version.sdk` is missing. */
  sdk: number | undefined;
  screen: ScreenGeometry;
}

/** What `input` did: the field's text read back, whether it is what was asked, and how it was typed. */
interface InputResult extends Record<string, unknown> {
  text: string;
  verified: boolean;
  method: 'input-text' | 'adb-keyboard';
  verifyError?: string;
}

/** A command's time budget: the action's deadline less a margin for the reply; every shell call gets what is left. */
class Deadline {
  private readonly at: number;

  constructor(
    timeoutMs: number | undefined,
    private readonly now: () => number,
    readonly signal: AbortSignal,
  ) {
    const total = timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.at = now() + total - Math.min(MAX_REPLY_MARGIN_MS, total * 0.1);
  }

  /** Time left, in ms (negative once passed). */
  left(): number {
    return this.at - this.now();
  }

  /** The options of the next shell call. @throws the signal's reason once aborted, PhoneError `TIMEOUT` when no time is left. */
  call(command: string): AdbExecOptions {
    // Nothing new starts once nobody waits for the reply.
    if (this.signal.aborted) throw this.signal.reason;
    const left = this.left();
    if (left < 1) throw new PhoneError('TIMEOUT', `no time left in the command's deadline to run \`${command}\``);
    return { timeoutMs: left, signal: this.signal };
  }
}

/**
 * Performs wire protocol v1 commands on one Android device through its adb shell (a
 * {@link PhoneExecutor} for a `PhoneLink`). Every shell call runs within the action's deadline
 * (`timeoutMs` less a reply margin) and is abandoned at it (`TIMEOUT`). Screenshots and ui trees
 * get frame ids bound to the screen's size and rotation; an action naming a frame whose geometry no
 * longer holds is refused `STALE_FRAME` before anything runs.
 *
 * Errors (`PhoneError` codes): `INVALID_ARGUMENT`, `UNSUPPORTED_COMMAND`, `STALE_FRAME`,
 * `OUT_OF_BOUNDS`, `APP_NOT_FOUND` (`open` of a package with no launcher activity),
 * `NO_FOCUSED_INPUT`, `UNSUPPORTED` (text `input text` cannot type and no Unicode-capable input
 * method is active; the message says how to enable one), `TIMEOUT`, `COMMAND_FAILED` (adb or a
 * device tool failed; its output is in the message).
 */
export class AdbExecutor implements PhoneExecutor {
  private readonly shell: AdbDeviceShell;
  private readonly now: () => number;
  private readonly retryDelayMs: number;
  private readonly onScreenChange: (screen: ScreenGeometry) => void;
  private readonly log: (line: string) => void;
  private readonly onDeviceLost: (error: AdbDeviceLostError) => Promise<void>;
  private readonly frames = new FrameRegistry();
  private lastScreen: ScreenGeometry | undefined;
  private densityDpi: number | undefined;
  private factsValue: AdbDeviceFacts | undefined;

  constructor(options: AdbExecutorOptions) {
    this.shell = options.shell;
    this.now = options.now ?? (() => performance.now());
    this.retryDelayMs = options.uiDumpRetryDelayMs ?? 250;
    this.onScreenChange = options.onScreenChange ?? (() => undefined);
    this.log = options.log ?? (() => undefined);
    this.onDeviceLost = options.onDeviceLost ?? (() => Promise.resolve());
  }

  /** The facts from the last {@link describe}, if any. */
  get facts(): AdbDeviceFacts | undefined {
    return this.factsValue;
  }

  /**
   * Reads the device facts for hello: `getprop` (model, manufacturer, Android version, API level),
   * `wm density`, and the screen (`wm size` with its override, rotated by the current rotation).
   * Rejects `TIMEOUT` or `COMMAND_FAILED` (e.g. the screen size cannot be read).
   */
  async describe(): Promise<DeviceDescription> {
    const controller = new AbortController();
    const deadline = new Deadline(DESCRIBE_TIMEOUT_MS, this.now, controller.signal);
    const props = parseGetprop(await this.text(deadline, ADB_SHELL.getprop));
    this.densityDpi = parseWmDensity(await this.text(deadline, ADB_SHELL.density));
    const screen = await this.readScreen(deadline);
    const sdk = Number(props.get('ro.build.version.sdk'));
    this.factsValue = {
      model: props.get('ro.product.model') ?? '',
      manufacturer: props.get('ro.product.manufacturer') ?? '',
      android: props.get('ro.build.version.release') ?? '',
      sdk: Number.isInteger(sdk) && sdk > 0 ? sdk : undefined,
      screen,
    };
    const { model, manufacturer, android } = this.factsValue;
    return { device: { model, manufacturer, android, screen: { ...screen } }, capabilities: ADB_COMMANDS };
  }

  async execute(action: PhoneAction): Promise<Record<string, unknown>> {
    const deadline = new Deadline(action.timeoutMs, this.now, action.signal);
    const { args } = action;
    switch (action.command) {
      case 'screenshot': {
        const format = args['format'] ?? 'png';
        if (format !== 'png' && format !== 'jpeg') throw new PhoneError('INVALID_ARGUMENT', `"format" must be "png" or "jpeg", got ${describeValue(format)}`);
        const quality = optionalNumberArg(args, 'quality', 1, 100);
        const maxWidth = optionalNumberArg(args, 'maxWidth', 1);
        await this.checkFrame(action, deadline);
        return this.screenshot(deadline, format, quality, maxWidth);
      }
      case 'ui_tree':
        await this.checkFrame(action, deadline);
        return this.uiTree(deadline);
      case 'click': {
        const [x, y] = [numberArg(args, 'x'), numberArg(args, 'y')];
        await this.checkPoints(action, deadline, [x, y]);
        await this.run(deadline, `input tap ${Math.round(x)} ${Math.round(y)}`);
        return {};
      }
      case 'long_press': {
        const [x, y] = [numberArg(args, 'x'), numberArg(args, 'y')];
        const durationMs = optionalNumberArg(args, 'durationMs', 0) ?? LONG_PRESS_MS;
        await this.checkPoints(action, deadline, [x, y]);
        const [px, py] = [Math.round(x), Math.round(y)];
        await this.run(deadline, `input swipe ${px} ${py} ${px} ${py} ${Math.round(durationMs)}`);
        return {};
      }
      case 'swipe': {
        const [x1, y1, x2, y2] = [numberArg(args, 'x1'), numberArg(args, 'y1'), numberArg(args, 'x2'), numberArg(args, 'y2')];
        const durationMs = optionalNumberArg(args, 'durationMs', 0) ?? SWIPE_MS;
        await this.checkPoints(action, deadline, [x1, y1], [x2, y2]);
        await this.run(deadline, `input swipe ${Math.round(x1)} ${Math.round(y1)} ${Math.round(x2)} ${Math.round(y2)} ${Math.round(durationMs)}`);
        return {};
      }
      case 'back':
      case 'home':
        await this.checkFrame(action, deadline);
        await this.run(deadline, `input keyevent ${action.command === 'back' ? KEY.BACK : KEY.HOME}`);
        return {};
      case 'open': {
        const app = stringArg(args, 'app', false);
        if (!PACKAGE_NAME.test(app)) throw new PhoneError('INVALID_ARGUMENT', `"app" must be an Android package name such as com.android.settings, got ${describeValue(app)}`);
        await this.checkFrame(action, deadline);
        return this.open(deadline, app);
      }
      case 'input': {
        const text = stringArg(args, 'text', true);
        const clear = optionalBooleanArg(args, 'clear');
        await this.checkFrame(action, deadline);
        return this.input(deadline, text, clear);
      }
      default:
        throw new PhoneError('UNSUPPORTED_COMMAND', `command ${describeValue(action.command)} is not supported; supported: ${ADB_COMMANDS.join(', ')}`);
    }
  }

  /** `screencap -p` (raw PNG bytes over exec), re-encoded by sharp only for JPEG or a smaller `maxWidth`. */
  private async screenshot(deadline: Deadline, format: 'png' | 'jpeg', quality: number | undefined, maxWidth: number | undefined): Promise<Record<string, unknown>> {
    const started = this.now();
    const [output, first] = await Promise.all([this.output(deadline, ADB_SHELL.screencap), this.readScreen(deadline)]);
    const png = pngImage(output);
    // A rotation between the two reads shows as an image of the other orientation: read the screen again.
    const screen = png.width === first.width && png.height === first.height ? first : await this.readScreen(deadline);
    const frameId = this.frames.register(screen);
    let bytes = png.bytes;
    let { width, height } = png;
    if (format === 'jpeg' || (maxWidth !== undefined && maxWidth < png.width)) {
      let image = sharp(png.bytes);
      if (maxWidth !== undefined && maxWidth < png.width) image = image.resize({ width: Math.max(1, Math.round(maxWidth)) });
      image = format === 'jpeg' ? image.jpeg({ quality: Math.round(quality ?? 80) }) : image.png({ compressionLevel: 3 });
      const { data, info } = await image.toBuffer({ resolveWithObject: true });
      bytes = data;
      ({ width, height } = info);
    }
    return {
      mime: format === 'jpeg' ? 'image/jpeg' : 'image/png',
      width,
      height,
      base64: bytes.toString('base64'),
      frameId,
      screen: { width: screen.width, height: screen.height, rotation: screen.rotation },
      captureMs: elapsed(this.now, started),
    };
  }

  /** `uiautomator dump` parsed into protocol nodes, with the screen read alongside. */
  private async uiTree(deadline: Deadline): Promise<Record<string, unknown>> {
    const started = this.now();
    const [tree, first] = await Promise.all([this.dumpUi(deadline), this.readScreen(deadline)]);
    const screen = tree.rotation === first.rotation ? first : await this.readScreen(deadline);
    const frameId = this.frames.register(screen);
    return { frameId, screen: { width: screen.width, height: screen.height, rotation: screen.rotation }, nodes: tree.nodes, captureMs: elapsed(this.now, started) };
  }

  /**
   * The window hierarchy, retrying the dump's transient failures (the screen never idle, no root
   * node yet, cut-off or unreadable output) until the deadline. @throws PhoneError `COMMAND_FAILED`
   * at once for any other failure, and with the last reason when the deadline leaves no room for
   * another attempt.
   */
  private async dumpUi(deadline: Deadline): Promise<{ nodes: UiTreeNode[]; rotation: number }> {
    const started = this.now();
    for (let attempt = 1; ; attempt++) {
      const dump = readUiDump(await this.text(deadline, ADB_SHELL.uiDump));
      let reason: string;
      if (dump.ok) {
        try {
          const tree = parseUiHierarchyXml(dump.xml);
          return { nodes: tree.nodes, rotation: tree.screen.rotation };
        } catch (err) {
          reason = `unreadable hierarchy: ${err instanceof Error ? err.message : String(err)}`;
        }
      } else if (!dump.retryable) {
        throw new PhoneError('COMMAND_FAILED', `uiautomator dump failed: ${dump.reason}`);
      } else {
        reason = dump.reason;
      }
      this.log(`uiautomator dump attempt ${attempt} failed (${reason})`);
      if (deadline.left() < 2 * this.retryDelayMs + 1)
        throw new PhoneError('COMMAND_FAILED', `uiautomator dump failed ${attempt} time(s) in ${Math.round(this.now() - started)} ms, the last with: ${reason}`);
      await delay(this.retryDelayMs, deadline.signal);
    }
  }

  /** `open`: the package's launcher activity through monkey; APP_NOT_FOUND when it has none. */
  private async open(deadline: Deadline, app: string): Promise<Record<string, unknown>> {
    const output = await this.text(deadline, `monkey -p ${app} -c android.intent.category.LAUNCHER 1`);
    if (/No activities found to run/i.test(output)) throw new PhoneError('APP_NOT_FOUND', `no launchable app with package ${JSON.stringify(app)} is installed`);
    if (!/Events injected:\s*1/.test(output)) throw new PhoneError('COMMAND_FAILED', `monkey could not launch ${app}: ${excerpt(output)}`);
    return { package: app };
  }

  /**
   * `input`: types into the focused editable node, then reads the field back. ASCII goes through
   * `input text` (escaped, see input-text.ts); other text through ADBKeyBoard's broadcast when it is
   * the active input method, else UNSUPPORTED before anything is typed. Long ASCII text is typed by
   * several `input text` commands in turn (at most 1000 characters each: adb's request limit).
   * NO_FOCUSED_INPUT when no editable node has the focus; with `clear`, COMMAND_FAILED (nothing
   * typed) when the field cannot be emptied.
   */
  private async input(deadline: Deadline, text: string, clear: boolean): Promise<InputResult> {
    const before = focusedEditable((await this.dumpUi(deadline)).nodes);
    if (!before) throw new PhoneError('NO_FOCUSED_INPUT', 'no editable field has the focus; click one first');
    const method = canTypeWithInputText(text) ? 'input-text' : 'adb-keyboard';
    if (method === 'adb-keyboard') await this.requireAdbKeyboard(deadline);
    if (clear) {
      if (method === 'adb-keyboard') await this.broadcast(deadline, 'am broadcast -a ADB_CLEAR_TEXT');
      else await this.clearField(deadline, before);
    }
    if (text !== '') {
      if (method === 'adb-keyboard') await this.broadcast(deadline, `am broadcast -a ADB_INPUT_B64 --es msg ${shellQuote(Buffer.from(text, 'utf8').toString('base64'))}`);
      else for (const command of inputTextCommands(text)) await this.run(deadline, command);
    }
    // Read back: never report typing that did not happen as done.
    try {
      const after = focusedEditable((await this.dumpUi(deadline)).nodes);
      if (!after) return { text: '', verified: false, method, verifyError: 'no editable field has the focus after typing' };
      if (after.password) return { text: '', verified: false, method, verifyError: 'a password field does not show its text' };
      const verified = clear ? after.text === text : after.text.includes(text);
      return { text: after.text, verified, method };
    } catch (err) {
      if (!(err instanceof PhoneError)) throw err;
      return { text: '', verified: false, method, verifyError: err.message };
    }
  }

  /**
   * Empties the focused `field` with key events. A password field shows no text: one round of
   * UNKNOWN_LENGTH_DELETES, unchecked. A field of at most MAX_DELETES characters: one round, checked
   * by the read-back after typing. A longer one: rounds of deletes, the field read back after each,
   * until it is empty. @throws PhoneError NO_FOCUSED_INPUT when the field loses the focus meanwhile,
   * COMMAND_FAILED when MAX_CLEAR_ROUNDS rounds leave text behind.
   */
  private async clearField(deadline: Deadline, field: UiTreeNode): Promise<void> {
    if (field.password || field.text.length <= MAX_DELETES) {
      await this.run(deadline, clearFieldCommand(field.password ? UNKNOWN_LENGTH_DELETES : field.text.length));
      return;
    }
    let left = field.text.length;
    for (let round = 1; round <= MAX_CLEAR_ROUNDS; round++) {
      await this.run(deadline, clearFieldCommand(left));
      const now = focusedEditable((await this.dumpUi(deadline)).nodes);
      if (!now) throw new PhoneError('NO_FOCUSED_INPUT', 'no editable field has the focus any more while clearing it; nothing was typed');
      if (now.text === '') return;
      left = now.text.length;
    }
    throw new PhoneError(
      'COMMAND_FAILED',
      `could not clear the focused field: ${left} of its ${field.text.length} characters are left after ${MAX_CLEAR_ROUNDS} rounds of at most ${MAX_DELETES} deletes; nothing was typed`,
    );
  }

  /** @throws PhoneError UNSUPPORTED unless ADBKeyBoard is enabled and the current input method, saying how to get there. */
  private async requireAdbKeyboard(deadline: Deadline): Promise<void> {
    const output = await this.text(deadline, ADB_SHELL.inputMethods);
    const [enabledPart = '', currentPart = ''] = output.split(/^---\s*$/m);
    const enabled = enabledPart.split(/\r?\n/).map((line) => line.trim());
    const current = currentPart.trim();
    const howTo = `adb shell ime enable ${ADB_KEYBOARD_IME} && adb shell ime set ${ADB_KEYBOARD_IME}`;
    if (current === ADB_KEYBOARD_IME) return;
    if (enabled.includes(ADB_KEYBOARD_IME))
      throw new PhoneError('UNSUPPORTED', `the text has characters adb's "input text" cannot type (it types printable ASCII only); ADBKeyBoard is installed but not the current keyboard: run \`adb shell ime set ${ADB_KEYBOARD_IME}\``);
    throw new PhoneError(
      'UNSUPPORTED',
      `the text has characters adb's "input text" cannot type (it types printable ASCII only); to type any Unicode text, install the ADBKeyBoard app (package com.android.adbkeyboard) on the phone and make it the keyboard: \`${howTo}\``,
    );
  }

  private async broadcast(deadline: Deadline, command: string): Promise<void> {
    const output = await this.text(deadline, command);
    if (!/Broadcast completed/.test(output)) throw new PhoneError('COMMAND_FAILED', `\`${command.split(' --es ')[0]}\` failed: ${excerpt(output)}`);
  }

  /**
   * Checks the action's frame: no `frameId`, nothing to check; otherwise the screen is read now and
   * compared (STALE_FRAME). Resolves with the screen read, if one was.
   */
  private async checkFrame(action: PhoneAction, deadline: Deadline): Promise<ScreenGeometry | undefined> {
    if (action.frameId === undefined) return undefined;
    if (typeof action.frameId !== 'string') throw new PhoneError('INVALID_ARGUMENT', `"frameId" must be a string, got ${describeValue(action.frameId)}`);
    const screen = await this.readScreen(deadline);
    this.frames.check(action.frameId, screen);
    return screen;
  }

  /** Checks the frame, then that every point lies on the screen (OUT_OF_BOUNDS), against the freshest screen known. */
  private async checkPoints(action: PhoneAction, deadline: Deadline, ...points: Array<[number, number]>): Promise<void> {
    const screen = (await this.checkFrame(action, deadline)) ?? this.lastScreen ?? (await this.readScreen(deadline));
    for (const [x, y] of points)
      if (!(x >= 0 && y >= 0 && x < screen.width && y < screen.height))
        throw new PhoneError('OUT_OF_BOUNDS', `point (${x}, ${y}) is outside the ${screen.width}x${screen.height} screen`);
  }

  /** The screen now: `wm size` (override, else physical) turned by the current rotation. Reports a change to `onScreenChange`. */
  private async readScreen(deadline: Deadline): Promise<ScreenGeometry> {
    const output = await this.text(deadline, ADB_SHELL.geometry);
    const size = parseWmSize(output);
    if (!size) throw new PhoneError('COMMAND_FAILED', `cannot read the screen size from \`wm size\`: ${excerpt(output)}`);
    const rotation = parseRotation(output);
    if (rotation === null) this.log('no rotation in `dumpsys input`; assuming 0');
    const screen = currentGeometry(size, rotation ?? 0, this.densityDpi);
    const last = this.lastScreen;
    this.lastScreen = screen;
    if (last && (last.width !== screen.width || last.height !== screen.height || last.rotation !== screen.rotation)) this.onScreenChange({ ...screen });
    return screen;
  }

  /** Runs an `input`-style tool that prints nothing on success. @throws PhoneError COMMAND_FAILED when it exits non-zero or printed a failure. */
  private async run(deadline: Deadline, command: string): Promise<void> {
    const result = await this.exec(deadline, command);
    const output = result.output.toString('utf8');
    if (result.exitStatus !== 0)
      throw new PhoneError('COMMAND_FAILED', `\`${command.length > 80 ? `${command.slice(0, 80)}…` : command}\` exited with status ${result.exitStatus}: ${excerpt(output)}`);
    if (TOOL_FAILURE.test(output)) throw new PhoneError('COMMAND_FAILED', `\`${command.length > 80 ? `${command.slice(0, 80)}…` : command}\` failed: ${excerpt(output)}`);
  }

  private async text(deadline: Deadline, command: string): Promise<string> {
    return (await this.output(deadline, command)).toString('utf8');
  }

  /** A command's output, whatever its exit status (e.g. `grep` exits 1 when nothing matched). */
  private async output(deadline: Deadline, command: string): Promise<Buffer> {
    return (await this.exec(deadline, command)).output;
  }

  /**
   * One shell call within the deadline; adb's failures become PhoneErrors (TIMEOUT, COMMAND_FAILED),
   * an abort passes through. A command cut off because the device or the adb server is gone first
   * awaits `onDeviceLost` (which closes the gateway connection), so no reply claims it ran.
   */
  private async exec(deadline: Deadline, command: string): Promise<AdbShellResult> {
    const options = deadline.call(command);
    try {
      return await this.shell.exec(command, options);
    } catch (err) {
      if (err instanceof AdbDeviceLostError) {
        this.log(err.message);
        await this.onDeviceLost(err);
        throw new PhoneError('COMMAND_FAILED', err.message);
      }
      if (deadline.signal.aborted) throw err;
      if (err instanceof AdbShellTimeoutError) throw new PhoneError('TIMEOUT', err.message);
      if (err instanceof AdbShellError) throw new PhoneError('COMMAND_FAILED', err.message);
      throw err;
    }
  }
}

/** The focused editable node of a tree (the first in document order), or undefined. */
function focusedEditable(nodes: readonly UiTreeNode[]): UiTreeNode | undefined {
  for (const node of nodes) {
    if (node.focused && node.editable) return node;
    const inside = focusedEditable(node.children);
    if (inside) return inside;
  }
  return undefined;
}

/**
 * Clears the focused field of `length` characters: cursor to the end, `length` DELs (backwards) and
 * `length` FORWARD_DELs (for text after the cursor's line in a multi-line field), in one `input keyevent`.
 */
function clearFieldCommand(length: number): string {
  const n = Math.min(MAX_DELETES, Math.max(1, length));
  return `input keyevent ${KEY.MOVE_END} ${`${KEY.DEL} `.repeat(n)}${`${KEY.FORWARD_DEL} `.repeat(n).trimEnd()}`;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The PNG in `screencap -p`'s output (after any warning text), with its size from the IHDR chunk. @throws PhoneError COMMAND_FAILED when there is none. */
function pngImage(output: Buffer): { bytes: Buffer; width: number; height: number } {
  const start = output.indexOf(PNG_SIGNATURE);
  if (start < 0 || output.length < start + 24 || output.toString('latin1', start + 12, start + 16) !== 'IHDR')
    throw new PhoneError('COMMAND_FAILED', `screencap -p printed no PNG image: ${excerpt(output.toString('utf8'))}`);
  const bytes = start === 0 ? output : output.subarray(start);
  return { bytes, width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The first lines of a tool's output, for error messages. */
function excerpt(output: string): string {
  const text = output.trim().split(/\r?\n/).slice(0, 4).join(' | ');
  if (text === '') return '(no output)';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function elapsed(now: () => number, started: number): number {
  return Math.round((now() - started) * 1000) / 1000;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
