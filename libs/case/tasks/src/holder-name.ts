import { MobileClawError } from '@mobileclaw/domain';

/** Longest holder name, in characters (code points), after normalisation. */
export const MAX_HOLDER_NAME = 64;

/**
 * Code points a shown name must not hold: controls (Cc), format characters (Cf: bidi overrides and
 * isolates, zero-width joiners and spaces, soft hyphen, the Arabic letter mark — they reorder or hide
 * text around the name where others see it), lone surrogates (Cs) and noncharacters (U+FFFE…).
 */
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Noncharacter_Code_Point}]/u;

/** Letters, digits, punctuation and symbols: what can make a name visible. */
const GRAPHIC = /[\p{L}\p{N}\p{P}\p{S}]/gu;

/** Graphic by category, yet drawn as nothing: Hangul fillers, the blank Braille pattern, the Mongolian vowel separator. */
const BLANK = new Set(['\u115F', '\u1160', '\u3164', '\uFFA0', '\u2800', '\u180E']);

/**
 * The display name of a person taking a phone over, as others will see it: NFC-normalised and
 * trimmed of white space (tabs and newlines around it included).
 * @throws MobileClawError `VALIDATION_FAILED` (field `holder`) when it is not a string, is empty or
 *   over {@link MAX_HOLDER_NAME} characters once trimmed, holds a {@link FORBIDDEN} code point, or has
 *   no visible character (only spaces, marks or blank fillers).
 */
export function holderName(raw: unknown): string {
  const refuse = (why: string): never => {
    const message = `holder ${why}: give a name of 1–${MAX_HOLDER_NAME} visible characters`;
    throw new MobileClawError('VALIDATION_FAILED', message, { fieldErrors: [{ field: 'holder', message }] });
  };
  if (typeof raw !== 'string') return refuse('must be a string');
  // Checked before normalising (NFC turns a lone surrogate into U+FFFD and would hide it), after
  // trimming (a trailing tab or newline is white space around the name, not in it).
  const forbidden = FORBIDDEN.exec(raw.trim());
  if (forbidden) return refuse(`must not contain control, format (e.g. bidi) or noncharacter code points (it has U+${forbidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`);
  const name = raw.normalize('NFC').trim();
  if (name === '') return refuse('must not be empty');
  if ([...name].length > MAX_HOLDER_NAME) return refuse(`must be at most ${MAX_HOLDER_NAME} characters`);
  if (!(name.match(GRAPHIC) ?? []).some((c) => !BLANK.has(c))) return refuse('must have a visible character');
  return name;
}
