import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { UiTreeNode, UiTreeXml } from '@mobileclaw/ui-hierarchy';
import { PhoneError } from './phone-error';
import { recordedFields, recordedViews } from './recorded-screen';
import {
  APPS,
  buildFrame,
  initialConversations,
  metricsFor,
  type Metrics,
  type Navigator,
  type PhoneState,
  type ScreenEntry,
  type ScreenName,
} from './screens';
import { renderSvg } from './svg-renderer';
import { contains, hitTest, findNode, toUiNode, type Bounds, type UiNode, type View } from './view';

/** Android `Surface.ROTATION_*`: quarter turns; 1 and 3 are landscape for a portrait phone. */
export type Rotation = 0 | 1 | 2 | 3;

/** Geometry of the screen as it is now: width/height in px of the current rotation. */
export interface ScreenGeometry {
  width: number;
  height: number;
  densityDpi: number;
  rotation: Rotation;
}

/** The geometry remembered for a frame (what STALE_FRAME compares). */
export interface FrameGeometry {
  width: number;
  height: number;
  rotation: Rotation;
}

export interface PhoneUiOptions {
  /** Natural (rotation 0) width in px. Default 1080. */
  width?: number;
  /** Natural (rotation 0) height in px. Default 2400. */
  height?: number;
  /** Default 420. */
  densityDpi?: number;
  /**
   * Replay mode: show this recorded screen (from `parseUiHierarchyXml`) as a static screen instead
   * of the simulated apps. Its width, height and rotation replace `width`/`height`; `ui_tree`
   * returns its nodes; screenshots draw them as a wireframe; every action succeeds (clicks and long
   * presses report the node hit, `open`/`back`/`home` report {@link RECORDED_SCREEN}; fields start
   * with their recorded text and focus, a clicked editable takes the focus and accepts `input`, which
   * still answers NO_FOCUSED_INPUT when no field has it) but the screen never changes, and it
   * cannot be rotated.
   */
  replay?: UiTreeXml;
  /**
   * The phone's monotonic clock in ms, read before and after producing a `ui_tree` or a screenshot
   * (their `captureMs`). Default `performance.now()`.
   */
  clock?: () => number;
}

/** What `open`, `back` and `home` report in replay mode instead of a simulated screen name. */
export const RECORDED_SCREEN = 'recorded';

/** The screen on display: a simulated app screen, or the recorded screen of replay mode. */
export type ShownScreen = ScreenName | typeof RECORDED_SCREEN;

/** `ui_tree` result data. */
export interface UiTreeResult {
  frameId: string;
  screen: FrameGeometry;
  nodes: UiNode[];
  /** Time the phone spent building the tree, in ms (microsecond precision). */
  captureMs: number;
}

/** Milliseconds from `started` to `ended` (two clock readings in ms), rounded to the microsecond. */
export function msBetween(started: number, ended: number): number {
  return Math.round((ended - started) * 1000) / 1000;
}

/** The node a click or long press landed on (`null` when nothing clickable was there). */
export type HitInfo = { id: string; class: string; text?: string } | null;

/** How many frame ids are remembered for STALE_FRAME checks. */
export const FRAME_HISTORY = 64;

/**
 * The simulated phone's UI: a pure state machine (no I/O, no timers). Screens live on a back
 * stack; every query rebuilds the view tree from {@link PhoneUi.state}, so `ui_tree`, hit-testing
 * and screenshots always agree. Coordinates are device px in the current rotation.
 *
 * Methods throw {@link PhoneError} with the wire error code (`OUT_OF_BOUNDS`, `APP_NOT_FOUND`,
 * `NO_FOCUSED_INPUT`, `STALE_FRAME`).
 */
export class PhoneUi {
  /** Observable state; tests may read and change it (changes show in the next frame). */
  readonly state: PhoneState;
  private stack: ScreenEntry[] = [];
  private readonly naturalWidth: number;
  private readonly naturalHeight: number;
  private readonly densityDpi: number;
  private rotationValue: Rotation = 0;
  private readonly frames = new Map<string, FrameGeometry>();
  // A per-instance prefix so that a frame id from another phone (or a previous run) is unknown here.
  private readonly framePrefix = randomBytes(3).toString('hex');
  private frameCounter = 0;
  private readonly activity = new Map<string, number>();
  private activityCounter = 0;
  private readonly nav: Navigator;
  /** Replay mode: the recorded nodes and their (static) views. */
  private readonly recorded: { nodes: UiTreeNode[]; views: View[] } | null;
  /** The phone's monotonic clock in ms (see {@link PhoneUiOptions.clock}). */
  readonly clock: () => number;

  constructor(options: PhoneUiOptions = {}) {
    this.clock = options.clock ?? (() => performance.now());
    const replay = options.replay;
    if (replay) {
      const width = positiveInt(replay.screen.width, 'replay screen width');
      const height = positiveInt(replay.screen.height, 'replay screen height');
      const rotation = replay.screen.rotation;
      if (![0, 1, 2, 3].includes(rotation)) throw new RangeError(`replay screen rotation must be 0, 1, 2 or 3, got ${String(rotation)}`);
      this.rotationValue = rotation;
      // The recording is in its own rotation; the natural (rotation 0) size swaps for 1 and 3.
      const swap = rotation % 2 === 1;
      this.naturalWidth = swap ? height : width;
      this.naturalHeight = swap ? width : height;
      const nodes = structuredClone(replay.nodes);
      this.recorded = { nodes, views: recordedViews(nodes, width) };
    } else {
      this.naturalWidth = positiveInt(options.width ?? 1080, 'width');
      this.naturalHeight = positiveInt(options.height ?? 2400, 'height');
      this.recorded = null;
    }
    this.densityDpi = positiveInt(options.densityDpi ?? 420, 'densityDpi');
    this.state = {
      wifi: false,
      bluetooth: false,
      screen: 'launcher',
      conversations: initialConversations(),
      browser: { url: '', title: '' },
    };
    for (const name of Object.keys(this.state.conversations).reverse()) this.touch(name);
    this.nav = {
      push: (screen, param) => this.push(screen, param),
      replace: (screen, param) => {
        this.stack.pop();
        this.push(screen, param);
      },
      back: () => void this.back(),
      home: () => void this.home(),
      touchConversation: (name) => this.touch(name),
      conversationOrder: () => this.conversationOrder(),
    };
    this.stack = [newEntry('launcher')];
    this.sync();
    // A recorded screen's fields start with their recorded text and focus, so `input` works as on the phone.
    if (this.recorded) Object.assign(this.top(), recordedFields(this.recorded.nodes));
  }

  /** True in replay mode (a recorded screen is shown; see {@link PhoneUiOptions.replay}). */
  get replaying(): boolean {
    return this.recorded !== null;
  }

  /** Current screen size and rotation. */
  get screen(): ScreenGeometry {
    const swap = this.rotationValue % 2 === 1;
    return {
      width: swap ? this.naturalHeight : this.naturalWidth,
      height: swap ? this.naturalWidth : this.naturalHeight,
      densityDpi: this.densityDpi,
      rotation: this.rotationValue,
    };
  }

  /** The top of the back stack (`param`: conversation or contact name). */
  get current(): { screen: ScreenName; param?: string } {
    const top = this.top();
    return top.param === undefined ? { screen: top.screen } : { screen: top.screen, param: top.param };
  }

  /** Screens on the back stack, bottom (launcher) first. */
  get backStack(): ScreenName[] {
    return this.stack.map((e) => e.screen);
  }

  /**
   * Rotates the screen; 1 and 3 swap width and height, and the layout is recomputed. A replayed
   * screen keeps its recorded rotation (INVALID_ARGUMENT for any other).
   */
  rotate(rotation: Rotation): void {
    if (![0, 1, 2, 3].includes(rotation)) throw new PhoneError('INVALID_ARGUMENT', `rotation must be 0, 1, 2 or 3, got ${String(rotation)}`);
    if (this.recorded && rotation !== this.rotationValue)
      throw new PhoneError('INVALID_ARGUMENT', `a replayed screen keeps its recorded rotation ${this.rotationValue}; cannot rotate to ${rotation}`);
    this.rotationValue = rotation;
  }

  /** The view tree of the current frame, without registering a frame id. */
  views(): View[] {
    if (this.recorded) return this.recorded.views;
    return buildFrame({ state: this.state, entry: this.top(), m: this.metrics(), nav: this.nav });
  }

  /** The current tree in wire form (a fresh copy), without registering a frame id. */
  nodes(): UiNode[] {
    if (this.recorded) return structuredClone(this.recorded.nodes);
    return this.views().map(toUiNode);
  }

  /** `ui_tree`: the node tree with a new frame id and the time taken to build it. */
  uiTree(): UiTreeResult {
    const started = this.clock();
    const nodes = this.nodes();
    const { frameId, screen } = this.registerFrame();
    return { frameId, screen, nodes, captureMs: msBetween(started, this.clock()) };
  }

  /** The current frame as an SVG document of the screen's size in px. */
  toSvg(): string {
    const { width, height } = this.screen;
    return renderSvg(this.views(), width, height);
  }

  /** Issues a new frame id bound to the current geometry (the last {@link FRAME_HISTORY} are kept). */
  registerFrame(): { frameId: string; screen: FrameGeometry } {
    const { width, height, rotation } = this.screen;
    const frameId = `${this.framePrefix}-${++this.frameCounter}`;
    const screen = { width, height, rotation };
    this.frames.set(frameId, screen);
    if (this.frames.size > FRAME_HISTORY) this.frames.delete(this.frames.keys().next().value as string);
    return { frameId, screen: { ...screen } };
  }

  /** Throws STALE_FRAME unless `frameId` is known and was taken with the current size and rotation. */
  checkFrame(frameId: string): void {
    const geometry = this.frames.get(frameId);
    if (!geometry) throw new PhoneError('STALE_FRAME', `unknown frameId ${JSON.stringify(frameId)}`);
    const now = this.screen;
    if (geometry.width !== now.width || geometry.height !== now.height || geometry.rotation !== now.rotation)
      throw new PhoneError(
        'STALE_FRAME',
        `frame ${frameId} was ${geometry.width}x${geometry.height} rotation ${geometry.rotation}; the screen is now ${now.width}x${now.height} rotation ${now.rotation}`,
      );
  }

  /**
   * `open {app}`: launches the app's main screen above the launcher. Throws APP_NOT_FOUND. In replay
   * mode any package is accepted and the recorded screen stays.
   */
  open(app: string): { package: string; screen: ShownScreen } {
    if (this.recorded) return { package: app, screen: RECORDED_SCREEN };
    const info = APPS.find((a) => a.package === app);
    if (!info) throw new PhoneError('APP_NOT_FOUND', `no app with package ${JSON.stringify(app)} is installed`);
    this.home();
    this.push(info.screen);
    return { package: info.package, screen: info.screen };
  }

  /**
   * `click {x, y}`: the deepest clickable or editable node under the point gets the click. An
   * editable node takes the focus; anything else removes it. Throws OUT_OF_BOUNDS.
   */
  click(x: number, y: number): { hit: HitInfo } {
    this.checkPoint(x, y);
    const hit = hitTest(this.views(), x, y, (v) => v.clickable || v.editable);
    const entry = this.top();
    entry.focus = hit?.editable ? (hit.field ?? null) : null;
    if (hit && hit.enabled && !hit.editable) hit.onClick?.();
    return { hit: hitInfo(hit) };
  }

  /** `long_press {x, y}`: hits like a click but only focuses editables (no app here has a long-press menu). */
  longPress(x: number, y: number): { hit: HitInfo } {
    this.checkPoint(x, y);
    const hit = hitTest(this.views(), x, y, (v) => v.clickable || v.editable);
    if (hit?.editable) this.top().focus = hit.field ?? null;
    return { hit: hitInfo(hit) };
  }

  /**
   * `swipe`: scrolls the scrollable list under the start point by whole items (finger moving up
   * shows later items). Outside a list it is a no-op. Throws OUT_OF_BOUNDS for either point.
   */
  swipe(x1: number, y1: number, x2: number, y2: number): { scrolled: boolean } {
    this.checkPoint(x1, y1);
    this.checkPoint(x2, y2);
    const target = hitTest(this.views(), x1, y1, (v) => v.scrollable);
    if (!target?.onScroll) return { scrolled: false };
    const dy = y1 - y2;
    const minimum = this.metrics().dp(16);
    if (Math.abs(dy) < minimum || Math.abs(dy) < Math.abs(x1 - x2)) return { scrolled: false };
    const items = Math.round(dy / (target.itemHeight ?? 1)) || Math.sign(dy);
    return { scrolled: target.onScroll(items) };
  }

  /** `input {text, clear?}`: types into the focused editable (replacing its text when `clear`). Throws NO_FOCUSED_INPUT. */
  input(text: string, clear = false): { text: string } {
    const entry = this.top();
    const focused = entry.focus === null ? null : findNode(this.views(), (v) => v.editable && v.field === entry.focus);
    if (!focused?.field) throw new PhoneError('NO_FOCUSED_INPUT', 'no editable field has the focus; click one first');
    const value = clear ? text : (entry.fields[focused.field] ?? '') + text;
    entry.fields[focused.field] = value;
    return { text: value };
  }

  /** `back`: pops one screen; on the launcher (and in replay mode) it does nothing. */
  back(): { screen: ShownScreen } {
    if (this.recorded) return { screen: RECORDED_SCREEN };
    if (this.stack.length > 1) this.stack.pop();
    this.sync();
    return { screen: this.state.screen };
  }

  /** `home`: clears the back stack and shows the launcher (in replay mode: does nothing). */
  home(): { screen: ShownScreen } {
    if (this.recorded) return { screen: RECORDED_SCREEN };
    this.stack = [newEntry('launcher')];
    this.sync();
    return { screen: this.state.screen };
  }

  /** The text of the focused editable field, if any. */
  get focusedText(): string | undefined {
    const entry = this.top();
    return entry.focus === null ? undefined : (entry.fields[entry.focus] ?? '');
  }

  /** Centre of the first node matching `match` in the current tree (for tests and scripts). */
  centreOf(match: (node: UiNode) => boolean): { x: number; y: number } | null {
    const found = findNode(this.nodes(), match);
    if (!found) return null;
    const [l, t, r, b] = found.bounds;
    return { x: Math.floor((l + r) / 2), y: Math.floor((t + b) / 2) };
  }

  private push(screen: ScreenName, param?: string): void {
    const entry = newEntry(screen, param);
    if (screen === 'browser') entry.fields['url'] = this.state.browser.url;
    this.stack.push(entry);
    this.sync();
  }

  private top(): ScreenEntry {
    return this.stack[this.stack.length - 1] as ScreenEntry;
  }

  private sync(): void {
    this.state.screen = this.top().screen;
  }

  private touch(name: string): void {
    this.activity.set(name, ++this.activityCounter);
  }

  private conversationOrder(): string[] {
    const names = Object.keys(this.state.conversations);
    return names
      .map((name, index) => ({ name, index, at: this.activity.get(name) ?? 0 }))
      .sort((a, b) => b.at - a.at || a.index - b.index)
      .map((e) => e.name);
  }

  private metrics(): Metrics {
    const { width, height, densityDpi } = this.screen;
    return metricsFor(width, height, densityDpi);
  }

  private checkPoint(x: number, y: number): void {
    const { width, height } = this.screen;
    const whole: Bounds = [0, 0, width, height];
    if (!contains(whole, x, y)) throw new PhoneError('OUT_OF_BOUNDS', `point (${x}, ${y}) is outside the ${width}x${height} screen`);
  }
}

function newEntry(screen: ScreenName, param?: string): ScreenEntry {
  const entry: ScreenEntry = { screen, fields: {}, focus: null, scroll: 0 };
  if (param !== undefined) entry.param = param;
  return entry;
}

function hitInfo(v: View | null): HitInfo {
  if (!v) return null;
  return v.text === '' ? { id: v.id, class: v.cls } : { id: v.id, class: v.cls, text: v.text };
}

function positiveInt(n: number, name: string): number {
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`${name} must be a positive integer, got ${n}`);
  return n;
}

export { findNode };
