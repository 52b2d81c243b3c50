import { coordinatedObjects, isKnownSetting, namesOneThing } from './coordinated-objects';
import { parseGoal } from './goal-parser';

describe('coordinatedObjects', () => {
  it.each([
    ['Bluetooth and Wi-Fi', ['Bluetooth', 'Wi-Fi']],
    ['Wi-Fi, Bluetooth and NFC', ['Wi-Fi', 'Bluetooth', 'NFC']],
    ['Wi-Fi, Bluetooth, and NFC', ['Wi-Fi', 'Bluetooth', 'NFC']],
    ['the Wi-Fi and the Bluetooth', ['Wi-Fi', 'Bluetooth']],
    ['蓝牙和WLAN', ['蓝牙', 'WLAN']],
    ['蓝牙、WLAN 和 NFC', ['蓝牙', 'WLAN', 'NFC']],
    ['蓝牙与定位', ['蓝牙', '定位']],
    ['WLAN 以及 飞行模式', ['WLAN', '飞行模式']],
    ['Bluetooth & Wi-Fi', ['Bluetooth', 'Wi-Fi']],
    ['Bluetooth&Wi-Fi', ['Bluetooth', 'Wi-Fi']],
    ['Wi-Fi, Bluetooth & NFC', ['Wi-Fi', 'Bluetooth', 'NFC']],
  ])('splits %j: every part is a known setting', (text, parts) => {
    expect(coordinatedObjects(text, isKnownSetting)).toEqual(parts);
  });

  it.each([
    'Terms and Conditions',
    'Sound and vibration',
    'Wi-Fi and Bluetooth scanning',
    'Network & internet',
    'Sound & vibration',
    'Apps & notifications',
    'Wi-Fi & Bluetooth scanning',
    'Hotspot & tethering',
    'AT&T',
    'Mon, Tue, Wed, Thu, Fri',
    'Bluetooth',
    '和平精英',
    'and Wi-Fi',
    'Wi-Fi and',
  ])('keeps %j whole', (text) => {
    expect(coordinatedObjects(text, isKnownSetting)).toBeUndefined();
  });

  it('keeps a whole that names one known thing, whatever its parts', () => {
    expect(namesOneThing('Network and internet')).toBe(true);
    expect(namesOneThing('网络和互联网')).toBe(true);
    expect(coordinatedObjects('Network and internet', () => true)).toBeUndefined();
    expect(coordinatedObjects('网络与互联网', () => true)).toBeUndefined();
  });

  it('splits quoted parts whatever they are, and never inside quotes', () => {
    expect(coordinatedObjects('"Terms" and "Conditions"', () => false)).toEqual(['Terms', 'Conditions']);
    expect(coordinatedObjects('“Save and exit”, Bluetooth', isKnownSetting)).toBeUndefined();
  });
});

describe('one verb on a list of things', () => {
  it.each([
    ['open Settings and Browser', [{ kind: 'open', name: 'Settings' }, { kind: 'open', name: 'Browser' }]],
    ['启动设置和浏览器', [{ kind: 'open', name: '设置' }, { kind: 'open', name: '浏览器' }]],
    ['open Wi-Fi and Bluetooth', [{ kind: 'open', name: 'Wi-Fi' }, { kind: 'open', name: 'Bluetooth' }]],
    ['tap Wi-Fi and Bluetooth', [{ kind: 'tap', target: 'Wi-Fi' }, { kind: 'tap', target: 'Bluetooth' }]],
    ['turn on Bluetooth & Wi-Fi', [{ kind: 'toggle', setting: 'Bluetooth', on: true }, { kind: 'toggle', setting: 'Wi-Fi', on: true }]],
    ['turn off Wi-Fi, Bluetooth & NFC', [{ kind: 'toggle', setting: 'Wi-Fi', on: false }, { kind: 'toggle', setting: 'Bluetooth', on: false }, { kind: 'toggle', setting: 'NFC', on: false }]],
    ['enable Bluetooth&Wi-Fi', [{ kind: 'toggle', setting: 'Bluetooth', on: true }, { kind: 'toggle', setting: 'Wi-Fi', on: true }]],
    ['open Settings & Browser', [{ kind: 'open', name: 'Settings' }, { kind: 'open', name: 'Browser' }]],
    ['打开蓝牙 & WLAN', [{ kind: 'toggle', setting: '蓝牙', on: true }, { kind: 'toggle', setting: 'WLAN', on: true }]],
    ['tap Wi-Fi, Bluetooth and NFC', [{ kind: 'tap', target: 'Wi-Fi' }, { kind: 'tap', target: 'Bluetooth' }, { kind: 'tap', target: 'NFC' }]],
  ])('%s: every part is a known app or setting', (goal, intents) => {
    expect(parseGoal(goal)).toEqual(intents);
  });

  it.each([
    ['open Settings and privacy', [{ kind: 'open', name: 'Settings and privacy' }]],
    ['open Alarm and Stopwatch', [{ kind: 'open', name: 'Alarm and Stopwatch' }]],
    ['打开闹钟和秒表', [{ kind: 'open', name: '闹钟和秒表', orSwitchOn: true }]],
    ['tap Alarm and Stopwatch', [{ kind: 'tap', target: 'Alarm and Stopwatch' }]],
    ['turn on Sound and vibration', [{ kind: 'toggle', setting: 'Sound and vibration', on: true }]],
    ['打开声音和振动', [{ kind: 'open', name: '声音和振动', orSwitchOn: true }]],
    ['open Network & internet', [{ kind: 'open', name: 'Network & internet' }]],
    ['tap Network & internet', [{ kind: 'tap', target: 'Network & internet' }]],
    ['turn on Sound & vibration', [{ kind: 'toggle', setting: 'Sound & vibration', on: true }]],
    ['open Apps & notifications', [{ kind: 'open', name: 'Apps & notifications' }]],
    ['tap Hotspot & tethering', [{ kind: 'tap', target: 'Hotspot & tethering' }]],
    ['tap Mon, Tue, Wed, Thu, Fri', [{ kind: 'tap', target: 'Mon, Tue, Wed, Thu, Fri' }]],
    ['tap Sun, Oct 15', [{ kind: 'tap', target: 'Sun, Oct 15' }]],
  ])('%s: one label, as its parts are only pages, tabs or words', (goal, intents) => {
    expect(parseGoal(goal)).toEqual(intents);
  });
});

describe('"&" between clauses', () => {
  it.each([
    ['open Settings & turn on Wi-Fi', [{ kind: 'open', name: 'Settings' }, { kind: 'toggle', setting: 'Wi-Fi', on: true }]],
    ['tap Save & continue', [{ kind: 'tap', target: 'Save & continue' }]],
    ['tap Terms & Conditions', [{ kind: 'tap', target: 'Terms & Conditions' }]],
  ])('%s', (goal, intents) => {
    expect(parseGoal(goal)).toEqual(intents);
  });
});

describe('a tap on a list of items on the screen', () => {
  // A tap names one element. A list is one tap per item, in order, only when the goal delimits the
  // items itself (each quoted) or each is a known setting or app; otherwise the text is one label,
  // since the parser does not see the screen and labels such as "Mon, Tue, Wed" or "Terms and
  // Conditions" are lists in form: such a label is tapped when the screen shows it, and the task
  // fails at once (no action) when it does not.
  it.each([
    ['tap "Alarm", "Timer" and "Stopwatch"', [{ kind: 'tap', target: 'Alarm' }, { kind: 'tap', target: 'Timer' }, { kind: 'tap', target: 'Stopwatch' }]],
    ["tap 'Accept' & 'Continue'", [{ kind: 'tap', target: 'Accept' }, { kind: 'tap', target: 'Continue' }]],
    ['点击“闹钟”、“计时器”和“秒表”', [{ kind: 'tap', target: '闹钟' }, { kind: 'tap', target: '计时器' }, { kind: 'tap', target: '秒表' }]],
  ])('%s: one tap per quoted item, in order', (goal, intents) => {
    expect(parseGoal(goal)).toEqual(intents);
  });

  it.each([
    ['tap Alarm, Timer and Stopwatch', 'Alarm, Timer and Stopwatch'],
    ['tap Terms and Conditions', 'Terms and Conditions'],
    ['tap Bluetooth, driving mode, NFC', 'Bluetooth, driving mode, NFC'],
  ])('%s: one label, as its items are neither quoted nor all known', (goal, target) => {
    expect(parseGoal(goal)).toEqual([{ kind: 'tap', target }]);
  });
});
