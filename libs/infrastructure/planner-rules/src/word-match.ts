import { normalizeLabel } from './goal-text';
import { equivalentLabels, UI_GLOSSARY } from './ui-glossary';

/**
 * Matching a target named in the user's own words: a name without the words that only point at it,
 * and the words of a name found in a label in any order, times and word endings aside.
 */

/**
 * Words that only point at the target ("open *my* cart", "show *me the* privacy policy", "open *it with*
 * Calendar", "the alarm *at* 8:30", "the alarm *for* weekends"). Not "in", "on", "of", "to": they
 * tell labels apart ("Log in" and "Log out", "Turn on", "Add to cart").
 */
const FILLER_WORDS: ReadonlySet<string> = new Set(['the', 'a', 'an', 'my', 'your', 'our', 'their', 'his', 'her', 'its', 'this', 'that', 'these', 'those', 'me', 'it', 'with', 'using', 'via', 'at', 'for']);
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
  const parts = name.trim().split(/\s+/);
  while (parts.length > 1 && FILLER_WORDS.has((parts[0] as string).toLowerCase())) parts.shift();
  if (parts.length > 1 && GENERIC_NOUNS.has((parts[parts.length - 1] as string).toLowerCase())) parts.pop();
  let bare = parts.join(' ');
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
    .replace(/(?<![:\d])(\d{1,2})\s*o['’]?\s*clock\b/gi, '$1:00')
    .replace(/(?<![:\d])(\d{1,2})\s*([ap])\.?m\.?(?![a-z])/gi, '$1:00 $2m');
}

/**
 * A word without its common English endings, so that "automatic" meets "automatically" and "alarm"
 * meets "alarms": -ally, -ly, -ing, -ed, -es, -s (not -ss), then a final -e; words of four letters
 * or fewer, digits and other scripts are kept as they are.
 */
export function stem(word: string): string {
  if (!/^[a-z]{5,}$/.test(word)) return word;
  const bare = word.replace(/(?:ally|ly|ing|ed|es|(?<!s)s)$/, '');
  const stemmed = bare.length >= 3 ? bare : word;
  return stemmed.length > 3 ? stemmed.replace(/e$/, '') : stemmed;
}

/** Han runs and runs of other letters/digits (times like 8:30 kept whole) of a normalised text. */
function words(text: string): string[] {
  return normalizeLabel(timeForms(text)).match(/\p{Script=Han}+|\d{1,2}:\d{2}|[\p{L}\p{N}'’-]+/gu) ?? [];
}

/** The days of the week as clocks write them (short and long English names, Chinese), each by one key. */
const DAY_NAMES: ReadonlyArray<[string, readonly string[]]> = [
  ['mon', ['mon', 'monday', '周一', '星期一', '礼拜一']],
  ['tue', ['tue', 'tues', 'tuesday', '周二', '星期二', '礼拜二']],
  ['wed', ['wed', 'wednesday', '周三', '星期三', '礼拜三']],
  ['thu', ['thu', 'thur', 'thurs', 'thursday', '周四', '星期四', '礼拜四']],
  ['fri', ['fri', 'friday', '周五', '星期五', '礼拜五']],
  ['sat', ['sat', 'saturday', '周六', '星期六', '礼拜六']],
  ['sun', ['sun', 'sunday', '周日', '周天', '星期日', '星期天', '礼拜日', '礼拜天']],
];
const DAY_KEY: ReadonlyMap<string, string> = new Map(DAY_NAMES.flatMap(([key, names]) => names.map((n) => [n, key] as [string, string])));

/**
 * Words that name a set of days, and the set: "weekend" is an alarm that rings on Saturday and
 * Sunday only, "weekdays" one that rings Monday to Friday only. A clock shows the days one by one
 * ("Sun, Sat"), so the set is read from them.
 */
const DAY_SETS: ReadonlyArray<[readonly string[], string]> = [
  [['weekend', '周末', '双休日'], 'sat,sun'],
  [['weekday', 'workday', '工作日'], 'fri,mon,thu,tue,wed'],
];

/** Chinese terms of two or more characters the planner knows: the glossary's and the day-set words. */
const HAN_TERMS: ReadonlySet<string> = new Set(
  [...UI_GLOSSARY.flatMap((entry) => entry.zh), ...DAY_SETS.flatMap(([names]) => names)].filter((t) => /^\p{Script=Han}{2,}$/u.test(t)),
);

/**
 * A run of Chinese characters cut into the known terms it is made of ("周末闹钟" → 周末, 闹钟), fewest
 * pieces first; the run whole when it is a term itself or cannot be cut into known terms only.
 */
export function hanTerms(run: string): string[] {
  if (HAN_TERMS.has(run)) return [run];
  const chars = Array.from(run);
  const best: Array<string[] | undefined> = new Array(chars.length + 1).fill(undefined);
  best[0] = [];
  for (let end = 1; end <= chars.length; end++) {
    for (let start = 0; start <= end - 2; start++) {
      const before = best[start];
      const term = chars.slice(start, end).join('');
      if (before === undefined || !HAN_TERMS.has(term)) continue;
      const pieces = [...before, term];
      if (best[end] === undefined || pieces.length < (best[end] as string[]).length) best[end] = pieces;
    }
  }
  return best[chars.length] ?? [run];
}

/**
 * The words of a wanted name that must appear on the target: filler words and generic nouns
 * dropped (unless nothing else is left), and Chinese cut at "的" and into the known terms it is made
 * of ("8:30的闹钟" → 8:30, 闹钟; "周末的闹钟" and "周末闹钟" → 周末, 闹钟).
 */
export function contentWords(name: string): string[] {
  const all = words(name)
    .flatMap((w) => (/\p{Script=Han}/u.test(w) ? w.replace(ZH_LEADING_FILLER, '').split('的').flatMap(hanTerms) : [w]))
    .filter((w) => w !== '');
  const content = all.filter((w) => !FILLER_WORDS.has(w) && !GENERIC_NOUNS.has(w));
  return content.length > 0 ? content : all;
}

/** True when `alt` (one word, a phrase, or a Chinese word) is in the label whose stemmed words are `have` and whose normalised text is `text`. */
function present(alt: string, have: ReadonlySet<string>, text: string): boolean {
  if (/\p{Script=Han}/u.test(alt)) {
    const han = normalizeLabel(alt);
    return Array.from(han).length >= 2 && text.includes(han);
  }
  const altWords = words(alt).map(stem);
  return altWords.length > 0 && altWords.every((w) => have.has(w));
}

/** True when `word` (e.g. "weekend") names a set of days that is exactly the days among `labelWords` (stemmed). */
function namesDaysShown(word: string, labelWords: readonly string[]): boolean {
  const set = DAY_SETS.find(([names]) => names.includes(stem(word)))?.[1];
  if (set === undefined) return false;
  const days = [...new Set(labelWords.map((w) => DAY_KEY.get(w)).filter((d): d is string => d !== undefined))].sort();
  return days.join(',') === set;
}

/**
 * How `label` holds a wanted name's {@link contentWords} in any order: each word (or a glossary
 * equivalent of it: "闹钟" for "Alarm") a word of the label, word endings aside (see {@link stem}),
 * times compared in `h:mm` form, a Chinese word of two or more characters anywhere in it, a word
 * naming a set of days ("weekend", "工作日") the very days the label shows. Returns
 * how many of the label's words are left over (fewer: a closer match) for the best wanted name
 * that matches, or `undefined` when none does.
 */
export function matchWords(label: string | undefined, wanted: readonly string[]): number | undefined {
  if (label === undefined) return undefined;
  const labelWords = words(label).map(stem);
  const have = new Set(labelWords);
  const text = normalizeLabel(timeForms(label));
  let best: number | undefined;
  for (const name of wanted) {
    const needed = contentWords(name);
    if (needed.length === 0 || !needed.every((w) => equivalentLabels(w).some((alt) => present(timeForms(alt), have, text)) || namesDaysShown(w, labelWords))) continue;
    const used = new Set(needed.map(stem));
    const extra = labelWords.filter((w) => !used.has(w) && !FILLER_WORDS.has(w)).length;
    if (best === undefined || extra < best) best = extra;
  }
  return best;
}
