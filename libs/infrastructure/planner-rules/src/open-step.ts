import { findKnownApp } from './app-catalog';
import { compactLabel } from './goal-text';
import { done, fail, lastError, lastSucceeded, lastTapEffect, openApp, retapOrFail, scrollToFind, tap, whyNotFurther, type StepInput, type StepOutcome } from './intent-step';
import { allLabels, LabelMatch, type WantedLabels } from './label-match';
import type { Screen } from './screen';
import { bareName } from './word-match';
import { sensitiveTapReason } from './sensitive-actions';
import { planTap, targetLabels } from './tap-step';
import { ambiguityReason, boundsWithin, disabledReason, hitScore } from './target-choice';
import { planToggle } from './toggle-step';

/** Last parts of package names that say nothing about the app (`com.example.android`, `….app`). */
const GENERIC_PACKAGE_PARTS = new Set(['android', 'app', 'apps', 'application', 'mobile', 'client', 'main', 'launcher', 'home', 'phone']);

/**
 * How a package's parts after its owner (`com.google`) relate to a name X, compared compactly:
 * - `names`: a part is X (`….photos` for "Photos"), or a part of at least twice X's length at most
 *   starts or ends with X of four letters or more (`….deskclock` for "Clock"; `….lock` never
 *   names "Clock", nor `….deskclock` "Lock");
 * - `abbreviates`: a part of two letters or more is how X starts (`com.google.android.gm` for
 *   "Gmail"): too short to tell alone, so it counts only with a title of the app naming X;
 * - `undefined`: neither. Generic parts (`android`, `app`, `launcher`…) never count.
 */
function packageAffinity(pkg: string, name: string): 'names' | 'abbreviates' | undefined {
  const x = compactLabel(name);
  if (x.length < 3) return undefined;
  const parts = pkg
    .toLowerCase()
    .split('.')
    .slice(2)
    .filter((p) => p.length >= 2 && !GENERIC_PACKAGE_PARTS.has(p));
  if (parts.some((p) => p === x || (x.length >= 4 && p.length <= 2 * x.length && (p.startsWith(x) || p.endsWith(x))))) return 'names';
  return parts.some((p) => x.startsWith(p)) ? 'abbreviates' : undefined;
}

/**
 * Whether the screen shows that X, an item or app the catalog does not know, is already in front:
 * - (not for `asApp`) a title near the top of the screen, or the selected tab, reads X (exactly or
 *   compactly), e.g. the toolbar "Network & internet" on that page, "Games" as the selected tab;
 * - the last part of the foreground package is X's name, letters and digits only
 *   (`com.google.android.calculator` for "Calculator"; generic parts such as `android` and `app`
 *   never count);
 * - the foreground package names or abbreviates X or a glossary equivalent of it ("Clock" for
 *   "时钟"; see {@link packageAffinity}) and a title of the
 *   app holds X as a word (see `Screen.appTitle`): "New in Gmail" in `com.google.android.gm`. A
 *   screen that merely mentions X (a launcher's icon, a Settings page about X) is not X's app;
 * - with `asApp` (the goal said "X app"), the foreground package names X (`com.android.deskclock`
 *   for "Clock app"); without it, "open Clock" there is the Clock tab of that app, not the app.
 * Returns the summary, or `undefined`.
 */
function shownInFront(name: string, wanted: WantedLabels, screen: Screen, asApp = false): string | undefined {
  const named = asApp ? undefined : screen.screenName(wanted);
  if (named) {
    const how = named.element.selected === true ? `${JSON.stringify(named.hit.label)} is selected` : `the screen's title is ${JSON.stringify(named.hit.label)}`;
    return `${JSON.stringify(name)} is open: ${how}.`;
  }
  const pkg = screen.package;
  if (pkg === undefined || screen.isHome() === true) return undefined;
  const last = pkg.slice(pkg.lastIndexOf('.') + 1).toLowerCase();
  if (last.length >= 3 && !GENERIC_PACKAGE_PARTS.has(last) && allLabels(wanted).some((l) => compactLabel(l) === last)) return `${JSON.stringify(name)} is open (${pkg} is in front).`;
  const affinities = allLabels(wanted).map((l) => packageAffinity(pkg, l));
  const affinity = affinities.includes('names') ? 'names' : affinities.find((a) => a !== undefined);
  if (affinity === undefined) return undefined;
  if (asApp && affinity === 'names') return `The ${name} app is open (${pkg} is in front).`;
  const title = screen.appTitle(wanted);
  return title === undefined ? undefined : `${JSON.stringify(name)} is open: ${pkg} is in front, titled ${JSON.stringify(title.hit.label)}.`;
}

/** "app", "application", "应用", "程序" after a name: the goal means the application, not an item inside one. */
const APP_WORD = /^\s*(?:app|application|应用|程序)(?![\p{L}\p{N}])/iu;

/** Words before a name that point rather than act ("please show the password"). */
const NOT_VERB_WORDS = new Set(['please', 'the', 'a', 'an', 'my', 'your', 'this', 'that']);

/**
 * What the goal's own words say of "open X" beyond X (words the parse leaves out):
 * - `name`: X without a trailing "app"/"应用" it may still carry ("时钟应用");
 * - `asApp`: X is followed by "app", "application", "应用" or "程序" ("open the Clock app");
 * - `phrases`: X with the one or two words before it ("show password" for "show password"; "go to
 *   cart" for "go to cart"), a button's whole label maybe, each with the thing it belongs to when X
 *   reads "A for B" / "A of B" ("show password for Confirm password": "show password" inside
 *   "Confirm password"). Only for goals with spaces between words.
 */
interface OpenWording {
  name: string;
  asApp: boolean;
  phrases: Array<{ label: string; within?: string }>;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function openWording(name: string, goal: string | undefined): OpenWording {
  const bare = name.replace(/\s*(?:app|application|应用|程序)$/iu, '').trim();
  const own = bare !== '' && bare !== name.trim() ? bare : name;
  if (goal === undefined) return { name: own, asApp: own !== name, phrases: [] };
  const found = new RegExp(escapeRegExp(own), 'iu').exec(goal);
  if (!found) return { name: own, asApp: own !== name, phrases: [] };
  const asApp = own !== name || APP_WORD.test(goal.slice(found.index + found[0].length));
  const before = goal.slice(0, found.index);
  if (/\p{Script=Han}/u.test(before)) return { name: own, asApp, phrases: [] };
  const words = before
    .split(/\s+/)
    .filter((w) => w !== '' && !NOT_VERB_WORDS.has(w.toLowerCase()));
  const leads = [...new Set([words.slice(-1).join(' '), words.slice(-2).join(' ')])].filter((l) => l !== '');
  const of = /^(?<head>.+?)\s+(?:for|of)\s+(?:the\s+|my\s+)?(?<within>.+?)(?:\s+(?:field|box|text\s?box|text\s?field|input))?$/iu.exec(own)?.groups;
  const phrases = leads.flatMap((lead) => [{ label: `${lead} ${own}` }, ...(of?.head && of.within ? [{ label: `${lead} ${of.head}`, within: of.within }] : [])]);
  return { name: own, asApp, phrases };
}

/**
 * The goal's words before X and X together, as the whole label of a tappable element ("show
 * password" → the "Show password" button, even where a field is labelled "Password"): tapped as "tap" taps (see
 * `planTap`: two such buttons fail listing both, unless the goal says which one's: "show password
 * for Confirm password"), or `undefined` when no element carries such a label.
 */
function phraseTap(wording: OpenWording, input: StepInput): StepOutcome | undefined {
  for (const phrase of wording.phrases) {
    // Once tapped, the tap's effect decides, whatever the button reads now ("Hide password").
    const tapped = input.memory.facts.get('lastTapLabel') === JSON.stringify(phrase.label);
    // A plain text reading so ("Open settings" in a help sentence) is no button: only a tappable one counts.
    const shown = input.screen.findTarget(targetLabels([phrase.label]), LabelMatch.Compact).kind;
    if (!tapped && (shown === 'none' || shown === 'untappable')) continue;
    return planTap(phrase.within === undefined ? { kind: 'tap', target: phrase.label, whole: true } : { kind: 'tap', target: phrase.label, whole: true, within: phrase.within }, input);
  }
  return undefined;
}

/** A swipe up the middle of the home screen, from 80% to 30% of its height: it opens the app drawer. */
function openDrawer(screen: Screen): StepOutcome {
  const [l, t, r, b] = screen.extent();
  const x = Math.floor((l + r) / 2);
  const h = b - t;
  return {
    kind: 'act',
    action: { command: 'swipe', x1: x, y1: Math.floor(t + h * 0.8), x2: x, y2: Math.floor(t + h * 0.3), durationMs: 300 },
    reasoning: 'Swipe up on the home screen to open the app drawer.',
  };
}

/**
 * Whether `name` may be an app's name, worth looking for on the home screen: not when the goal's
 * words point at something on a screen — a leading "my", "the", "me", "it with"… or a trailing
 * "settings", "page", "tab"… (see {@link bareName}: "my orders", "me the world clock", "Display
 * settings") — or hold a time ("8:30的闹钟").
 */
function mayNameApp(name: string): boolean {
  return bareName(name) === undefined && !/\d\s*(?::\d|点|o['’]?\s*clock|[ap]\.?m\b)/i.test(name);
}

/**
 * Looks beyond the current screen for X: the rest of the current list (for an item; not for a known
 * app, whose launch failed, nor for X named as an app, `asApp`), then — when X may name an app ({@link mayNameApp}) — the home screen
 * (pressing Home, once), then the app drawer (swiping up on the home screen) and its list, before
 * failing with where it looked.
 */
function lookFurther(name: string, label: string, names: readonly string[], isKnownApp: boolean, input: StepInput, asApp = false): StepOutcome {
  const { screen, memory, last } = input;
  const home = screen.isHome();
  const onHome = home === true || (home === undefined && memory.facts.has('wentHome'));
  if (!onHome) {
    if (memory.facts.has('wentHome')) return fail(`pressed Home to look for an icon labelled ${JSON.stringify(label)}, but the home screen did not show`);
    if (!isKnownApp && !asApp) {
      const swipe = scrollToFind(input, JSON.stringify(label), names);
      if (swipe) return swipe;
      if (!mayNameApp(name)) {
        return fail(`nothing labelled ${JSON.stringify(name)} is on the screen${whyNotFurther(input, names)}; the name points at something on a screen, not at an app, so the home screen is not searched`);
      }
    }
    memory.facts.set('wentHome', true);
    memory.facts.set('scrolledBeforeHome', memory.scrolls);
    memory.scrolls = 0;
    return { kind: 'act', action: { command: 'home' }, reasoning: `Go to the home screen to look for ${JSON.stringify(label)}.` };
  }
  const scrolled = memory.facts.get('scrolledBeforeHome');
  const listed = typeof scrolled === 'number' && scrolled > 0 ? ` (its list scrolled ${scrolled} time(s))` : '';
  const launchFailed = memory.facts.get('launchFailed');
  /** "… is on the screen, the home screen or in the app drawer". */
  const nowhere = (places: string[]): string => {
    // The screen the task started on counts as a place looked at when it was not the home screen.
    const all = typeof launchFailed === 'string' || !memory.facts.has('wentHome') ? places : [`the screen${listed}`, ...places];
    const list = all.length === 1 ? (all[0] as string) : `${all.slice(0, -1).join(', ')} or ${all[all.length - 1] as string}`;
    return typeof launchFailed === 'string'
      ? `could not open ${label}: the phone answered ${launchFailed}, and no icon labelled ${JSON.stringify(label)} is on ${list}`
      : `no app is known as ${JSON.stringify(name)}, and nothing labelled so is on ${list}`;
  };
  const drawer = memory.facts.get('drawer');
  if (drawer === undefined) {
    memory.facts.set('drawer', 'opening');
    memory.scrolls = 0;
    return openDrawer(screen);
  }
  if (drawer === 'opening') {
    if (last?.action?.command === 'swipe' && last.changed === false) return fail(`${nowhere(['the home screen'])}; swiping up on the home screen showed no app drawer`);
    memory.facts.set('drawer', 'open');
  }
  const swipe = scrollToFind(input, `the ${JSON.stringify(label)} icon`, names);
  if (swipe) return swipe;
  const drawerScrolls = memory.scrolls > 0 ? ` (scrolled ${memory.scrolls} time(s))` : '';
  return fail(nowhere(['the home screen', `in the app drawer${drawerScrolls}`]));
}

/**
 * True when `wanted` names a switch on the screen (one best match, see `Screen.findSwitch`) at least
 * as well as any item to tap: for "打开X", which also means "turn X on". A switch inside the item
 * that matches (a preference row and its switch) counts as that item.
 */
function namesSwitch(wanted: WantedLabels, screen: Screen): boolean {
  const sw = screen.findSwitch(wanted);
  if (sw.kind !== 'found' && sw.kind !== 'disabled') return false;
  const item = screen.findTarget(wanted);
  if (item.kind !== 'found' && item.kind !== 'disabled') return true;
  const itemTarget = item.candidate.target ?? item.candidate.element;
  return boundsWithin(itemTarget.bounds, sw.candidate.element.bounds) || hitScore(sw.candidate.hit) >= hitScore(item.candidate.hit);
}

/**
 * "open X" (`named`; `goal`, the goal as written, adds what its parse left out, see {@link openWording}):
 * 0. The goal's words before X and X together are a label on screen ("show password": the "Show
 *    password" button, not the Password field) → tapped as "tap" taps (see {@link phraseTap}).
 * 1. X is already in front → done: a known app whose package is in the foreground; for any other
 *    name, a title or selected tab reading X, the foreground package named X, or a title of the app
 *    naming X ("New in Gmail" in `com.google.android.gm`) (see {@link shownInFront}).
 * 2. A known app (see `KNOWN_APPS`) is launched with `open {package}`.
 * 3. X visible on the screen (a tab, a row, a button, a launcher icon) is tapped; ambiguous or
 *    disabled matches fail at once (see `Screen.findTarget`). Done only once the screen changed
 *    after the tap; a tap without effect is made once more, then the goal fails. When the goal says
 *    "the X app", only a launcher's icon counts: off the home screen it goes Home first (an app's
 *    own "Clock" tab is not the Clock app).
 * 4. Otherwise it scrolls the current list (not for "the X app"), goes Home, opens the app drawer
 *    and scrolls it, looking for an icon labelled X (only when X may name an app, see
 *    {@link mayNameApp}), and fails saying where it looked.
 * Deleting and paying labels ask for approval and are never tapped twice. With `orSwitchOn` (the
 * goal said "打开X", which also means "turn X on"), a switch labelled X is turned on (see `planToggle`)
 * when X is not in front and no item names X better (see {@link namesSwitch}).
 */
export function planOpen(named: string, input: StepInput, orSwitchOn = false, goal?: string): StepOutcome {
  const { screen, memory, last } = input;
  const wording = openWording(named, goal);
  const phrased = phraseTap(wording, input);
  if (phrased !== undefined) return phrased;
  const { name, asApp } = wording;
  const app = findKnownApp(name);
  const label = app?.label ?? name;
  const wanted = targetLabels(app ? [app.label, ...app.aliases, name] : [name]);
  if (orSwitchOn && !app && !asApp && shownInFront(name, wanted, screen) === undefined && namesSwitch(wanted, screen)) return planToggle(name, true, input);
  if (app) {
    const inApp = screen.isIn(app.package);
    if (inApp === true) return done(`${app.label} is open.`);
    if (memory.opened.has(app.package) && lastSucceeded(last, 'open', app.package) && last?.changed === false) {
      // The launch changed nothing on screen: launched once more, then given up (never taken for done).
      if (memory.facts.get('relaunched') === true) return fail(`launched ${app.label} (${app.package}) twice, but the screen did not change`);
      memory.facts.set('relaunched', true);
      return openApp(memory, app.package, app.label);
    }
    if (inApp === undefined && memory.opened.has(app.package) && lastSucceeded(last, 'open', app.package))
      return done(`${app.label} was opened (the phone did not report the foreground app).`);
  } else {
    const front = shownInFront(name, wanted, screen, asApp);
    if (front !== undefined) return done(front);
  }

  const effect = lastTapEffect(input);
  if (effect === false) return retapOrFail(input);
  if (effect === true) {
    if (app && screen.isIn(app.package) === false && screen.isHome() === true) return fail(`tapping ${JSON.stringify(label)} did not open the app`);
    return done(`Opened ${JSON.stringify(label)}.`);
  }

  if (app) {
    const error = lastError(last, 'open');
    if (error !== undefined && memory.opened.has(app.package)) memory.facts.set('launchFailed', error);
    if (!memory.facts.has('launchFailed')) return openApp(memory, app.package, app.label);
  }

  if (asApp && !app) {
    // "the X app": not an item of the app in front (its tab, its row), but the icon in the launcher.
    const home = screen.isHome();
    const onHome = home === true || (home === undefined && memory.facts.has('wentHome'));
    if (!onHome) return lookFurther(name, label, allLabels(wanted), false, input, true);
  }

  const choice = screen.findTarget(wanted);
  switch (choice.kind) {
    case 'found': {
      const element = choice.candidate.target ?? choice.candidate.element;
      const reason = sensitiveTapReason([name], [element, choice.candidate.element]);
      if (reason === undefined) return tap(memory, label, element, `Tap ${JSON.stringify(label)} to open it.`);
      return tap(memory, label, element, `Tap ${JSON.stringify(label)} to open it.`, { reason }, `tapping ${JSON.stringify(label)}`);
    }
    case 'ambiguous':
      return fail(ambiguityReason(name, choice.candidates));
    case 'disabled':
      return fail(disabledReason(name, choice.candidate));
    case 'untappable':
    case 'none':
      return lookFurther(name, label, allLabels(wanted), app !== undefined, input, asApp);
  }
}
