/**
 * Text normalisation for goals and UI labels. Android writes "Wi‑Fi" with U+2011 (non-breaking
 * hyphen), users type "Wi-Fi", "WiFi" or "wi‑fi"; Chinese input brings full-width punctuation and
 * the quotes “” 「」 『』. Everything here is pure and deterministic.
 */

/** One-to-one replacements (each a single UTF-16 unit) so that a mapped string keeps every index. */
const CHAR_MAP: Record<string, string> = {
  '\u2010': '-', // hyphen
  '\u2011': '-', // non-breaking hyphen (Android's "Wi‑Fi")
  '\u2012': '-', // figure dash
  '\u2013': '-', // en dash
  '\u2014': '-', // em dash
  '\u2015': '-', // horizontal bar
  '\u2212': '-', // minus sign
  '\ufe58': '-',
  '\ufe63': '-',
  '\uff0d': '-',
  '\u00a0': ' ',
  '\u2007': ' ',
  '\u202f': ' ',
  '\u3000': ' ',
  '\uff0c': ',',
  '\u3001': ',',
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

/**
 * Maps hyphen variants, exotic spaces and full-width punctuation/quotes to ASCII, one UTF-16 unit
 * for one, so that an index into the result is the same index into `text` (payloads such as a
 * message are then sliced from the original, untouched).
 */
export function foldPunctuation(text: string): string {
  let out = '';
  for (const ch of text) out += ch.length === 1 ? (CHAR_MAP[ch] ?? ch) : ch;
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

/** Removes one pair of surrounding quotes (any of {@link QUOTE_PAIRS}, also in their original typographic form). */
export function unquote(text: string): string {
  const trimmed = text.trim();
  const folded = foldPunctuation(trimmed);
  for (const [open, close] of QUOTE_PAIRS) {
    if (folded.length >= 2 && folded.startsWith(open) && folded.endsWith(close)) return trimmed.slice(open.length, trimmed.length - close.length).trim();
  }
  return trimmed;
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

/**
 * The comparison form of a UI label or a target named in a goal: NFKC, hyphens folded, lower case,
 * spaces collapsed, surrounding quotes and sentence punctuation removed. `"Wi‑Fi"` → `"wi-fi"`.
 */
export function normalizeLabel(text: string): string {
  return unquote(foldPunctuation(text.normalize('NFKC')))
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^[\s.,;:!?]+|[\s.,;:!?]+$/g, '')
    .trim();
}

/** {@link normalizeLabel} without anything but letters and digits: `"Wi-Fi"` and `"wifi"` both give `"wifi"`. */
export function compactLabel(text: string): string {
  return normalizeLabel(text).replace(/[^\p{L}\p{N}]+/gu, '');
}

/** True when `text` contains CJK ideographs (used to answer in the goal's language). */
export function hasCjk(text: string): boolean {
  return /[\u3400-\u9fff\uf900-\ufaff]/.test(text);
}
