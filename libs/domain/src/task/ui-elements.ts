import type { UiNode } from '../results';
import { ElementLabels, type ElementLabel } from './element-labels';

/**
 * Where an element's {@link UiElement.label} was found on screen, best source first:
 * - `text` / `desc`: the element's own text or content description (of a description that joins a
 *   title with a state, `互联网,zxgj_5G`, the title a text inside the element shows);
 * - `labeled-by`: the node its `labeledBy` relation names (Android `AccessibilityNodeInfo#getLabeledBy`);
 * - `row`: the title (and summary) of the clickable row it sits in, e.g. a preference row's switch;
 * - `card`: the card or container that holds it: its content description, or, for a card the user taps,
 *   its title (first text), e.g. an alarm card's time for the alarm's switch;
 * - `preceding`: the nearest text before it in the same container, e.g. a form field's caption;
 * - `following`: for a checkbox, radio button or switch, the first text after it on its line in the
 *   same container, e.g. "Remember me" after its checkbox;
 * - `hint`: a field's hint (placeholder) text, when nothing around the field names it;
 * - `resource-id`: last resort, nothing on screen names it: its resource id's entry name in words
 *   (`com.example:id/fab_add_alarm` → `fab add alarm`); never a framework (`android:`) or obfuscated id.
 */
export type UiLabelSource = 'text' | 'desc' | 'labeled-by' | 'row' | 'card' | 'preceding' | 'following' | 'hint' | 'resource-id';

/**
 * One entry of the compact element list a planner reads (droidrun/mobile-mcp style): the actionable
 * or readable nodes of a UI tree, numbered in document order. Bounds are `[left, top, right, bottom]`
 * and `center` is `[x, y]`, in device px.
 */
export interface UiElement {
  /** 0-based position in the list; planners refer to elements by it. */
  index: number;
  /** The node's `id` in the `ui_tree` result. */
  nodeId: string;
  /** Short class name, e.g. `Switch`, `EditText`, `TextView`. */
  type: string;
  /** Visible text; for a node with no own text, its descendants' texts joined by ` · `. Never set for password fields. */
  text?: string;
  /** Content description (accessibility label); omitted when it equals `text`. */
  desc?: string;
  /**
   * The best human label on screen for this element (see {@link UiLabelSource} for where it may come
   * from); set on every actionable element that has one anywhere around it.
   */
  label?: string;
  /** Where {@link label} came from; set exactly when `label` is. */
  labelSource?: UiLabelSource;
  resourceId?: string;
  bounds: [number, number, number, number];
  center: [number, number];
  clickable?: boolean;
  longClickable?: boolean;
  editable?: boolean;
  checkable?: boolean;
  checked?: boolean;
  scrollable?: boolean;
  password?: boolean;
  focused?: boolean;
  selected?: boolean;
  /** Present (false) only when the node is disabled. */
  enabled?: boolean;
}

/** True when the point (x, y) in px lies inside `bounds` (`[left, top, right, bottom]`, right/bottom exclusive). */
export function boundsContain(bounds: readonly [number, number, number, number], x: number, y: number): boolean {
  return x >= bounds[0] && x < bounds[2] && y >= bounds[1] && y < bounds[3];
}

/** Separator between descendant texts merged into one element's `text`. */
export const UI_TEXT_SEPARATOR = ' · ';

function shortClass(className: string | undefined): string {
  if (!className) return 'View';
  const dot = className.lastIndexOf('.');
  return dot === -1 ? className : className.slice(dot + 1);
}

function hasArea(b: [number, number, number, number]): boolean {
  return b[2] > b[0] && b[3] > b[1];
}

function label(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function isActionable(n: UiNode): boolean {
  return !!(n.clickable || n.longClickable || n.editable || n.checkable || n.scrollable);
}

/**
 * Whether an unlabelled node takes its descendants' texts as its label: a control the user taps
 * (a settings row, a card, a tab). Not a scroll container (a list is a region, and its rows'
 * section headers and field labels must stay elements of their own), not an editable field (its
 * neighbours are not its value), and not a node that has a content description (as with TalkBack,
 * the description is then the whole label).
 */
function takesDescendantLabels(n: UiNode): boolean {
  return !!(n.clickable || n.longClickable || n.checkable) && !n.editable && !n.password && !label(n.desc);
}

function ownLabel(node: UiNode): string | undefined {
  return node.password ? undefined : label(node.text) ?? label(node.desc);
}

/** Descendants of `node` with a text or description that are not actionable themselves (they get their own entries). */
function collectTexts(node: UiNode, out: UiNode[], consumed: Set<UiNode>): void {
  for (const child of node.children ?? []) {
    if (isActionable(child) || !hasArea(child.bounds)) continue;
    if (ownLabel(child)) {
      out.push(child);
      consumed.add(child);
    }
    collectTexts(child, out, consumed);
  }
}

/**
 * Turns a `ui_tree` (protocol node schema) into the compact, indexed element list planners read.
 *
 * Kept: nodes with a non-empty area that are actionable (clickable, long-clickable, editable,
 * checkable or scrollable), and nodes with text or a content description that no actionable ancestor
 * already took as its label. A tappable node (clickable, long-clickable or checkable; not editable)
 * with neither own text nor content description is labelled by its non-actionable descendants'
 * texts joined by {@link UI_TEXT_SEPARATOR}; scroll containers and fields are never labelled that way,
 * so list headers and field labels stay separate elements. Password fields never carry `text`.
 * Every actionable element also gets the best human label on screen, `label` and `labelSource`
 * (rules in {@link ElementLabels}), when anything names it.
 * Order is document (depth-first) order; `center` is the integer centre of `bounds` (px).
 * Cost: linear in the node count times the tree depth.
 */
export function toUiElements(nodes: UiNode[]): UiElement[] {
  const out: UiElement[] = [];
  const consumed = new Set<UiNode>();
  const labels = new ElementLabels(nodes);
  const ancestors: UiNode[] = [];
  // Labels are read after the walk: a text below an element may still narrow its label.
  const labelled: [UiElement, ElementLabel][] = [];
  const visit = (node: UiNode, scope: UiNode | null): void => {
    labels.see(node, scope, ancestors);
    if (hasArea(node.bounds) && !consumed.has(node)) {
      const actionable = isActionable(node);
      let text = node.password ? undefined : label(node.text);
      const desc = label(node.desc);
      const parts: UiNode[] = [];
      if (actionable && !text && takesDescendantLabels(node)) {
        collectTexts(node, parts, consumed);
        if (parts.length > 0) text = parts.map(ownLabel).join(UI_TEXT_SEPARATOR);
      }
      // A description that repeats the text adds nothing for a reader.
      if (actionable || text || desc) {
        const element = toElement(node, out.length, text, desc === text ? undefined : desc);
        const found = actionable ? labels.labelOf(node, ancestors, scope, parts) : undefined;
        if (found) labelled.push([element, found]);
        out.push(element);
      }
    }
    const childScope = labels.childScope(node, ancestors[ancestors.length - 1], scope);
    ancestors.push(node);
    for (const child of node.children ?? []) visit(child, childScope);
    ancestors.pop();
  };
  for (const node of nodes) visit(node, null);
  for (const [element, found] of labelled) {
    element.label = found.label;
    element.labelSource = found.labelSource;
  }
  return out;
}

function toElement(node: UiNode, index: number, text: string | undefined, desc: string | undefined): UiElement {
  const [l, t, r, b] = node.bounds;
  const element: UiElement = {
    index,
    nodeId: node.id,
    type: shortClass(node.class),
    bounds: [l, t, r, b],
    center: [Math.floor((l + r) / 2), Math.floor((t + b) / 2)],
  };
  if (text !== undefined) element.text = text;
  if (desc !== undefined) element.desc = desc;
  const resourceId = label(node.resourceId);
  if (resourceId) element.resourceId = resourceId;
  if (node.clickable) element.clickable = true;
  if (node.longClickable) element.longClickable = true;
  if (node.editable) element.editable = true;
  if (node.checkable) {
    element.checkable = true;
    element.checked = !!node.checked;
  }
  if (node.scrollable) element.scrollable = true;
  if (node.password) element.password = true;
  if (node.focused) element.focused = true;
  if (node.selected) element.selected = true;
  if (node.enabled === false) element.enabled = false;
  return element;
}

/**
 * An element's index, type, labels and flags, e.g. `[3] Switch "ON" desc="Wi‑Fi" checked`: the line of
 * {@link formatUiElement} without its bounds, for readers that show geometry their own way. Ends with
 * the element's {@link UiElement.label} and its source when it is not the element's own text or
 * description, e.g. `[8] Switch "OFF" id=android:id/switch_widget unchecked label="Airplane mode" (row)`
 * or `[4] Switch "开启" desc="互联网,zxgj_5G" checked label="互联网" (desc)` (the description's title).
 * Password fields show `password` and never their text.
 */
export function describeUiElement(e: UiElement): string {
  const parts = [`[${e.index}]`, e.type];
  if (e.text !== undefined) parts.push(JSON.stringify(e.text));
  if (e.desc !== undefined) parts.push(`desc=${JSON.stringify(e.desc)}`);
  if (e.resourceId !== undefined) parts.push(`id=${e.resourceId}`);
  if (e.clickable) parts.push('clickable');
  if (e.longClickable) parts.push('long-clickable');
  if (e.editable) parts.push('editable');
  if (e.password) parts.push('password');
  if (e.checkable) parts.push(e.checked ? 'checked' : 'unchecked');
  if (e.scrollable) parts.push('scrollable');
  if (e.focused) parts.push('focused');
  if (e.selected) parts.push('selected');
  if (e.enabled === false) parts.push('disabled');
  if (e.label !== undefined && e.labelSource !== undefined && e.labelSource !== 'text' && (e.labelSource !== 'desc' || e.label !== e.desc)) {
    parts.push(`label=${JSON.stringify(e.label)} (${e.labelSource})`);
  }
  return parts.join(' ');
}

/**
 * One line per element for a prompt or a log, e.g. `[3] Switch "ON" desc="Wi‑Fi" checked (860,220,1080,420)`
 * or `[8] Switch "OFF" id=android:id/switch_widget unchecked label="Airplane mode" (row) (908,656,1036,730)`.
 * Password fields show `password` and never their text.
 */
export function formatUiElement(e: UiElement): string {
  return `${describeUiElement(e)} (${e.bounds.join(',')})`;
}

/** System UI windows (status and navigation bars) that sit above every app; never "the app in the foreground". */
export const SYSTEM_UI_PACKAGES: ReadonlySet<string> = new Set(['com.android.systemui']);

/**
 * The foreground app's package: the one that owns most nodes of the tree, not counting system UI
 * windows (status bar, navigation bar); system UI only when nothing else is on screen.
 */
export function foregroundPackage(nodes: UiNode[]): string | undefined {
  const counts = new Map<string, number>();
  let system: string | undefined;
  const stack = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.package) {
      if (SYSTEM_UI_PACKAGES.has(node.package)) system ??= node.package;
      else counts.set(node.package, (counts.get(node.package) ?? 0) + 1);
    }
    if (node.children) stack.push(...node.children);
  }
  let best: string | undefined;
  for (const [pkg, count] of counts) if (best === undefined || count > counts.get(best)!) best = pkg;
  return best ?? system;
}
