import { compactLabel, normalizeLabel } from './goal-text';
import { equivalentLabels } from './ui-glossary';

/** How well an element's label matches a wanted label; higher is better, 0 is no match. */
export enum LabelMatch {
  None = 0,
  /**
   * Every content word of the wanted name is somewhere in the label, in any order (see
   * {@link matchWords}): "8:30 AM alarm" in an alarm card reading "Alarm · 8:30 AM · Mon, Tue".
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

/** Words that only point at the target ("open *my* cart", "show *me the* privacy policy", "open *it with* Calendar"). */
const FILLER_WORDS: ReadonlySet<string> = new Set(['the', 'a', 'an', 'my', 'your', 'our', 'their', 'his', 'her', 'its', 'this', 'that', 'these', 'those', 'me', 'it', 'with', 'using', 'via']);
/** Nouns that name the kind of thing rather than the thing ("Display *settings*", "the Alarm *tab*"). */
const GENERIC_NOUNS: ReadonlySet<string> = new Set(['settings', 'setting', 'page', 'screen', 'app', 'application', 'tab', 'menu', 'option', 'options', 'button', 'section', 'icon']);
const ZH_LEADING_FILLER = /^(?:我的|这个|那个|一个)/;
const ZH_TRAILING_GENERIC = /(?:设置|页面|界面|选项|按钮|图标|应用)$/;

/**
 * `name` without the words that only point at it: leading articles, possessives and pronouns
 * ("my cart" → "cart", "it with Calendar" → "Calendar") and a trailing generic noun ("Display
 * settings" → "Display", "蓝牙设置" → "蓝牙"); `undefined` when nothing is dropped or nothing would remain.
 */
export function bareName(name: string): string | undefined {
  const words = name.trim().split(/\s+/);
  while (words.length > 1 && FILLER_WORDS.has((words[0] as string).toLowerCase())) words.shift();
  if (words.length > 1 && GENERIC_NOUNS.has((words[words.length - 1] as string).toLowerCase())) words.pop();
  let bare = words.join(' ');
  const zhBare = bare.replace(ZH_LEADING_FILLER, '').replace(ZH_TRAILING_GENERIC, '');
  if (zhBare.trim() !== '') bare = zhBare;
  return bare !== name.trim() && bare.trim() !== '' ? bare : undefined;
}

/**
 * Times written the ways goals and clocks write them, as `h:mm` (with `am`/`pm` kept when given):
 * "9点" → "9:00", "8点半" → "8:30", "9 o'clock" → "9:00", "9am" → "9:00 am", "9:00 AM" unchanged.
 */
export function timeForms(text: string): string {
  return text
    .replace(/(\d{1,2})\s*点半/g, '$1:30')
    .replace(/(\d{1,2})\s*点(?:钟)?(?!\d)/g, '$1:00')
    .replace(/\b(\d{1,2})\s*o['’]?\s*clock\b/gi, '$1:00')
    .replace(/\b(\d{1,2})\s*([ap])\.?m\.?(?![a-z])/gi, '$1:00 $2m');
}

/** Han runs and runs of other letters/digits (times like 8:30 kept whole) of a normalised text. */
function words(text: string): string[] {
  return normalizeLabel(timeForms(text)).match(/\p{Script=Han}+|\d{1,2}:\d{2}|[\p{L}\p{N}'’-]+/gu) ?? [];
}

/**
 * The words of a wanted name that must appear on the target: filler words and generic nouns
 * dropped (unless nothing else is left), and "的" inside Chinese ("8:30的闹钟" → 8:30, 闹钟).
 */
export function contentWords(name: string): string[] {
  const all = words(name)
    .map((w) => (/\p{Script=Han}/u.test(w) ? w.replace(ZH_LEADING_FILLER, '').replace(/的/g, '') : w))
    .filter((w) => w !== '');
  const content = all.filter((w) => !FILLER_WORDS.has(w) && !GENERIC_NOUNS.has(w));
  return content.length > 0 ? content : all;
}

/**
 * True when, for some wanted name, every one of its {@link contentWords} (or a glossary equivalent
 * of it: "闹钟" for "Alarm") appears in `label` as a whole word (a Chinese word of two or more
 * characters anywhere in it), in any order, times compared in `h:mm` form.
 */
export function matchWords(label: string | undefined, wanted: readonly string[]): boolean {
  if (label === undefined) return false;
  const text = timeForms(label);
  return wanted.some((name) => {
    const needed = contentWords(name);
    return needed.length > 0 && needed.every((w) => equivalentLabels(w).some((alt) => matchLabel(text, [timeForms(alt)]) >= LabelMatch.Contains));
  });
}

/**
 * The labels a goal's target may carry on screen: `literal` as the goal and the planner's catalogs
 * name it (e.g. "dismiss", "Close"; a known setting's aliases), `equivalent` the same-meaning terms
 * of the UI glossary in either language ("Alarm" for "闹钟", "WLAN" for "Wi-Fi") and the names
 * without their pointing words (see {@link bareName}: "Display" for "Display settings"), not already literal.
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
