/**
 * The simulated phone's view hierarchy: one tree per frame, rebuilt from the UI state on every
 * query, used alike for `ui_tree`, hit-testing and drawing, so the three can never disagree.
 */

/** `[left, top, right, bottom]` in device px of the current rotation; right/bottom exclusive. */
export type Bounds = [number, number, number, number];

/** One node of `ui_tree` data (wire protocol v1). */
export interface UiNode {
  /** Stable within a screen layout, e.g. `app/list/row_wifi/switch`. */
  id: string;
  /** Android class name, e.g. `android.widget.Switch`. */
  class: string;
  text: string;
  desc: string;
  /** e.g. `com.android.settings:id/switch_widget`; '' when the view has none. */
  resourceId: string;
  package: string;
  bounds: Bounds;
  clickable: boolean;
  /** Only on replayed recorded screens (the simulated apps have no long-press targets). */
  longClickable?: boolean;
  focusable: boolean;
  editable: boolean;
  checkable: boolean;
  checked: boolean;
  enabled: boolean;
  focused: boolean;
  scrollable: boolean;
  selected: boolean;
  /** Only on replayed recorded screens: a password field (its text is never carried). */
  password?: boolean;
  /** Only on editable nodes: the placeholder shown while the text is empty. */
  hint?: string;
  children: UiNode[];
}

/** How a view is drawn (see svg-renderer.ts). */
export type Paint =
  | { kind: 'none' }
  | { kind: 'fill'; color: string; radius?: number; gradient?: [string, string] }
  | { kind: 'text'; size: number; color: string; bold?: boolean; align?: 'start' | 'middle' }
  | { kind: 'statusbar'; color: string; dark: boolean }
  | { kind: 'navbar' }
  | { kind: 'nav-button'; glyph: 'back' | 'home' | 'recents' }
  | { kind: 'up-button'; color: string }
  | { kind: 'battery'; color: string }
  | { kind: 'switch'; accent: string }
  | { kind: 'edit'; size: number; accent: string; underline?: boolean }
  | { kind: 'button'; size: number; color: string; textColor: string }
  | { kind: 'icon'; color: string; glyph: string; size: number }
  | { kind: 'avatar'; color: string; glyph: string }
  | { kind: 'bubble'; mine: boolean; size: number; accent: string; lines: string[]; padX: number; padY: number; lineHeight: number }
  | { kind: 'row'; divider: boolean }
  /**
   * Replay wireframe (recorded-screen.ts): an outline (`stroke`, dashed for scroll containers) and
   * `fill`, colour or null; `lines` of text at `labelSize` px; `toggle` draws an on/off switch glyph
   * (state from the view's `checked`) in `accent`.
   */
  | { kind: 'wire'; stroke: string | null; dashed: boolean; fill: string | null; lines: string[]; labelSize: number; labelColor: string; toggle: boolean; accent: string };

/** Internal view: a UiNode plus drawing and behaviour. */
export interface View {
  id: string;
  cls: string;
  pkg: string;
  /** Visible part of the view, px: what `ui_tree` reports and what takes touches. */
  bounds: Bounds;
  /**
   * The view's whole box when only part of it is visible (e.g. a chat bubble taller than its list):
   * it is drawn there, clipped to `bounds`, as Android reports a clipped view's visible rect.
   * Absent when the whole view is visible.
   */
  drawBounds?: Bounds;
  text: string;
  desc: string;
  resourceId: string;
  clickable: boolean;
  editable: boolean;
  checkable: boolean;
  checked: boolean;
  enabled: boolean;
  focused: boolean;
  scrollable: boolean;
  selected: boolean;
  hint?: string;
  paint: Paint;
  /** What a click (or long press) does; absent on views that only display. */
  onClick?: () => void;
  /** Editable views: the key of the text field they edit in the screen's state. */
  field?: string;
  /** Scrollable views: scrolls by whole items (positive = towards the end); returns whether it moved. */
  onScroll?: (items: number) => boolean;
  /** Scrollable views: typical item height in px, to turn a swipe distance into items. */
  itemHeight?: number;
  children: View[];
}

/** Props accepted by {@link view}; everything not given defaults to false/''. */
export type ViewProps = Partial<Omit<View, 'id' | 'bounds' | 'children' | 'cls' | 'pkg'>> & { children?: View[] };

/** Creates a view; ids are `parentId/key` so they are stable for a given layout. */
export function view(parentId: string, key: string, cls: string, pkg: string, bounds: Bounds, props: ViewProps = {}): View {
  return {
    id: parentId === '' ? key : `${parentId}/${key}`,
    cls,
    pkg,
    bounds: bounds.map((n) => Math.round(n)) as Bounds,
    text: '',
    desc: '',
    resourceId: '',
    clickable: false,
    editable: false,
    checkable: false,
    checked: false,
    enabled: true,
    focused: false,
    scrollable: false,
    selected: false,
    paint: { kind: 'none' },
    children: [],
    ...props,
  };
}

export function contains(bounds: Bounds, x: number, y: number): boolean {
  return x >= bounds[0] && x < bounds[2] && y >= bounds[1] && y < bounds[3];
}

/** The overlap of two boxes, or `null` when they do not overlap (px). */
export function intersect(a: Bounds, b: Bounds): Bounds | null {
  const out: Bounds = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  return out[2] > out[0] && out[3] > out[1] ? out : null;
}

/**
 * `v` as seen through `clip` (px): its bounds become the visible part, with the whole box kept as
 * `drawBounds`; descendants are clipped alike and those wholly outside are dropped. Text and other
 * properties are untouched (a clipped TextView still holds its whole text). `null` when none of
 * `v` is visible.
 */
export function clipView(v: View, clip: Bounds): View | null {
  const visible = intersect(v.bounds, clip);
  if (!visible) return null;
  const whole = v.drawBounds ?? v.bounds;
  const clipped: View = { ...v, bounds: visible, children: v.children.flatMap((c) => clipView(c, clip) ?? []) };
  if (visible.some((n, i) => n !== whole[i])) clipped.drawBounds = whole;
  return clipped;
}

/**
 * The deepest matching view under (x, y). Later siblings are drawn on top of earlier ones (a
 * floating button over a list), so they are tried first, as Android dispatches touches.
 */
export function hitTest(roots: readonly View[], x: number, y: number, match: (v: View) => boolean): View | null {
  for (let i = roots.length - 1; i >= 0; i--) {
    const v = roots[i] as View;
    if (!contains(v.bounds, x, y)) continue;
    const inner = hitTest(v.children, x, y, match);
    if (inner) return inner;
    if (match(v)) return v;
  }
  return null;
}

/** Depth-first search for the first node satisfying `match`, in a view tree or a wire (`ui_tree`) tree. */
export function findNode<T extends { children: readonly T[] }>(roots: readonly T[], match: (node: T) => boolean): T | null {
  for (const node of roots) {
    if (match(node)) return node;
    const inner = findNode(node.children, match);
    if (inner) return inner;
  }
  return null;
}

/** The wire form of a view (drops drawing and behaviour). */
export function toUiNode(v: View): UiNode {
  const node: UiNode = {
    id: v.id,
    class: v.cls,
    text: v.text,
    desc: v.desc,
    resourceId: v.resourceId,
    package: v.pkg,
    bounds: [...v.bounds],
    clickable: v.clickable,
    focusable: v.clickable || v.editable,
    editable: v.editable,
    checkable: v.checkable,
    checked: v.checked,
    enabled: v.enabled,
    focused: v.focused,
    scrollable: v.scrollable,
    selected: v.selected,
    children: v.children.map(toUiNode),
  };
  if (v.editable) node.hint = v.hint ?? '';
  return node;
}
