import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseUiHierarchyXml, type UiTreeNode } from '@mobileclaw/ui-hierarchy';
import type { ScreenBounds } from './expectation';
import { REAL_SCREEN_GOALS, REAL_SCREENS, type RealScreenGoalKind } from './real-screen-goals';
import { SCREENS_DIR } from './run-real-screens';

const imported = new Map<string, UiTreeNode[]>();

/** Every node of a recorded screen, in document order (imported once per file). */
function nodesOf(file: string): UiTreeNode[] {
  const flatten = (nodes: UiTreeNode[]): UiTreeNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);
  let nodes = imported.get(file);
  if (nodes === undefined) {
    nodes = flatten(parseUiHierarchyXml(readFileSync(join(SCREENS_DIR, file), 'utf8')).nodes);
    imported.set(file, nodes);
  }
  return nodes;
}

const sameBounds = (a: readonly number[], b: ScreenBounds): boolean => a.every((v, i) => v === b[i]);

const KINDS: RealScreenGoalKind[] = ['quoted-label', 'own-words', 'dialog-verb', 'unlabelled-toggle', 'open-visible', 'not-on-screen', 'already-done', 'disabled-target', 'ambiguous', 'out-of-scope'];

describe('the real-screen goal table', () => {
  it('has 60+ goals with unique ids usable in a device id', () => {
    expect(REAL_SCREEN_GOALS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(REAL_SCREEN_GOALS.map((g) => g.id)).size).toBe(REAL_SCREEN_GOALS.length);
    for (const goal of REAL_SCREEN_GOALS) expect(goal.id).toMatch(/^[A-Za-z0-9._:-]{1,100}$/);
  });

  it('uses every listed screen, and only those; each file is a recorded screen the importer reads', () => {
    const used = new Set(REAL_SCREEN_GOALS.map((g) => g.screen));
    expect([...used].sort()).toEqual(Object.keys(REAL_SCREENS).sort());
    const recorded = readdirSync(SCREENS_DIR).filter((f) => f.endsWith('.xml'));
    // All recorded screens but the Play Store one (whose ids are obfuscated) carry goals.
    expect(recorded.filter((f) => used.has(f)).length).toBeGreaterThanOrEqual(17);
    for (const file of used) {
      expect(existsSync(join(SCREENS_DIR, file))).toBe(true);
      expect(nodesOf(file).length).toBeGreaterThan(5);
    }
  });

  it('covers every kind of goal in English and Chinese, across screen languages', () => {
    for (const kind of KINDS) expect(REAL_SCREEN_GOALS.filter((g) => g.kind === kind).length).toBeGreaterThanOrEqual(2);
    expect(REAL_SCREEN_GOALS.filter((g) => g.lang === 'zh').length).toBeGreaterThanOrEqual(20);
    expect(REAL_SCREEN_GOALS.filter((g) => g.lang === 'en').length).toBeGreaterThanOrEqual(40);
    // Goals whose language differs from the screen's: Chinese on English screens, English on Chinese, Japanese and Arabic ones.
    const crossing = REAL_SCREEN_GOALS.filter((g) => g.lang !== REAL_SCREENS[g.screen]);
    expect(crossing.filter((g) => g.lang === 'zh').length).toBeGreaterThanOrEqual(10);
    expect(crossing.filter((g) => g.lang === 'en').length).toBeGreaterThanOrEqual(10);
    const expectations = REAL_SCREEN_GOALS.map((g) => g.expect.kind);
    expect(expectations.filter((k) => k === 'first_action').length).toBeGreaterThanOrEqual(40);
    expect(expectations.filter((k) => k === 'no_action').length).toBeGreaterThanOrEqual(8);
    expect(expectations.filter((k) => k === 'fails_safely').length).toBeGreaterThanOrEqual(8);
    // The kind and the expectation agree.
    for (const goal of REAL_SCREEN_GOALS) {
      if (goal.kind === 'already-done') expect(goal.expect.kind).toBe('no_action');
      if (['disabled-target', 'ambiguous', 'out-of-scope'].includes(goal.kind)) expect(goal.expect.kind).toBe('fails_safely');
    }
  });

  it('names targets by bounds that are exactly a node’s on its screen, one of them an enabled tappable node', () => {
    for (const goal of REAL_SCREEN_GOALS) {
      if (goal.expect.kind !== 'first_action') continue;
      const nodes = nodesOf(goal.screen);
      const taps = goal.expect.anyOf.flatMap((m) => (m.command === 'click' || m.command === 'long_press' ? [m.bounds] : []));
      for (const bounds of taps) {
        expect([goal.id, nodes.some((n) => sameBounds(n.bounds, bounds))]).toEqual([goal.id, true]);
      }
      if (taps.length > 0) {
        const tappable = taps.some((bounds) => nodes.some((n) => sameBounds(n.bounds, bounds) && n.enabled && (n.clickable || n.longClickable)));
        expect([goal.id, tappable]).toEqual([goal.id, true]);
      }
    }
  });

  it('marks the goals the rule-based planner declares outside its scope: each one a capable planner must act on, with its reason', () => {
    const marked = REAL_SCREEN_GOALS.filter((g) => g.ruleBasedOutOfScope !== undefined);
    expect(marked.map((g) => g.id)).toEqual([
      'clock-tap-unquoted-list',
      'clock-world-clock',
      'clock-timer-5-min',
      'datetime-location-zone-own-words',
      'datetime-ja-auto-time-off',
      'homee-new-here',
      'pharmacy-open-cart',
      'pharmacy-search',
      'pharmacy-orders',
      'settings-volume-own-words',
    ]);
    for (const goal of marked) {
      expect([goal.id, goal.expect.kind]).toEqual([goal.id, 'first_action']);
      expect([goal.id, (goal.ruleBasedOutOfScope ?? '').length > 60]).toEqual([goal.id, true]);
      // A reason of language is given only on a screen in a language the planner has no words for.
      if (/labelled only in (?:Japanese|Arabic)/.test(goal.ruleBasedOutOfScope ?? '')) expect([goal.id, ['ja', 'ar'].includes(REAL_SCREENS[goal.screen] ?? '')]).toEqual([goal.id, true]);
    }
  });

  it('has a disabled node on every screen with a disabled-target goal', () => {
    for (const goal of REAL_SCREEN_GOALS.filter((g) => g.kind === 'disabled-target')) {
      expect([goal.id, nodesOf(goal.screen).some((n) => !n.enabled && n.clickable)]).toEqual([goal.id, true]);
    }
  });
});
