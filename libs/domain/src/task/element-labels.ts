import type { UiNode } from '../results';
import type { UiLabelSource } from './ui-elements';

/** An element's best human label and where it was found. */
export interface ElementLabel {
  label: string;
  labelSource: UiLabelSource;
}

/**
 * Texts that state a toggle's value rather than name it (Android's `Switch` reports its `textOn`/`textOff`
 * as its text), compared after {@link comparable}: English, Chinese (simplified and traditional) and
 * Japanese forms. Never the label of a checkable element, from whatever source.
 */
const STATE_TEXTS: ReadonlySet<string> = new Set(['on', 'off', '开', '关', '开启', '关闭', '已开启', '已关闭', '打开', '已打开', '開', '關', '開啟', '關閉', 'オン', 'オフ']);

/** Case-, width- and space-insensitive form of a short text, for comparing it with a fixed word list. */
function comparable(text: string): string {
  return text.normalize('NFKC').replace(/\s+/gu, ' ').trim().toLowerCase();
}

/** True when `text` states an on/off value ({@link STATE_TEXTS}). */
export function isStateText(text: string): boolean {
  return STATE_TEXTS.has(comparable(text));
}

/**
 * True for a text that annotates a caption instead of being one: wholly in brackets (`(Mandatory)`,
 * `（必填）`, `[optional]`) or only punctuation and symbols (`*`, `:`).
 */
function isAnnotation(text: string): boolean {
  return /^[([{（［【<＜].*[)\]}）］】>＞]$/su.test(text) || isSymbols(text);
}

/**
 * True for a text of punctuation and symbols only (`+`, `⋮`, `×`, `*`), counting private-use characters:
 * an icon font's glyph (e.g. U+F161 drawn as a cart) is an icon, not words.
 */
function isSymbols(text: string): boolean {
  return /^[\p{P}\p{S}\p{Co}\s]+$/u.test(text);
}

/**
 * True for a text that states a value rather than names anything: digits with punctuation and symbols
 * only, as a time (`07:20`), a count (`1`), a percentage (`48%`) or a date (`2023/12/15`), in any script's
 * digits (`٤`). A value is never the caption of its neighbour.
 */
function isValue(text: string): boolean {
  return /\p{N}/u.test(text) && /^[\p{N}\p{P}\p{S}\p{Co}\s]+$/u.test(text);
}

/**
 * A label as a name: without the one full stop (`.`, `。`) that ends a spoken sentence, as system UI
 * descriptions do (`修改设置顺序。`, `Battery 100 percent.`); an ellipsis (`…`, `...`) stays.
 */
function asName(label: string): string {
  return /[^.。｡][.。｡]$/u.test(label) ? label.slice(0, -1).trimEnd() : label;
}

/**
 * True when `desc` is the title `title` followed by more after a separator (`,`, `、`, `;`, `:`, `.`, `。`
 * or a line break), as a tile's or row's description joins its title and its state or summary
 * (`互联网,zxgj_5G`, `闹钟, 未设置闹钟`, `蓝牙。`).
 */
function startsWithTitle(desc: string, title: string): boolean {
  return desc.length > title.length && desc.startsWith(title) && /^\s*[,，、;；:：.。｡\n]/u.test(desc.slice(title.length));
}

function trimmed(value: string | undefined): string | undefined {
  const t = value?.trim();
  return t ? t : undefined;
}

/** A tap target: a node the user presses (not a field, whose neighbours are not its value). */
function isTappable(n: UiNode): boolean {
  return !!(n.clickable || n.longClickable || n.checkable) && !n.editable;
}

function isActionable(n: UiNode): boolean {
  return !!(n.clickable || n.longClickable || n.editable || n.checkable || n.scrollable);
}

/** A list: a scroll container, or a collection view that holds items even while they fit (it does not scroll then). */
function isList(n: UiNode): boolean {
  return !!n.scrollable || /(RecyclerView|ListView|GridView|ViewPager2?)$/u.test(n.class ?? '');
}

/**
 * An app bar, by its class (`Toolbar`, `MaterialToolbar`, `AppBarLayout`, `CollapsingToolbarLayout`,
 * `ActionBarContainer`) or by the resource id names Android apps give one (`toolbar`, `action_bar`,
 * `app_bar`, `collapsing_toolbar`, …).
 */
function isAppBar(n: UiNode): boolean {
  if (/(Toolbar|ToolbarLayout|AppBarLayout|ActionBarContainer)$/u.test(n.class ?? '')) return true;
  const entry = (n.resourceId ?? '').slice((n.resourceId ?? '').lastIndexOf('/') + 1).toLowerCase();
  return /(^|_)(toolbar|action_?bar|app_?bar)(_|$)/u.test(entry);
}

/** A scroll container and nothing else: a region, not a control; it takes only a label of its own. */
function isScrollRegion(n: UiNode): boolean {
  return !!n.scrollable && !n.clickable && !n.longClickable && !n.editable && !n.checkable;
}

/**
 * An image view (`ImageView`, `ImageButton` and their subclasses as reported, e.g. a floating action
 * button) draws no text, so a `text` a tree reports for it is not what the user sees: its content
 * description names it first.
 */
function drawsNoText(n: UiNode): boolean {
  return /(^|\.)Image(View|Button)$/u.test(n.class ?? '');
}

/** A title TextView by its resource id: `android:id/title` of a preference row, or any app's `…:id/title`. */
function isTitle(n: UiNode): boolean {
  return /(^|[:/])title$/u.test(n.resourceId ?? '');
}

/**
 * Resource-id entry names that name no meaning: framework ids (`android:id/switch_widget`,
 * `android:id/checkbox`) are shared by every preference row, and `0_resource_name_obfuscated` is
 * what aapt2's resource-name collapsing (R8 shrinking) leaves in every obfuscated app.
 */
function humanisedResourceId(resourceId: string | undefined): string | undefined {
  const id = trimmed(resourceId);
  if (!id || id.startsWith('android:')) return undefined;
  const entry = id.slice(id.lastIndexOf('/') + 1);
  if (/resource_name_obfuscated/u.test(entry)) return undefined;
  const words = entry
    .replace(/([a-z\d])([A-Z])/gu, '$1 $2')
    .split(/[\s_.-]+/u)
    .filter((w) => w.length > 0);
  return words.length > 0 ? words.join(' ').toLowerCase() : undefined;
}

/**
 * Whether a caption text `text` is near enough to element `el` (both `[left, top, right, bottom]`, px) to
 * name it: on the same line (any horizontal distance, as a row's label and its switch), or directly
 * above it (overlapping it horizontally) with a gap of at most half the element's height, as a field's
 * caption (a page heading further above a form is not one). Never below it.
 */
function isNearCaption(text: UiNode['bounds'], el: UiNode['bounds']): boolean {
  if (text[1] >= el[3]) return false;
  if (text[3] > el[1]) return true;
  return text[0] < el[2] && text[2] > el[0] && 2 * (el[1] - text[3]) <= el[3] - el[1];
}

/** A tap target with a content description: a card the user opens whose description may name only its kind. */
function isDescribedTapTarget(n: UiNode): boolean {
  return isTappable(n) && trimmed(n.desc) !== undefined;
}

const TAP_TARGET_ORDER: readonly UiLabelSource[] = ['text', 'desc', 'labeled-by', 'row', 'card', 'preceding', 'resource-id'];
const DESCRIPTION_FIRST_ORDER: readonly UiLabelSource[] = ['desc', 'text', 'labeled-by', 'row', 'card', 'preceding', 'resource-id'];
const FIELD_ORDER: readonly UiLabelSource[] = ['desc', 'labeled-by', 'row', 'card', 'preceding', 'hint', 'text', 'resource-id'];
const SCROLL_REGION_ORDER: readonly UiLabelSource[] = ['text', 'desc', 'labeled-by'];

/**
 * A checkbox or radio button by its class (`CheckBox`, `AppCompatCheckBox`, `MaterialRadioButton`, …):
 * its caption conventionally follows it ("☐ Remember me"), where a switch's precedes it ("Wi‑Fi ◯").
 */
function isBox(n: UiNode): boolean {
  return /(CheckBox|RadioButton)$/u.test(n.class ?? '');
}

/**
 * `order` with the `following` source of a checkable element: right before `preceding` for a
 * checkbox or radio button ({@link isBox}), right after it for any other (a switch).
 */
function withFollowing(order: readonly UiLabelSource[], n: UiNode): readonly UiLabelSource[] {
  const at = order.indexOf('preceding') + (isBox(n) ? 0 : 1);
  return [...order.slice(0, at), 'following', ...order.slice(at)];
}

/** The sources an element's label is looked for in, best first (see {@link ElementLabels}). */
function sourceOrder(n: UiNode): readonly UiLabelSource[] {
  if (isScrollRegion(n)) return SCROLL_REGION_ORDER;
  if (n.editable) return FIELD_ORDER;
  const text = trimmed(n.text);
  const order = drawsNoText(n) || (text !== undefined && isSymbols(text) && trimmed(n.desc) !== undefined) ? DESCRIPTION_FIRST_ORDER : TAP_TARGET_ORDER;
  return n.checkable ? withFollowing(order, n) : order;
}

/**
 * True when the text `text` and the element `el` (both `[left, top, right, bottom]`, px) sit on one
 * line: the vertical centre of either lies within the other's vertical span.
 */
function onSameLine(text: UiNode['bounds'], el: UiNode['bounds']): boolean {
  const textMiddle = (text[1] + text[3]) / 2;
  const elMiddle = (el[1] + el[3]) / 2;
  return (textMiddle >= el[1] && textMiddle <= el[3]) || (elMiddle >= text[1] && elMiddle <= text[3]);
}

/**
 * Finds the best human label of each actionable element of one UI tree, during {@link toUiElements}'s
 * single depth-first walk (document order): the walk reports every node with {@link see} and asks for an
 * element's label with {@link labelOf}, ancestors first, so a row's label is known before its switch's.
 *
 * Sources, best first ({@link UiLabelSource}): own text, own content description, the `labeledBy` node,
 * the row (the nearest tap-target ancestor labelled by its own or merged text), the card (the nearest
 * ancestor with a content description: its description, or, when the card is a tap target, its title,
 * the first text inside it before the element — an alarm card described "Alarm" is told from the next
 * one by its time), the nearest preceding caption in the same container, and last the humanised
 * resource id. A checkable element may also take the caption that follows it on its line
 * ({@link following}): before the preceding one for a checkbox or radio button ("☐ Remember me",
 * "◉ Male ◯ Female"), after it for a switch ({@link withFollowing}). A description that joins a title with a state or summary (`互联网,zxgj_5G`) names its
 * element by that title once a text inside the element confirms it ({@link startsWithTitle}); every
 * label drops a sentence's final full stop ({@link asName}). Exceptions to that order
 * ({@link sourceOrder}): an image view, and an element whose text is only symbols (`+`, `⋮`, an icon
 * font's glyph) but that has a description, take the description first ({@link drawsNoText}); a field
 * (editable) takes its hint, then its own text (its value, or on old Android versions its hint while
 * empty), only after every source around it; a pure scroll container takes only its own text,
 * description or `labeledBy`. A checkable element never takes an on/off state text ({@link isStateText}).
 * Row and card never look past a list. The preceding caption is a non-actionable text node in the
 * element's container (below the nearest actionable ancestor or list item), not in brackets nor mere
 * punctuation (an icon font's glyph counts as a symbol), not a value (a time, count or percentage,
 * {@link isValue}), not in an app bar (there it is the page's title), on the element's line or just
 * above it ({@link isNearCaption}); lists, list items and app bars are containers of their own
 * ({@link childScope}). Captions are found by position and document order, not by side, so a
 * right-to-left screen (caption at the right of its element, first in document order) is read alike.
 *
 * A label may still change while the walk goes on (a description's title is confirmed by a text below
 * its element), so read the {@link ElementLabel} objects {@link labelOf} returns after the walk.
 *
 * Cost: O(depth) per node; the `labeledBy` index is built once per tree.
 */
export class ElementLabels {
  /** Nodes by id, for `labeledBy`; built on the first element that has the relation. */
  private byId: Map<string, UiNode> | undefined;
  private readonly found = new Map<UiNode, ElementLabel>();
  /** Per container (scope node, `null` for above every window), its last caption text so far. */
  private readonly lastCaption = new Map<UiNode | null, UiNode>();
  /** As {@link lastCaption}, not counting state texts: the candidate for a checkable element. */
  private readonly lastNonStateCaption = new Map<UiNode | null, UiNode>();
  /** Per described tap target ({@link isDescribedTapTarget}), the first text seen inside it: its title. */
  private readonly titles = new Map<UiNode, string>();
  /** Elements whose description-sourced label a text inside them has already confirmed as a title. */
  private readonly confirmed = new Set<UiNode>();

  /** @param roots the tree's root nodes, to resolve `labeledBy` ids. */
  constructor(private readonly roots: readonly UiNode[]) {}

  /**
   * The container the walk enters below `node`: `node` itself when it is actionable, a list, a list item,
   * an app bar or a window root ({@link isList}, {@link isAppBar}); otherwise `scope`, the container `node`
   * sits in. A caption names only elements in its own container: a list item's text never names the next
   * item's switch, a page title in the app bar never names the first field below it.
   */
  childScope(node: UiNode, parent: UiNode | undefined, scope: UiNode | null): UiNode | null {
    return !parent || isActionable(node) || isList(node) || isList(parent) || isAppBar(node) ? node : scope;
  }

  /**
   * Reports a node in document order, before its element's label is asked for.
   * @param node the node.
   * @param scope the container it sits in (see {@link childScope}).
   * @param ancestors its ancestors, root first.
   */
  see(node: UiNode, scope: UiNode | null, ancestors: readonly UiNode[]): void {
    if (node.password) return;
    const [l, t, r, b] = node.bounds;
    if (r <= l || b <= t) return;
    const text = trimmed(node.text);
    if (!text || isAnnotation(text)) return;
    // A field's value and a toggle's state are not titles.
    if (!node.editable && !isStateText(text)) this.seeTitle(text, ancestors);
    if (isActionable(node)) return;
    this.confirmTitle(text, scope);
    if ((scope !== null && isAppBar(scope)) || isValue(text)) return;
    this.lastCaption.set(scope, node);
    if (!isStateText(text)) this.lastNonStateCaption.set(scope, node);
  }

  /** Records `text` as the title of each described tap target above it (below the nearest list) that has none yet. */
  private seeTitle(text: string, ancestors: readonly UiNode[]): void {
    for (let i = ancestors.length - 1; i >= 0; i--) {
      const a = ancestors[i]!;
      if (isList(a)) return;
      if (!isDescribedTapTarget(a)) continue;
      // Every described tap target above a titled one was entered first, so it has its title too.
      if (this.titles.has(a)) return;
      this.titles.set(a, text);
    }
  }

  /**
   * Narrows the label of the element `scope` (the actionable node a non-actionable text sits in) from its
   * description to `text` when the description starts with `text` and goes on after a separator.
   */
  private confirmTitle(text: string, scope: UiNode | null): void {
    if (scope === null || this.confirmed.has(scope)) return;
    const found = this.found.get(scope);
    const desc = trimmed(scope.desc);
    if (found?.labelSource !== 'desc' || desc === undefined || (scope.checkable && isStateText(text))) return;
    if (!startsWithTitle(desc, text)) return;
    found.label = asName(text);
    this.confirmed.add(scope);
  }

  /**
   * The label of an actionable element, or undefined when nothing on screen names it.
   * @param node the element's node.
   * @param ancestors its ancestors, root first.
   * @param scope the container it sits in (see {@link childScope}).
   * @param parts the descendants whose texts its `text` merged, in order (empty when it has own text).
   */
  labelOf(node: UiNode, ancestors: readonly UiNode[], scope: UiNode | null, parts: readonly UiNode[]): ElementLabel | undefined {
    const accept = (s: string | undefined): string | undefined => (s !== undefined && node.checkable && isStateText(s) ? undefined : s);
    const find = (source: UiLabelSource): string | undefined => {
      switch (source) {
        case 'text':
          return accept(node.password ? undefined : trimmed(node.text)) ?? accept(titleOf(parts, !!node.checkable));
        case 'desc':
          return accept(trimmed(node.desc));
        case 'labeled-by':
          return accept(this.labeledBy(node));
        case 'row':
          return accept(this.row(ancestors));
        case 'card':
          return accept(this.card(ancestors));
        case 'preceding':
          return accept(this.preceding(node, scope));
        case 'following':
          return accept(this.following(node, scope));
        case 'hint':
          return trimmed(node.hint);
        case 'resource-id':
          return humanisedResourceId(node.resourceId);
      }
    };
    for (const labelSource of sourceOrder(node)) {
      const label = find(labelSource);
      if (label !== undefined) {
        const found = { label: asName(label), labelSource };
        this.found.set(node, found);
        return found;
      }
    }
    return undefined;
  }

  private labeledBy(node: UiNode): string | undefined {
    if (!node.labeledBy) return undefined;
    this.byId ??= indexById(this.roots);
    const target = this.byId.get(node.labeledBy);
    if (!target || target === node) return undefined;
    return (target.password ? undefined : trimmed(target.text)) ?? trimmed(target.desc) ?? this.found.get(target)?.label;
  }

  /** The label of the nearest tap-target ancestor (below the nearest list) that is named by its own text or its row. */
  private row(ancestors: readonly UiNode[]): string | undefined {
    for (let i = ancestors.length - 1; i >= 0; i--) {
      const a = ancestors[i]!;
      if (isList(a)) return undefined;
      if (!isTappable(a)) continue;
      const found = this.found.get(a);
      if (found && (found.labelSource === 'text' || found.labelSource === 'row')) return found.label;
    }
    return undefined;
  }

  /**
   * The card's name: the nearest ancestor with a content description (below the nearest list) names the
   * element by its title when it is a tap target that holds a text before the element, else by its
   * description.
   */
  private card(ancestors: readonly UiNode[]): string | undefined {
    for (let i = ancestors.length - 1; i >= 0; i--) {
      const a = ancestors[i]!;
      if (isList(a)) return undefined;
      const desc = trimmed(a.desc);
      if (desc) return this.titles.get(a) ?? desc;
    }
    return undefined;
  }

  private preceding(node: UiNode, scope: UiNode | null): string | undefined {
    const caption = (node.checkable ? this.lastNonStateCaption : this.lastCaption).get(scope);
    return caption && isNearCaption(caption.bounds, node.bounds) ? trimmed(caption.text) : undefined;
  }

  /**
   * The caption after a checkable element: the first text after it in document order, in its own
   * container (see {@link childScope}), on its line ({@link onSameLine}), that could be a caption (as
   * {@link see} takes them: not actionable, not in brackets, not a value, not a state text, not in an
   * app bar), before the next checkable element (whose caption it would be). Looks ahead of the walk,
   * within the container only.
   */
  private following(node: UiNode, scope: UiNode | null): string | undefined {
    if (scope === null || isAppBar(scope)) return undefined;
    let passed = false;
    let found: string | undefined;
    /** Walks `n` (in container `within`, below `parent`); true once the search is over. */
    const walk = (n: UiNode, parent: UiNode, within: UiNode | null): boolean => {
      if (n === node) {
        passed = true;
        return false;
      }
      if (passed && n.checkable) return true;
      if (passed && within === scope && isCaptionText(n) && onSameLine(n.bounds, node.bounds)) {
        found = trimmed(n.text);
        return true;
      }
      const inner = this.childScope(n, parent, within);
      return (n.children ?? []).some((child) => walk(child, n, inner));
    };
    (scope.children ?? []).some((child) => walk(child, scope, scope));
    return found;
  }
}

/** A text node that may caption the element beside it: see {@link ElementLabels.see}. */
function isCaptionText(n: UiNode): boolean {
  if (n.password || isActionable(n) || n.bounds[2] <= n.bounds[0] || n.bounds[3] <= n.bounds[1]) return false;
  const text = trimmed(n.text);
  return text !== undefined && !isAnnotation(text) && !isValue(text) && !isStateText(text);
}

/** Every node of the tree by its `id` (the first in document order, should a phone repeat an id). */
function indexById(roots: readonly UiNode[]): Map<string, UiNode> {
  const byId = new Map<string, UiNode>();
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!byId.has(node.id)) byId.set(node.id, node);
    if (node.children) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return byId;
}

/**
 * The title among a row's merged texts: the part with a title resource id, else the first part that is
 * a text (not an icon's description), else the first part; of a multi-line part, its first line (a
 * card's description often lists name, category and rating on separate lines); state texts skipped
 * for a checkable row, and an icon font's glyph or other symbols taken only when no part has words.
 */
function titleOf(parts: readonly UiNode[], checkable: boolean): string | undefined {
  const value = (n: UiNode): string | undefined => {
    const v = trimmed((trimmed(n.text) ?? trimmed(n.desc))?.split('\n').find((line) => line.trim()));
    return v !== undefined && checkable && isStateText(v) ? undefined : v;
  };
  const ordered = [...parts.filter(isTitle), ...parts.filter((p) => !isTitle(p) && trimmed(p.text)), ...parts];
  let symbols: string | undefined;
  for (const part of ordered) {
    const v = value(part);
    if (v === undefined) continue;
    if (!isSymbols(v)) return v;
    symbols ??= v;
  }
  return symbols;
}
