import { DIALOG_VERBS, addNames } from './dialog-verbs';
import { parseGoal } from './goal-parser';
import { normalizeLabel } from './goal-text';

const phrases = DIALOG_VERBS.flatMap((verb) => [...verb.en, ...verb.zh].map((phrase) => [phrase, verb] as const));

describe('DIALOG_VERBS', () => {
  it.each(phrases)('%j alone is a tap on the labels of its row', (phrase, verb) => {
    expect(parseGoal(phrase)).toEqual([{ kind: 'tap', target: phrase, names: verb.names, whole: true, ...(verb.fallback ? { fallback: verb.fallback } : {}) }]);
  });

  it('gives every phrase to one row only', () => {
    const seen = new Map<string, number>();
    for (const [phrase] of phrases) seen.set(normalizeLabel(phrase), (seen.get(normalizeLabel(phrase)) ?? 0) + 1);
    expect([...seen].filter(([, count]) => count > 1)).toEqual([]);
  });

  it('never lets a closing or declining verb tap a label that carries an action out, not even as a fallback', () => {
    const closing = ['dismiss', 'cancel', 'deny', 'decline', 'not now', 'no thanks', 'later', 'skip'];
    const accepting = ['ok', 'okay', 'allow', 'accept', 'agree', 'continue', 'confirm', 'yes', 'delete', 'done', 'while using the app', '确定', '允许', '同意', '继续', '删除', '完成'];
    for (const verb of DIALOG_VERBS.filter((v) => v.en.some((p) => closing.includes(p)))) {
      expect([...verb.names, ...(verb.fallback ?? [])].map(normalizeLabel).filter((name) => accepting.includes(name))).toEqual([]);
    }
  });

  it('gives "skip" the closing labels of a tour as its fallback, and no other verb a fallback', () => {
    expect(DIALOG_VERBS.filter((v) => v.fallback !== undefined).map((v) => v.en[0])).toEqual(['skip']);
    expect(DIALOG_VERBS.find((v) => v.en.includes('skip'))?.fallback).toEqual(['Got it', 'Close', 'Dismiss', 'Not now', 'No thanks', 'Maybe later', '知道了', '我知道了', '关闭', '暂不', '以后再说']);
  });

  it('grants no more than asked: "allow" never allows all the time, "deny" never adds "don\'t ask again"', () => {
    const allow = DIALOG_VERBS.find((v) => v.en.includes('allow'));
    const deny = DIALOG_VERBS.find((v) => v.en.includes('deny'));
    expect(allow?.names.filter((n) => /all the time|始终|一律/i.test(n))).toEqual([]);
    expect(deny?.names.filter((n) => /ask again|不再询问/i.test(n))).toEqual([]);
  });
});

describe('addNames', () => {
  it('lists "Add X", "New X", "Create X" and the bare add buttons for a thing the glossary does not know', () => {
    expect(addNames('widget zone')).toEqual(['Add widget zone', 'New widget zone', 'Create widget zone', 'Add', '+', 'New', '添加', '新建', '新增']);
  });

  it('adds the glossary equivalents of a known thing, English before Chinese, before the bare add buttons', () => {
    const names = addNames('闹钟');
    expect(names.slice(0, 3)).toEqual(['Add Alarm', 'New Alarm', 'Create Alarm']);
    expect(names).toEqual(expect.arrayContaining(['添加闹钟', '新建闹钟', '新增闹钟']));
    expect(names.slice(-6)).toEqual(['Add', '+', 'New', '添加', '新建', '新增']);
    expect(names.findIndex((n) => /[\u3400-\u9fff]/.test(n))).toBe(names.indexOf('添加闹钟'));
  });
});
