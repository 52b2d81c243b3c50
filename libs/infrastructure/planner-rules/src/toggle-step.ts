import { done, fail, lastError, openApp, scrollOrFail, tap, wasTapped, click, type StepInput, type StepOutcome } from './intent-step';
import { LabelMatch } from './screen';
import { findKnownSetting } from './setting-catalog';

/** Package of the system Settings app. */
export const SETTINGS_PACKAGE = 'com.android.settings';

/**
 * "turn on/off X": clicks X's switch when its state differs, is done when the visible switch shows
 * the wanted state; otherwise opens Settings and follows the rows that lead to X (its own row,
 * then the known path such as "Network & internet"), scrolling lists, and fails when X cannot be found.
 */
export function planToggle(setting: string, on: boolean, input: StepInput): StepOutcome {
  const { screen, memory, last } = input;
  const known = findKnownSetting(setting);
  const label = known?.label ?? setting;
  const names = known ? [...known.aliases, setting] : [setting];
  const state = on ? 'on' : 'off';

  const found = screen.findSwitch(names);
  if (found && found.match >= LabelMatch.Contains) {
    if (found.element.checked === on) return done(`${label} is ${state}.`);
    if (found.element.enabled === false) return fail(`the ${label} switch is disabled`);
    memory.facts.set('clickedSwitch', true);
    return click(found.element, `The ${label} switch is ${on ? 'off' : 'on'}; tap it to turn ${label} ${state}.`);
  }

  const inSettings = screen.isIn(SETTINGS_PACKAGE);
  if (inSettings === false || (inSettings === undefined && !memory.opened.has(SETTINGS_PACKAGE))) {
    const error = lastError(last, 'open');
    if (error !== undefined && memory.opened.has(SETTINGS_PACKAGE)) return fail(`could not open Settings: ${error}`);
    if (memory.opened.has(SETTINGS_PACKAGE) && memory.facts.get('reopened')) return fail(`Settings did not come to the foreground`);
    if (memory.opened.has(SETTINGS_PACKAGE)) memory.facts.set('reopened', true);
    return openApp(memory, SETTINGS_PACKAGE, 'Settings');
  }

  const own = screen.findTapTarget(names, LabelMatch.Compact, true);
  if (own && !wasTapped(memory, label)) return tap(memory, label, own.element, `Open the ${label} page to find its switch.`);
  for (const hop of known?.path ?? []) {
    if (wasTapped(memory, hop)) continue;
    const row = screen.findTapTarget([hop], LabelMatch.Compact, true);
    if (row) return tap(memory, hop, row.element, `${label} lives under ${JSON.stringify(hop)}; open it.`);
  }
  return scrollOrFail(input, `the ${label} switch`, `could not find the ${label} switch in Settings${known ? '' : ` (${JSON.stringify(setting)} is not one of the settings whose place is known)`}`);
}
