import { compactLabel, foldPunctuation, normalizeGoal, normalizeLabel, timeKey, timesIn, trimWhile, unquote } from './goal-text';

describe('normalizeLabel', () => {
  it.each([
    ['Wi\u2011Fi', 'wi-fi'],
    ['ＷＩ－ＦＩ', 'wi-fi'],
    ['Network\u00a0&\u2009internet', 'network & internet'],
    ['Sound\u3000and\u205fvibration', 'sound and vibration'],
    ['Sound\u2000\u200a&\u202fvibration', 'sound & vibration'],
    ['Blue\u200btooth', 'bluetooth'],
    ['\u2068Alice\u2069', 'alice'],
    ['\u200eمرحبا\u200f', 'مرحبا'],
    ['soft\u00adhyphen', 'softhyphen'],
    ['\ufeffOK', 'ok'],
    ['“Allow”', 'allow'],
    ['「确定」。', '确定'],
    ['  Network  &  Internet. ', 'network & internet'],
    ['Alarm 8:30\u202fAM, Mon, Tue', 'alarm 08:30, mon, tue'],
  ])('%j → %j', (label, normal) => {
    expect(normalizeLabel(label)).toBe(normal);
  });

  it('compares labels that differ only in spaces, hyphens and invisible characters', () => {
    expect(compactLabel('Wi\u2011Fi')).toBe(compactLabel('WiFi'));
    expect(compactLabel('Blue\u200dtooth')).toBe('bluetooth');
    expect(compactLabel('8:30 AM')).toBe(compactLabel('08:30'));
  });
});

describe('timeKey', () => {
  it.each([
    ['8:30', '08:30'],
    ['08:30', '08:30'],
    ['8:30 AM', '08:30'],
    ['8:30\u202fAM', '08:30'],
    ['8:30am', '08:30'],
    ['8:30 a.m.', '08:30'],
    ['8:30 A. M.', '08:30'],
    ['８：３０', '08:30'],
    ['上午8:30', '08:30'],
    ['早上 8:30', '08:30'],
    ['凌晨1:15', '01:15'],
    ['午前8:30', '08:30'],
    ['오전 8:30', '08:30'],
    ['20:30', '20:30'],
    ['8:30 PM', '20:30'],
    ['8:30pm', '20:30'],
    ['下午8:30', '20:30'],
    ['晚上8:30', '20:30'],
    ['오후 8:30', '20:30'],
    ['12:05 AM', '00:05'],
    ['12:05 PM', '12:05'],
    ['中午12:05', '12:05'],
    ['中午1:05', '13:05'],
    ['0:45', '00:45'],
    ['7:05:09 pm', '19:05:09'],
    ['\u20688:30\u2069', '08:30'],
  ])('%j → %j', (text, key) => {
    expect(timeKey(text)).toBe(key);
  });

  it('keeps a bare time on the 24-hour clock: 8:30 is 8:30 AM, not 8:30 PM', () => {
    expect(timeKey('8:30')).toBe(timeKey('8:30 AM'));
    expect(timeKey('8:30')).not.toBe(timeKey('8:30 PM'));
    expect(timeKey('20:30')).toBe(timeKey('8:30 PM'));
  });

  it.each(['Alarm 8:30', '8:3', '16:9 crop', '45:00', '12:34:56:78', '8:30 amsterdam', 'v1.8:30', ''])('%j is not one time of day', (text) => {
    expect(timeKey(text)).toBeUndefined();
  });

  it('finds every time in a label, in order', () => {
    expect(timesIn('Alarm 8:30 AM, snooze until 8:40\u202fAM; bedtime 22:15')).toEqual(['08:30', '08:40', '22:15']);
    expect(timesIn('Timer 45:00')).toEqual([]);
    expect(timesIn('No alarms')).toEqual([]);
  });
});

describe('foldPunctuation', () => {
  it('folds full-width letters, every kind of space and Chinese punctuation one unit for one', () => {
    const goal = 'ｏｐｅｎ\u3000Ｓｅｔｔｉｎｇｓ，然后\u2009返回！';
    const folded = foldPunctuation(goal);
    expect(folded).toBe('open Settings,然后 返回!');
    expect(folded.length).toBe(goal.length);
  });

  it('leaves characters whose compatibility form is longer, and surrogate pairs, as they are', () => {
    expect(foldPunctuation('…ﬁ𝐀👋')).toBe('…ﬁ𝐀👋');
  });
});

describe('unquote', () => {
  it('removes one pair of quotes around the whole text only', () => {
    expect(unquote(' “Wi‑Fi” ')).toBe('Wi‑Fi');
    expect(unquote(`'don't go'`)).toBe(`don't go`);
    expect(unquote('「下一步」')).toBe('下一步');
    expect(unquote('"Allow" and "OK"')).toBe('"Allow" and "OK"');
    expect(unquote('"unbalanced')).toBe('"unbalanced');
  });
});

describe('normalizeGoal', () => {
  it('drops format characters and makes each run of white space one space, mapping every unit back to the goal', () => {
    expect(normalizeGoal('type  a\u200bb')).toEqual({ text: 'type ab', origin: [0, 1, 2, 3, 4, 6, 8] });
    expect(normalizeGoal('\ufeff turn\t\u00a0\u3000on\n\u2028Wi-Fi \u202e')).toEqual({ text: 'turn on Wi-Fi', origin: [2, 3, 4, 5, 6, 9, 10, 11, 13, 14, 15, 16, 17] });
  });

  it('keeps surrogate pairs whole, each unit mapped', () => {
    expect(normalizeGoal('👋\u200d x')).toEqual({ text: '👋 x', origin: [0, 1, 3, 4] });
  });

  it('drops bidi controls and isolates, zero-width characters, the BOM and soft hyphens', () => {
    expect(normalizeGoal('\u202aa\u202bb\u202cc\u202dd\u202ee\u200ef\u200fg\u2066h\u2067i\u2068j\u2069k\u200bl\u200cm\u200dn\u2060o\ufeffp\u00adq').text).toBe('abcdefghijklmnopq');
  });

  it('gives an empty text for a goal of spaces and format characters only', () => {
    expect(normalizeGoal('\u202e\u200b \t\u200f\ufeff\u3000')).toEqual({ text: '', origin: [] });
  });
});

describe('trimWhile', () => {
  it('removes leading and trailing characters the pattern accepts, one at a time', () => {
    expect(trimWhile('..!hello, world?! ', /[\s.,!?]/)).toBe('hello, world');
    expect(trimWhile('...', /[.]/)).toBe('');
  });
});
