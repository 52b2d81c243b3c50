import { findKnownApp } from './app-catalog';
import { done, scrollOrFail, tap, wasTapped, type StepInput, type StepOutcome } from './intent-step';
import { LabelMatch, labelsOf } from './screen';
import { sensitiveTapReason } from './sensitive-actions';
import { findKnownSetting } from './setting-catalog';

/**
 * "tap X": taps the element labelled X (its text, a part of it, or its description; a known setting
 * or app matches any of its names, so "点击 蓝牙" finds "Bluetooth"), scrolling to find it. Done once
 * the tap was made; the summary says when the screen did not change. Deleting and paying labels ask
 * for approval and are never tapped twice.
 */
export function planTap(target: string, input: StepInput): StepOutcome {
  const { screen, memory, last } = input;
  if (wasTapped(memory, target)) {
    return done(last?.changed === false ? `Tapped ${JSON.stringify(target)}; the screen did not change.` : `Tapped ${JSON.stringify(target)}.`);
  }
  const names = [target, ...(findKnownSetting(target)?.aliases ?? []), ...(findKnownApp(target)?.aliases ?? [])];
  const found = screen.findTapTarget(names) ?? screen.findTapTarget(names, LabelMatch.Contains);
  if (found) {
    const reason = sensitiveTapReason([target, ...labelsOf(found.element)]);
    if (reason === undefined) return tap(memory, target, found.element, `Tap ${JSON.stringify(target)}.`);
    return tap(memory, target, found.element, `Tap ${JSON.stringify(target)}.`, { reason }, `tapping ${JSON.stringify(target)}`);
  }
  return scrollOrFail(input, JSON.stringify(target), `nothing labelled ${JSON.stringify(target)} is on the screen`);
}
