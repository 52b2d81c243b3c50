import { createHash } from 'node:crypto';
import { SYSTEM_UI_PACKAGES, UI_TEXT_SEPARATOR, boundsContain, type UiElement } from '@mobileclaw/domain';
import { isLauncherPackage } from './app-catalog';
import { compactLabel, normalizeLabel } from './goal-text';

/** How well an element's label matches a wanted label; higher is better, 0 is no match. */
export enum LabelMatch {
  None = 0,
  /** The label contains the wanted words (e.g. "Use Wi‑Fi" for "Wi-Fi"). */
  Contains = 1,
  /** Equal once spaces, hyphens and punctuation are ignored ("WiFi" = "Wi‑Fi"). */
  Compact = 2,
  /** Equal after {@link normalizeLabel}. */
  Exact = 3,
}

/** Switch texts that state the value rather than name the switch. */
const STATE_TEXTS = new Set(['on', 'off', '开启', '关闭', '开', '关', '已开启', '已关闭']);
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** How `label` matches any of `wanted` (best of them). */
export function matchLabel(label: string | undefined, wanted: readonly string[]): LabelMatch {
  if (label === undefined) return LabelMatch.None;
  const norm = normalizeLabel(label);
  if (norm === '') return LabelMatch.None;
  let best = LabelMatch.None;
  for (const w of wanted) {
    const want = normalizeLabel(w);
    if (want === '') continue;
    if (norm === want) return LabelMatch.Exact;
    if (compactLabel(label) === compactLabel(w)) best = Math.max(best, LabelMatch.Compact);
    else if (new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(want)}($|[^\\p{L}\\p{N}])`, 'u').test(norm)) best = Math.max(best, LabelMatch.Contains);
    else if (/[\u3400-\u9fff]/.test(want) && norm.includes(want)) best = Math.max(best, LabelMatch.Contains);
  }
  return best;
}

/** The labels of an element: each part of its (merged) text, then its content description. */
export function labelsOf(e: UiElement): string[] {
  const labels = e.text === undefined ? [] : e.text.split(UI_TEXT_SEPARATOR).map((t) => t.trim());
  if (e.desc !== undefined) labels.push(e.desc);
  return labels.filter((l) => l !== '');
}

/** The element's title: the first part of its text, else its description. */
export function titleOf(e: UiElement): string | undefined {
  return labelsOf(e)[0];
}

function area(e: UiElement): number {
  return (e.bounds[2] - e.bounds[0]) * (e.bounds[3] - e.bounds[1]);
}

/** One element found for a purpose, and how well it matched. */
export interface Found {
  element: UiElement;
  match: LabelMatch;
}

/**
 * Read-only queries over one observation: the compact element list and the foreground package.
 * Bounds and centres are device px.
 */
export class Screen {
  /** Foreground package, or `undefined` when unknown (System UI does not count). */
  readonly package: string | undefined;

  constructor(
    readonly elements: readonly UiElement[],
    pkg: string | undefined,
  ) {
    this.package = pkg === undefined || pkg === '' || SYSTEM_UI_PACKAGES.has(pkg) ? undefined : pkg;
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
   * The switch for a setting named by any of `names`: a checkable element labelled so itself (its
   * description, or its text unless that is just "ON"/"OFF"), or one whose centre lies inside a row
   * (another element) titled so. Best match first, then document order.
   */
  findSwitch(names: readonly string[]): Found | undefined {
    let best: Found | undefined;
    for (const sw of this.elements.filter((e) => e.checkable)) {
      const own = labelsOf(sw).filter((l) => !STATE_TEXTS.has(normalizeLabel(l)));
      let match = Math.max(LabelMatch.None, ...own.map((l) => matchLabel(l, names)));
      for (const row of this.elements) {
        if (row === sw || row.checkable || !boundsContain(row.bounds, ...sw.center) || area(row) <= area(sw)) continue;
        match = Math.max(match, matchLabel(titleOf(row), names));
      }
      if (match > (best?.match ?? LabelMatch.None)) best = { element: sw, match };
    }
    return best;
  }

  /**
   * The element to tap for a label: clickable elements whose whole label or title matches come
   * first; a matching plain text is tapped through the smallest clickable element around it, or
   * itself when none (unless `clickableOnly`). `minimum` bounds how loose a match may be.
   */
  findTapTarget(names: readonly string[], minimum: LabelMatch = LabelMatch.Compact, clickableOnly = false): Found | undefined {
    let best: (Found & { score: number }) | undefined;
    for (const e of this.elements) {
      if (e.enabled === false) continue;
      if (clickableOnly && !e.clickable && !this.clickableAround(e)) continue;
      const labels = labelsOf(e);
      const whole = e.text !== undefined ? matchLabel(e.text, names) : LabelMatch.None;
      const match = Math.max(whole, matchLabel(titleOf(e), names), matchLabel(e.desc, names), ...labels.map((l) => Math.min(matchLabel(l, names), LabelMatch.Contains)));
      if (match < minimum) continue;
      const target = e.clickable || e.editable ? e : this.clickableAround(e) ?? e;
      const score = match * 4 + (whole === LabelMatch.Exact ? 2 : 0) + (target.clickable || target.editable ? 1 : 0);
      if (score > (best?.score ?? -1)) best = { element: target, match: match as LabelMatch, score };
    }
    return best && { element: best.element, match: best.match };
  }

  /** The smallest clickable element whose bounds hold `e`'s centre. */
  clickableAround(e: UiElement): UiElement | undefined {
    let found: UiElement | undefined;
    for (const c of this.elements) {
      if (c === e || !c.clickable || c.enabled === false || !boundsContain(c.bounds, ...e.center)) continue;
      if (!found || area(c) < area(found)) found = c;
    }
    return found;
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

  /** Editable fields, in document order. */
  fields(): UiElement[] {
    return this.elements.filter((e) => e.editable);
  }

  /** The first scrollable container, if any. */
  scrollable(): UiElement | undefined {
    return this.elements.find((e) => e.scrollable);
  }

  /** Non-actionable texts exactly equal to `text` (after trimming), e.g. a chat bubble or a screen title. */
  plainTexts(text: string): UiElement[] {
    const want = text.trim();
    return this.elements.filter((e) => !e.editable && !e.clickable && e.text?.trim() === want);
  }
}
