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
  ])('splits %j: every part is a known setting', (text, parts) => {
    expect(coordinatedObjects(text, isKnownSetting)).toEqual(parts);
  });

  it.each([
    'Terms and Conditions',
    'Sound and vibration',
    'Wi-Fi and Bluetooth scanning',
    'Network & internet',
    'Bluetooth & Wi-Fi',
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
  ])('%s: one label, as its parts are only pages, tabs or words', (goal, intents) => {
    expect(parseGoal(goal)).toEqual(intents);
  });
});
