import { findKnownApp } from './app-catalog';
import { done, fail, lastError, lastSucceeded, openApp, tap, wasTapped, type StepInput, type StepOutcome } from './intent-step';
import { sensitiveTapReason } from './sensitive-actions';
import { labelsOf } from './screen';
import { findKnownSetting } from './setting-catalog';

/**
 * "open X": a known app is launched with `open {package}` and is done when it is in the foreground;
 * anything else (or an app whose launch failed) is opened by tapping the visible item or launcher
 * icon labelled X, going to the home screen once to look for the icon.
 */
export function planOpen(name: string, input: StepInput): StepOutcome {
  const { screen, memory, last } = input;
  const app = findKnownApp(name);
  if (app) {
    const inApp = screen.isIn(app.package);
    if (inApp === true) return done(`${app.label} is open.`);
    if (inApp === undefined && memory.opened.has(app.package) && lastSucceeded(last, 'open', app.package))
      return done(`${app.label} was opened (the phone did not report the foreground app).`);
    const error = lastError(last, 'open');
    if (error !== undefined && memory.opened.has(app.package)) memory.facts.set('launchFailed', error);
    if (!memory.facts.has('launchFailed')) return openApp(memory, app.package, app.label);
  }
  const label = app?.label ?? name;
  if (wasTapped(memory, label)) {
    if (app && screen.isIn(app.package) === false && screen.isHome() === true) return fail(`tapping ${JSON.stringify(label)} did not open the app`);
    return done(last?.changed === false ? `Tapped ${JSON.stringify(label)}; the screen did not change.` : `Opened ${JSON.stringify(label)}.`);
  }
  const names = app ? [app.label, ...app.aliases, name] : [name, ...(findKnownSetting(name)?.aliases ?? [])];
  const found = screen.findTapTarget(names);
  if (found) return tap(memory, label, found.element, `Tap ${JSON.stringify(label)} to open it.`, approvalFor(labelsOf(found.element)));
  if (screen.isHome() !== true && !memory.facts.has('wentHome')) {
    memory.facts.set('wentHome', true);
    return { kind: 'act', action: { command: 'home' }, reasoning: `Go to the home screen to look for ${JSON.stringify(label)}.` };
  }
  const launchFailed = memory.facts.get('launchFailed');
  if (typeof launchFailed === 'string') return fail(`could not open ${label}: the phone answered ${launchFailed}, and no icon labelled ${JSON.stringify(label)} is on the home screen`);
  return fail(`no app is known as ${JSON.stringify(name)} and nothing labelled so is on the screen or the home screen`);
}

function approvalFor(labels: string[]): { reason: string } | undefined {
  const reason = sensitiveTapReason(labels);
  return reason === undefined ? undefined : { reason };
}
