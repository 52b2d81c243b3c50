import { findKnownApp } from './app-catalog';
import { compactLabel, foldPunctuation, normalizeLabel, quotedSpans, unquote } from './goal-text';
import { KNOWN_SETTINGS, findKnownSetting } from './setting-catalog';
import { equivalentLabels } from './ui-glossary';

/**
 * Words that join a list of objects: ",", ", and", " and ", "、" (folded to ","), "和", "与", "及",
 * "以及", "跟". Not "&": it joins the words of one label ("Network & internet", "Sound & vibration").
 */
const COORDINATOR = /\s*,\s*(?:and\s+|以及\s*|和\s*|及\s*)?|\s+and\s+|\s*(?:以及|和|与|及|跟)\s*/giu;

/** True when `name` (or a glossary equivalent) is a setting with a switch whose place is known. */
export function isKnownSetting(name: string): boolean {
  return equivalentLabels(name).some((label) => findKnownSetting(label) !== undefined);
}

/** True when `name` (or a glossary equivalent) is an app of the built-in catalog. */
export function isKnownApp(name: string): boolean {
  return equivalentLabels(name).some((label) => findKnownApp(label) !== undefined);
}

/** True when the bilingual glossary has `name` as a term. */
export function isGlossaryTerm(name: string): boolean {
  return equivalentLabels(name).length > 1;
}

function isSettingsRow(name: string): boolean {
  const key = compactLabel(name);
  return key !== '' && KNOWN_SETTINGS.some((s) => s.path.some((row) => compactLabel(row) === key));
}

/** `name` with its "and"/"&", "和"/"与" written the other way ("Sound and vibration" ↔ "Sound & vibration"). */
function spellings(name: string): string[] {
  return [name, name.replace(/\s+and\s+/gi, ' & '), name.replace(/\s*&\s*/g, ' and '), name.replace(/和/g, '与'), name.replace(/与/g, '和')];
}

/** True when `name`, as a whole, is something the planner knows: a setting, an app, a glossary term or a Settings row on the way to a setting. */
export function namesOneThing(name: string): boolean {
  return spellings(name).some((s) => isKnownSetting(s) || isKnownApp(s) || isGlossaryTerm(s) || isSettingsRow(s));
}

/**
 * The objects of a coordinated list ("Bluetooth and Wi-Fi", "Wi-Fi, Bluetooth and NFC",
 * "蓝牙、WLAN 和 NFC"), each as written (trimmed, a leading "the"/"my" dropped, quotes removed), when
 * the verb should act on each of them; `undefined` when `text` names one thing.
 *
 * The rule: a list is split when every part is quoted (`"A" and "B"`: the goal delimits the labels
 * itself), or when the whole is not something the planner knows (see {@link namesOneThing}: "Network
 * and internet", a glossary term such as "Sound & vibration") and every part `standsAlone` — e.g.
 * each is a known setting, for a switch verb. "&" never splits, and neither does anything inside
 * quotes. So "Bluetooth and Wi-Fi" is two settings, while "Terms and Conditions" and "Sound and
 * vibration" stay one label: their parts are not things of their own.
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
  const parts = raw.map((p) => p.trim().replace(/^(?:the|my)\s+/i, ''));
  if (parts.some((p) => normalizeLabel(p) === '')) return undefined;
  if (parts.every((p) => unquote(p) !== p)) return parts.map(unquote);
  if (namesOneThing(text)) return undefined;
  return parts.every(standsAlone) ? parts : undefined;
}
