import { DIALOG_VERBS, addNames } from './dialog-verbs';
import { parseGoal } from './goal-parser';
import { normalizeLabel } from './goal-text';

const phrases = DIALOG_VERBS.flatMap((verb) => [...verb.en, ...verb.zh].map((phrase) => [phrase, verb] as const));

describe('DIALOG_VERBS', () => {
  it.each(phrases)('%j alone is a tap on the labels of its row', (phrase, verb) => {
    expect(parseGoal(phrase)).toEqual([{ kind: 'tap', target: phrase, names: verb.names }]);
  });

  it('gives every phrase to one row only', () => {
    const seen = new Map<string, number>();
    for (const [phrase] of phrases) seen.set(normalizeLabel(phrase), (seen.get(normalizeLabel(phrase)) ?? 0) + 1);
    expect([...seen].filter(([, count]) => count > 1)).toEqual([]);
  });

  it('never lets a closing or declining verb tap a label that carries an action out', () => {
    const closing = ['dismiss', 'cancel', 'deny', 'decline', 'not now', 'no thanks', 'later', 'skip'];
    const accepting = ['ok', 'okay', 'allow', 'accept', 'agree', 'continue', 'confirm', 'yes', 'delete', 'while using the app', '确定', '允许', '同意', '继续', '删除'];
    for (const verb of DIALOG_VERBS.filter((v) => v.en.some((p) => closing.includes(p)))) {
      expect(verb.names.map(normalizeLabel).filter((name) => accepting.includes(name))).toEqual([]);
    }
  });

  it('grants no more than asked: "allow" never allows all the time, "deny" never adds "don\'t ask again"', () => {
    const allow = DIALOG_VERBS.find((v) => v.en.includes('allow'));
    const deny = DIALOG_VERBS.find((v) => v.en.includes('deny'));
    expect(allow?.names.filter((n) => /all the time|始终|一律/i.test(n))).toEqual([]);
    expect(deny?.names.filter((n) => /ask again|不再询问/i.test(n))).toEqual([]);
  });
});

describe('addNames', () => {
  it('lists the specific add buttons in both languages before the bare ones', () => {
    expect(addNames('contact')).toEqual(['Add contact', 'New contact', 'Create contact', 'Add', '+', 'New', '添加', '新建', '新增']);
    expect(addNames('Timer')).toEqual([
      'Add Timer',
      'New Timer',
      'Create Timer',
      '添加计时器',
      '新建计时器',
      '新增计时器',
      '添加定时器',
      '新建定时器',
      '新增定时器',
      'Add',
      '+',
      'New',
      '添加',
      '新建',
      '新增',
    ]);
  });
});
