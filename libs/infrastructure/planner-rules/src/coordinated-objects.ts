import { KNOWN_APPS, findKnownApp } from './app-catalog';
import { compactLabel, foldPunctuation, normalizeLabel, quotedSpans, unquote } from './goal-text';
import { KNOWN_SETTINGS, findKnownSetting } from './setting-catalog';
import { UI_GLOSSARY, equivalentLabels } from './ui-glossary';

/**
 * Words that join a list of objects: ",", ", and", " and ", "&", "、" (folded to ","), "和", "与",
 * "及", "以及", "跟". The text is a label of the normalized goal (one space at most between words).
 * Whether a list is split at all is decided by what its parts and its whole name (see
 * {@link coordinatedObjects}), the same for "&" as for "and": "Bluetooth & Wi-Fi" is two settings,
 * "Network & internet" one Settings row.
 */
const COORDINATOR = / ?, ?(?:and |& |以及 ?|和 ?|及 ?)?| and | ?& ?| ?(?:以及|和|与|及|跟) ?/giu;

/** " and " and "&" in a label, to write it the other way (see {@link spellings}). */
const AND_WORD = / and /gi;
const AMPERSAND = / ?& ?/g;

/** A leading article or possessive of one object of a list ("the Wi-Fi", "my alarm"). */
const OBJECT_ARTICLE = /^(?:the|my) /i;

/** Every pattern run on goal text here, for the backtracking check of the goal parser's spec. */
export const COORDINATION_PATTERNS: readonly RegExp[] = [COORDINATOR, AND_WORD, AMPERSAND, OBJECT_ARTICLE];

/**
 * Longest name (UTF-16 units) the app and setting catalogs and the glossary may know: twice their
 * longest term plus 16, so that extra spaces and punctuation between its words still count. A
 * longer name is no known thing and is not looked up: a lookup normalizes the whole name, and a goal
 * of 2,000 characters is read as a name by many rules.
 */
const MAX_KNOWN_NAME_LENGTH =
  2 *
    Math.max(
      ...[
        ...KNOWN_APPS.flatMap((app) => [app.label, app.package, ...app.aliases]),
        ...KNOWN_SETTINGS.flatMap((setting) => [setting.label, ...setting.aliases, ...setting.path]),
        ...UI_GLOSSARY.flatMap((entry) => [...entry.en, ...entry.zh]),
      ].map((term) => term.length),
    ) +
  16;

function mayBeKnown(name: string): boolean {
  return name.length <= MAX_KNOWN_NAME_LENGTH;
}

/** True when `name` (or a glossary equivalent) is a setting with a switch whose place is known. */
export function isKnownSetting(name: string): boolean {
  return mayBeKnown(name) && equivalentLabels(name).some((label) => findKnownSetting(label) !== undefined);
}

/** True when `name` (or a glossary equivalent) is an app of the built-in catalog. */
export function isKnownApp(name: string): boolean {
  return mayBeKnown(name) && equivalentLabels(name).some((label) => findKnownApp(label) !== undefined);
}

/** True when the bilingual glossary has `name` as a term. */
export function isGlossaryTerm(name: string): boolean {
  return mayBeKnown(name) && equivalentLabels(name).length > 1;
}

function isSettingsRow(name: string): boolean {
  if (!mayBeKnown(name)) return false;
  const key = compactLabel(name);
  return key !== '' && KNOWN_SETTINGS.some((s) => s.path.some((row) => compactLabel(row) === key));
}

/** `name` with its "and"/"&", "和"/"与" written the other way ("Sound and vibration" ↔ "Sound & vibration"). */
function spellings(name: string): string[] {
  return [name, name.replace(AND_WORD, ' & '), name.replace(AMPERSAND, ' and '), name.replace(/和/g, '与'), name.replace(/与/g, '和')];
}

/** True when `name`, as a whole, is something the planner knows: a setting, an app, a glossary term or a Settings row on the way to a setting. */
export function namesOneThing(name: string): boolean {
  return spellings(name).some((s) => isKnownSetting(s) || isKnownApp(s) || isGlossaryTerm(s) || isSettingsRow(s));
}

/**
 * The objects of a coordinated list ("Bluetooth and Wi-Fi", "Wi-Fi, Bluetooth and NFC",
 * "蓝牙、WLAN 和 NFC"), each as written (trimmed, a leading "the"/"my" dropped, quotes removed), when
 * the verb should act on each of them; `undefined` when `text` names one thing. `text` is a label of
 * the normalized goal: no run of spaces, one space at most around a joiner.
 *
 * The rule: a list is split when every part is quoted (`"A" and "B"`: the goal delimits the labels
 * itself), or when the whole is not something the planner knows (see {@link namesOneThing}: "Network
 * and internet", a glossary term such as "Sound & vibration") and every part `standsAlone` — e.g.
 * each is a known setting, for a switch verb. "&" splits as "and" does; nothing inside quotes
 * splits. So "Bluetooth and Wi-Fi" and "Bluetooth & Wi-Fi" are two settings, while "Terms and
 * Conditions", "Sound & vibration" and "Network & internet" stay one label: their parts are not
 * things of their own, or the whole is a known glossary term or Settings row.
 */
export function coordinatedObjects(text: string, standsAlone: (part: string) => boolean): string[] | undefined {
  const folded = foldPunctuation(text);
  let masked = folded;
  for (const [start, end] of quotedSpans(folded)) masked = masked.slice(0, start) + '\u0000'.repeat(end - start) + masked.slice(end);
  const raw: string[] = [];
  let from = 0;
  for (const m of masked.matchAll(COORDINATOR)) {
    const at = m.index ?? 0;
    raw.push(text.slice(from, at));
    from = at + m[0].length;
  }
  if (raw.length === 0) return undefined;
  raw.push(text.slice(from));
  const parts = raw.map((p) => p.trim().replace(OBJECT_ARTICLE, ''));
  if (parts.some((p) => normalizeLabel(p) === '')) return undefined;
  if (parts.every((p) => unquote(p) !== p)) return parts.map(unquote);
  if (namesOneThing(text)) return undefined;
  return parts.every(standsAlone) ? parts : undefined;
}
