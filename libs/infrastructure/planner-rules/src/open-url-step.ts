import type { UiElement } from '@mobileclaw/domain';
import { findKnownApp } from './app-catalog';
import { click, done, fail, lastError, lastSucceeded, openApp, type StepInput, type StepOutcome } from './intent-step';
import { LabelMatch, matchLabel } from './label-match';
import { labelsOf } from './screen';
import { fieldNames, findField } from './type-step';

const BROWSER = findKnownApp('browser') as NonNullable<ReturnType<typeof findKnownApp>>;
const GO_LABELS = ['Go', 'Open', 'Enter', 'Search', '前往', '转到', '打开', '搜索'];

/** Comparison form of an address: no scheme, no `www.`, no trailing `/`, host in lower case. `undefined` when `text` is not one. */
export function comparableUrl(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  if (!trimmed || /\s/.test(trimmed)) return undefined;
  const bare = trimmed.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^www\./i, '');
  const slash = bare.search(/[/?#]/);
  const host = (slash === -1 ? bare : bare.slice(0, slash)).toLowerCase();
  const rest = (slash === -1 ? '' : bare.slice(slash)).replace(/\/+$/, '');
  return host.includes('.') || host.startsWith('localhost') ? host + rest : undefined;
}

/** The browser's address field: an editable named like one, else the only editable. */
function addressField(input: StepInput): UiElement | undefined {
  return findField(input.screen, fieldNames('address bar')) ?? findField(input.screen, undefined);
}

/**
 * "open U in the browser": launches the browser, types U into the address bar and taps Go. Done
 * only after this task's own Go: when the page then shows U (its whole comparable address, see
 * {@link comparableUrl}) outside a field being edited, or the address bar shows U unfocused. A
 * browser already showing U, or a page of the same site, is not taken as reached.
 */
export function planOpenUrl(url: string, input: StepInput): StepOutcome {
  const { screen, memory, last } = input;
  const want = comparableUrl(url);
  if (want === undefined) return fail(`${JSON.stringify(url)} is not a web address`);
  const field = addressField(input);
  // Only a page this task loaded counts: the browser may already show the address, or a page of the same site.
  if (memory.facts.get('submitted') === true && screen.isIn(BROWSER.package) !== false) {
    const loaded = screen.elements.find((e) => !e.editable && labelsOf(e).some((l) => comparableUrl(l) === want));
    if (loaded) return done(`The browser shows ${loaded.text ?? url}.`);
    if (field && !field.focused && comparableUrl(field.text) === want) return done(`The browser shows ${field.text}.`);
  }

  const inBrowser = screen.isIn(BROWSER.package);
  if (inBrowser === false || (inBrowser === undefined && !memory.opened.has(BROWSER.package))) {
    const error = lastError(last, 'open');
    if (error !== undefined && memory.opened.has(BROWSER.package)) return fail(`could not open the ${BROWSER.label}: ${error}`);
    return openApp(memory, BROWSER.package, BROWSER.label);
  }
  if (!field) return fail(`the ${BROWSER.label} shows no address bar`);
  if (comparableUrl(field.text) === want && (field.focused || lastSucceeded(last, 'input'))) {
    if (memory.facts.get('submitted') === true && lastSucceeded(last, 'click') && last?.changed === false) return fail(`tapped Go but ${url} did not load`);
    const go = screen.elements.find((e) => e.clickable && e !== field && labelsOf(e).some((l) => matchLabel(l, GO_LABELS) >= LabelMatch.Compact));
    if (!go) return fail(`typed ${url} but found no Go button to load it (the phone has no Enter key command)`);
    memory.facts.set('submitted', true);
    return click(go, `Load ${url}.`);
  }
  const justFocused = memory.facts.get('focused') === true && lastSucceeded(last, 'click');
  if (field.focused || justFocused) {
    if (memory.facts.get('typed') === true && lastSucceeded(last, 'input')) return fail(`typed ${url} but the address bar does not show it`);
    memory.facts.set('typed', true);
    return { kind: 'act', action: { command: 'input', text: url, clear: true }, reasoning: `Type ${url} into the address bar.`, element: field };
  }
  memory.facts.set('focused', true);
  return click(field, `Tap the address bar.`);
}
