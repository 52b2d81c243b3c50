import { createHash } from 'node:crypto';
import { SYSTEM_UI_PACKAGES, UI_TEXT_SEPARATOR, type UiElement } from '@mobileclaw/domain';
import { isLauncherPackage } from './app-catalog';
import { LabelMatch, type WantedLabels } from './label-match';
import { bestHit, boundsWithin, chooseTarget, elementLabels, hitScore, type Candidate, type ElementLabel, type LabelHit, type TargetChoice } from './target-choice';

/**
 * Share of the height the elements cover, from their top, where the texts naming the screen
 * (toolbar, large title) sit. The elements' extent stands for the screen: a planner replaying an
 * earlier step has its element list but not its screen size, and must judge it the same way.
 */
const TITLE_REGION = 0.25;

/** Resource ids (their name after `/`) of the bars and large titles that name a screen, wherever they sit. */
const TITLE_ID = /toolbar|action_?bar|app_?bar|title_?bar|large_?title/i;

function isTitleBar(e: UiElement): boolean {
  return e.resourceId !== undefined && TITLE_ID.test(e.resourceId.slice(e.resourceId.indexOf('/') + 1));
}

/** The element's own labels (its text, each part of a merged text, its description, an own `label`), without duplicates. */
export function labelsOf(e: UiElement): string[] {
  const texts = elementLabels(e)
    .filter((l) => l.own)
    .map((l) => l.text.trim());
  return texts.filter((t, i) => t !== '' && texts.indexOf(t) === i);
}

/** The element's title: the first part of its text, else its description, else its own `label`. */
export function titleOf(e: UiElement): string | undefined {
  const first = e.text?.split(UI_TEXT_SEPARATOR)[0]?.trim();
  if (first) return first;
  return e.desc ?? labelsOf(e)[0];
}

function area(e: UiElement): number {
  return (e.bounds[2] - e.bounds[0]) * (e.bounds[3] - e.bounds[1]);
}

function containsBounds(outer: UiElement, inner: UiElement): boolean {
  return boundsWithin(outer.bounds, inner.bounds);
}

function isActionable(e: UiElement): boolean {
  return !!(e.clickable || e.longClickable || e.editable || e.checkable || e.scrollable);
}

/**
 * The package most resource ids on screen belong to (`com.example.app:id/title` → `com.example.app`),
 * the framework's (`android`) and System UI's aside; `undefined` when none has one. Stands for the
 * foreground package when a recording has no package attributes (some `uiautomator dump` files).
 */
function packageOfResourceIds(elements: readonly UiElement[]): string | undefined {
  const counts = new Map<string, number>();
  for (const e of elements) {
    const at = e.resourceId?.indexOf(':id/') ?? -1;
    if (at <= 0) continue;
    const pkg = (e.resourceId as string).slice(0, at);
    if (pkg === 'android' || SYSTEM_UI_PACKAGES.has(pkg)) continue;
    counts.set(pkg, (counts.get(pkg) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [pkg, n] of counts) if (best === undefined || n > (counts.get(best) as number)) best = pkg;
  return best;
}

/**
 * Scripts of languages the planner has no words for (its names and glossary are English and
 * Chinese), as the language a screen written in them is named in reasons.
 */
const OTHER_SCRIPTS: ReadonlyArray<[string, RegExp]> = [
  ['Japanese', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Korean', /\p{Script=Hangul}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
];

/** Share of a screen's labelled elements that must be in one such script for the screen to count as written in it. */
const OTHER_SCRIPT_SHARE = 0.6;

/** A text or element that names the screen shown: a title near its top, or a selected tab. */
export interface ScreenName {
  element: UiElement;
  hit: LabelHit;
}

/**
 * Read-only queries over one observation: the compact element list and the foreground package.
 * Bounds and centres are device px.
 */
export class Screen {
  /**
   * Foreground package, or `undefined` when unknown (System UI does not count). When the observation
   * gives none, the package of most resource ids on screen stands for it.
   */
  readonly package: string | undefined;

  constructor(
    readonly elements: readonly UiElement[],
    pkg: string | undefined,
  ) {
    const given = pkg === undefined || pkg === '' || SYSTEM_UI_PACKAGES.has(pkg) ? undefined : pkg;
    this.package = given ?? packageOfResourceIds(elements);
  }

  /** True/false when the foreground package is known, `undefined` otherwise. */
  isIn(pkg: string): boolean | undefined {
    return this.package === undefined ? undefined : this.package === pkg;
  }

  /** True/false when the foreground package is known, `undefined` otherwise. */
  isHome(): boolean | undefined {
    return this.package === undefined ? undefined : isLauncherPackage(this.package);
  }

  /** A stable fingerprint of what is shown (ids, texts, states, bounds): equal fingerprints = unchanged screen. */
  signature(): string {
    const hash = createHash('sha1');
    hash.update(this.package ?? '');
    for (const e of this.elements) {
      hash.update(`\n${e.nodeId}|${e.text ?? ''}|${e.desc ?? ''}|${e.checked ?? ''}|${e.focused ?? ''}|${e.enabled ?? ''}|${e.bounds.join(',')}`);
    }
    return hash.digest('hex');
  }

  /**
   * The element to tap for `wanted`: every element whose labels (own text, description, its
   * `label`) match is a candidate, acted on through itself when it is clickable or editable, else
   * through its clickable ancestor (the smallest clickable element holding its bounds), else
   * itself when it is a switch or checkbox; a plain text with none of these is not tappable.
   * See {@link chooseTarget} for the ranking, ambiguity and disabled rules; `minimum` bounds how
   * loose a match may be.
   */
  findTarget(wanted: WantedLabels, minimum: LabelMatch = LabelMatch.Words): TargetChoice {
    const candidates: Candidate[] = [];
    for (const e of this.elements) {
      const hit = bestHit(elementLabels(e), wanted);
      if (!hit) continue;
      const target = e.clickable || e.editable ? e : (this.clickableAncestor(e) ?? (e.checkable ? e : undefined));
      candidates.push(target ? { element: e, target, hit } : { element: e, hit });
    }
    return chooseTarget(candidates, minimum);
  }

  /**
   * The switch (any checkable element) for a setting named by `wanted`: labelled so itself (its
   * description, its `label`, or its text unless that is just "ON"/"OFF"), by the title of the
   * smallest element around it that has one (a preference row, a card), by the nearest text left
   * of it on its line, or — by their words only — by all the texts of that row or card together
   * (borrowed labels rank below own ones). Same ranking and ambiguity
   * rules as {@link findTarget}; the target is the switch itself.
   */
  findSwitch(wanted: WantedLabels, minimum: LabelMatch = LabelMatch.Words): TargetChoice {
    const candidates: Candidate[] = [];
    for (const sw of this.elements.filter((e) => e.checkable)) {
      const labels: ElementLabel[] = elementLabels(sw);
      const row = this.labelledContainer(sw);
      const rowTitle = row && titleOf(row);
      if (rowTitle !== undefined) labels.push({ text: rowTitle, own: false, cap: LabelMatch.Exact });
      if (row) labels.push({ text: this.textsWithin(row, sw), own: false, cap: LabelMatch.Words });
      const beside = this.textBeside(sw);
      const besideTitle = beside && titleOf(beside);
      if (besideTitle !== undefined) labels.push({ text: besideTitle, own: false, cap: LabelMatch.Exact });
      const hit = bestHit(labels, wanted);
      if (hit) candidates.push({ element: sw, target: sw, hit });
    }
    return chooseTarget(candidates, minimum);
  }

  /**
   * The control labelled `wanted` that belongs to the thing labelled `within`, e.g. the "Expand
   * alarm" button of the card showing 9:00 AM, or the "Add to cart" button of a product's card. For
   * each control matching `wanted` (acted on as in {@link findTarget}), the elements holding it are
   * tried from the smallest up: the first one whose title or texts (the control's own aside) match
   * `within` places the control there, unless it also holds another control matching `wanted`
   * (then it does not tell them apart, like a list holding every card). Of the controls so placed,
   * those whose holder matches `within` best are chosen from as {@link findTarget} does; `none`
   * when no control is placed.
   */
  findTargetWithin(wanted: WantedLabels, within: WantedLabels, minimum: LabelMatch = LabelMatch.Words): TargetChoice {
    const controls: Candidate[] = [];
    for (const e of this.elements) {
      const hit = bestHit(elementLabels(e), wanted);
      if (!hit || hit.level < minimum) continue;
      const target = e.clickable || e.editable ? e : (this.clickableAncestor(e) ?? (e.checkable ? e : undefined));
      controls.push(target ? { element: e, target, hit } : { element: e, hit });
    }
    const placed: Array<{ candidate: Candidate; score: number }> = [];
    for (const candidate of controls) {
      const control = candidate.target ?? candidate.element;
      const holders = this.elements.filter((h) => h !== control && !containsBounds(control, h) && containsBounds(h, control)).sort((a, b) => area(a) - area(b));
      for (const holder of holders) {
        const context = bestHit(this.holderLabels(holder, control), within);
        if (!context) continue;
        const shared = controls.some((other) => other !== candidate && !containsBounds(control, other.target ?? other.element) && containsBounds(holder, other.target ?? other.element));
        if (!shared) placed.push({ candidate, score: hitScore(context) * 16 - Math.min(context.extra ?? 0, 15) });
        break;
      }
    }
    const best = Math.max(0, ...placed.map((p) => p.score));
    return chooseTarget(
      placed.filter((p) => p.score === best).map((p) => p.candidate),
      minimum,
    );
  }

  /**
   * What names `holder` for {@link findTargetWithin}: its title (else its `label` from around it: a
   * field holding its "Show password" button is named by its caption), then its texts and those of
   * everything inside it but `control`.
   */
  private holderLabels(holder: UiElement, control: UiElement): ElementLabel[] {
    const labels: ElementLabel[] = [];
    const title = titleOf(holder) ?? holder.label;
    if (title !== undefined) labels.push({ text: title, own: false, cap: LabelMatch.Exact });
    const texts = this.elements.filter((e) => containsBounds(holder, e) && !containsBounds(control, e)).flatMap((e) => labelsOf(e));
    if (texts.length > 0) labels.push({ text: texts.join(UI_TEXT_SEPARATOR), own: false, cap: LabelMatch.Words });
    return labels;
  }

  /** The own labels of `container` and of every element inside it but other switches, joined: e.g. an alarm card's time, days and name. */
  private textsWithin(container: UiElement, sw: UiElement): string {
    const inside = this.elements.filter((e) => (e === sw || !e.checkable) && containsBounds(container, e));
    return inside.flatMap((e) => labelsOf(e)).join(UI_TEXT_SEPARATOR);
  }

  /**
   * The nearest text left of `e` on its line (its vertical span holding `e`'s centre), e.g. the title
   * of a row that is not itself clickable, or an alarm's time before its switch.
   */
  private textBeside(e: UiElement): UiElement | undefined {
    let found: UiElement | undefined;
    for (const t of this.elements) {
      if (t === e || t.checkable || t.editable || t.scrollable || titleOf(t) === undefined) continue;
      if (t.bounds[2] > e.bounds[0] || t.bounds[1] > e.center[1] || t.bounds[3] <= e.center[1]) continue;
      if (!found || t.bounds[2] > found.bounds[2]) found = t;
    }
    return found;
  }

  /** The smallest non-checkable element with a title whose bounds hold `e`'s and are larger: its row or card. */
  private labelledContainer(e: UiElement): UiElement | undefined {
    let found: UiElement | undefined;
    for (const c of this.elements) {
      if (c === e || c.checkable || !containsBounds(c, e) || area(c) <= area(e) || titleOf(c) === undefined) continue;
      if (!found || area(c) < area(found)) found = c;
    }
    return found;
  }

  /** The smallest clickable element (enabled or not) other than `e` whose bounds hold `e`'s: the control a text belongs to. */
  clickableAncestor(e: UiElement): UiElement | undefined {
    let found: UiElement | undefined;
    for (const c of this.elements) {
      if (c === e || !c.clickable || !containsBounds(c, e)) continue;
      if (!found || area(c) <= area(found)) found = c;
    }
    return found;
  }

  /**
   * What names the screen as `wanted` (an exact or compact match): a title — a non-actionable text
   * outside every scrollable list, in the top quarter of the screen or with a toolbar's or large
   * title's resource id (e.g. "Network & internet" on that settings page, a collapsing toolbar
   * described "Languages"; not a list's section header) — or a selected tappable element (the current
   * tab; a selected plain text is a marquee, not a tab).
   * `undefined` when nothing does.
   */
  screenName(wanted: WantedLabels): ScreenName | undefined {
    const [, top, , bottom] = this.extent();
    const limit = top + (bottom - top) * TITLE_REGION;
    const lists = this.elements.filter((e) => e.scrollable);
    let best: ScreenName | undefined;
    for (const e of this.elements) {
      const title = !isActionable(e) && (e.bounds[3] <= limit || isTitleBar(e)) && !lists.some((list) => containsBounds(list, e));
      // Only a tappable element is a tab: Android also marks marquee (scrolling) texts selected,
      // e.g. every quick-settings tile's label, and those name no screen.
      if (!title && !(e.selected === true && e.clickable === true)) continue;
      const hit = bestHit(elementLabels(e).filter((l) => l.own), wanted);
      if (!hit || hit.level < LabelMatch.Compact) continue;
      if (!best || hit.level > best.hit.level) best = { element: e, hit };
    }
    return best;
  }

  /**
   * A title of the app in front that holds `wanted` as a word or more (e.g. "New in Gmail" for
   * "Gmail", a welcome tour's heading): a non-actionable text outside every scrollable list that
   * belongs to the foreground package by its resource id and whose id entry names a title
   * (`…:id/welcome_tour_title`, `…:id/toolbar_title`), or that sits near the top of the screen as
   * {@link screenName} reads titles. Only the text's own labels count. `undefined` when none does.
   */
  appTitle(wanted: WantedLabels): ScreenName | undefined {
    const pkg = this.package;
    if (pkg === undefined) return undefined;
    const [, top, , bottom] = this.extent();
    const limit = top + (bottom - top) * TITLE_REGION;
    const lists = this.elements.filter((e) => e.scrollable);
    for (const e of this.elements) {
      if (isActionable(e) || lists.some((list) => containsBounds(list, e))) continue;
      const id = e.resourceId ?? '';
      const ownTitle = id.startsWith(`${pkg}:id/`) && /title/i.test(id.slice(id.indexOf('/') + 1));
      if (!ownTitle && !isTitleBar(e) && e.bounds[3] > limit) continue;
      const hit = bestHit(elementLabels(e).filter((l) => l.own), wanted);
      if (hit && hit.level >= LabelMatch.Contains) return { element: e, hit };
    }
    return undefined;
  }

  /** The bounds `[left, top, right, bottom]` (px) all elements together cover; zeros when there are none. */
  extent(): [number, number, number, number] {
    if (this.elements.length === 0) return [0, 0, 0, 0];
    return [
      Math.min(...this.elements.map((e) => e.bounds[0])),
      Math.min(...this.elements.map((e) => e.bounds[1])),
      Math.max(...this.elements.map((e) => e.bounds[2])),
      Math.max(...this.elements.map((e) => e.bounds[3])),
    ];
  }

  /**
   * The caption of a field: the nearest plain text just above it (within one field height, overlapping
   * it horizontally) or just left of it on the same row, e.g. "Password" over a password field.
   */
  captionOf(field: UiElement): string | undefined {
    const [l, t, r, b] = field.bounds;
    const h = b - t;
    let best: { text: string; distance: number } | undefined;
    for (const e of this.elements) {
      if (e === field || e.clickable || e.editable || e.checkable || e.scrollable || e.text === undefined) continue;
      const [el, et, er, eb] = e.bounds;
      const above = eb <= t + 1 && t - eb <= h && er > l && el < r;
      const left = er <= l + 1 && l - er <= h && et < b && eb > t;
      if (!above && !left) continue;
      const distance = above ? t - eb : l - er;
      if (!best || distance < best.distance) best = { text: e.text, distance };
    }
    return best?.text;
  }

  /**
   * The language the screen is written in when it is one the planner has no words for and none of
   * `names` is written in its script: most (60%) of at least three labelled elements in Japanese
   * kana, Arabic, Cyrillic… script. A name in English or Chinese cannot then be found further down
   * the same list (only in labels that happen to be in English or Chinese, already on screen), so
   * the list is not scrolled for it. `undefined` otherwise.
   */
  foreignLanguage(names: readonly string[]): string | undefined {
    const labelled = this.elements.map((e) => labelsOf(e).join(' ')).filter((text) => /\p{L}/u.test(text));
    if (labelled.length < 3) return undefined;
    for (const [language, script] of OTHER_SCRIPTS) {
      const share = labelled.filter((text) => script.test(text)).length / labelled.length;
      if (share >= OTHER_SCRIPT_SHARE && !names.some((n) => script.test(n))) return language;
    }
    return undefined;
  }

  /** Editable fields, in document order. */
  fields(): UiElement[] {
    return this.elements.filter((e) => e.editable);
  }

  /**
   * The main scrollable container: the largest one (the first of equals), so that a page's list is
   * scrolled rather than a strip of tabs or a carousel inside it.
   */
  scrollable(): UiElement | undefined {
    let found: UiElement | undefined;
    for (const e of this.elements) if (e.scrollable && (!found || area(e) > area(found))) found = e;
    return found;
  }

  /** Non-actionable texts exactly equal to `text` (after trimming), e.g. a chat bubble or a screen title. */
  plainTexts(text: string): UiElement[] {
    const want = text.trim();
    return this.elements.filter((e) => !e.editable && !e.clickable && e.text?.trim() === want);
  }
}
