import { findKnownApp } from './app-catalog';
import type { GoalIntent } from './goal-intent';
import { done, fail, lastTapEffect, retapOrFail, scrollOrFail, tap, type StepInput, type StepOutcome } from './intent-step';
import { allLabels, LabelMatch, matchLabel, wantedLabels, type WantedLabels } from './label-match';
import { sensitiveTapReason } from './sensitive-actions';
import { findKnownSetting } from './setting-catalog';
import { ambiguityReason, describeCandidate, disabledReason, untappableReason, type Candidate, type TargetChoice } from './target-choice';
import { bareName } from './word-match';

/**
 * The labels a target named `names` may carry: each name, the other names of a known setting or app
 * it names ("蓝牙" → "Bluetooth"), and their glossary equivalents.
 */
export function targetLabels(names: readonly string[]): WantedLabels {
  return wantedLabels(names.flatMap((n) => [n, ...(findKnownSetting(n)?.aliases ?? []), ...(findKnownApp(n)?.aliases ?? [])]));
}

/** `"dismiss"`, or `"dismiss" (Dismiss, Close, 关闭)` when the goal's verb stands for several labels. */
function describeTarget(target: string, names: readonly string[] | undefined): string {
  const others = (names ?? []).filter((n) => n !== target);
  return others.length === 0 ? JSON.stringify(target) : `${JSON.stringify(target)} (${others.join(', ')})`;
}

/**
 * True when `name` is a known app's or a known setting's: their catalogs list every label they carry,
 * so a label that merely contains the name is something else ("Search settings" is not Settings,
 * "Wi‑Fi hotspot" is not Wi‑Fi).
 */
export function isCatalogName(name: string): boolean {
  return findKnownApp(name) !== undefined || findKnownSetting(name) !== undefined;
}

/** A tap intent, as {@link planTap} reads it. */
export type TapIntent = Extract<GoalIntent, { kind: 'tap' }>;

/**
 * True when a label that only partly matched a known app's or setting's name still names it: the
 * label without its pointing words is the name ("蓝牙设置" and "Bluetooth settings" are Bluetooth;
 * "Search settings" is not Settings, "Wi‑Fi hotspot" is not Wi‑Fi).
 */
function stillNames(label: string, wanted: WantedLabels): boolean {
  const bare = bareName(label);
  return bare !== undefined && matchLabel(bare, allLabels(wanted)) >= LabelMatch.Compact;
}

/**
 * "tap X": taps the element labelled X, or any of `names` (a dialog verb's labels: "dismiss" →
 * Dismiss, Close…), each widened with a known setting's or app's names and the glossary. Target
 * rules: see `Screen.findTarget` — two equally good matches, a disabled match or a matching text
 * that cannot be tapped fail at once, naming what was found. A `whole` intent (a dialog verb) takes
 * only a label that is one of its names whole; its `fallback` labels are tried only when none of
 * its names is on the screen. A `within` intent ("expand the 9:00 AM alarm") takes only a control
 * inside the thing named (see `Screen.findTargetWithin`). A known app's or setting's name is never
 * taken from the one label that merely contains it ({@link isCatalogName}, {@link stillNames}):
 * "tap settings" never taps "Search settings" (several such labels fail as ambiguous, as any name's
 * do). Scrolls the list when nothing matches, then fails, naming a label passed over so.
 * Done only once the screen changed after the tap; a tap without effect is made once more, then
 * the goal fails. Deleting and paying labels ask for approval and are never tapped twice.
 */
export function planTap(intent: TapIntent, input: StepInput): StepOutcome {
  const { screen, memory } = input;
  const { target, names } = intent;
  const effect = lastTapEffect(input);
  if (effect === true) return done(`Tapped ${JSON.stringify(target)}.`);
  if (effect === false) return retapOrFail(input);
  const minimum = intent.whole === true ? LabelMatch.Compact : LabelMatch.Words;
  const wanted = targetLabels(names ?? [target]);
  const within = intent.within === undefined ? undefined : targetLabels([intent.within]);
  const find = (labels: WantedLabels): TargetChoice => (within === undefined ? screen.findTarget(labels, minimum) : screen.findTargetWithin(labels, within, minimum));
  let choice = find(wanted);
  // The one label that merely contains a known app's or setting's name is something else: looked past.
  let partial: Candidate | undefined;
  if (choice.kind === 'found' && choice.candidate.hit.level < LabelMatch.Compact && (names ?? [target]).some(isCatalogName) && !stillNames(choice.candidate.hit.label, wanted)) {
    partial = choice.candidate;
    choice = { kind: 'none' };
  }
  const fallback = choice.kind === 'none' && intent.fallback !== undefined ? targetLabels(intent.fallback) : undefined;
  if (fallback !== undefined) choice = find(fallback);
  const what = intent.within === undefined ? describeTarget(target, names) : `${describeTarget(target, names)} inside ${JSON.stringify(intent.within)}`;
  switch (choice.kind) {
    case 'found': {
      const element = choice.candidate.target ?? choice.candidate.element;
      const reasoning = fallback === undefined ? `Tap ${JSON.stringify(target)}.` : `Nothing labelled ${describeTarget(target, names)} is on the screen; ${JSON.stringify(choice.candidate.hit.label)} does the same here: tap it.`;
      const reason = sensitiveTapReason([target], [element, choice.candidate.element]);
      if (reason === undefined) return tap(memory, target, element, reasoning);
      return tap(memory, target, element, reasoning, { reason }, `tapping ${JSON.stringify(target)}`);
    }
    case 'ambiguous':
      return fail(ambiguityReason(target, choice.candidates));
    case 'disabled':
      return fail(disabledReason(target, choice.candidate));
    case 'untappable':
      return fail(untappableReason(target, choice.candidate));
    case 'none': {
      const all = [...allLabels(wanted), ...(fallback ? allLabels(fallback) : []), ...(within ? allLabels(within) : [])];
      const alsoFallback = fallback === undefined ? '' : `, nor ${intent.fallback?.join(', ')}`;
      return scrollOrFail(input, JSON.stringify(target), all, `nothing labelled ${what}${alsoFallback} is on the screen${partial === undefined ? '' : ` (${describeCandidate(partial)} only contains it, and a known app's or setting's name must be a label whole)`}`);
    }
  }
}
