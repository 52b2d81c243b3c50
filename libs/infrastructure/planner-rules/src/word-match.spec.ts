import { bareName, contentWords, hanTerms, matchWords, stem, timeForms } from './word-match';

describe('bareName', () => {
  it.each([
    ['my cart', 'cart'],
    ['me the privacy policy', 'privacy policy'],
    ['it with Calendar', 'Calendar'],
    ['Display settings', 'Display'],
    ['the Alarm tab', 'Alarm'],
    ['蓝牙设置', '蓝牙'],
    ['我的文件', '文件'],
  ])('%s → %s', (name, bare) => {
    expect(bareName(name)).toBe(bare);
  });

  it.each(['Settings', 'Network & internet', 'the', 'my settings', '设置'])('keeps %s (nothing to drop, or nothing would remain)', (name) => {
    expect(bareName(name) === undefined || bareName(name) !== '').toBe(true);
    if (name === 'my settings') expect(bareName(name)).toBe('settings');
    else expect(bareName(name)).toBeUndefined();
  });
});

describe('timeForms', () => {
  it.each([
    ['9点的闹钟', '9:00的闹钟'],
    ['8点半', '8:30'],
    ["my 9 o'clock alarm", 'my 9:00 alarm'],
    ['wake me at 7am', 'wake me at 7:00 am'],
    ['9 p.m.', '9:00 pm'],
    ['8:30 AM', '8:30 AM'],
  ])('%s → %s', (text, form) => {
    expect(timeForms(text)).toBe(form);
  });
});

describe('stem', () => {
  it.each([
    ['automatically', 'automatic'],
    ['automatic', 'automatic'],
    ['alarms', 'alarm'],
    ['enabled', 'enabl'],
    ['enable', 'enabl'],
    ['wireless', 'wireless'],
    ['time', 'time'],
    ['8:30', '8:30'],
  ])('%s → %s', (word, stemmed) => {
    expect(stem(word)).toBe(stemmed);
  });
});

describe('contentWords', () => {
  it.each([
    // Times take the 24-hour key of the shared label normalisation.
    ['the 8:30 AM alarm', ['08:30', 'alarm']],
    ['8:30的闹钟', ['08:30', '闹钟']],
    ['周末的闹钟', ['周末', '闹钟']],
    ['周末闹钟', ['周末', '闹钟']],
    ['the alarm at 8:30', ['alarm', '08:30']],
    ['alarm for weekends', ['alarm', 'weekends']],
    ["my 9 o'clock alarm", ['09:00', 'alarm']],
    ['Display settings', ['display']],
    ['settings', ['settings']],
  ])('%s → %j', (name, expected) => {
    expect(contentWords(name)).toEqual(expected);
  });
});

describe('hanTerms', () => {
  it.each([
    ['周末闹钟', ['周末', '闹钟']],
    ['工作日闹钟', ['工作日', '闹钟']],
    ['蓝牙', ['蓝牙']],
    // Not made of known terms only: kept whole.
    ['和平精英', ['和平精英']],
    ['周末早起闹钟', ['周末早起闹钟']],
  ])('%s → %j', (run, expected) => {
    expect(hanTerms(run)).toEqual(expected);
  });
});

describe('matchWords', () => {
  const CARD = 'Alarm · 8:30 AM · Expand alarm · Mon, Tue, Wed, Thu, Fri';

  it('finds every word of the name in any order, and counts the label\'s other words', () => {
    expect(matchWords(CARD, ['8:30 AM alarm'])).toBe(6);
    expect(matchWords('Set time automatically', ['automatic time'])).toBe(1);
    expect(matchWords('Set time zone automatically', ['automatic time'])).toBe(2);
  });

  it('compares times in h:mm form and reads Chinese words through the glossary', () => {
    expect(matchWords(CARD, ['8:30的闹钟'])).toBeDefined();
    expect(matchWords('Alarm · 9:00 AM · Sun, Sat', ['9点的闹钟'])).toBeDefined();
    expect(matchWords(CARD, ['9点的闹钟'])).toBeUndefined();
  });

  it('reads "weekend" and "weekdays" (周末, 工作日) as the very days a card shows', () => {
    expect(matchWords('Alarm · 9:00 AM · Sun, Sat · Sunday, Saturday', ['weekend alarm'])).toBe(5);
    expect(matchWords('Alarm · 9:00 AM · Sun, Sat', ['周末的闹钟'])).toBe(4);
    expect(matchWords(CARD, ['weekday alarm'])).toBe(7);
    // A Chinese run is cut at 的 and into the known terms it is made of.
    expect(matchWords(CARD, ['工作日闹钟'])).toBe(9);
    expect(matchWords(CARD, ['工作日的闹钟'])).toBe(9);
    // Not a weekend alarm: it also rings on Monday; not a weekday one: it skips Friday.
    expect(matchWords('Alarm · 7:00 AM · Sat, Sun, Mon', ['weekend alarm'])).toBeUndefined();
    expect(matchWords('Alarm · 7:00 AM · Mon, Tue, Wed, Thu', ['weekdays alarm'])).toBeUndefined();
  });

  it('needs every word: a missing one is no match', () => {
    expect(matchWords(CARD, ['weekend alarm'])).toBeUndefined();
    expect(matchWords(undefined, ['alarm'])).toBeUndefined();
  });
});
