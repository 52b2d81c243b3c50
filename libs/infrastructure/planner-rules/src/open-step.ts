import { findKnownApp } from './app-catalog';
import { done, fail, lastError, lastSucceeded, openApp, scrollToFind, tap, wasTapped, type StepInput, type StepOutcome } from './intent-step';
import { sensitiveTapReason } from './sensitive-actions';
import { labelsOf } from './screen';
import { findKnownSetting } from './setting-catalog';

/**
 * "open X": a known app is launched with `open {package}` and is done when it is in the foreground.
 * Anything else is an item of the current screen: it is tapped where it is visible, or looked for by
 * scrolling the screen's list (as "tap X" does, staying in the current app). Only when the list has
 * no such item (or for an app whose launch failed) does it go to the home screen, once, to look for
 * a launcher icon labelled X. Deleting and paying labels ask for approval and are never tapped twice.
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
  if (found) {
    const reason = sensitiveTapReason(labelsOf(found.element));
    if (reason === undefined) return tap(memory, label, found.element, `Tap ${JSON.stringify(label)} to open it.`);
    return tap(memory, label, found.element, `Tap ${JSON.stringify(label)} to open it.`, { reason }, `tapping ${JSON.stringify(label)}`);
  }
  // An item (not an app icon) may be further down the current list: look there before leaving the app.
  const wentHome = memory.facts.has('wentHome');
  if (!app || wentHome) {
    const swipe = scrollToFind(input, JSON.stringify(label));
    if (swipe) return swipe;
  }
  if (screen.isHome() !== true && !wentHome) {
    memory.facts.set('wentHome', true);
    memory.facts.set('scrolledBeforeHome', memory.scrolls);
    memory.scrolls = 0;
    return { kind: 'act', action: { command: 'home' }, reasoning: `Go to the home screen to look for ${JSON.stringify(label)}.` };
  }
  const launchFailed = memory.facts.get('launchFailed');
  if (typeof launchFailed === 'string') return fail(`could not open ${label}: the phone answered ${launchFailed}, and no icon labelled ${JSON.stringify(label)} is on the home screen`);
  const scrolled = memory.facts.get('scrolledBeforeHome');
  const listed = typeof scrolled === 'number' && scrolled > 0 ? ` (its list scrolled ${scrolled} time(s))` : '';
  return fail(`no app is known as ${JSON.stringify(name)} and nothing labelled so is on the screen${listed} or the home screen`);
}
