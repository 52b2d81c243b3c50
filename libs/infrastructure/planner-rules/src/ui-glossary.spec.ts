import { compactLabel, hasCjk } from './goal-text';
import { equivalentLabels, glossaryEntriesFor, SHARED_GLOSSARY_TERMS, UI_GLOSSARY } from './ui-glossary';

/** Every term of the glossary with the entries (by index) whose terms contain it, keyed by compact form. */
function entriesByCompactTerm(): Map<string, Set<number>> {
  const byTerm = new Map<string, Set<number>>();
  UI_GLOSSARY.forEach((entry, index) => {
    for (const term of [...entry.en, ...entry.zh]) {
      const key = compactLabel(term);
      const entries = byTerm.get(key) ?? new Set<number>();
      entries.add(index);
      byTerm.set(key, entries);
    }
  });
  return byTerm;
}

describe('UI_GLOSSARY', () => {
  it('holds a few hundred entries', () => {
    expect(UI_GLOSSARY.length).toBeGreaterThanOrEqual(300);
  });

  it('gives every entry at least one English and one Chinese term', () => {
    const incomplete = UI_GLOSSARY.filter((entry) => entry.en.length === 0 || entry.zh.length === 0);
    expect(incomplete).toEqual([]);
  });

  it('has no empty, untrimmed or repeated term within an entry', () => {
    const faults: string[] = [];
    for (const entry of UI_GLOSSARY) {
      for (const [language, terms] of [['en', entry.en], ['zh', entry.zh]] as const) {
        const seen = new Set<string>();
        for (const term of terms) {
          const key = compactLabel(term);
          if (key === '') faults.push(`empty ${language} term in ${entry.en[0]}`);
          if (term !== term.trim()) faults.push(`untrimmed "${term}"`);
          if (seen.has(key)) faults.push(`"${term}" repeated in ${entry.en[0]}`);
          seen.add(key);
        }
      }
    }
    expect(faults).toEqual([]);
  });

  it('keeps English terms free of Chinese and repeats a term across languages only for a Latin name the Chinese UI keeps', () => {
    const faults: string[] = [];
    for (const entry of UI_GLOSSARY) {
      for (const term of entry.en) if (hasCjk(term)) faults.push(`Chinese in English term "${term}"`);
      const english = new Set(entry.en.map(compactLabel));
      for (const term of entry.zh) if (english.has(compactLabel(term)) && hasCjk(term)) faults.push(`"${term}" in both languages`);
    }
    expect(faults).toEqual([]);
  });

  it('puts a term in two entries only when it is a listed shared term, and every listed one is shared', () => {
    const byTerm = entriesByCompactTerm();
    const shared = [...byTerm].filter(([, entries]) => entries.size > 1).map(([term]) => term);
    expect(shared.sort()).toEqual(SHARED_GLOSSARY_TERMS.map(compactLabel).sort());
  });
});

describe('equivalentLabels', () => {
  it.each<[string, string[]]>([
    ['wifi', ['wifi', 'WLAN', '无线局域网', '无线网络']],
    ['Wi\u2011Fi', ['Wi\u2011Fi', 'WLAN', '无线局域网', '无线网络']],
    ['WLAN', ['WLAN', 'Wi-Fi', '无线局域网', '无线网络']],
    ['蓝牙', ['蓝牙', 'Bluetooth']],
    ['Bluetooth', ['Bluetooth', '蓝牙']],
    ['闹钟', ['闹钟', 'Alarm', 'Alarms']],
    ['Alarm', ['Alarm', 'Alarms', '闹钟']],
    ['Stopwatch', ['Stopwatch', '秒表']],
    ['秒表', ['秒表', 'Stopwatch']],
    ['Timer', ['Timer', 'Timers', '计时器', '定时器']],
    ['设置', ['设置', 'Settings']],
    ['知道了', ['知道了', 'Got it', 'OK, got it', 'I got it', '我知道了']],
    ['Got it', ['Got it', 'OK, got it', 'I got it', '知道了', '我知道了']],
    ['不允许', ['不允许', "Don't allow", 'Do not allow']],
    ['Don\u2019t allow', ['Don\u2019t allow', 'Do not allow', '不允许']],
    ['While using the app', ['While using the app', 'Allow only while using the app', 'Only while using the app', 'Only while using app', '仅在使用该应用时允许', '仅限使用应用时', '仅在使用中允许']],
    ['网络和互联网', ['网络和互联网', 'Network & internet', 'Network and internet']],
    ['Network & internet', ['Network & internet', 'Network and internet', '网络和互联网']],
    ['热点和网络共享', ['热点和网络共享', 'Hotspot & tethering', 'Hotspot and tethering', 'Mobile Hotspot and Tethering', '移动热点和网络共享']],
    ['Data Saver', ['Data Saver', '流量节省程序']],
    ['深色主题', ['深色主题', 'Dark theme', 'Dark mode', '深色模式']],
    ['Airplane mode', ['Airplane mode', 'Flight mode', 'Aeroplane mode', '飞行模式']],
    ['OK', ['OK', 'Okay', '确定', '好', '好的']],
    ['确定', ['确定', 'OK', 'Okay', '好', '好的']],
    ['上午', ['上午', 'AM']],
    ['Mon', ['Mon', 'Monday', '星期一', '周一']],
  ])('%s → %j', (label, expected) => {
    expect(equivalentLabels(label)).toEqual(expected);
  });

  it('keeps the two meanings of an ambiguous word apart: 打开 is the Open button, 关闭 the Close button, "Reset" the stopwatch button', () => {
    expect(equivalentLabels('打开')).toEqual(['打开', 'Open']);
    expect(equivalentLabels('Turn on')).toEqual(['Turn on', '开启']);
    expect(equivalentLabels('关闭')).toEqual(['关闭', 'Close', 'Dismiss']);
    expect(equivalentLabels('Reset')).toEqual(['Reset', '重置']);
    expect(equivalentLabels('Reset options')).toEqual(['Reset options', '重置选项']);
    expect(equivalentLabels('暂停')).toEqual(['暂停', 'Pause']);
    expect(equivalentLabels('Snooze')).toEqual(['Snooze', '稍后提醒', '稍后再提醒', '贪睡']);
  });

  it('joins both entries of the shared term 继续, and each of those entries alone for its English name', () => {
    expect(equivalentLabels('继续')).toEqual(['继续', 'Continue', 'Resume']);
    expect(equivalentLabels('Continue')).toEqual(['Continue', '继续']);
    expect(equivalentLabels('Resume')).toEqual(['Resume', '继续']);
  });

  it('gives only the label itself for an unknown one', () => {
    expect(equivalentLabels('Frobnicate')).toEqual(['Frobnicate']);
    expect(equivalentLabels('')).toEqual(['']);
  });
});

describe('glossaryEntriesFor', () => {
  it('finds the one entry of a known term in any letter case, spacing or hyphen form', () => {
    expect(glossaryEntriesFor('  wi fi ')).toEqual([{ en: ['Wi-Fi'], zh: ['WLAN', '无线局域网', '无线网络'] }]);
    expect(glossaryEntriesFor('SIM卡')).toEqual([{ en: ['SIMs', 'SIM card', 'SIM cards', 'SIM'], zh: ['SIM 卡'] }]);
  });

  it('finds both entries of a shared term, in glossary order', () => {
    expect(glossaryEntriesFor('继续').map((entry) => entry.en[0])).toEqual(['Continue', 'Resume']);
  });

  it('finds nothing for an unknown label', () => {
    expect(glossaryEntriesFor('Frobnicate')).toEqual([]);
    expect(glossaryEntriesFor('!!!')).toEqual([]);
  });
});
