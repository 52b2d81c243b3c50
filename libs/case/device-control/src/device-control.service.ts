import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  Clock,
  CoordinateSpace,
  MobileClawError,
  MobileClawService,
  ScreenImageEncoder,
  boundsContain,
  foregroundPackage,
  sensitiveLabel,
  toUiElements,
  type Command,
  type CommandName,
  type CommandResult,
  type ExecuteOptions,
  type ScreenImageLimits,
  type ScreenInfo,
  type ScreenshotData,
  type UiElement,
  type UiNode,
  type UiTreeData,
} from '@mobileclaw/domain';
import { DEFAULT_DEVICE_CONTROL_OPTIONS, DEVICE_CONTROL_OPTIONS, type DeviceControlOptions } from './device-control.options';
import { FrameRegistry } from './frame-registry';
import { frameIdOf, type ScreenFrame } from './screen-frame';

/** Options of {@link DeviceControlService.observe}. */
export interface ObserveOptions {
  /** Include a screenshot bounded by these limits (defaults from the options); `false`: elements only. Default true. */
  image?: boolean | Partial<ScreenImageLimits>;
  /** Cancels the phone commands (the call rejects with `ABORTED`). */
  signal?: AbortSignal;
}

/**
 * Where a tap or long press lands: an element of an observed frame (`frameId` + `element`), a point
 * of a frame's image (`frameId` + `x`, `y` in the image's px, or the screen's px when the frame had no
 * image), or a point of the screen (`x`, `y` in device px, no frame).
 */
export interface PointTarget {
  frameId?: string;
  element?: number;
  x?: number;
  y?: number;
}

/**
 * A swipe: from one point to another (`from`/`to`, in the frame's image px or device px as for
 * {@link PointTarget}), or a finger movement in `direction` across the screen or across element
 * `element` of frame `frameId` (a list to scroll), over 60 % of its extent.
 */
export interface SwipeTarget {
  frameId?: string;
  from?: { x: number; y: number };
  to?: { x: number; y: number };
  direction?: 'up' | 'down' | 'left' | 'right';
  element?: number;
  /** Gesture duration, ms (the phone's default when absent). */
  durationMs?: number;
}

/** Per-call options of an action. */
export interface ActionOptions {
  signal?: AbortSignal;
  /** A human approved this action (it is sensitive: paying, deleting…); without it such an action fails `APPROVAL_REQUIRED`. */
  approved?: boolean;
}

/** What the phone did for one action. Points are device px. */
export interface ActionOutcome {
  deviceId: string;
  requestId: string;
  command: CommandName;
  /** Tap or long press point. */
  point?: [number, number];
  /** Swipe path `[x1, y1, x2, y2]`. */
  path?: [number, number, number, number];
  /** The element the action targeted or whose area the point fell in (as seen just before acting). */
  element?: UiElement;
  /** From the call to the phone's reply, ms. */
  durationMs: number;
}

/** Outcome of {@link DeviceControlService.inputText}: what the focused field holds afterwards. */
export interface InputOutcome extends ActionOutcome {
  /**
   * True when the focused field now holds the text (equals it after `clear`, ends with it otherwise),
   * false when it does not or no field has the focus, null when the field hides its text (password).
   */
  holdsText: boolean | null;
  /** The focused field's text after typing (absent for password fields and when no field has the focus). */
  fieldText?: string;
}

/** Outcome of {@link DeviceControlService.openApp}. */
export interface OpenAppOutcome extends ActionOutcome {
  /** True when the app is in the foreground afterwards. */
  verified: boolean;
  foregroundPackage?: string;
}

interface Located {
  point: [number, number];
  element?: UiElement;
  deviceFrameId?: string;
}

/** Fraction of a region's extent a direction swipe covers, centred. */
const DIRECTION_SWIPE_EXTENT = 0.6;

/**
 * Direct control of phones for agents outside the gateway (MCP clients, SDKs): observe a screen as a
 * frame — a bounded screenshot plus the indexed element list — then act on an element of that frame
 * or on a point of its image. Every action on a frame first checks the phone's current tree: when the
 * targeted element is gone or moved, when the element under the tap point now is not the one under it
 * in the frame (or something is there where the frame showed nothing), or when the screen's geometry
 * changed, it fails `STALE_FRAME` and nothing is sent, so an action planned on an old screen never
 * lands in the wrong place. Taps whose target or whose element under the point now is sensitive (see
 * `SENSITIVE_ACTION_PATTERN`) need `approved`.
 */
@Injectable()
export class DeviceControlService {
  private readonly frames: FrameRegistry;
  private readonly options: DeviceControlOptions;
  private sequence = 0;
  /** Per phone, the end of the last call queued on it: each observation or action runs whole, in arrival order. */
  private readonly lanes = new Map<string, Promise<unknown>>();

  constructor(
    private readonly phones: MobileClawService,
    private readonly images: ScreenImageEncoder,
    @Optional() @Inject(DEVICE_CONTROL_OPTIONS) options?: DeviceControlOptions,
    @Optional() private readonly clock?: Clock,
  ) {
    this.options = { ...DEFAULT_DEVICE_CONTROL_OPTIONS, ...options };
    this.frames = new FrameRegistry(this.options.maxFrames);
  }

  /**
   * The phone a request means: `deviceId` when given (it must be known), else the only phone online.
   * @throws MobileClawError `DEVICE_NOT_FOUND` (unknown id, or no phone online), `DEVICE_AMBIGUOUS`
   *   (several online and none named; the message lists them).
   */
  async resolveDevice(deviceId?: string): Promise<string> {
    if (deviceId !== undefined) return (await this.phones.getDevice(deviceId)).deviceId;
    const online = (await this.phones.listDevices()).filter((d) => d.status !== 'offline');
    if (online.length === 1) return online[0].deviceId;
    if (online.length === 0) throw new MobileClawError('DEVICE_NOT_FOUND', 'no phone is online: connect a phone (or start the simulator), then try again');
    throw new MobileClawError(
      'DEVICE_AMBIGUOUS',
      `${online.length} phones are online (${online.map((d) => d.deviceId).join(', ')}): name one with deviceId`,
    );
  }

  /**
   * Observes `deviceId`'s screen: a bounded JPEG screenshot (unless `image: false`) and the indexed
   * element list, remembered as a frame for later actions.
   * @throws MobileClawError with a command error code (`DEVICE_NOT_FOUND`, `TIMEOUT`, …), `PROTOCOL_ERROR`
   *   (an undecodable screenshot or tree), `PAYLOAD_TOO_LARGE` (the image cannot fit the byte limit).
   */
  observe(deviceId: string, options: ObserveOptions = {}): Promise<ScreenFrame> {
    return this.inOrder(deviceId, () => this.observeNow(deviceId, options));
  }

  private async observeNow(deviceId: string, options: ObserveOptions = {}): Promise<ScreenFrame> {
    const { image = true, signal } = options;
    let shot: ScreenshotData | undefined;
    if (image !== false) shot = (await this.phones.execute<ScreenshotData>(deviceId, { command: 'screenshot', format: 'png' }, this.execOptions(signal))).data;
    const tree = await this.readTree(deviceId, signal);
    const screen = tree.screen ?? shot?.screen ?? (shot ? { width: shot.width, height: shot.height } : (await this.phones.getDevice(deviceId)).screen);
    if (!screen) throw new MobileClawError('PROTOCOL_ERROR', `${deviceId} did not report its screen size`, { deviceId });
    const frame: ScreenFrame = {
      frameId: frameIdOf(deviceId, ++this.sequence),
      deviceId,
      screen: { ...screen },
      elements: toUiElements(tree.nodes),
      capturedAt: this.now(),
    };
    if (tree.frameId !== undefined) frame.deviceFrameId = tree.frameId;
    const fg = foregroundPackage(tree.nodes);
    if (fg !== undefined) frame.foregroundPackage = fg;
    if (shot) frame.image = await this.images.encode(shot, { ...this.options.image, ...(typeof image === 'object' ? image : {}) });
    this.frames.add(frame);
    return frame;
  }

  /**
   * A remembered frame.
   * @throws MobileClawError `STALE_FRAME` when `frameId` was never issued or is no longer kept.
   */
  frame(frameId: string): ScreenFrame {
    return this.frames.get(frameId);
  }

  /**
   * Taps `target` on `deviceId`.
   * @throws MobileClawError `VALIDATION_FAILED` (a target that is not exactly one element or one point,
   *   an element index or point outside the frame, a frame of another phone), `STALE_FRAME`,
   *   `APPROVAL_REQUIRED`, and the command error codes.
   */
  tap(deviceId: string, target: PointTarget, options: ActionOptions = {}): Promise<ActionOutcome> {
    return this.inOrder(deviceId, () => this.tapNow(deviceId, target, options));
  }

  private async tapNow(deviceId: string, target: PointTarget, options: ActionOptions = {}): Promise<ActionOutcome> {
    const at = await this.locate(deviceId, target, options);
    const result = await this.act(deviceId, { command: 'click', x: at.point[0], y: at.point[1] }, at.deviceFrameId, options.signal);
    return this.outcome(result, { point: at.point, element: at.element });
  }

  /** Long-presses `target` for `durationMs` (the phone's default when absent). Errors as {@link tap}. */
  longPress(deviceId: string, target: PointTarget & { durationMs?: number }, options: ActionOptions = {}): Promise<ActionOutcome> {
    return this.inOrder(deviceId, () => this.longPressNow(deviceId, target, options));
  }

  private async longPressNow(deviceId: string, target: PointTarget & { durationMs?: number }, options: ActionOptions = {}): Promise<ActionOutcome> {
    const at = await this.locate(deviceId, target, options);
    const command: Command = { command: 'long_press', x: at.point[0], y: at.point[1] };
    if (target.durationMs !== undefined) command.durationMs = target.durationMs;
    const result = await this.act(deviceId, command, at.deviceFrameId, options.signal);
    return this.outcome(result, { point: at.point, element: at.element });
  }

  /**
   * Swipes on `deviceId` (see {@link SwipeTarget}).
   * @throws MobileClawError `VALIDATION_FAILED` (neither `from`+`to` nor `direction`, an element
   *   without a direction, points outside the image or screen), `STALE_FRAME`, and the command error codes.
   */
  swipe(deviceId: string, target: SwipeTarget, options: ActionOptions = {}): Promise<ActionOutcome> {
    return this.inOrder(deviceId, () => this.swipeNow(deviceId, target, options));
  }

  private async swipeNow(deviceId: string, target: SwipeTarget, options: ActionOptions = {}): Promise<ActionOutcome> {
    const frame = target.frameId === undefined ? undefined : this.frameOf(deviceId, target.frameId);
    const now = await this.currentTree(deviceId, options.signal);
    if (frame) assertSameGeometry(frame, now.screen);
    let path: [number, number, number, number];
    if (target.element !== undefined && target.direction === undefined) {
      throw invalid('element', 'an element goes with a direction (the finger moves across it); from and to are points');
    }
    if (target.from && target.to && target.direction === undefined) {
      const space = frame ? spaceOf(frame) : CoordinateSpace.ofScreen(now.screen);
      const [x1, y1] = toDevicePoint(space, target.from.x, target.from.y, 'from');
      const [x2, y2] = toDevicePoint(space, target.to.x, target.to.y, 'to');
      path = [x1, y1, x2, y2];
    } else if (target.direction !== undefined && !target.from && !target.to) {
      let region: [number, number, number, number] = [0, 0, now.screen.width, now.screen.height];
      if (target.element !== undefined) {
        if (!frame) throw invalid('element', 'a swipe across an element needs the frameId of the screen that listed it');
        const element = elementOf(frame, target.element);
        const current = now.elements.find((e) => sameElement(e, element));
        if (!current) throw staleElement(frame, element);
        region = current.bounds;
      }
      path = directionPath(region, target.direction);
    } else {
      throw invalid('direction', 'give either from and to, or a direction');
    }
    const command: Command = { command: 'swipe', x1: path[0], y1: path[1], x2: path[2], y2: path[3] };
    if (target.durationMs !== undefined) command.durationMs = target.durationMs;
    const result = await this.act(deviceId, command, now.deviceFrameId, options.signal);
    return this.outcome(result, { path });
  }

  /**
   * Types `text` (any Unicode, sent unchanged) into the focused field, replacing its content when
   * `clear`, then reads the field back.
   * @throws MobileClawError the command error codes (a phone with no focused field answers `DEVICE_ERROR`),
   *   `PROTOCOL_ERROR` when the tree read back has no node list (the text was typed).
   */
  inputText(deviceId: string, text: string, options: ActionOptions & { clear?: boolean } = {}): Promise<InputOutcome> {
    return this.inOrder(deviceId, () => this.inputTextNow(deviceId, text, options));
  }

  private async inputTextNow(deviceId: string, text: string, options: ActionOptions & { clear?: boolean } = {}): Promise<InputOutcome> {
    const command: Command = { command: 'input', text };
    if (options.clear) command.clear = true;
    const result = await this.act(deviceId, command, undefined, options.signal);
    const field = findFocusedField((await this.readTree(deviceId, options.signal)).nodes);
    const outcome: InputOutcome = { ...this.outcome(result, {}), holdsText: false };
    if (!field) return outcome;
    if (field.password) return { ...outcome, holdsText: null };
    const fieldText = field.text ?? '';
    return { ...outcome, fieldText, holdsText: options.clear ? fieldText === text : fieldText.endsWith(text) };
  }

  /** Presses Back. @throws MobileClawError the command error codes. */
  pressBack(deviceId: string, options: ActionOptions = {}): Promise<ActionOutcome> {
    return this.inOrder(deviceId, () => this.pressBackNow(deviceId, options));
  }

  private async pressBackNow(deviceId: string, options: ActionOptions = {}): Promise<ActionOutcome> {
    return this.outcome(await this.act(deviceId, { command: 'back' }, undefined, options.signal), {});
  }

  /** Presses Home. @throws MobileClawError the command error codes. */
  pressHome(deviceId: string, options: ActionOptions = {}): Promise<ActionOutcome> {
    return this.inOrder(deviceId, () => this.pressHomeNow(deviceId, options));
  }

  private async pressHomeNow(deviceId: string, options: ActionOptions = {}): Promise<ActionOutcome> {
    return this.outcome(await this.act(deviceId, { command: 'home' }, undefined, options.signal), {});
  }

  /**
   * Opens app `app` (an Android package name) and checks that it came to the foreground.
   * @throws MobileClawError the command error codes (an unknown package: `DEVICE_ERROR` with the phone's `APP_NOT_FOUND`),
   *   `PROTOCOL_ERROR` when the tree read back has no node list.
   */
  openApp(deviceId: string, app: string, options: ActionOptions = {}): Promise<OpenAppOutcome> {
    return this.inOrder(deviceId, () => this.openAppNow(deviceId, app, options));
  }

  private async openAppNow(deviceId: string, app: string, options: ActionOptions = {}): Promise<OpenAppOutcome> {
    const result = await this.act(deviceId, { command: 'open', app }, undefined, options.signal);
    const fg = foregroundPackage((await this.readTree(deviceId, options.signal)).nodes);
    const outcome: OpenAppOutcome = { ...this.outcome(result, {}), verified: fg === app };
    if (fg !== undefined) outcome.foregroundPackage = fg;
    return outcome;
  }

  /**
   * The phone's launchable apps, when the phone offers that (capability `list_apps`).
   * @throws MobileClawError `NOT_SUPPORTED` when it does not (the message lists what it can do).
   */
  async listApps(deviceId: string): Promise<never> {
    const device = await this.phones.getDevice(deviceId);
    throw new MobileClawError(
      'NOT_SUPPORTED',
      `${deviceId} cannot list its apps (its commands: ${device.capabilities.join(', ') || 'none reported'}); open an app by its package name instead`,
      { deviceId },
    );
  }

  /**
   * Runs `work` after every earlier observation or action on `deviceId` has ended, so that the check
   * of the current tree and the action it guards are not split by another caller's action, and a
   * screen asked for after an action shows that action's effect.
   */
  private inOrder<T>(deviceId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.lanes.get(deviceId) ?? Promise.resolve();
    const run = previous.then(work, work);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.lanes.set(deviceId, settled);
    void settled.then(() => {
      if (this.lanes.get(deviceId) === settled) this.lanes.delete(deviceId);
    });
    return run;
  }

  private async locate(deviceId: string, target: PointTarget, options: ActionOptions): Promise<Located> {
    const byElement = target.element !== undefined;
    const byPoint = target.x !== undefined || target.y !== undefined;
    if (byElement === byPoint) throw invalid('element', 'give either element (with frameId) or x and y');
    if (byPoint && (target.x === undefined || target.y === undefined)) throw invalid(target.x === undefined ? 'x' : 'y', 'x and y go together');
    const frame = target.frameId === undefined ? undefined : this.frameOf(deviceId, target.frameId);
    if (byElement && !frame) throw invalid('frameId', 'an element index needs the frameId of the screen that listed it');
    const now = await this.currentTree(deviceId, options.signal);
    let located: Located;
    /** What the finger lands on now: the innermost element of the current tree under the point. */
    let under: UiElement | undefined;
    if (frame) {
      assertSameGeometry(frame, now.screen);
      const planned = byElement ? elementOf(frame, target.element!) : undefined;
      const point = planned ? planned.center : toDevicePoint(spaceOf(frame), target.x!, target.y!, ['x', 'y']);
      // The frame promised what is under the point: the element there in the frame must be the one
      // there now (or nothing in both). Checking only the frame's element would let a point on empty
      // space of an old frame land on whatever has appeared there since, unchecked.
      const was = innermostAt(frame.elements, point);
      under = innermostAt(now.elements, point);
      const gone = [planned, was].find((e) => e !== undefined && !now.elements.some((n) => sameElement(n, e)));
      if (gone) throw staleElement(frame, gone);
      if (!sameUnder(was, under)) throw stalePoint(frame, point, was, under);
      located = { point, element: planned ?? was };
    } else {
      const point = toDevicePoint(CoordinateSpace.ofScreen(now.screen), target.x!, target.y!, ['x', 'y']);
      under = innermostAt(now.elements, point);
      located = { point, element: under };
    }
    if (now.deviceFrameId !== undefined) located.deviceFrameId = now.deviceFrameId;
    // Both the element aimed at and the one the finger lands on count (a row and the "Delete" inside it),
    // each by its own words and by the label it borrows (an icon-only button named by its row or card).
    const labels = [located.element, under].filter((e, i, all): e is UiElement => e !== undefined && all.indexOf(e) === i);
    const label = labels.map((e) => sensitiveLabel([[e.text, e.desc].filter(Boolean).join(' '), e.label])).find((l) => l !== undefined);
    if (label !== undefined && !options.approved) {
      throw new MobileClawError(
        'APPROVAL_REQUIRED',
        `"${label}" looks like a sensitive action (payment, deletion or similar): it runs only once a human approves it`,
        { deviceId },
      );
    }
    return located;
  }

  /** The frame, which must belong to `deviceId`. */
  private frameOf(deviceId: string, frameId: string): ScreenFrame {
    const frame = this.frames.get(frameId);
    if (frame.deviceId !== deviceId) throw invalid('frameId', `frame ${frameId} is a screen of ${frame.deviceId}, not of ${deviceId}`);
    return frame;
  }

  /**
   * The phone's current `ui_tree` reply.
   * @throws MobileClawError `PROTOCOL_ERROR` when the reply has no node list, and the command error codes.
   */
  private async readTree(deviceId: string, signal?: AbortSignal): Promise<UiTreeData> {
    const tree = (await this.phones.execute<UiTreeData>(deviceId, { command: 'ui_tree' }, this.execOptions(signal))).data;
    if (!Array.isArray(tree?.nodes)) throw new MobileClawError('PROTOCOL_ERROR', `${deviceId} answered ui_tree without a node list`, { deviceId });
    return tree;
  }

  /** The phone's current element list and geometry (no image, not remembered). */
  private async currentTree(deviceId: string, signal?: AbortSignal): Promise<{ screen: ScreenInfo; elements: UiElement[]; deviceFrameId?: string }> {
    const tree = await this.readTree(deviceId, signal);
    const screen = tree.screen ?? (await this.phones.getDevice(deviceId)).screen;
    if (!screen) throw new MobileClawError('PROTOCOL_ERROR', `${deviceId} did not report its screen size`, { deviceId });
    return { screen, elements: toUiElements(tree.nodes), ...(tree.frameId === undefined ? {} : { deviceFrameId: tree.frameId }) };
  }

  private act(deviceId: string, command: Command, deviceFrameId: string | undefined, signal?: AbortSignal): Promise<CommandResult> {
    const exec = this.execOptions(signal);
    if (deviceFrameId !== undefined) exec.frameId = deviceFrameId;
    return this.phones.execute(deviceId, command, exec);
  }

  private outcome(result: CommandResult, extra: Pick<ActionOutcome, 'point' | 'path' | 'element'>): ActionOutcome {
    const outcome: ActionOutcome = { deviceId: result.deviceId, requestId: result.requestId, command: result.command, durationMs: result.durationMs };
    if (extra.point) outcome.point = extra.point;
    if (extra.path) outcome.path = extra.path;
    if (extra.element) outcome.element = extra.element;
    return outcome;
  }

  private execOptions(signal?: AbortSignal): ExecuteOptions {
    const exec: ExecuteOptions = {};
    if (this.options.commandTimeoutMs !== undefined) exec.timeoutMs = this.options.commandTimeoutMs;
    if (signal) exec.signal = signal;
    return exec;
  }

  private now(): string {
    return (this.clock ? this.clock.now() : new Date()).toISOString();
  }
}

function invalid(field: string, message: string): MobileClawError {
  return new MobileClawError('VALIDATION_FAILED', message, { fieldErrors: [{ field, message }] });
}

function spaceOf(frame: ScreenFrame): CoordinateSpace {
  return frame.image ? CoordinateSpace.ofImage(frame.image, frame.screen) : CoordinateSpace.ofScreen(frame.screen);
}

/**
 * A point of `space` in device px.
 * @param fields the field errors name: `[x's, y's]` (the one that is out of range, x's when both are), or one name for the point.
 * @throws MobileClawError `VALIDATION_FAILED` when outside the space.
 */
function toDevicePoint(space: CoordinateSpace, x: number, y: number, fields: string | [string, string]): [number, number] {
  const { width, height } = space.size;
  const xOk = Number.isFinite(x) && x >= 0 && x < width;
  const yOk = Number.isFinite(y) && y >= 0 && y < height;
  if (!xOk || !yOk) {
    const what = space.isScreen ? 'the screen' : 'the image';
    const field = typeof fields === 'string' ? fields : fields[xOk ? 1 : 0];
    throw invalid(field, `point (${x}, ${y}) is outside ${what} (${width}×${height} px): x must be in [0, ${width}), y in [0, ${height})`);
  }
  return space.toDevice(x, y);
}

function elementOf(frame: ScreenFrame, index: number): UiElement {
  const element = frame.elements[index];
  if (!Number.isInteger(index) || !element) {
    const listed = frame.elements.length === 0 ? 'lists no elements' : `lists elements 0 to ${frame.elements.length - 1}`;
    throw invalid('element', `frame ${frame.frameId} ${listed}; there is no element ${index}`);
  }
  return element;
}

/** The last (deepest in document order) element whose bounds contain the point. */
function innermostAt(elements: UiElement[], [x, y]: [number, number]): UiElement | undefined {
  let hit: UiElement | undefined;
  for (const e of elements) if (boundsContain(e.bounds, x, y)) hit = e;
  return hit;
}

/** Same on-screen element: kind, labels, id and bounds (state such as `checked` may differ). */
function sameElement(a: UiElement, b: UiElement): boolean {
  return (
    a.type === b.type &&
    a.text === b.text &&
    a.desc === b.desc &&
    a.resourceId === b.resourceId &&
    a.bounds.every((v, i) => v === b.bounds[i])
  );
}

/** The same element, or no element in both trees. */
function sameUnder(a: UiElement | undefined, b: UiElement | undefined): boolean {
  return a === undefined || b === undefined ? a === b : sameElement(a, b);
}

function describeElement(e: UiElement): string {
  const label = e.text ?? e.desc;
  return `[${e.index}] ${e.type}${label === undefined ? '' : ` ${JSON.stringify(label)}`}`;
}

function staleElement(frame: ScreenFrame, element: UiElement): MobileClawError {
  return new MobileClawError(
    'STALE_FRAME',
    `element ${describeElement(element)} of frame ${frame.frameId} is no longer on the screen of ${frame.deviceId}: take a new screen and act on it`,
    { deviceId: frame.deviceId },
  );
}

/** STALE_FRAME for a point whose element changed: `was` in the frame, `now` in the current tree (index-less: it is in no frame). */
function stalePoint(frame: ScreenFrame, [x, y]: [number, number], was: UiElement | undefined, now: UiElement | undefined): MobileClawError {
  const label = now?.text ?? now?.desc;
  const there = now ? `a ${now.type}${label === undefined ? '' : ` ${JSON.stringify(label)}`} is there` : 'no element is there';
  return new MobileClawError(
    'STALE_FRAME',
    `the point (${x},${y}) in screen px was on ${was ? describeElement(was) : 'no element'} in frame ${frame.frameId}; now ${there}: take a new screen and act on it`,
    { deviceId: frame.deviceId },
  );
}

function assertSameGeometry(frame: ScreenFrame, now: ScreenInfo): void {
  const was = frame.screen;
  if (was.width !== now.width || was.height !== now.height || (was.rotation ?? 0) !== (now.rotation ?? 0)) {
    throw new MobileClawError(
      'STALE_FRAME',
      `frame ${frame.frameId} was ${was.width}×${was.height} rotation ${was.rotation ?? 0}; the screen is now ${now.width}×${now.height} rotation ${now.rotation ?? 0}: take a new screen`,
      { deviceId: frame.deviceId },
    );
  }
}

/** The finger's path moving in `direction` across `region` ([l, t, r, b], device px), centred, over 60 % of it. */
function directionPath(region: [number, number, number, number], direction: 'up' | 'down' | 'left' | 'right'): [number, number, number, number] {
  const [l, t, r, b] = region;
  const cx = Math.floor((l + r) / 2);
  const cy = Math.floor((t + b) / 2);
  const dy = Math.floor(((b - t) * DIRECTION_SWIPE_EXTENT) / 2);
  const dx = Math.floor(((r - l) * DIRECTION_SWIPE_EXTENT) / 2);
  switch (direction) {
    case 'up':
      return [cx, cy + dy, cx, cy - dy];
    case 'down':
      return [cx, cy - dy, cx, cy + dy];
    case 'left':
      return [cx + dx, cy, cx - dx, cy];
    case 'right':
      return [cx - dx, cy, cx + dx, cy];
  }
}

/** The editable node with the input focus (depth-first), if any. */
function findFocusedField(nodes: UiNode[]): UiNode | undefined {
  const stack = [...nodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.editable && node.focused) return node;
    if (node.children) stack.push(...[...node.children].reverse());
  }
  return undefined;
}
