import { describeGoal } from './goal-intent';
import { parseGoal, SUPPORTED_GOAL_FORMS } from './goal-parser';
import { foldPunctuation, normalizeLabel, quotedSpans } from './goal-text';

/** The labels each dialog verb taps, as the parser must give them (most specific first). */
const DISMISS = ['Dismiss', 'Close', 'Got it', 'Cancel', 'Not now', 'No thanks', '关闭', '知道了', '我知道了', '取消', '暂不', '以后再说'];
const CLOSE_APP = ['Close app', '关闭应用'];
const WAIT = ['Wait', '等待'];
const OK = ['OK', 'Okay', '确定', '好', '好的'];
const CANCEL = ['Cancel', '取消'];
const GOT_IT = ['Got it', 'OK', '知道了', '我知道了', '好的', '确定'];
const ALLOW = ['Allow', 'While using the app', 'Allow only while using the app', 'Only this time', '允许', '仅在使用该应用时允许', '仅在使用中允许', '使用时允许', '仅限这一次', '本次允许'];
const DENY = ['Deny', "Don't allow", 'Do not allow', '拒绝', '不允许', '禁止'];
const SKIP = ['Skip', 'Skip for now', 'Skip tour', '跳过', '暂时跳过', '跳过广告'];
/** Skip's ways out when a tour has no Skip button: closing labels only, never Done, OK or Continue. */
const SKIP_FALLBACK = ['Got it', 'Close', 'Dismiss', 'Not now', 'No thanks', 'Maybe later', '知道了', '我知道了', '关闭', '暂不', '以后再说'];
const NEXT = ['Next', 'Next step', '下一步', '下一个', '下一页'];
const DONE = ['Done', 'Finish', '完成', '好了'];
const CONTINUE = ['Continue', 'Proceed', '继续'];
const ACCEPT = ['Accept', 'Accept all', 'I accept', 'Agree', 'I agree', '接受', '全部接受', '同意', '我同意'];
const AGREE = ['Agree', 'I agree', 'Accept', '同意', '我同意', '接受'];
const AGREE_AND_CONTINUE = ['Agree and continue', 'Agree & continue', 'Accept and continue', 'Accept & continue', '同意并继续', '接受并继续'];
const NOT_NOW = ['Not now', 'Later', 'Maybe later', '暂不', '以后再说', '稍后', '下次再说'];
const NO_THANKS = ['No thanks', 'No, thanks', 'No thank you', '不用了', '不，谢谢', '不了，谢谢'];
const LATER = ['Later', 'Maybe later', 'Remind me later', 'Not now', '稍后', '以后再说', '下次再说', '稍后提醒', '暂不'];
const RETRY = ['Retry', 'Try again', '重试', '再试一次', '重新尝试'];
const START = ['Start', 'Get started', 'Begin', "Let's go", '开始', '开始使用', '立即开始', '立即体验'];
const ADD = ['Add', '+', 'New', '添加', '新建', '新增'];
const LOG_IN = ['Log in', 'Login', 'Sign in', '登录', '登入'];
const SIGN_UP = ['Sign up', 'Register', 'Create account', '注册', '立即注册'];
const EXPAND = ['Expand', 'Show more', '展开', '显示更多'];
const COLLAPSE = ['Collapse', 'Show less', '收起', '折叠', '显示更少'];
const ADD_TO_CART = ['Add to cart', 'Add to basket', 'Add to bag', 'Add to shopping cart', 'Add to trolley', '加入购物车', '添加到购物车', '加入购物袋'];
const ADD_ALARM_ZH = ['Add Alarm', 'New Alarm', 'Create Alarm', 'Add Alarms', 'New Alarms', 'Create Alarms', '添加闹钟', '新建闹钟', '新增闹钟', ...ADD];

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
    ['点击「下一步」。', [{ kind: 'tap', target: '下一步' }]],
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
    ['open Settings and turn on Wi-Fi and Bluetooth', [{ kind: 'open', name: 'Settings' }, { kind: 'toggle', setting: 'Wi-Fi', on: true }, { kind: 'toggle', setting: 'Bluetooth', on: true }]],
    ['turn on Wi-Fi and Bluetooth, then go home', [{ kind: 'toggle', setting: 'Wi-Fi', on: true }, { kind: 'toggle', setting: 'Bluetooth', on: true }, { kind: 'home' }]],
    ['open Settings and tap Terms and Conditions', [{ kind: 'open', name: 'Settings' }, { kind: 'tap', target: 'Terms and Conditions' }]],
    ['send a message to Bob saying see you, and thanks, then go home', [{ kind: 'send_message', recipient: 'Bob', text: 'see you, and thanks' }, { kind: 'home' }]],
    ['tap Allow, then OK', [{ kind: 'tap', target: 'Allow' }, { kind: 'tap', target: 'OK', names: OK, whole: true }]],
    ['OK, then go home', [{ kind: 'tap', target: 'OK', names: OK, whole: true }, { kind: 'home' }]],
    ['skip the tour and open Settings', [{ kind: 'tap', target: 'skip', names: SKIP, whole: true, fallback: SKIP_FALLBACK }, { kind: 'open', name: 'Settings' }]],
    ['accept the terms and continue', [{ kind: 'tap', target: 'accept', names: ACCEPT, whole: true }, { kind: 'tap', target: 'continue', names: CONTINUE, whole: true }]],
    // one verb, several objects
    ['turn on Bluetooth and Wi-Fi', [{ kind: 'toggle', setting: 'Bluetooth', on: true }, { kind: 'toggle', setting: 'Wi-Fi', on: true }]],
    ['Turn on Bluetooth and Wi‑Fi.', [{ kind: 'toggle', setting: 'Bluetooth', on: true }, { kind: 'toggle', setting: 'Wi‑Fi', on: true }]],
    ['turn Bluetooth and Wi-Fi off', [{ kind: 'toggle', setting: 'Bluetooth', on: false }, { kind: 'toggle', setting: 'Wi-Fi', on: false }]],
    ['TURN OFF WIFI AND BLUETOOTH', [{ kind: 'toggle', setting: 'WIFI', on: false }, { kind: 'toggle', setting: 'BLUETOOTH', on: false }]],
    [
      'enable Wi-Fi, Bluetooth and NFC',
      [
        { kind: 'toggle', setting: 'Wi-Fi', on: true },
        { kind: 'toggle', setting: 'Bluetooth', on: true },
        { kind: 'toggle', setting: 'NFC', on: true },
      ],
    ],
    [
      'disable the Wi-Fi, the Bluetooth, and Airplane mode',
      [
        { kind: 'toggle', setting: 'Wi-Fi', on: false },
        { kind: 'toggle', setting: 'Bluetooth', on: false },
        { kind: 'toggle', setting: 'Airplane mode', on: false },
      ],
    ],
    ['关闭蓝牙和WLAN', [{ kind: 'toggle', setting: '蓝牙', on: false }, { kind: 'toggle', setting: 'WLAN', on: false }]],
    ['把蓝牙和 WLAN 都关掉', [{ kind: 'toggle', setting: '蓝牙', on: false }, { kind: 'toggle', setting: 'WLAN', on: false }]],
    ['把蓝牙和 WLAN 关掉', [{ kind: 'toggle', setting: '蓝牙', on: false }, { kind: 'toggle', setting: 'WLAN', on: false }]],
    [
      '打开蓝牙、WLAN 和 NFC',
      [
        { kind: 'toggle', setting: '蓝牙', on: true },
        { kind: 'toggle', setting: 'WLAN', on: true },
        { kind: 'toggle', setting: 'NFC', on: true },
      ],
    ],
    ['开启蓝牙与定位', [{ kind: 'toggle', setting: '蓝牙', on: true }, { kind: 'toggle', setting: '定位', on: true }]],
    ['open Settings and Browser', [{ kind: 'open', name: 'Settings' }, { kind: 'open', name: 'Browser' }]],
    ['打开设置和浏览器', [{ kind: 'open', name: '设置' }, { kind: 'open', name: '浏览器' }]],
    ['打开设置和蓝牙', [{ kind: 'open', name: '设置' }, { kind: 'toggle', setting: '蓝牙', on: true }]],
    ['tap Wi-Fi and Bluetooth', [{ kind: 'tap', target: 'Wi-Fi' }, { kind: 'tap', target: 'Bluetooth' }]],
    ['tap "Allow" and "OK"', [{ kind: 'tap', target: 'Allow' }, { kind: 'tap', target: 'OK' }]],
    // …but one label when the parts are not things of their own, or the whole is quoted
    ['tap Terms and Conditions', [{ kind: 'tap', target: 'Terms and Conditions' }]],
    ['open Network and internet', [{ kind: 'open', name: 'Network and internet' }]],
    ['turn on Sound and vibration', [{ kind: 'toggle', setting: 'Sound and vibration', on: true }]],
    ['turn on Wi-Fi and Bluetooth scanning', [{ kind: 'toggle', setting: 'Wi-Fi and Bluetooth scanning', on: true }]],
    ['turn on "Bluetooth and Wi-Fi"', [{ kind: 'toggle', setting: 'Bluetooth and Wi-Fi', on: true }]],
    ['open Bob and Alice', [{ kind: 'open', name: 'Bob and Alice' }]],
    ['打开网络和互联网', [{ kind: 'open', name: '网络和互联网', orSwitchOn: true }]],
    ['打开声音和振动', [{ kind: 'open', name: '声音和振动', orSwitchOn: true }]],
    ['打开和平精英', [{ kind: 'open', name: '和平精英', orSwitchOn: true }]],
    ['tap Accept and continue', [{ kind: 'tap', target: 'Accept and continue' }]],
    ['tap Save and close', [{ kind: 'tap', target: 'Save and close' }]],
    ['tap Accept & continue', [{ kind: 'tap', target: 'Accept & continue' }]],
    ['点击同意并继续', [{ kind: 'tap', target: '同意并继续' }]],
    // Chinese verbs one after the other
    ['打开浏览器访问 example.com', [{ kind: 'open', name: '浏览器' }, { kind: 'open_url', url: 'example.com' }]],
    ['打开设置打开蓝牙', [{ kind: 'open', name: '设置' }, { kind: 'toggle', setting: '蓝牙', on: true }]],
    ['进入设置关闭WLAN', [{ kind: 'open', name: '设置' }, { kind: 'toggle', setting: 'WLAN', on: false }]],
    ['打开设置 关闭 Wi-Fi', [{ kind: 'open', name: '设置' }, { kind: 'toggle', setting: 'Wi-Fi', on: false }]],
    ['打开设置并打开蓝牙', [{ kind: 'open', name: '设置' }, { kind: 'toggle', setting: '蓝牙', on: true }]],
    ['打开蓝牙和打开WLAN', [{ kind: 'toggle', setting: '蓝牙', on: true }, { kind: 'toggle', setting: 'WLAN', on: true }]],
    [
      '打开设置后关闭 WLAN 和蓝牙',
      [
        { kind: 'open', name: '设置' },
        { kind: 'toggle', setting: 'WLAN', on: false },
        { kind: 'toggle', setting: '蓝牙', on: false },
      ],
    ],
    [
      '打开设置打开蓝牙关闭WLAN',
      [
        { kind: 'open', name: '设置' },
        { kind: 'toggle', setting: '蓝牙', on: true },
        { kind: 'toggle', setting: 'WLAN', on: false },
      ],
    ],
    ['打开浏览器在地址栏输入 你好', [{ kind: 'open', name: '浏览器' }, { kind: 'type', text: '你好', field: '地址栏' }]],
    ['打开信息给张伟发消息你好', [{ kind: 'open', name: '信息' }, { kind: 'send_message', recipient: '张伟', text: '你好' }]],
    ['打开设置返回', [{ kind: 'open', name: '设置' }, { kind: 'back' }]],
    ['打开设置跳过引导', [{ kind: 'open', name: '设置' }, { kind: 'tap', target: '跳过', names: SKIP, whole: true, fallback: SKIP_FALLBACK }]],
    // …but a message or typed text runs to its end, and a verb inside a noun phrase stays there
    ['给张伟发消息打开设置', [{ kind: 'send_message', recipient: '张伟', text: '打开设置' }]],
    ['输入你好打开设置', [{ kind: 'type', text: '你好打开设置' }]],
    ['打开浏览器访问记录', [{ kind: 'open', name: '浏览器访问记录', orSwitchOn: true }]],
    ['打开最近的访问记录', [{ kind: 'open', name: '最近的访问记录', orSwitchOn: true }]],
    // dialogs, permission prompts and tours
    ['dismiss the dialog', [{ kind: 'tap', target: 'dismiss', names: DISMISS, whole: true }]],
    ['Dismiss', [{ kind: 'tap', target: 'Dismiss', names: DISMISS, whole: true }]],
    ['close the pop-up', [{ kind: 'tap', target: 'close', names: DISMISS, whole: true }]],
    ['Close this popup, please', [{ kind: 'tap', target: 'Close', names: DISMISS, whole: true }]],
    ['关闭弹窗', [{ kind: 'tap', target: '关闭', names: DISMISS, whole: true }]],
    ['关掉这个弹窗', [{ kind: 'tap', target: '关掉', names: DISMISS, whole: true }]],
    ['关闭广告', [{ kind: 'tap', target: '关闭', names: DISMISS, whole: true }]],
    ['关闭', [{ kind: 'tap', target: '关闭', names: DISMISS, whole: true }]],
    ['close the app', [{ kind: 'tap', target: 'close the app', names: CLOSE_APP, whole: true }]],
    ['关闭应用', [{ kind: 'tap', target: '关闭应用', names: CLOSE_APP, whole: true }]],
    ['wait', [{ kind: 'tap', target: 'wait', names: WAIT, whole: true }]],
    ['Wait.', [{ kind: 'tap', target: 'Wait', names: WAIT, whole: true }]],
    ['等待', [{ kind: 'tap', target: '等待', names: WAIT, whole: true }]],
    ['OK', [{ kind: 'tap', target: 'OK', names: OK, whole: true }]],
    ['okay!', [{ kind: 'tap', target: 'okay', names: OK, whole: true }]],
    ['确定', [{ kind: 'tap', target: '确定', names: OK, whole: true }]],
    ['好的。', [{ kind: 'tap', target: '好的', names: OK, whole: true }]],
    ['cancel', [{ kind: 'tap', target: 'cancel', names: CANCEL, whole: true }]],
    ['取消', [{ kind: 'tap', target: '取消', names: CANCEL, whole: true }]],
    ['got it', [{ kind: 'tap', target: 'got it', names: GOT_IT, whole: true }]],
    ['Got it!', [{ kind: 'tap', target: 'Got it', names: GOT_IT, whole: true }]],
    ['知道了', [{ kind: 'tap', target: '知道了', names: GOT_IT, whole: true }]],
    ['我知道了', [{ kind: 'tap', target: '我知道了', names: GOT_IT, whole: true }]],
    ['allow', [{ kind: 'tap', target: 'allow', names: ALLOW, whole: true }]],
    ['Allow access', [{ kind: 'tap', target: 'Allow', names: ALLOW, whole: true }]],
    ['allow the permission', [{ kind: 'tap', target: 'allow', names: ALLOW, whole: true }]],
    ['grant location access', [{ kind: 'tap', target: 'grant', names: ALLOW, whole: true }]],
    ['允许', [{ kind: 'tap', target: '允许', names: ALLOW, whole: true }]],
    ['允许定位权限', [{ kind: 'tap', target: '允许', names: ALLOW, whole: true }]],
    ['deny', [{ kind: 'tap', target: 'deny', names: DENY, whole: true }]],
    ['Don’t allow', [{ kind: 'tap', target: 'Don’t allow', names: DENY, whole: true }]],
    ['deny the permission', [{ kind: 'tap', target: 'deny', names: DENY, whole: true }]],
    ['拒绝', [{ kind: 'tap', target: '拒绝', names: DENY, whole: true }]],
    ['不允许', [{ kind: 'tap', target: '不允许', names: DENY, whole: true }]],
    ['skip the tour', [{ kind: 'tap', target: 'skip', names: SKIP, whole: true, fallback: SKIP_FALLBACK }]],
    ['Skip', [{ kind: 'tap', target: 'Skip', names: SKIP, whole: true, fallback: SKIP_FALLBACK }]],
    ['跳过', [{ kind: 'tap', target: '跳过', names: SKIP, whole: true, fallback: SKIP_FALLBACK }]],
    ['跳过广告', [{ kind: 'tap', target: '跳过', names: SKIP, whole: true, fallback: SKIP_FALLBACK }]],
    ['next', [{ kind: 'tap', target: 'next', names: NEXT, whole: true }]],
    ['下一步', [{ kind: 'tap', target: '下一步', names: NEXT, whole: true }]],
    ['done', [{ kind: 'tap', target: 'done', names: DONE, whole: true }]],
    ['完成', [{ kind: 'tap', target: '完成', names: DONE, whole: true }]],
    ['continue', [{ kind: 'tap', target: 'continue', names: CONTINUE, whole: true }]],
    ['继续', [{ kind: 'tap', target: '继续', names: CONTINUE, whole: true }]],
    ['accept the terms', [{ kind: 'tap', target: 'accept', names: ACCEPT, whole: true }]],
    ['agree', [{ kind: 'tap', target: 'agree', names: AGREE, whole: true }]],
    ['同意用户协议', [{ kind: 'tap', target: '同意', names: AGREE, whole: true }]],
    ['agree and continue', [{ kind: 'tap', target: 'agree and continue', names: AGREE_AND_CONTINUE, whole: true }]],
    ['同意并继续', [{ kind: 'tap', target: '同意并继续', names: AGREE_AND_CONTINUE, whole: true }]],
    ['not now', [{ kind: 'tap', target: 'not now', names: NOT_NOW, whole: true }]],
    ['No, thanks', [{ kind: 'tap', target: 'No, thanks', names: NO_THANKS, whole: true }]],
    ['maybe later', [{ kind: 'tap', target: 'maybe later', names: LATER, whole: true }]],
    ['以后再说', [{ kind: 'tap', target: '以后再说', names: LATER, whole: true }]],
    ['try again', [{ kind: 'tap', target: 'try again', names: RETRY, whole: true }]],
    ['重试', [{ kind: 'tap', target: '重试', names: RETRY, whole: true }]],
    ['get started', [{ kind: 'tap', target: 'get started', names: START, whole: true }]],
    ['开始使用', [{ kind: 'tap', target: '开始使用', names: START, whole: true }]],
    ['ｏｋ', [{ kind: 'tap', target: 'ｏｋ', names: OK, whole: true }]],
    // adding things
    [
      'add an alarm',
      [{ kind: 'tap', target: 'add alarm', names: ['Add alarm', 'New alarm', 'Create alarm', 'Add Alarms', 'New Alarms', 'Create Alarms', '添加闹钟', '新建闹钟', '新增闹钟', ...ADD] }],
    ],
    ['Add a new contact', [{ kind: 'tap', target: 'Add contact', names: ['Add contact', 'New contact', 'Create contact', ...ADD] }]],
    ['添加闹钟', [{ kind: 'tap', target: '添加闹钟', names: ADD_ALARM_ZH }]],
    ['新建闹钟', [{ kind: 'tap', target: '新建闹钟', names: ADD_ALARM_ZH }]],
    ['添加一个闹钟', [{ kind: 'tap', target: '添加闹钟', names: ADD_ALARM_ZH }]],
    ['add', [{ kind: 'tap', target: 'add', names: ADD, whole: true }]],
    // goals naming a thing in Chinese keep the name as written; "打开X" opens what is not a setting, or turns on a switch named X
    ['打开闹钟', [{ kind: 'open', name: '闹钟', orSwitchOn: true }]],
    ['打开秒表', [{ kind: 'open', name: '秒表', orSwitchOn: true }]],
    ['打开8:30的闹钟', [{ kind: 'open', name: '8:30的闹钟', orSwitchOn: true }]],
    ['点击秒表', [{ kind: 'tap', target: '秒表' }]],
    ['打开无线局域网', [{ kind: 'toggle', setting: '无线局域网', on: true }]],
    // full-width letters and exotic spaces
    ['ｏｐｅｎ　Ｓｅｔｔｉｎｇｓ', [{ kind: 'open', name: 'Ｓｅｔｔｉｎｇｓ' }]],
    ['turn\u00a0on\u2009Bluetooth', [{ kind: 'toggle', setting: 'Bluetooth', on: true }]],
    ['go\u3000back', [{ kind: 'back' }]],
  ])('%s', (goal, intents) => {
    expect(parseGoal(goal)).toEqual(intents);
  });

  it.each(['make me a sandwich', 'what is the weather like?', '', '   ', '今天天气怎么样', 'turn on', 'send to Bob', '打开', 'close Settings', 'cancel the alarm', 'add Bob to favourites', '添加到主屏幕'])(
    'does not understand %j',
    (goal) => {
      expect(parseGoal(goal)).toBeUndefined();
    },
  );

  it.each([
    // a wait for something: the Wait button all the same
    ['keep waiting for Settings', [{ kind: 'tap', target: 'keep waiting', names: WAIT, whole: true }]],
    ['wait for the app to respond', [{ kind: 'tap', target: 'wait', names: WAIT, whole: true }]],
    // logging in and signing up
    ['log in', [{ kind: 'tap', target: 'log in', names: LOG_IN, whole: true }]],
    ['Sign in', [{ kind: 'tap', target: 'Sign in', names: LOG_IN, whole: true }]],
    ['登录', [{ kind: 'tap', target: '登录', names: LOG_IN, whole: true }]],
    ['log into my account', [{ kind: 'tap', target: 'log into', names: LOG_IN, whole: true }]],
    ['sign in to your account', [{ kind: 'tap', target: 'sign in', names: LOG_IN, whole: true }]],
    ['登录账号', [{ kind: 'tap', target: '登录', names: LOG_IN, whole: true }]],
    ['sign up', [{ kind: 'tap', target: 'sign up', names: SIGN_UP, whole: true }]],
    ['注册', [{ kind: 'tap', target: '注册', names: SIGN_UP, whole: true }]],
    ['打开淘宝登录', [{ kind: 'open', name: '淘宝', orSwitchOn: true }, { kind: 'tap', target: '登录', names: LOG_IN, whole: true }]],
    // a control of something on the screen
    ['expand the 9:00 AM alarm', [{ kind: 'tap', target: 'expand', names: EXPAND, within: '9:00 AM alarm' }]],
    ['展开8:30的闹钟', [{ kind: 'tap', target: '展开', names: EXPAND, within: '8:30的闹钟' }]],
    ['collapse the Advanced section', [{ kind: 'tap', target: 'collapse', names: COLLAPSE, within: 'Advanced section' }]],
    ['add كلوكسيدي 30 كبسولة to the cart', [{ kind: 'tap', target: 'Add to cart', names: ADD_TO_CART, within: 'كلوكسيدي 30 كبسولة' }]],
    ['put the blue mug in my basket', [{ kind: 'tap', target: 'Add to cart', names: ADD_TO_CART, within: 'the blue mug' }]],
    ['把牛奶加入购物车', [{ kind: 'tap', target: 'Add to cart', names: ADD_TO_CART, within: '牛奶' }]],
    // "open with": the app chosen on the screen
    ['open it with Calendar', [{ kind: 'tap', target: 'Calendar' }]],
    ['open the link with Chrome', [{ kind: 'tap', target: 'Chrome' }]],
    ['用相机打开', [{ kind: 'tap', target: '相机' }]],
    ['使用 Chrome 打开链接', [{ kind: 'tap', target: 'Chrome' }]],
    // a question answered on the page of its subject
    ['how much storage is left? show me', [{ kind: 'open', name: 'storage' }]],
    ['show me how much battery is left', [{ kind: 'open', name: 'battery' }]],
    ['How much storage do I have left?', [{ kind: 'open', name: 'storage' }]],
    ['存储空间还剩多少？', [{ kind: 'open', name: '存储空间' }]],
    ['还剩多少电量', [{ kind: 'open', name: '电量' }]],
    // search: the query typed into the search field, the app named opened first
    ['search settings for NFC', [{ kind: 'open', name: 'settings' }, { kind: 'type', text: 'NFC', field: 'Search' }]],
    ['search contacts for Bob', [{ kind: 'open', name: 'contacts' }, { kind: 'type', text: 'Bob', field: 'Search' }]],
    ['search the store for aspirin', [{ kind: 'type', text: 'aspirin', field: 'Search' }]],
    ['search for "dark mode"', [{ kind: 'type', text: 'dark mode', field: 'Search' }]],
    ['search the list for Zoë.', [{ kind: 'type', text: 'Zoë', field: 'Search' }]],
    ['在设置中搜索 NFC', [{ kind: 'open', name: '设置' }, { kind: 'type', text: 'NFC', field: '搜索' }]],
    ['搜索：蓝牙耳机', [{ kind: 'type', text: '蓝牙耳机', field: '搜索' }]],
    ['搜索NFC', [{ kind: 'type', text: 'NFC', field: '搜索' }]],
    ['打开设置搜索NFC', [{ kind: 'open', name: '设置' }, { kind: 'type', text: 'NFC', field: '搜索' }]],
    ['打开Google搜索', [{ kind: 'open', name: 'Google搜索', orSwitchOn: true }]],
    // typing "as" a field
    ['enter Yamada as my last name', [{ kind: 'type', text: 'Yamada', field: 'last name' }]],
    ['type "Taro" as the first name', [{ kind: 'type', text: 'Taro', field: 'first name' }]],
    ['fill in 100-0001 as my postal code', [{ kind: 'type', text: '100-0001', field: 'postal code' }]],
    ['把山田填入姓氏栏', [{ kind: 'type', text: '山田', field: '姓氏栏' }]],
    // tabs and rows named in passing
    ['go to the Timer tab', [{ kind: 'open', name: 'Timer tab' }]],
    ['show me the world clock', [{ kind: 'open', name: 'me the world clock' }]],
  ])('%s', (goal, intents) => {
    expect(parseGoal(goal)).toEqual(intents);
  });

  it.each(['search for a medicine', 'search for something', 'how much is left', '搜索设置'])('does not understand %j either', (goal) => {
    expect(parseGoal(goal)).toBeUndefined();
  });

  it('understands every example SUPPORTED_GOAL_FORMS gives', () => {
    const examples = SUPPORTED_GOAL_FORMS.flatMap((form) => [...form.slice(form.lastIndexOf(': "')).matchAll(/"([^"]+)"/g)].map((m) => m[1] as string));
    expect(examples.length).toBeGreaterThan(100);
    expect(examples.filter((goal) => parseGoal(goal) === undefined)).toEqual([]);
  });

  it('describes what it understood in English', () => {
    expect(describeGoal(parseGoal('打开设置，然后打开蓝牙') ?? [])).toBe('open "设置", then turn on "蓝牙"');
    expect(describeGoal(parseGoal('type hello') ?? [])).toBe('type "hello"');
  });
});

describe('parseGoal on spaces and invisible characters', () => {
  it.each([
    ['turn on\u202e Wi-Fi', [{ kind: 'toggle', setting: 'Wi-Fi', on: true }]],
    ['\ufeffopen Settings', [{ kind: 'open', name: 'Settings' }]],
    ['\u200etap\u200f OK', [{ kind: 'tap', target: 'OK' }]],
    ['\u2066turn off\u2069 \u2067Blue\u200btooth\u2069', [{ kind: 'toggle', setting: 'Bluetooth', on: false }]],
    ['open Set\u00adtings', [{ kind: 'open', name: 'Settings' }]],
    ['关闭\u200b蓝牙', [{ kind: 'toggle', setting: '蓝牙', on: false }]],
    ['turn\t\ton\u00a0\u00a0Wi-Fi', [{ kind: 'toggle', setting: 'Wi-Fi', on: true }]],
    ['tap\n\nNetwork \u3000 & \u2003 internet', [{ kind: 'tap', target: 'Network & internet' }]],
    ['open   Settings   and   turn on   Wi-Fi', [{ kind: 'open', name: 'Settings' }, { kind: 'toggle', setting: 'Wi-Fi', on: true }]],
  ])('%j: format characters dropped, spaces collapsed', (goal, intents) => {
    expect(parseGoal(goal)).toEqual(intents);
  });

  it.each([
    ['type "a  b\u200bc" into Search', [{ kind: 'type', text: 'a  b\u200bc', field: 'Search' }]],
    ['type   hello \t world   into the Search box', [{ kind: 'type', text: 'hello \t world', field: 'Search' }]],
    ['type \u202eabc\u202c', [{ kind: 'type', text: 'abc' }]],
    ['type "\u202eabc\u202c"', [{ kind: 'type', text: '\u202eabc\u202c' }]],
    ['在 搜索框 输入   你 \u3000 好', [{ kind: 'type', text: '你 \u3000 好', field: '搜索框' }]],
    ['text Bob:   see\nyou  at 8', [{ kind: 'send_message', recipient: 'Bob', text: 'see\nyou  at 8' }]],
    ['send "👨\u200d👩\u200d👧 home!" to  Alice', [{ kind: 'send_message', recipient: 'Alice', text: '👨\u200d👩\u200d👧 home!' }]],
    ['send 👍\u200d to Alice', [{ kind: 'send_message', recipient: 'Alice', text: '👍' }]],
    ['search for "dark   mode"', [{ kind: 'type', text: 'dark   mode', field: 'Search' }]],
  ])('%j: typed and sent text exactly as written between its first and last visible character', (goal, intents) => {
    expect(parseGoal(goal)).toEqual(intents);
  });

  it.each(['\u202e', '\u200b\u200c\u200d\u2060', '\ufeff \u200e\u200f\t', '\u2066\u2067\u2068\u2069', ' \u3000\n'])(
    '%j: nothing visible, nothing understood',
    (goal) => {
      expect(parseGoal(goal)).toBeUndefined();
    },
  );
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
