import { describeGoal } from './goal-intent';
import { parseGoal } from './goal-parser';
import { foldPunctuation, normalizeLabel, quotedSpans } from './goal-text';

describe('parseGoal', () => {
  it.each([
    // open an app
    ['open Settings', [{ kind: 'open', name: 'Settings' }]],
    ['Launch Messages.', [{ kind: 'open', name: 'Messages' }]],
    ['start the Browser app', [{ kind: 'open', name: 'Browser' }]],
    ['打开设置', [{ kind: 'open', name: '设置' }]],
    ['启动浏览器', [{ kind: 'open', name: '浏览器' }]],
    ['打开联系人应用', [{ kind: 'open', name: '联系人' }]],
    ['open Network & internet', [{ kind: 'open', name: 'Network & internet' }]],
    // switches
    ['turn on Wi-Fi', [{ kind: 'toggle', setting: 'Wi-Fi', on: true }]],
    ['Turn OFF the Wi\u2011Fi switch', [{ kind: 'toggle', setting: 'Wi\u2011Fi', on: false }]],
    ['turn bluetooth on', [{ kind: 'toggle', setting: 'bluetooth', on: true }]],
    ['switch Airplane mode to off', [{ kind: 'toggle', setting: 'Airplane mode', on: false }]],
    ['disable Bluetooth', [{ kind: 'toggle', setting: 'Bluetooth', on: false }]],
    ['enable “Wi‑Fi”', [{ kind: 'toggle', setting: 'Wi‑Fi', on: true }]],
    ['打开 Wi-Fi', [{ kind: 'toggle', setting: 'Wi-Fi', on: true }]],
    ['打开蓝牙开关', [{ kind: 'toggle', setting: '蓝牙', on: true }]],
    ['关闭蓝牙', [{ kind: 'toggle', setting: '蓝牙', on: false }]],
    ['开启飞行模式', [{ kind: 'toggle', setting: '飞行模式', on: true }]],
    ['把 WLAN 关掉', [{ kind: 'toggle', setting: 'WLAN', on: false }]],
    ['将蓝牙打开。', [{ kind: 'toggle', setting: '蓝牙', on: true }]],
    // taps
    ['tap Network & internet', [{ kind: 'tap', target: 'Network & internet' }]],
    ['click the Send button', [{ kind: 'tap', target: 'Send' }]],
    ['press "OK"', [{ kind: 'tap', target: 'OK' }]],
    ['点击 蓝牙', [{ kind: 'tap', target: '蓝牙' }]],
    ['点击「下一步」按钮', [{ kind: 'tap', target: '下一步' }]],
    ['tap Terms and Conditions', [{ kind: 'tap', target: 'Terms and Conditions' }]],
    // typing
    ['type hello into Search', [{ kind: 'type', text: 'hello', field: 'Search' }]],
    ['enter example.com in the address bar', [{ kind: 'type', text: 'example.com', field: 'address bar' }]],
    ['type "hello and goodbye" into the search field', [{ kind: 'type', text: 'hello and goodbye', field: 'search' }]],
    ['type hello', [{ kind: 'type', text: 'hello' }]],
    ['在搜索框输入 你好', [{ kind: 'type', text: '你好', field: '搜索框' }]],
    ['输入：你好，世界', [{ kind: 'type', text: '你好，世界' }]],
    // messages
    ["send 'Hello 世界 👋' to Alice", [{ kind: 'send_message', recipient: 'Alice', text: 'Hello 世界 👋' }]],
    ['send “Hello 世界 👋” to Alice', [{ kind: 'send_message', recipient: 'Alice', text: 'Hello 世界 👋' }]],
    ['send "go to bed" to Bob', [{ kind: 'send_message', recipient: 'Bob', text: 'go to bed' }]],
    ['send a message to Bob saying see you, and thanks!', [{ kind: 'send_message', recipient: 'Bob', text: 'see you, and thanks!' }]],
    ['text Bob: see you', [{ kind: 'send_message', recipient: 'Bob', text: 'see you' }]],
    ['message Alice, are we still on?', [{ kind: 'send_message', recipient: 'Alice', text: 'are we still on?' }]],
    ['给 Alice 发消息 你好', [{ kind: 'send_message', recipient: 'Alice', text: '你好' }]],
    ['给张伟发短信：明天见。', [{ kind: 'send_message', recipient: '张伟', text: '明天见。' }]],
    ['发消息给 Bob：你好，再见', [{ kind: 'send_message', recipient: 'Bob', text: '你好，再见' }]],
    ['发送 “你好” 给 张伟', [{ kind: 'send_message', recipient: '张伟', text: '你好' }]],
    // web
    ['open example.com in browser', [{ kind: 'open_url', url: 'example.com' }]],
    ['visit https://example.org/a?b=1', [{ kind: 'open_url', url: 'https://example.org/a?b=1' }]],
    ['go to www.example.com', [{ kind: 'open_url', url: 'www.example.com' }]],
    ['在浏览器打开 example.com', [{ kind: 'open_url', url: 'example.com' }]],
    ['访问 example.com', [{ kind: 'open_url', url: 'example.com' }]],
    ['打开 example.com', [{ kind: 'open_url', url: 'example.com' }]],
    // system navigation
    ['go back', [{ kind: 'back' }]],
    ['Press the back button.', [{ kind: 'back' }]],
    ['返回', [{ kind: 'back' }]],
    ['返回上一页', [{ kind: 'back' }]],
    ['go home', [{ kind: 'home' }]],
    ['go to the home screen', [{ kind: 'home' }]],
    ['回到主屏幕', [{ kind: 'home' }]],
    ['返回桌面', [{ kind: 'home' }]],
    // compound
    ['open Settings and turn on Wi-Fi', [{ kind: 'open', name: 'Settings' }, { kind: 'toggle', setting: 'Wi-Fi', on: true }]],
    [
      'Turn on Wi-Fi, then go home',
      [
        { kind: 'toggle', setting: 'Wi-Fi', on: true },
        { kind: 'home' },
      ],
    ],
    ['打开设置，然后打开蓝牙', [{ kind: 'open', name: '设置' }, { kind: 'toggle', setting: '蓝牙', on: true }]],
    ['打开设置然后关闭WLAN', [{ kind: 'open', name: '设置' }, { kind: 'toggle', setting: 'WLAN', on: false }]],
    ['给 Bob 发消息 你好，然后回到桌面', [{ kind: 'send_message', recipient: 'Bob', text: '你好' }, { kind: 'home' }]],
  ])('%s', (goal, intents) => {
    expect(parseGoal(goal)).toEqual(intents);
  });

  it.each(['make me a sandwich', 'what is the weather like?', '', '   ', '今天天气怎么样', 'turn on', 'send to Bob', '打开'])('does not understand %j', (goal) => {
    expect(parseGoal(goal)).toBeUndefined();
  });

  it('describes what it understood in English', () => {
    expect(describeGoal(parseGoal('打开设置，然后打开蓝牙') ?? [])).toBe('open "设置", then turn on "蓝牙"');
    expect(describeGoal(parseGoal('type hello') ?? [])).toBe('type "hello"');
  });
});

describe('goal text', () => {
  it('folds Unicode hyphens, full-width punctuation and typographic quotes one unit for one', () => {
    const goal = '打开 “Wi\u2011Fi”，然后返回！';
    const folded = foldPunctuation(goal);
    expect(folded).toBe('打开 "Wi-Fi",然后返回!');
    expect(folded.length).toBe(goal.length);
  });

  it('normalises labels for comparison', () => {
    expect(normalizeLabel('  「Wi\u2011Fi」 ')).toBe('wi-fi');
    expect(normalizeLabel('Network  &  Internet.')).toBe('network & internet');
  });

  it('finds quoted passages but leaves apostrophes alone', () => {
    expect(quotedSpans(`send 'don't go' to Bob`)).toEqual([[5, 15]]);
    expect(quotedSpans(`don't`)).toEqual([]);
    expect(quotedSpans('点击「下一步」')).toEqual([[2, 7]]);
  });
});
