import { done, fail, lastError, lastTapEffect, openApp, retapOrFail, scrollOrFail, tap, wasTapped, type StepInput, type StepOutcome } from './intent-step';
import { allLabels, LabelMatch } from './label-match';
import { findKnownSetting } from './setting-catalog';
import { targetLabels } from './tap-step';
import { ambiguityReason, describeCandidate, disabledReason } from './target-choice';

/** Package of the system Settings app. */
export const SETTINGS_PACKAGE = 'com.android.settings';

/**
 * "turn on/off X", in whatever app is in front:
 * 1. The switch labelled X on the screen (its own label, or its row's or card's title; see
 *    `Screen.findSwitch`) is clicked when its state differs; done when that switch shows the wanted
 *    state. A setting of the known-settings catalog needs an exact or compact match (its aliases
 *    list every label it has), so "Wi‑Fi hotspot" is never taken for "Wi‑Fi"; another name may
 *    match partially when only one switch does. Two equally good switches fail, naming them; a
 *    disabled switch in the wrong state fails.
 * 2. A row labelled X without a switch is opened once (its page holds the switch); a disabled one fails.
 * 3. A known setting not on screen is looked for in the Settings app (opened when another app is in
 *    front), along its known path (e.g. "Network & internet"); anything else only in the current
 *    app's list, which is scrolled before failing: an in-app option never sends the planner to Settings.
 * A tap without visible effect is made once more, then the goal fails.
 */
export function planToggle(setting: string, on: boolean, input: StepInput): StepOutcome {
  const { screen, memory, last } = input;
  const known = findKnownSetting(setting);
  const label = known?.label ?? setting;
  const wanted = targetLabels(known ? [setting, ...known.aliases] : [setting]);
  const state = on ? 'on' : 'off';

  const choice = screen.findSwitch(wanted, known ? LabelMatch.Compact : LabelMatch.Words);
  if (choice.kind === 'ambiguous') return fail(ambiguityReason(setting, choice.candidates));
  if (choice.kind === 'found' || choice.kind === 'disabled') {
    const sw = choice.candidate.element;
    if (sw.checked === on) return done(`${label} is ${state}.`);
    if (choice.kind === 'disabled') return fail(`the ${label} switch (${describeCandidate(choice.candidate)}) is disabled, so it cannot be turned ${state}`);
    if (lastTapEffect(input) === false) return retapOrFail(input);
    return tap(memory, `${label} switch`, sw, `The ${label} switch is ${on ? 'off' : 'on'}; tap it to turn ${label} ${state}.`, undefined, undefined, `the ${label} switch`);
  }
  if (lastTapEffect(input) === false) return retapOrFail(input);

  const inSettings = screen.isIn(SETTINGS_PACKAGE);
  const lookInSettings = known !== undefined && (inSettings === false || (inSettings === undefined && !memory.opened.has(SETTINGS_PACKAGE)));
  if (lookInSettings) {
    const error = lastError(last, 'open');
    if (error !== undefined && memory.opened.has(SETTINGS_PACKAGE)) return fail(`could not open Settings: ${error}`);
    if (memory.opened.has(SETTINGS_PACKAGE) && memory.facts.get('reopened')) return fail(`Settings did not come to the foreground`);
    if (memory.opened.has(SETTINGS_PACKAGE)) memory.facts.set('reopened', true);
    return openApp(memory, SETTINGS_PACKAGE, 'Settings');
  }

  if (!wasTapped(memory, label)) {
    const own = screen.findTarget(wanted, LabelMatch.Compact);
    if (own.kind === 'found' && own.candidate.target?.clickable) return tap(memory, label, own.candidate.target, `Open the ${label} page to find its switch.`);
    if (own.kind === 'disabled') return fail(disabledReason(setting, own.candidate));
  }
  if (known) {
    for (const hop of known.path) {
      if (wasTapped(memory, hop)) continue;
      const row = screen.findTarget(targetLabels([hop]), LabelMatch.Compact);
      if (row.kind === 'found' && row.candidate.target?.clickable) return tap(memory, hop, row.candidate.target, `${label} lives under ${JSON.stringify(hop)}; open it.`);
    }
    return scrollOrFail(input, `the ${label} switch`, allLabels(wanted), `could not find the ${label} switch in Settings`);
  }
  const where = screen.isHome() === true ? 'the home screen' : 'this screen';
  const unplaced = inSettings === true ? '' : '; it is not one of the system settings whose place is known, so Settings is not searched for it';
  return scrollOrFail(input, `the ${label} switch`, allLabels(wanted), `no switch labelled ${JSON.stringify(setting)} is on ${where}${unplaced}`);
}
