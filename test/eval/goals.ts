import type { SimulatedPhone } from '@mobileclaw/simulator';
import { allOf, browserAt, dataUnchanged, fieldShows, messageSent, screenIs, switchesAre, switchIs, unchanged, type PhoneCheck } from './phone-checks';

/**
 * The evaluation goals: natural-language goals in English and Chinese, each run as a task on a fresh
 * simulated phone and judged by a checker on the phone's final state. Together they cover every
 * form of the rule-based planner's declared scope (`SUPPORTED_GOAL_FORMS`) from different starting
 * states, plus goals outside it that must fail honestly.
 */

/** Which of the declared goal forms a goal exercises (`unknown`: outside the scope). */
export type GoalForm = 'open_app' | 'open_item' | 'toggle' | 'tap' | 'type' | 'send_message' | 'open_url' | 'back_home' | 'compound' | 'unknown';

export interface EvalGoal {
  /** Stable, unique; also used in the phone's device id (`[A-Za-z0-9._:-]`). */
  id: string;
  goal: string;
  lang: 'en' | 'zh';
  form: GoalForm;
  /** Screen of the fresh phone in px (natural portrait size) and dpi; default 1080x2400 @ 420 dpi. */
  screen?: { width: number; height: number; densityDpi: number };
  /** Puts the fresh phone in its starting state (before it connects); default: the home screen, Wi-Fi and Bluetooth off. */
  setup?: (phone: SimulatedPhone) => void;
  /** Judges the final state (the state before the task is passed for comparisons). */
  check: PhoneCheck;
  /**
   * `complete`: the task must end `completed` and the check pass. `fail`: the task must end `failed`
   * (the honest answer to a goal outside the scope) and the check pass.
   */
  expect: 'complete' | 'fail';
  /**
   * The task must ask for approval (e.g. a message to a new recipient) and the evaluation answers
   * so. Without it, an approval request is unexpected: it is denied and the goal fails.
   */
  approval?: 'approve';
  /** Most actions the task may take (0: it must end without touching the phone). */
  maxActions?: number;
}

const SETTINGS = 'com.android.settings';
const MESSAGES = 'com.google.android.apps.messaging';
const CONTACTS = 'com.android.contacts';
const BROWSER = 'com.android.chrome';
const URL_BAR = `${BROWSER}:id/url_bar`;
const COMPOSE = `${MESSAGES}:id/compose_message_text`;

/** A small, low-density phone (the layout is recomputed in dp, so fewer rows fit). */
const SMALL_PHONE = { width: 720, height: 1280, densityDpi: 320 };
const LONG_MESSAGE = 'This message is long enough to wrap over several lines of its bubble, with 中文 and emoji 🎉 too.';

/** Taps the centre of the first node showing `text` (setup only; throws when there is none). */
function tapText(phone: SimulatedPhone, text: string): void {
  const centre = phone.ui.centreOf((n) => n.text === text);
  if (!centre) throw new Error(`setup: nothing shows ${JSON.stringify(text)} on ${phone.ui.current.screen}`);
  phone.ui.click(centre.x, centre.y);
}

/** Starting-state builders. */
const start = {
  inApp: (pkg: string) => (phone: SimulatedPhone) => void phone.ui.open(pkg),
  switches:
    (values: { wifi?: boolean; bluetooth?: boolean }, pkg?: string) =>
    (phone: SimulatedPhone): void => {
      Object.assign(phone.ui.state, values);
      if (pkg !== undefined) phone.ui.open(pkg);
    },
  conversation: (name: string) => (phone: SimulatedPhone) => {
    phone.ui.open(MESSAGES);
    tapText(phone, name);
  },
  contact: (name: string) => (phone: SimulatedPhone) => {
    phone.ui.open(CONTACTS);
    tapText(phone, name);
  },
  /** Messages' "New conversation" screen, its recipient field empty (so Next is disabled). */
  newChat: (phone: SimulatedPhone) => {
    phone.ui.open(MESSAGES);
    tapText(phone, 'Start chat');
  },
  landscape: (phone: SimulatedPhone) => phone.rotate(1),
  browserAt: (url: string, title: string) => (phone: SimulatedPhone) => {
    phone.ui.state.browser = { url, title };
    phone.ui.open(BROWSER);
  },
};

export const EVAL_GOALS: readonly EvalGoal[] = [
  // Turning settings on and off.
  { id: 'en-wifi-on', lang: 'en', form: 'toggle', goal: 'Turn on Wi-Fi', check: switchIs('wifi', true), expect: 'complete' },
  {
    id: 'en-wifi-on-already',
    lang: 'en',
    form: 'toggle',
    goal: 'turn on Wi-Fi',
    setup: start.switches({ wifi: true }, SETTINGS),
    check: allOf(switchIs('wifi', true), unchanged()),
    expect: 'complete',
    maxActions: 0,
  },
  {
    id: 'en-wifi-off-from-browser',
    lang: 'en',
    form: 'toggle',
    goal: 'disable Wi-Fi',
    setup: start.switches({ wifi: true, bluetooth: true }, BROWSER),
    check: switchIs('wifi', false),
    expect: 'complete',
  },
  { id: 'en-bt-enable', lang: 'en', form: 'toggle', goal: 'enable Bluetooth', check: switchIs('bluetooth', true), expect: 'complete' },
  {
    id: 'en-bt-off-in-settings',
    lang: 'en',
    form: 'toggle',
    goal: 'turn Bluetooth off',
    setup: start.switches({ bluetooth: true, wifi: true }, SETTINGS),
    check: switchIs('bluetooth', false),
    expect: 'complete',
  },
  { id: 'en-wifi-on-landscape', lang: 'en', form: 'toggle', goal: 'switch on WiFi', setup: start.landscape, check: switchIs('wifi', true), expect: 'complete' },
  { id: 'en-bt-on-small-phone', lang: 'en', form: 'toggle', goal: 'turn on Bluetooth.', screen: SMALL_PHONE, check: switchIs('bluetooth', true), expect: 'complete' },
  { id: 'zh-wifi-on', lang: 'zh', form: 'toggle', goal: '打开 Wi-Fi', check: switchIs('wifi', true), expect: 'complete' },
  {
    id: 'zh-wlan-off-in-chat',
    lang: 'zh',
    form: 'toggle',
    goal: '把 WLAN 关掉',
    setup: (phone) => {
      start.switches({ wifi: true })(phone);
      start.conversation('Alice')(phone);
    },
    check: switchIs('wifi', false),
    expect: 'complete',
  },
  { id: 'zh-bt-off', lang: 'zh', form: 'toggle', goal: '关闭蓝牙', setup: start.switches({ bluetooth: true }), check: switchIs('bluetooth', false), expect: 'complete' },
  { id: 'zh-bt-on', lang: 'zh', form: 'toggle', goal: '开启蓝牙', setup: start.inApp(CONTACTS), check: switchIs('bluetooth', true), expect: 'complete' },

  // Opening apps and visible items.
  { id: 'en-open-settings-from-messages', lang: 'en', form: 'open_app', goal: 'open Settings', setup: start.inApp(MESSAGES), check: screenIs('settings'), expect: 'complete' },
  { id: 'en-launch-messages', lang: 'en', form: 'open_app', goal: 'launch Messages', check: allOf(screenIs('messages'), dataUnchanged()), expect: 'complete' },
  { id: 'en-start-browser', lang: 'en', form: 'open_app', goal: 'start the Browser app', setup: start.inApp(SETTINGS), check: screenIs('browser'), expect: 'complete' },
  {
    id: 'zh-open-settings-already-open',
    lang: 'zh',
    form: 'open_app',
    goal: '打开设置',
    setup: start.inApp(SETTINGS),
    check: allOf(screenIs('settings'), unchanged()),
    expect: 'complete',
    maxActions: 0,
  },
  { id: 'zh-open-contacts', lang: 'zh', form: 'open_app', goal: '打开联系人', setup: start.inApp(BROWSER), check: screenIs('contacts'), expect: 'complete' },
  { id: 'zh-launch-browser', lang: 'zh', form: 'open_app', goal: '启动浏览器', check: screenIs('browser'), expect: 'complete' },
  { id: 'en-open-visible-chat', lang: 'en', form: 'open_item', goal: 'open Bob', setup: start.inApp(MESSAGES), check: allOf(screenIs('conversation', 'Bob'), dataUnchanged()), expect: 'complete' },
  { id: 'zh-open-visible-chat', lang: 'zh', form: 'open_item', goal: '打开 张伟', setup: start.inApp(MESSAGES), check: allOf(screenIs('conversation', '张伟'), dataUnchanged()), expect: 'complete' },
  // The item already in front (the screen's title names it): done without touching the phone.
  { id: 'en-open-chat-in-front', lang: 'en', form: 'open_item', goal: 'open Bob', setup: start.conversation('Bob'), check: allOf(screenIs('conversation', 'Bob'), unchanged()), expect: 'complete', maxActions: 0 },
  { id: 'zh-open-contact-in-front', lang: 'zh', form: 'open_item', goal: '打开 Zoë', setup: start.contact('Zoë'), check: allOf(screenIs('contact', 'Zoë'), unchanged()), expect: 'complete', maxActions: 0 },

  // Tapping by text.
  { id: 'en-tap-bluetooth', lang: 'en', form: 'tap', goal: 'tap Bluetooth', setup: start.inApp(SETTINGS), check: switchIs('bluetooth', true), expect: 'complete' },
  { id: 'zh-tap-bluetooth', lang: 'zh', form: 'tap', goal: '点击 蓝牙', setup: start.switches({ bluetooth: true }, SETTINGS), check: switchIs('bluetooth', false), expect: 'complete' },
  {
    id: 'en-tap-send-composed',
    lang: 'en',
    form: 'tap',
    goal: 'click the Send button',
    setup: (phone) => {
      start.conversation('Alice')(phone);
      const field = phone.ui.centreOf((n) => n.resourceId === COMPOSE);
      if (!field) throw new Error('setup: no compose field');
      phone.ui.click(field.x, field.y);
      phone.ui.input('On my way');
    },
    check: messageSent('Alice', 'On my way'),
    expect: 'complete',
  },

  // Typing into fields.
  {
    id: 'en-type-address-bar',
    lang: 'en',
    form: 'type',
    goal: 'open the browser and type hello into the address bar',
    check: allOf(fieldShows(URL_BAR, 'hello'), browserAt('')),
    expect: 'complete',
  },
  { id: 'en-type-only-field', lang: 'en', form: 'type', goal: 'type see you soon', setup: start.conversation('Bob'), check: allOf(fieldShows(COMPOSE, 'see you soon'), dataUnchanged()), expect: 'complete' },
  { id: 'zh-type-address-bar', lang: 'zh', form: 'type', goal: '打开浏览器，在地址栏输入 你好', check: fieldShows(URL_BAR, '你好'), expect: 'complete' },
  // Typed text keeps its inner spaces and invisible characters exactly; the goal around it is read with its spaces collapsed.
  {
    id: 'en-type-inner-spaces',
    lang: 'en',
    form: 'type',
    goal: '\u2066type\u2069   "see  you\u200bsoon"\t\t',
    setup: start.conversation('Bob'),
    check: allOf(fieldShows(COMPOSE, 'see  you\u200bsoon'), dataUnchanged()),
    expect: 'complete',
  },
  { id: 'zh-type-padded', lang: 'zh', form: 'type', goal: `在地址栏${'\u3000'.repeat(40)}输入 你  好`, check: fieldShows(URL_BAR, '你  好'), setup: start.inApp(BROWSER), expect: 'complete' },

  // Sending messages.
  { id: 'en-send-alice-unicode', lang: 'en', form: 'send_message', goal: "send 'Hello 世界 👋' to Alice", check: messageSent('Alice', 'Hello 世界 👋'), expect: 'complete' },
  {
    id: 'en-send-bob-saying',
    lang: 'en',
    form: 'send_message',
    goal: 'send a message to Bob saying see you at 5',
    setup: start.inApp(SETTINGS),
    check: messageSent('Bob', 'see you at 5'),
    expect: 'complete',
  },
  { id: 'en-text-contact-new-chat', lang: 'en', form: 'send_message', goal: 'text Carlos: running late', check: messageSent('Carlos', 'running late'), expect: 'complete' },
  {
    id: 'en-send-new-recipient-approved',
    lang: 'en',
    form: 'send_message',
    goal: "send 'hi there' to Nina",
    check: messageSent('Nina', 'hi there'),
    expect: 'complete',
    approval: 'approve',
  },
  { id: 'zh-send-alice', lang: 'zh', form: 'send_message', goal: '给 Alice 发消息 你好', setup: start.conversation('Bob'), check: messageSent('Alice', '你好'), expect: 'complete' },
  { id: 'zh-send-zhangwei', lang: 'zh', form: 'send_message', goal: '发消息给张伟：明天见', check: messageSent('张伟', '明天见'), expect: 'complete' },
  // A goal padded with long runs of spaces and wrapped in bidi controls is read as the same goal.
  { id: 'en-text-bob-padded', lang: 'en', form: 'send_message', goal: `\u2067text Bob:${' '.repeat(200)}see you at 8\u2069`, check: messageSent('Bob', 'see you at 8'), expect: 'complete' },
  {
    id: 'en-send-long-wrapping',
    lang: 'en',
    form: 'send_message',
    goal: `send "${LONG_MESSAGE}" to Bob`,
    check: messageSent('Bob', LONG_MESSAGE),
    expect: 'complete',
  },
  {
    id: 'en-send-same-as-last-bubble',
    lang: 'en',
    form: 'send_message',
    goal: "send 'Yes, 12:30 at the usual place.' to Alice",
    check: messageSent('Alice', 'Yes, 12:30 at the usual place.'),
    expect: 'complete',
  },
  { id: 'en-send-from-contact-page', lang: 'en', form: 'send_message', goal: 'message Carlos: hey', setup: start.contact('Carlos'), check: messageSent('Carlos', 'hey'), expect: 'complete' },
  {
    id: 'en-send-landscape-small-phone',
    lang: 'en',
    form: 'send_message',
    goal: 'text Zoë: on my way',
    screen: SMALL_PHONE,
    setup: start.landscape,
    check: messageSent('Zoë', 'on my way'),
    expect: 'complete',
  },
  { id: 'zh-send-rtl-contact', lang: 'zh', form: 'send_message', goal: '发消息给 نور：مرحبا', check: messageSent('نور', 'مرحبا'), expect: 'complete' },
  { id: 'zh-send-text-to-bob', lang: 'zh', form: 'send_message', goal: '发送 周末快乐 给 Bob', check: messageSent('Bob', '周末快乐'), expect: 'complete' },

  // Web addresses.
  { id: 'en-open-url-in-browser', lang: 'en', form: 'open_url', goal: 'open example.com in browser', check: browserAt('https://example.com'), expect: 'complete' },
  {
    id: 'en-visit-url-over-page',
    lang: 'en',
    form: 'open_url',
    goal: 'visit https://example.org/docs',
    setup: start.browserAt('https://example.net/', 'example.net'),
    check: browserAt('https://example.org/docs'),
    expect: 'complete',
  },
  { id: 'zh-open-url-in-browser', lang: 'zh', form: 'open_url', goal: '在浏览器打开 example.com', setup: start.inApp(SETTINGS), check: browserAt('https://example.com'), expect: 'complete' },
  { id: 'zh-visit-url', lang: 'zh', form: 'open_url', goal: '访问 wikipedia.org', check: browserAt('https://wikipedia.org'), expect: 'complete' },
  // Only the task's own navigation reaches an address: a page of the same site, or the address already shown, does not count.
  {
    id: 'zh-browser-then-visit-over-same-site',
    lang: 'zh',
    form: 'compound',
    goal: '打开浏览器然后访问 example.com',
    setup: start.browserAt('https://example.com/docs', 'example.com'),
    check: browserAt('https://example.com'),
    expect: 'complete',
  },
  {
    id: 'en-open-url-already-shown',
    lang: 'en',
    form: 'open_url',
    goal: 'open example.com in browser',
    setup: start.browserAt('https://example.com', 'example.com'),
    check: browserAt('https://example.com'),
    expect: 'complete',
  },

  // Back and home.
  { id: 'en-go-back-from-chat', lang: 'en', form: 'back_home', goal: 'go back', setup: start.conversation('Alice'), check: allOf(screenIs('messages'), dataUnchanged()), expect: 'complete' },
  { id: 'en-go-home-from-settings', lang: 'en', form: 'back_home', goal: 'go home', setup: start.inApp(SETTINGS), check: allOf(screenIs('launcher'), dataUnchanged()), expect: 'complete' },
  { id: 'zh-back-from-chat', lang: 'zh', form: 'back_home', goal: '返回', setup: start.conversation('张伟'), check: screenIs('messages'), expect: 'complete' },
  { id: 'zh-home-from-contacts', lang: 'zh', form: 'back_home', goal: '回到主屏幕', setup: start.inApp(CONTACTS), check: screenIs('launcher'), expect: 'complete' },

  // Several steps in one goal.
  {
    id: 'en-compound-settings',
    lang: 'en',
    form: 'compound',
    goal: 'open Settings and turn on Wi-Fi, then turn on Bluetooth',
    check: switchesAre({ wifi: true, bluetooth: true }),
    expect: 'complete',
  },
  { id: 'en-compound-contacts-scroll', lang: 'en', form: 'compound', goal: 'open Contacts and tap Zoë', check: screenIs('contact', 'Zoë'), expect: 'complete' },
  {
    id: 'en-compound-send-then-home',
    lang: 'en',
    form: 'compound',
    goal: 'send "see you" to Alice then go home',
    check: allOf(messageSent('Alice', 'see you'), screenIs('launcher')),
    expect: 'complete',
  },
  {
    id: 'en-compound-search-web',
    lang: 'en',
    form: 'compound',
    goal: 'type hello world into the address bar then tap Go',
    setup: start.inApp(BROWSER),
    check: browserAt('https://www.google.com/search?q=hello%20world'),
    expect: 'complete',
  },
  {
    id: 'zh-compound-wlan-then-back',
    lang: 'zh',
    form: 'compound',
    goal: '打开设置然后打开WLAN然后返回',
    check: allOf(switchIs('wifi', true), screenIs('launcher')),
    expect: 'complete',
  },
  { id: 'zh-compound-settings', lang: 'zh', form: 'compound', goal: '打开设置，然后打开蓝牙', setup: start.inApp(BROWSER), check: switchesAre({ bluetooth: true }), expect: 'complete' },
  // One verb on a list of settings: one intent per object.
  { id: 'en-compound-bt-and-wifi', lang: 'en', form: 'compound', goal: 'Turn on Bluetooth and Wi-Fi', check: switchesAre({ bluetooth: true, wifi: true }), expect: 'complete' },
  { id: 'en-compound-bt-amp-wifi', lang: 'en', form: 'compound', goal: 'Turn on Bluetooth & Wi-Fi', check: switchesAre({ bluetooth: true, wifi: true }), expect: 'complete' },
  {
    id: 'zh-compound-bt-amp-wlan-off',
    lang: 'zh',
    form: 'compound',
    goal: '关闭蓝牙 & WLAN',
    setup: start.switches({ wifi: true, bluetooth: true }),
    check: switchesAre({ bluetooth: false, wifi: false }),
    expect: 'complete',
  },
  { id: 'en-toggle-bidi-wifi', lang: 'en', form: 'toggle', goal: '\u202eturn\u202c\t\ton \u200bWi\u2011Fi\u00a0\u00a0', check: switchesAre({ wifi: true }), expect: 'complete' },
  {
    id: 'zh-compound-bt-and-wlan-off',
    lang: 'zh',
    form: 'compound',
    goal: '关闭蓝牙和WLAN',
    setup: start.switches({ wifi: true, bluetooth: true }),
    check: switchesAre({ bluetooth: false, wifi: false }),
    expect: 'complete',
  },
  // Chinese serial verbs without a connective: open the browser, then visit (no Home press on the way).
  { id: 'zh-serial-browser-visit', lang: 'zh', form: 'compound', goal: '打开浏览器访问 example.com', setup: start.inApp(SETTINGS), check: browserAt('https://example.com'), expect: 'complete', maxActions: 4 },

  // Honest failures: a goal outside the scope fails at once without touching the phone; a setting
  // this phone does not have fails after looking for it, changing nothing.
  { id: 'en-unknown-goal', lang: 'en', form: 'unknown', goal: 'make me a sandwich', setup: start.inApp(SETTINGS), check: unchanged(), expect: 'fail', maxActions: 0 },
  { id: 'zh-unknown-goal', lang: 'zh', form: 'unknown', goal: '帮我订一张去北京的机票', check: unchanged(), expect: 'fail', maxActions: 0 },
  { id: 'en-missing-setting', lang: 'en', form: 'toggle', goal: 'turn on Airplane mode', check: dataUnchanged(), expect: 'fail' },
  // A switch that is not a known system setting is looked for in the app in front only: never in Settings.
  { id: 'en-unknown-switch-in-app', lang: 'en', form: 'toggle', goal: 'turn on vibrate', setup: start.inApp(MESSAGES), check: allOf(screenIs('messages'), dataUnchanged()), expect: 'fail' },
  { id: 'zh-unknown-switch-in-app', lang: 'zh', form: 'toggle', goal: '打开振动开关', setup: start.inApp(CONTACTS), check: allOf(screenIs('contacts'), dataUnchanged()), expect: 'fail' },
  // A disabled target fails, saying so; a plain text that nothing clickable holds is never tapped.
  { id: 'en-tap-disabled-next', lang: 'en', form: 'tap', goal: 'tap Next', setup: start.newChat, check: unchanged(), expect: 'fail', maxActions: 0 },
  { id: 'zh-tap-disabled-next', lang: 'zh', form: 'tap', goal: '点击 Next', setup: start.newChat, check: unchanged(), expect: 'fail', maxActions: 0 },
  {
    id: 'en-tap-plain-text',
    lang: 'en',
    form: 'tap',
    goal: 'tap "Did you see the game last night?"',
    setup: start.conversation('Bob'),
    check: unchanged(),
    expect: 'fail',
    maxActions: 0,
  },
  // An app the phone does not have: looked for on the home screen and in the app drawer (this launcher has none).
  { id: 'en-open-missing-app', lang: 'en', form: 'open_app', goal: 'open Calculator', setup: start.inApp(SETTINGS), check: allOf(screenIs('launcher'), dataUnchanged()), expect: 'fail' },
];
