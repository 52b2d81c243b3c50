import { UI_TEXT_SEPARATOR, type UiElement, type UiLabelSource } from '@mobileclaw/domain';
import { normalizeLabel } from './goal-text';
import { LabelMatch, matchLabel, type WantedLabels } from './label-match';
import { matchWords } from './word-match';

/** One label an element carries. */
export interface ElementLabel {
  text: string;
  /**
   * True for the element's own text or description (or an explicit labelled-by relation); false for
   * a label it borrows from around it (its row's title, its card's description, a preceding text).
   */
  own: boolean;
  /**
   * The best match this label may give: a later part of a merged text ("Wi‑Fi · On" → "On") only
   * matches partially; the texts around a switch together (its card) only by their words.
   */
  cap: LabelMatch;
}

/** Texts a switch or checkbox shows for its value ("ON", "关闭"): never a label of it ("关闭" is also "Close"). */
const STATE_TEXTS: ReadonlySet<string> = new Set(['on', 'off', '开启', '关闭', '开', '关', '已开启', '已关闭']);

/** Label sources that name the element itself rather than its surroundings. */
const OWN_SOURCES: ReadonlySet<UiLabelSource> = new Set(['text', 'desc', 'labeled-by']);

/** `text` and, when it merges several texts (`a · b`), its first part (a title) and, capped at partial, the others. */
function withParts(text: string, own: boolean): ElementLabel[] {
  const parts = text
    .split(UI_TEXT_SEPARATOR)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length <= 1) return [{ text, own, cap: LabelMatch.Exact }];
  return [
    { text: parts[0] as string, own, cap: LabelMatch.Exact },
    { text, own, cap: LabelMatch.Exact },
    ...parts.slice(1).map((p) => ({ text: p, own, cap: LabelMatch.Contains })),
  ];
}

/**
 * Every label of an element, most specific first: its `label` (the best human label the screen
 * reader found; own or borrowed by its `labelSource`), its text's title part, its description, its
 * whole text, then the other parts of a merged text (which only match partially). A checkable
 * element's state text ("ON", "OFF", "关闭") is not a label.
 */
export function elementLabels(e: UiElement): ElementLabel[] {
  const all = labelsWithState(e);
  return e.checkable ? all.filter((l) => !STATE_TEXTS.has(normalizeLabel(l.text))) : all;
}

function labelsWithState(e: UiElement): ElementLabel[] {
  const out: ElementLabel[] = [];
  if (e.label !== undefined && e.label.trim() !== '') out.push(...withParts(e.label, e.labelSource === undefined || OWN_SOURCES.has(e.labelSource)));
  const text = e.text === undefined ? [] : withParts(e.text, true);
  if (text[0]) out.push(text[0]);
  if (e.desc !== undefined && e.desc.trim() !== '') out.push({ text: e.desc, own: true, cap: LabelMatch.Exact });
  out.push(...text.slice(1));
  return out;
}

/** How one element's labels match the wanted labels: the best label and how. */
export interface LabelHit {
  level: LabelMatch;
  /** Matched a name as the goal (or a catalog) gave it, not a glossary equivalent. */
  literal: boolean;
  /** Matched the element's own label, not one borrowed from around it. */
  own: boolean;
  /** The label that matched, as shown on screen. */
  label: string;
  /** For a {@link LabelMatch.Words} match: how many of the label's words the name left unused (fewer is closer). */
  extra?: number;
}

/** Ranks hits: the match level first, then literal over glossary equivalent, then own over borrowed. */
export function hitScore(hit: LabelHit): number {
  return hit.level * 4 + (hit.literal ? 2 : 0) + (hit.own ? 1 : 0);
}

/** The best hit of `labels` on `wanted`, or `undefined` when none matches. Ties keep the earlier (more specific) label. */
export function bestHit(labels: readonly ElementLabel[], wanted: WantedLabels): LabelHit | undefined {
  let best: LabelHit | undefined;
  for (const l of labels) {
    for (const literal of [true, false]) {
      const names = literal ? wanted.literal : wanted.equivalent;
      const level = Math.min(matchLabel(l.text, names), l.cap) as LabelMatch;
      const extra = level === LabelMatch.None ? matchWords(l.text, names) : undefined;
      if (level === LabelMatch.None && extra === undefined) continue;
      const hit: LabelHit = extra === undefined ? { level, literal, own: l.own, label: l.text } : { level: LabelMatch.Words, literal, own: l.own, label: l.text, extra };
      if (!best || hitScore(hit) > hitScore(best) || (hitScore(hit) === hitScore(best) && (hit.extra ?? 0) < (best.extra ?? 0))) best = hit;
    }
  }
  return best;
}

/** An element whose label matched, and the element an action on it goes to (itself, or its clickable ancestor). */
export interface Candidate {
  element: UiElement;
  /** Where to act; `undefined` when neither the element nor anything around it can be tapped (a plain text). */
  target?: UiElement;
  hit: LabelHit;
}

/** The outcome of looking for one target among the candidates of a screen. */
export type TargetChoice =
  /** One target, the best match (and no equally good other). */
  | { kind: 'found'; candidate: Candidate }
  /** Two or more equally good candidates that are different targets (one per target, document order). */
  | { kind: 'ambiguous'; candidates: Candidate[] }
  /** The best match is disabled; nothing else is tried in its place. */
  | { kind: 'disabled'; candidate: Candidate }
  /** The best match is a plain text that cannot be tapped, and no tappable element matches as well. */
  | { kind: 'untappable'; candidate: Candidate }
  | { kind: 'none' };

/** True when `inner` lies within `outer` (bounds `[left, top, right, bottom]`, px; equal bounds count). */
export function boundsWithin(outer: UiElement['bounds'], inner: UiElement['bounds']): boolean {
  return outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3];
}

/** Higher score first, then the earlier (outer) target in document order. */
function better(a: Candidate, b: Candidate): boolean {
  const sa = hitScore(a.hit);
  const sb = hitScore(b.hit);
  if (sa !== sb) return sa > sb;
  return (a.target ?? a.element).index < (b.target ?? b.element).index;
}

/**
 * Candidates grouped by target: two candidates whose targets nest (a row and the switch inside it,
 * a label and its clickable ancestor) are one control. Each group's best candidate, in document order.
 */
function distinctTargets(pool: readonly Candidate[]): Candidate[] {
  const groups: Candidate[][] = [];
  for (const c of pool) {
    const bounds = (c.target ?? c.element).bounds;
    const group = groups.find((g) => g.some((o) => boundsWithin((o.target ?? o.element).bounds, bounds) || boundsWithin(bounds, (o.target ?? o.element).bounds)));
    if (group) group.push(c);
    else groups.push([c]);
  }
  return groups.map((g) => g.reduce((best, c) => (better(c, best) ? c : best))).sort((a, b) => (a.target ?? a.element).index - (b.target ?? b.element).index);
}

/**
 * Chooses the target among `candidates` (those matching at least `minimum`):
 * - exact matches beat compact ones, which beat partial ones; then literal names beat glossary
 *   equivalents, and an element's own label beats one borrowed from around it;
 * - two equally good candidates that are different targets → `ambiguous` (never the first silently);
 *   a partial match is accepted only when it is the only one of its kind on screen (of labels
 *   holding a name's words in any order, only those with the fewest other words count);
 * - the best match disabled → `disabled`;
 * - a plain text matching exactly (or compactly) that cannot be tapped beats a tappable partial
 *   match → `untappable` (a near name is never tapped in place of the named thing).
 */
export function chooseTarget(candidates: readonly Candidate[], minimum: LabelMatch = LabelMatch.Words): TargetChoice {
  const tappable = candidates.filter((c) => c.target !== undefined && c.hit.level >= minimum);
  const plain = candidates.filter((c) => c.target === undefined && c.hit.level >= Math.max(minimum, LabelMatch.Compact));
  const topLevel = Math.max(LabelMatch.None, ...tappable.map((c) => c.hit.level));
  if (plain.length > 0 && topLevel < LabelMatch.Compact) return { kind: 'untappable', candidate: plain.reduce((best, c) => (better(c, best) ? c : best)) };
  if (tappable.length === 0) return { kind: 'none' };
  const topScore = Math.max(...tappable.map((c) => hitScore(c.hit)));
  let pool = topLevel <= LabelMatch.Contains ? tappable.filter((c) => c.hit.level === topLevel) : tappable.filter((c) => hitScore(c.hit) === topScore);
  if (topLevel === LabelMatch.Words) {
    // Of labels holding the name's words, the ones with the fewest other words: "Set time automatically" for "automatic time", not "Set time zone automatically".
    const closest = Math.min(...pool.map((c) => c.hit.extra ?? 0));
    pool = pool.filter((c) => (c.hit.extra ?? 0) === closest);
  }
  const targets = distinctTargets(pool);
  if (targets.length > 1) return { kind: 'ambiguous', candidates: targets };
  const chosen = targets[0] as Candidate;
  if (chosen.target?.enabled === false || chosen.element.enabled === false) return { kind: 'disabled', candidate: chosen };
  return { kind: 'found', candidate: chosen };
}

/** `[4] "Wi‑Fi"`: the candidate's target index and the label that matched. */
export function describeCandidate(c: Candidate): string {
  return `[${(c.target ?? c.element).index}] ${JSON.stringify(c.hit.label)}`;
}

/** `"Wi-Fi" matches 2 elements: [4] "Wi‑Fi" and [9] "Wi‑Fi hotspot"`. */
export function ambiguityReason(what: string, candidates: readonly Candidate[]): string {
  const listed = candidates.map(describeCandidate);
  const last = listed.pop() as string;
  const list = listed.length === 0 ? last : `${listed.join(', ')} and ${last}`;
  return `${JSON.stringify(what)} matches ${candidates.length} elements: ${list}`;
}

/** `"Next" ([7] "Next") is disabled`. */
export function disabledReason(what: string, candidate: Candidate): string {
  return `${JSON.stringify(what)} (${describeCandidate(candidate)}) is disabled, so it cannot be used`;
}

/** `"Network & internet" is shown ([1] …) but neither it nor anything around it can be tapped`. */
export function untappableReason(what: string, candidate: Candidate): string {
  return `${JSON.stringify(what)} is shown (${describeCandidate(candidate)}) but neither it nor anything around it can be tapped`;
}
