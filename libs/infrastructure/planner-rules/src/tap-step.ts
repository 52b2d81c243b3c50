import { findKnownApp } from './app-catalog';
import type { GoalIntent } from './goal-intent';
import { done, fail, lastTapEffect, retapOrFail, scrollOrFail, tap, type StepInput, type StepOutcome } from './intent-step';
import { allLabels, LabelMatch, wantedLabels, type WantedLabels } from './label-match';
import { labelsOf } from './screen';
import { sensitiveTapReason } from './sensitive-actions';
import { findKnownSetting } from './setting-catalog';
import { ambiguityReason, disabledReason, untappableReason, type TargetChoice } from './target-choice';

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

/** A tap intent, as {@link planTap} reads it. */
export type TapIntent = Extract<GoalIntent, { kind: 'tap' }>;

/**
 * "tap X": taps the element labelled X, or any of `names` (a dialog verb's labels: "dismiss" →
 * Dismiss, Close…), each widened with a known setting's or app's names and the glossary. Target
 * rules: see `Screen.findTarget` — two equally good matches, a disabled match or a matching text
 * that cannot be tapped fail at once, naming what was found. A `whole` intent (a dialog verb) takes
 * only a label that is one of its names whole; its `fallback` labels are tried only when none of
 * its names is on the screen. A `within` intent ("expand the 9:00 AM alarm") takes only a control
 * inside the thing named (see `Screen.findTargetWithin`). Scrolls the list when nothing matches.
 * Done only once the screen changed after the tap; a tap without effect is made once more, then
 * the goal fails. Deleting and paying labels ask for approval and are never tapped twice.
 */
export function planTap(intent: TapIntent, input: StepInput): StepOutcome {
  const { screen, memory } = input;
  const { target, names } = intent;
  const effect = lastTapEffect(input);
  if (effect === true) return done(`Tapped ${JSON.stringify(target)}.`);
  if (effect === false) return retapOrFail(input);
  const minimum = intent.whole ? LabelMatch.Compact : LabelMatch.Words;
  const wanted = targetLabels(names ?? [target]);
  const within = intent.within === undefined ? undefined : targetLabels([intent.within]);
  const find = (labels: WantedLabels): TargetChoice => (within === undefined ? screen.findTarget(labels, minimum) : screen.findTargetWithin(labels, within, minimum));
  let choice = find(wanted);
  const fallback = choice.kind === 'none' && intent.fallback !== undefined ? targetLabels(intent.fallback) : undefined;
  if (fallback !== undefined) choice = find(fallback);
  const what = intent.within === undefined ? describeTarget(target, names) : `${describeTarget(target, names)} inside ${JSON.stringify(intent.within)}`;
  switch (choice.kind) {
    case 'found': {
      const element = choice.candidate.target ?? choice.candidate.element;
      const reasoning = fallback === undefined ? `Tap ${JSON.stringify(target)}.` : `Nothing labelled ${describeTarget(target, names)} is on the screen; ${JSON.stringify(choice.candidate.hit.label)} does the same here: tap it.`;
      const reason = sensitiveTapReason([target, ...labelsOf(element)]);
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
      return scrollOrFail(input, JSON.stringify(target), all, `nothing labelled ${what}${alsoFallback} is on the screen`);
    }
  }
}
