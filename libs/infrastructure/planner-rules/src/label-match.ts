import { compactLabel, normalizeLabel } from './goal-text';
import { equivalentLabels } from './ui-glossary';
import { bareName } from './word-match';

/** How well an element's label matches a wanted label; higher is better, 0 is no match. */
export enum LabelMatch {
  None = 0,
  /**
   * Every content word of the wanted name is somewhere in the label, in any order (see
   * `matchWords`): "8:30 AM alarm" in an alarm card reading "Alarm · 8:30 AM · Mon, Tue".
   * The loosest partial match.
   */
  Words = 1,
  /** The label contains the wanted words (e.g. "Use Wi‑Fi" for "Wi-Fi"): a partial match. */
  Contains = 2,
  /** Equal once spaces, hyphens and punctuation are ignored ("WiFi" = "Wi‑Fi"). */
  Compact = 3,
  /** Equal after {@link normalizeLabel}. */
  Exact = 4,
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * How `label` matches any of `wanted` (the best of them). A partial match needs whole words (the
 * wanted text bounded by non-letters, so "Wi‑Fi" is in "Use Wi‑Fi" but "Bo" is not in "Bob"), or,
 * for a wanted text of two or more CJK characters (no spaces between words), any occurrence; a
 * single character ("好") is too common inside other words to count.
 */
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
    else if (/[\u3400-\u9fff]/.test(want) && Array.from(want).length >= 2 && norm.includes(want)) best = Math.max(best, LabelMatch.Contains);
  }
  return best;
}

/**
 * The labels a goal's target may carry on screen: `literal` as the goal and the planner's catalogs
 * name it (e.g. "dismiss", "Close"; a known setting's aliases), `equivalent` the same-meaning terms
 * of the UI glossary in either language ("Alarm" for "闹钟", "WLAN" for "Wi-Fi") and the names
 * without their pointing words (see `bareName`: "Display" for "Display settings"), not already literal.
 */
export interface WantedLabels {
  literal: readonly string[];
  equivalent: readonly string[];
}

/** {@link WantedLabels} for `names` (at least one), duplicates (under {@link compactLabel}) dropped. */
export function wantedLabels(names: readonly string[]): WantedLabels {
  const seen = new Set<string>();
  const keep = (list: readonly string[]): string[] =>
    list.filter((name) => {
      const key = compactLabel(name) || normalizeLabel(name);
      if (key === '' || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  const literal = keep(names);
  const bare = literal.map(bareName).filter((n): n is string => n !== undefined);
  const equivalent = keep([...literal, ...bare].flatMap((name) => equivalentLabels(name)));
  return { literal, equivalent };
}

/** `wanted` as one flat list, literal names first. */
export function allLabels(wanted: WantedLabels): string[] {
  return [...wanted.literal, ...wanted.equivalent];
}
