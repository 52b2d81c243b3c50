/**
 * Text normalisation for goals and UI labels. Android writes "Wi‑Fi" with U+2011 (non-breaking
 * hyphen) and "8:30 AM" with U+202F (narrow no-break space), users type "Wi-Fi", "WiFi" or "wi‑fi";
 * Chinese input brings full-width letters and punctuation and the quotes “” 「」 『』. Everything here
 * is pure and deterministic.
 */

/** One-to-one replacements (each a single UTF-16 unit) so that a mapped string keeps every index. */
const CHAR_MAP: Record<string, string> = {
  '\u2010': '-', // hyphen (also what NFKC makes of U+2011, Android's "Wi‑Fi")
  '\u2011': '-', // non-breaking hyphen
  '\u2012': '-', // figure dash
  '\u2013': '-', // en dash
  '\u2014': '-', // em dash
  '\u2015': '-', // horizontal bar
  '\u2212': '-', // minus sign
  '\ufe58': '-',
  '\ufe63': '-',
  '\uff0d': '-',
  '\u00a0': ' ', // no-break space
  '\u1680': ' ', // ogham space mark
  '\u2007': ' ', // figure space
  '\u202f': ' ', // narrow no-break space
  '\u3000': ' ', // ideographic space
  '\uff0c': ',',
  '\u3001': ',', // ideographic comma "、"
  '\uff1a': ':',
  '\uff1b': ';',
  '\uff01': '!',
  '\uff1f': '?',
  '\uff08': '(',
  '\uff09': ')',
  '\u3002': '.',
  '\uff0e': '.',
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"',
  '\uff02': '"',
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u2032': "'",
  '\uff07': "'",
};

/** Characters that {@link foldPunctuation} leaves as they are: printable ASCII and the CJK unified ideographs (the common case, checked without normalizing). */
const UNCHANGED_BY_FOLDING = /^[\u0020-\u007e\u3400-\u4dbf\u4e00-\u9fff]$/;

/**
 * Maps every character to its NFKC form where that is a single character of the same length
 * (full-width "ｏｐｅｎ" → "open", U+2000–U+200A, U+205F and the other compatibility spaces → " "),
 * then hyphen variants, remaining exotic spaces and full-width punctuation/quotes to ASCII, one
 * UTF-16 unit for one, so that an index into the result is the same index into `text` (payloads such
 * as a message are then sliced from the original, untouched).
 */
export function foldPunctuation(text: string): string {
  let out = '';
  for (const ch of text) {
    if (UNCHANGED_BY_FOLDING.test(ch)) {
      out += ch;
      continue;
    }
    const nfkc = ch.normalize('NFKC');
    const one = nfkc.length === ch.length ? nfkc : ch;
    out += one.length === 1 ? (CHAR_MAP[one] ?? one) : one;
  }
  return out;
}

/** Quote pairs recognised around a payload ("…", '…', 「…」, 『…』 after {@link foldPunctuation}). */
const QUOTE_PAIRS: ReadonlyArray<[string, string]> = [
  ['"', '"'],
  ["'", "'"],
  ['「', '」'],
  ['『', '』'],
  ['《', '》'],
];

/**
 * Removes one pair of quotes (any of {@link QUOTE_PAIRS}, also in their original typographic form)
 * that encloses the whole trimmed text; `"Allow" and "OK"` is two quoted passages and stays as it is.
 */
export function unquote(text: string): string {
  const trimmed = text.trim();
  const folded = foldPunctuation(trimmed);
  const first = quotedSpans(folded)[0];
  return first !== undefined && first[0] === 0 && first[1] === folded.length ? trimmed.slice(1, -1).trim() : trimmed;
}

/**
 * Spans `[start, end)` of quoted passages in a {@link foldPunctuation folded} string. A `'` only
 * opens a quote at the start or after a space, and only closes one before the end, a space or
 * punctuation, so apostrophes ("don't") are left alone.
 */
export function quotedSpans(folded: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let i = 0;
  while (i < folded.length) {
    const ch = folded[i] as string;
    const pair = QUOTE_PAIRS.find(([open]) => open === ch);
    const opensHere = pair !== undefined && (ch !== "'" || i === 0 || /\s/.test(folded[i - 1] as string));
    if (pair && opensHere) {
      let j = folded.indexOf(pair[1], i + 1);
      while (ch === "'" && j !== -1 && j + 1 < folded.length && !/[\s,.;:!?)]/.test(folded[j + 1] as string)) j = folded.indexOf(pair[1], j + 1);
      if (j !== -1) {
        spans.push([i, j + 1]);
        i = j + 1;
        continue;
      }
    }
    i++;
  }
  return spans;
}

/** A goal as read for matching, see {@link normalizeGoal}. */
export interface NormalizedGoal {
  /** The goal without format characters, each run of white space one ASCII space, trimmed. */
  text: string;
  /** For each UTF-16 unit of `text`, its index in the goal as written. */
  origin: number[];
}

/** One character of white space of any kind (JavaScript's `\s`, which covers U+00A0, U+2000–U+200A, U+3000…, and NEL). */
const GOAL_SPACE = /^[\s\u0085]$/u;
/** One invisible format character (category Cf: bidi controls and isolates, zero-width space and joiners, BOM, soft hyphen…). */
const FORMAT_CHAR = /^\p{Cf}$/u;

/**
 * The goal as the rules read it: every format character dropped (U+202E, U+200E/F, U+2066–U+2069,
 * U+200B–U+200D, U+FEFF, U+00AD: they never change which words a goal says), every run of white
 * space of any kind (tabs, newlines, U+00A0, U+3000, …) one ASCII space, leading and trailing space
 * removed. With no run of spaces left, no rule can try a run in quadratically many ways.
 *
 * `origin` maps each unit of `text` back to the goal, so that text the user asked to type or send
 * is sliced from the goal as written, inner spaces and format characters included
 * (`normalizeGoal("type  a\u200bb")` → `{ text: "type ab", origin: [0, 1, 2, 3, 4, 6, 8] }`).
 * A goal made only of spaces and format characters gives `text: ""`.
 */
export function normalizeGoal(goal: string): NormalizedGoal {
  let text = '';
  const origin: number[] = [];
  let space = -1;
  let at = 0;
  for (const ch of goal) {
    const index = at;
    at += ch.length;
    if (FORMAT_CHAR.test(ch)) continue;
    if (GOAL_SPACE.test(ch)) {
      if (space < 0) space = index;
      continue;
    }
    if (space >= 0 && text !== '') {
      text += ' ';
      origin.push(space);
    }
    space = -1;
    text += ch;
    for (let unit = 0; unit < ch.length; unit++) origin.push(index + unit);
  }
  return { text, origin };
}

/**
 * Invisible format characters (Unicode category Cf): zero-width space, joiners and non-joiner, word
 * joiner, BOM, soft hyphen, bidi marks and isolates (Android wraps times and names in them). They
 * never change what a label says, so comparisons drop them.
 */
const FORMAT_CHARS = /\p{Cf}/gu;

/**
 * A clock time in lower-cased NFKC text: `h:mm` or `h:mm:ss`, optionally with a day-period word
 * before it (上午, 下午, 中午, 晚上, 凌晨, 早上, 傍晚; 午前/午後; 오전/오후) or an AM/PM marker after it
 * ("am", "a.m.", "a. m.", "pm", "p.m."), not inside a longer run of digits and colons.
 */
const CLOCK_TIME =
  /(?<![\p{N}:.])(?:(?<before>上午|早上|早晨|凌晨|中午|下午|晚上|傍晚|午前|午後|오전|오후)\s?)?(?<h>\d{1,2}):(?<m>[0-5]\d)(?::(?<s>[0-5]\d))?(?![\p{N}:])(?:\s?(?<after>a\.?\s?m\.?|p\.?\s?m\.?)(?![\p{L}\p{N}]))?/gu;
/** A 24-hour time key ({@link timeKey}) inside a normalized label. */
const TIME_KEY = /(?<![\p{N}:])(\d{2}):\d{2}(?::\d{2})?(?![\p{N}:])/gu;
const SPACE_RUN = /\s+/g;
const NOT_LETTERS_OR_DIGITS = /[^\p{L}\p{N}]+/gu;

/** Every pattern run here on goal text and labels, for the backtracking check of the goal parser's spec. */
export const LABEL_PATTERNS: readonly RegExp[] = [FORMAT_CHARS, CLOCK_TIME, TIME_KEY, SPACE_RUN, NOT_LETTERS_OR_DIGITS];

const MORNING = new Set(['上午', '早上', '早晨', '凌晨', '午前', '오전', 'am']);

/**
 * The 24-hour form of one {@link CLOCK_TIME} match: `HH:MM` (or `HH:MM:SS`), or the match unchanged
 * when it is no time of day (hour above 24).
 */
function clockKey(match: string, before: string | undefined, h: string, m: string, s: string | undefined, after: string | undefined): string {
  let hour = Number(h);
  if (hour > 24) return match;
  const period = before ?? (after === undefined ? undefined : after.startsWith('a') ? 'am' : 'pm');
  if (period !== undefined && hour >= 1 && hour <= 12) {
    if (MORNING.has(period)) hour %= 12;
    else if (period === '中午') hour = hour >= 11 ? hour : hour + 12;
    else hour = (hour % 12) + 12;
  }
  return `${String(hour).padStart(2, '0')}:${m}${s === undefined ? '' : `:${s}`}`;
}

/**
 * Rewrites every clock time in lower-cased NFKC `text` to its 24-hour key (see {@link timeKey}):
 * `"alarm 8:30 am, weekdays"` → `"alarm 08:30, weekdays"`.
 */
function canonicalTimes(text: string): string {
  return text.replace(CLOCK_TIME, (match: string, before: string | undefined, h: string, m: string, s: string | undefined, after: string | undefined) =>
    clockKey(match, before, h, m, s, after),
  );
}

/**
 * Short texts already normalised and compacted: labels, catalog aliases and glossary terms are
 * compared again and again. Texts up to {@link MEMO_TEXT_LIMIT} UTF-16 units are kept; each map is
 * emptied whenever it reaches {@link MEMO_LIMIT} entries so that it stays small.
 */
const NORMALIZED = new Map<string, string>();
const COMPACTED = new Map<string, string>();
const MEMO_LIMIT = 10_000;
const MEMO_TEXT_LIMIT = 256;

function memo(cache: Map<string, string>, text: string, compute: (text: string) => string): string {
  const cached = cache.get(text);
  if (cached !== undefined) return cached;
  const value = compute(text);
  if (text.length <= MEMO_TEXT_LIMIT) {
    if (cache.size >= MEMO_LIMIT) cache.clear();
    cache.set(text, value);
  }
  return value;
}

/** Spaces and the sentence punctuation a label or goal clause may start or end with (after {@link foldPunctuation}). */
const SENTENCE_EDGE = /[\s.,;:!?]/;

/**
 * `text` without leading and trailing characters that `edge` accepts (one character tested at a
 * time), so that a long run of them costs time in proportion to its length (a pattern such as
 * `[\s.]+$` is retried from every position of a run that does not reach the end).
 */
export function trimWhile(text: string, edge: RegExp): string {
  const [start, end] = trimmedBounds(text, edge);
  return text.slice(start, end);
}

/** `[start, end)` of what {@link trimWhile} keeps of `text`. */
export function trimmedBounds(text: string, edge: RegExp): [number, number] {
  let start = 0;
  let end = text.length;
  while (start < end && edge.test(text[start] as string)) start++;
  while (end > start && edge.test(text[end - 1] as string)) end--;
  return [start, end];
}

function stripSentencePunctuation(text: string): string {
  return trimWhile(text, SENTENCE_EDGE);
}

/**
 * The comparison form of a UI label or a target named in a goal: NFKC, invisible format characters
 * removed, hyphens and every kind of space folded, lower case, spaces collapsed, surrounding quotes
 * and sentence punctuation removed, and clock times in their 24-hour form (see {@link timeKey}).
 * `"Wi‑Fi"` → `"wi-fi"`, `"8:30\u202fAM"` → `"08:30"`.
 */
export function normalizeLabel(text: string): string {
  return memo(NORMALIZED, text, (raw) => {
    const plain = unquote(stripSentencePunctuation(foldPunctuation(raw.normalize('NFKC').replace(FORMAT_CHARS, ''))))
      .toLowerCase()
      .replace(SPACE_RUN, ' ');
    return stripSentencePunctuation(canonicalTimes(plain));
  });
}

/**
 * The 24-hour key `HH:MM` (or `HH:MM:SS`) of a text that is one clock time and nothing else, else
 * `undefined`. "8:30", "08:30", "8:30 AM", "8:30am", "8:30 a.m.", "上午8:30" and "08:30" written
 * with U+202F all give `"08:30"`; "20:30", "8:30 PM", "下午8:30" and "晚上8:30" give `"20:30"`;
 * "12:05 AM" gives `"00:05"`, "12:05 PM" and "中午12:05" give `"12:05"`.
 *
 * A time without AM/PM is read on the 24-hour clock, so a bare "8:30" equals "8:30 AM" but not
 * "8:30 PM": Android writes AM/PM whenever the phone uses the 12-hour clock, so a label without it
 * comes from a 24-hour phone where "8:30" is the morning, and a goal's bare "8:30" is taken the same
 * way rather than matching two different times. The same keys are what {@link normalizeLabel} puts
 * in place of each time, so labels compared after it already compare their times this way.
 */
export function timeKey(text: string): string | undefined {
  const key = normalizeLabel(text);
  return /^\d{2}:\d{2}(?::\d{2})?$/.test(key) && Number(key.slice(0, 2)) <= 24 ? key : undefined;
}

/** The 24-hour keys ({@link timeKey}) of every clock time in `text`, in order: `"Alarm 8:30 AM, 6:00 PM"` → `["08:30", "18:00"]`. */
export function timesIn(text: string): string[] {
  return Array.from(normalizeLabel(text).matchAll(TIME_KEY))
    .filter((m) => Number(m[1]) <= 24)
    .map((m) => m[0]);
}

/** {@link normalizeLabel} without anything but letters and digits: `"Wi-Fi"` and `"wifi"` both give `"wifi"`. */
export function compactLabel(text: string): string {
  return memo(COMPACTED, text, (raw) => normalizeLabel(raw).replace(NOT_LETTERS_OR_DIGITS, ''));
}

/** True when `text` contains CJK ideographs (used to answer in the goal's language). */
export function hasCjk(text: string): boolean {
  return /[\u3400-\u9fff\uf900-\ufaff]/.test(text);
}
