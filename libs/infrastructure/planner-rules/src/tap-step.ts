import { findKnownApp } from './app-catalog';
import { done, fail, lastTapEffect, retapOrFail, scrollOrFail, tap, type StepInput, type StepOutcome } from './intent-step';
import { allLabels, wantedLabels, type WantedLabels } from './label-match';
import { labelsOf } from './screen';
import { sensitiveTapReason } from './sensitive-actions';
import { findKnownSetting } from './setting-catalog';
import { ambiguityReason, disabledReason, untappableReason } from './target-choice';

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
 * "tap X": taps the element labelled X, or any of `names` (a dialog verb's labels: "dismiss" →
 * Dismiss, Close…), each widened with a known setting's or app's names and the glossary. Target
 * rules: see `Screen.findTarget` — two equally good matches, a disabled match or a matching text
 * that cannot be tapped fail at once, naming what was found. Scrolls the list when nothing matches.
 * Done only once the screen changed after the tap; a tap without effect is made once more, then
 * the goal fails. Deleting and paying labels ask for approval and are never tapped twice.
 */
export function planTap(target: string, names: readonly string[] | undefined, input: StepInput): StepOutcome {
  const { screen, memory } = input;
  const effect = lastTapEffect(input);
  if (effect === true) return done(`Tapped ${JSON.stringify(target)}.`);
  if (effect === false) return retapOrFail(input);
  const wanted = targetLabels(names ?? [target]);
  const choice = screen.findTarget(wanted);
  switch (choice.kind) {
    case 'found': {
      const element = choice.candidate.target ?? choice.candidate.element;
      const reason = sensitiveTapReason([target, ...labelsOf(element)]);
      if (reason === undefined) return tap(memory, target, element, `Tap ${JSON.stringify(target)}.`);
      return tap(memory, target, element, `Tap ${JSON.stringify(target)}.`, { reason }, `tapping ${JSON.stringify(target)}`);
    }
    case 'ambiguous':
      return fail(ambiguityReason(target, choice.candidates));
    case 'disabled':
      return fail(disabledReason(target, choice.candidate));
    case 'untappable':
      return fail(untappableReason(target, choice.candidate));
    case 'none':
      return scrollOrFail(input, JSON.stringify(target), allLabels(wanted), `nothing labelled ${describeTarget(target, names)} is on the screen`);
  }
}
