import { failsSafely, firstAction, NO_ACTION, tapAny, type RealScreenExpectation, type ScreenBounds } from './expectation';

/**
 * Goals a user would type on recorded screens of real phones (test/fixtures/screens, see its
 * SOURCES.md), in English and Chinese, with what a careful human reading the screen would do first.
 * Bounds are copied from the recordings' `bounds` attributes; the table's spec checks that each is
 * a node's bounds on its screen.
 */

/** The language of a recorded screen's UI text. */
export type ScreenLanguage = 'en' | 'zh' | 'ja' | 'ar';

/** The recorded screens the table uses, with the language of their UI. */
export const REAL_SCREENS: Readonly<Record<string, ScreenLanguage>> = {
  'clock-alarm-list.xml': 'en',
  'dialog-app-not-responding.xml': 'en',
  'settings-date-time.xml': 'en',
  'settings-date-time-ja.xml': 'ja',
  'gmail-welcome-tour.xml': 'en',
  'homee-welcome.xml': 'en',
  'launcher-home-pixel.xml': 'en',
  'quick-settings-zh.xml': 'zh',
  'pharmacy-home-ar.xml': 'ar',
  'samsung-app-drawer.xml': 'en',
  'samsung-open-with-chooser.xml': 'en',
  'settings-top.xml': 'en',
  'settings-network-internet-wifi.xml': 'en',
  'settings-connected-devices-bluetooth.xml': 'en',
  'settings-security-list.xml': 'en',
  'settings-languages.xml': 'en',
  'signup-form-textfields.xml': 'en',
};

/**
 * What the goal exercises:
 * - `quoted-label`: it quotes an on-screen label;
 * - `own-words`: it names the target in the user's own words (synonyms, times, descriptions);
 * - `dialog-verb`: a dialog or tour verb (wait, close, got it, skip, add, log in…);
 * - `unlabelled-toggle`: a switch with no text of its own, known only by its row or card;
 * - `open-visible`: "open X" where X (an app icon, a tab, a row) is on the screen;
 * - `not-on-screen`: the target is elsewhere (another page of the app drawer);
 * - `already-done`: the goal is already true on the screen;
 * - `disabled-target`: the only target is disabled;
 * - `ambiguous`: two equally good targets;
 * - `out-of-scope`: nothing on this phone can do it.
 */
export type RealScreenGoalKind =
  | 'quoted-label'
  | 'own-words'
  | 'dialog-verb'
  | 'unlabelled-toggle'
  | 'open-visible'
  | 'not-on-screen'
  | 'already-done'
  | 'disabled-target'
  | 'ambiguous'
  | 'out-of-scope';

export interface RealScreenGoal {
  /** Stable and unique; also part of the phone's device id (`[A-Za-z0-9._:-]`). */
  id: string;
  /** File name in test/fixtures/screens. */
  screen: string;
  goal: string;
  lang: 'en' | 'zh';
  kind: RealScreenGoalKind;
  /** What any capable planner (e.g. an LLM) must do; see `expectationFor` for the rule-based planner. */
  expect: RealScreenExpectation;
  /**
   * Why the rule-based planner declares this goal outside its scope, grounded in what it declares:
   * its languages (English and Chinese words; a label only in Japanese or Arabic is not one it can
   * name) and its goal forms (`SUPPORTED_GOAL_FORMS`: no multi-step intents with values, no
   * open-ended requests, no target named only by paraphrase). It must then fail at once with no
   * action; other planners are still held to {@link expect}.
   */
  ruleBasedOutOfScope?: string;
}

// Bounds of the targets, by screen.
const CLOCK = {
  switch830: [821, 469, 975, 601],
  switch900: [821, 828, 975, 960],
  expand900: [871, 623, 1025, 755],
  addAlarm: [408, 1560, 672, 1824],
  clockTab: [216, 1868, 432, 2088],
  timerTab: [432, 1868, 648, 2088],
  stopwatchTab: [648, 1868, 864, 2088],
  bedtimeTab: [864, 1868, 1080, 2088],
} satisfies Record<string, ScreenBounds>;

const ANR = { closeApp: [72, 1016, 1008, 1148], wait: [72, 1148, 1008, 1280] } satisfies Record<string, ScreenBounds>;

const DATE_TIME = {
  navigateUp: [0, 66, 154, 220],
  autoTimeRow: [0, 558, 1080, 720],
  autoTimeSwitch: [882, 573, 1036, 705],
  locationZoneRow: [0, 1453, 1080, 1615],
  locationZoneSwitch: [882, 1468, 1036, 1600],
  localeDefaultRow: [0, 1971, 1080, 2088],
  localeDefaultSwitch: [882, 1986, 1036, 2088],
} satisfies Record<string, ScreenBounds>;

const DATE_TIME_JA = {
  autoTimeRow: [0, 558, 1080, 720],
  autoTimeSwitch: [882, 573, 1036, 705],
  locationZoneRow: [0, 1453, 1080, 1695],
  locationZoneSwitch: [882, 1508, 1036, 1640],
} satisfies Record<string, ScreenBounds>;

const GMAIL_TOUR = { gotIt: [0, 1647, 1080, 1794] } satisfies Record<string, ScreenBounds>;

const HOMEE = {
  logIn: [42, 1584, 1038, 1710],
  newHere: [42, 1741, 1038, 1867],
  terms: [606, 2152, 864, 2213],
  privacy: [431, 2205, 648, 2265],
} satisfies Record<string, ScreenBounds>;

const LAUNCHER = {
  gmail: [309, 1479, 519, 1751],
  photos: [561, 1479, 771, 1751],
  youtube: [813, 1479, 1023, 1751],
  phone: [76, 1873, 249, 2068],
  messages: [328, 1873, 501, 2068],
  chrome: [580, 1873, 753, 2068],
  vlc: [832, 1873, 1004, 2068],
  search: [75, 2125, 1004, 2290],
} satisfies Record<string, ScreenBounds>;

const QUICK_SETTINGS = {
  internet: [14, 88, 156, 156],
  bluetooth: [163, 88, 305, 156],
  hotspot: [14, 163, 156, 231],
  airplane: [163, 163, 305, 231],
  location: [163, 238, 305, 306],
  batterySaver: [14, 313, 156, 381],
} satisfies Record<string, ScreenBounds>;

const PHARMACY = {
  cart: [51, 162, 191, 302],
  notifications: [217, 162, 357, 302],
  search: [51, 486, 1029, 678],
  addCloxydi: [0, 1123, 64, 1218],
  viewAll: [51, 1420, 1029, 1592],
  ordersTab: [224, 2030, 435, 2156],
  accountTab: [13, 2030, 224, 2156],
} satisfies Record<string, ScreenBounds>;

const CHOOSER = {
  calendar: [539, 1374, 786, 1705],
  androidSwitch: [786, 1374, 1033, 1705],
  camera: [539, 1705, 786, 2036],
  deviceCare: [786, 1705, 1033, 2036],
} satisfies Record<string, ScreenBounds>;

const DRAWER = {
  search: [0, 78, 918, 246],
  authenticator: [39, 1410, 285, 1777],
  bixbyVision: [543, 1410, 789, 1777],
  brave: [795, 1410, 1041, 1777],
  calendar: [39, 1783, 285, 2150],
  camera: [291, 1783, 537, 2150],
} satisfies Record<string, ScreenBounds>;

const SETTINGS_TOP = {
  search: [22, 88, 1058, 220],
  network: [0, 397, 1080, 597],
  connectedDevices: [0, 597, 1080, 797],
  battery: [0, 997, 1080, 1197],
  display: [0, 1197, 1080, 1397],
  sound: [0, 1397, 1080, 1597],
  storage: [0, 1597, 1080, 1797],
} satisfies Record<string, ScreenBounds>;

const NETWORK = {
  // The Wi‑Fi switch and its clickable widget frame share these bounds; the row itself opens the Wi‑Fi page.
  wifiSwitch: [860, 220, 1080, 420],
  airplaneRow: [0, 620, 1080, 767],
  airplaneSwitch: [908, 656, 1036, 730],
  dataSaver: [0, 914, 1080, 1114],
} satisfies Record<string, ScreenBounds>;

const CONNECTED_DEVICES = { connectionPreferences: [0, 549, 1080, 749] } satisfies Record<string, ScreenBounds>;
const SECURITY = { findMyDevice: [0, 549, 1080, 749], screenLock: [0, 1278, 1080, 1478], smartLock: [0, 1678, 1080, 1825] } satisfies Record<string, ScreenBounds>;
const LANGUAGES = { addLanguage: [0, 1024, 1080, 1222] } satisfies Record<string, ScreenBounds>;
const SIGNUP = {
  email: [44, 352, 1036, 493],
  showConfirmPassword: [904, 906, 1036, 1038],
  firstName: [44, 1697, 529, 1838],
  lastName: [551, 1697, 1036, 1838],
} satisfies Record<string, ScreenBounds>;

/** A tap on the app's icon, or launching its package. */
function launch(icon: ScreenBounds, app: string): RealScreenExpectation {
  return firstAction({ command: 'click', bounds: icon }, { command: 'open', app });
}

const OUT_OF_SCOPE = 'no app or setting on a phone does this';

// Why the rule-based planner declares a goal outside its scope (see RealScreenGoal.ruleBasedOutOfScope).
const JAPANESE_LABELS = 'the switch is labelled only in Japanese, a language the planner has no words for (it reads English and Chinese)';
const ARABIC_LABEL = 'the target is labelled only in Arabic, a language the planner has no words for (it reads English and Chinese)';
const PARAPHRASE = 'the goal names its target only in other words than any label or glossary term on the screen; the planner finds targets by their labels, not by meaning';

export const REAL_SCREEN_GOALS: readonly RealScreenGoal[] = [
  // Google Clock, alarm list: two alarms, both off; their switches have no label of their own.
  { id: 'clock-alarm-830-on', screen: 'clock-alarm-list.xml', lang: 'en', kind: 'unlabelled-toggle', goal: 'Turn on the 8:30 AM alarm', expect: tapAny(CLOCK.switch830) },
  { id: 'clock-alarm-9-on', screen: 'clock-alarm-list.xml', lang: 'en', kind: 'own-words', goal: "enable my 9 o'clock alarm", expect: tapAny(CLOCK.switch900) },
  { id: 'clock-alarm-weekend-on', screen: 'clock-alarm-list.xml', lang: 'en', kind: 'own-words', goal: 'switch on the weekend alarm', expect: tapAny(CLOCK.switch900) },
  { id: 'clock-alarm-830-on-zh', screen: 'clock-alarm-list.xml', lang: 'zh', kind: 'unlabelled-toggle', goal: '打开8:30的闹钟', expect: tapAny(CLOCK.switch830) },
  { id: 'clock-alarm-830-off-done', screen: 'clock-alarm-list.xml', lang: 'en', kind: 'already-done', goal: 'turn off the 8:30 alarm', expect: NO_ACTION },
  { id: 'clock-alarm-9-off-done-zh', screen: 'clock-alarm-list.xml', lang: 'zh', kind: 'already-done', goal: '关闭9点的闹钟', expect: NO_ACTION },
  { id: 'clock-add-alarm', screen: 'clock-alarm-list.xml', lang: 'en', kind: 'dialog-verb', goal: 'add an alarm', expect: tapAny(CLOCK.addAlarm) },
  { id: 'clock-add-alarm-zh', screen: 'clock-alarm-list.xml', lang: 'zh', kind: 'dialog-verb', goal: '新建闹钟', expect: tapAny(CLOCK.addAlarm) },
  { id: 'clock-open-stopwatch', screen: 'clock-alarm-list.xml', lang: 'en', kind: 'open-visible', goal: 'open the stopwatch', expect: tapAny(CLOCK.stopwatchTab) },
  { id: 'clock-open-timer-zh', screen: 'clock-alarm-list.xml', lang: 'zh', kind: 'open-visible', goal: '打开计时器', expect: tapAny(CLOCK.timerTab) },
  { id: 'clock-tap-bedtime', screen: 'clock-alarm-list.xml', lang: 'en', kind: 'quoted-label', goal: 'tap Bedtime', expect: tapAny(CLOCK.bedtimeTab) },
  { id: 'clock-tap-quoted-list', screen: 'clock-alarm-list.xml', lang: 'en', kind: 'quoted-label', goal: 'tap "Bedtime", "Timer" and "Stopwatch"', expect: tapAny(CLOCK.bedtimeTab) },
  {
    id: 'clock-tap-unquoted-list',
    screen: 'clock-alarm-list.xml',
    lang: 'en',
    kind: 'quoted-label',
    goal: 'tap Bedtime, Timer and Stopwatch',
    expect: tapAny(CLOCK.bedtimeTab),
    ruleBasedOutOfScope: 'a list of labels is one tap per label only when each is quoted or a known setting or app; otherwise it is one label (as "Mon, Tue, Wed" or "Terms and Conditions" are), and no element is labelled "Bedtime, Timer and Stopwatch"',
  },
  { id: 'clock-world-clock', screen: 'clock-alarm-list.xml', lang: 'en', kind: 'own-words', goal: 'show me the world clock', expect: tapAny(CLOCK.clockTab), ruleBasedOutOfScope: `${PARAPHRASE}: the world clock is the tab labelled "Clock", and "Clock" names the Clock app, so the glossary cannot make it "World clock"` },
  { id: 'clock-open-alarm-done', screen: 'clock-alarm-list.xml', lang: 'en', kind: 'already-done', goal: 'open Alarm', expect: NO_ACTION },
  // "the Clock app" is the application, and it is in front (com.google.android.deskclock); "open Clock" alone may be its Clock tab.
  { id: 'clock-open-clock-app-done', screen: 'clock-alarm-list.xml', lang: 'en', kind: 'already-done', goal: 'open the Clock app', expect: NO_ACTION },
  { id: 'clock-open-clock-tab', screen: 'clock-alarm-list.xml', lang: 'en', kind: 'open-visible', goal: 'open Clock', expect: tapAny(CLOCK.clockTab) },
  { id: 'clock-expand-9', screen: 'clock-alarm-list.xml', lang: 'en', kind: 'own-words', goal: 'expand the 9:00 AM alarm', expect: tapAny(CLOCK.expand900) },
  { id: 'clock-timer-5-min', screen: 'clock-alarm-list.xml', lang: 'en', kind: 'own-words', goal: 'set a timer for 5 minutes', expect: tapAny(CLOCK.timerTab), ruleBasedOutOfScope: 'setting a timer to a duration is several steps with a value (open Timer, enter 5:00, start it), not one of its goal forms' },
  { id: 'clock-delete-7', screen: 'clock-alarm-list.xml', lang: 'en', kind: 'out-of-scope', goal: 'delete the 7:00 alarm', expect: failsSafely('there is no 7:00 alarm') },

  // System dialog: "Settings isn't responding", Close app / Wait.
  { id: 'anr-tap-wait', screen: 'dialog-app-not-responding.xml', lang: 'en', kind: 'quoted-label', goal: 'tap Wait', expect: tapAny(ANR.wait) },
  { id: 'anr-keep-waiting', screen: 'dialog-app-not-responding.xml', lang: 'en', kind: 'dialog-verb', goal: 'keep waiting for Settings', expect: tapAny(ANR.wait) },
  { id: 'anr-close-app', screen: 'dialog-app-not-responding.xml', lang: 'en', kind: 'dialog-verb', goal: 'close the app', expect: tapAny(ANR.closeApp) },
  { id: 'anr-wait-zh', screen: 'dialog-app-not-responding.xml', lang: 'zh', kind: 'dialog-verb', goal: '等待', expect: tapAny(ANR.wait) },
  { id: 'anr-close-zh', screen: 'dialog-app-not-responding.xml', lang: 'zh', kind: 'dialog-verb', goal: '关闭应用', expect: tapAny(ANR.closeApp) },
  { id: 'anr-sandwich', screen: 'dialog-app-not-responding.xml', lang: 'en', kind: 'out-of-scope', goal: 'make me a sandwich', expect: failsSafely(OUT_OF_SCOPE) },

  // Settings › Date & time (English): preference rows whose switches are not clickable themselves;
  // Date, Time and the time-zone row are disabled while time is set automatically.
  {
    id: 'datetime-auto-time-off',
    screen: 'settings-date-time.xml',
    lang: 'en',
    kind: 'quoted-label',
    goal: 'turn off Set time automatically',
    expect: tapAny(DATE_TIME.autoTimeRow, DATE_TIME.autoTimeSwitch),
  },
  { id: 'datetime-auto-time-on-done', screen: 'settings-date-time.xml', lang: 'en', kind: 'already-done', goal: 'turn on automatic time', expect: NO_ACTION },
  {
    id: 'datetime-location-zone-on',
    screen: 'settings-date-time.xml',
    lang: 'en',
    kind: 'unlabelled-toggle',
    goal: 'turn on Use location to set time zone',
    expect: tapAny(DATE_TIME.locationZoneRow, DATE_TIME.locationZoneSwitch),
  },
  {
    id: 'datetime-location-zone-own-words',
    screen: 'settings-date-time.xml',
    lang: 'en',
    kind: 'own-words',
    goal: 'let my location set the time zone',
    expect: tapAny(DATE_TIME.locationZoneRow, DATE_TIME.locationZoneSwitch),
    ruleBasedOutOfScope: `${PARAPHRASE}: the switch is "Use location to set time zone", and "let X do Y" is none of its verbs for a switch (turn on, enable, 打开…)`,
  },
  {
    id: 'datetime-locale-default-off',
    screen: 'settings-date-time.xml',
    lang: 'en',
    kind: 'unlabelled-toggle',
    goal: 'disable Use locale default',
    expect: tapAny(DATE_TIME.localeDefaultRow, DATE_TIME.localeDefaultSwitch),
  },
  { id: 'datetime-auto-time-off-zh', screen: 'settings-date-time.xml', lang: 'zh', kind: 'own-words', goal: '关闭自动设置时间', expect: tapAny(DATE_TIME.autoTimeRow, DATE_TIME.autoTimeSwitch) },
  { id: 'datetime-auto-zone-on-done', screen: 'settings-date-time.xml', lang: 'en', kind: 'already-done', goal: 'turn on Set time zone automatically', expect: NO_ACTION },
  { id: 'datetime-tap-date-disabled', screen: 'settings-date-time.xml', lang: 'en', kind: 'disabled-target', goal: 'tap Date', expect: failsSafely('the Date row is disabled while time is set automatically') },
  {
    id: 'datetime-time-zone-disabled',
    screen: 'settings-date-time.xml',
    lang: 'en',
    kind: 'disabled-target',
    goal: 'open Time zone',
    expect: failsSafely('the Time zone row is disabled and its header is not a button'),
  },
  {
    id: 'datetime-go-back',
    screen: 'settings-date-time.xml',
    lang: 'en',
    kind: 'dialog-verb',
    goal: 'go back',
    expect: firstAction({ command: 'back' }, { command: 'click', bounds: DATE_TIME.navigateUp }),
  },

  // The same page in Japanese.
  {
    id: 'datetime-ja-auto-time-off',
    screen: 'settings-date-time-ja.xml',
    lang: 'en',
    kind: 'own-words',
    goal: 'turn off Set time automatically',
    expect: tapAny(DATE_TIME_JA.autoTimeRow, DATE_TIME_JA.autoTimeSwitch),
    ruleBasedOutOfScope: `${JAPANESE_LABELS}: "Set time automatically" is "日時を自動的に設定" there`,
  },
  {
    id: 'datetime-ja-location-zone-quoted',
    screen: 'settings-date-time-ja.xml',
    lang: 'zh',
    kind: 'quoted-label',
    goal: '打开 タイムゾーンの設定に位置情報を使用',
    expect: tapAny(DATE_TIME_JA.locationZoneRow, DATE_TIME_JA.locationZoneSwitch),
  },
  { id: 'datetime-ja-auto-zone-done', screen: 'settings-date-time-ja.xml', lang: 'en', kind: 'already-done', goal: 'turn on タイムゾーンを自動的に設定', expect: NO_ACTION },
  { id: 'datetime-ja-tap-date-disabled', screen: 'settings-date-time-ja.xml', lang: 'en', kind: 'disabled-target', goal: 'tap 日付', expect: failsSafely('the 日付 (Date) row is disabled') },

  // Gmail's welcome tour: one button, "GOT IT".
  { id: 'gmail-tap-got-it', screen: 'gmail-welcome-tour.xml', lang: 'en', kind: 'quoted-label', goal: 'tap GOT IT', expect: tapAny(GMAIL_TOUR.gotIt) },
  { id: 'gmail-got-it-lower', screen: 'gmail-welcome-tour.xml', lang: 'en', kind: 'dialog-verb', goal: 'got it', expect: tapAny(GMAIL_TOUR.gotIt) },
  { id: 'gmail-skip-tour', screen: 'gmail-welcome-tour.xml', lang: 'en', kind: 'dialog-verb', goal: 'skip the tour', expect: tapAny(GMAIL_TOUR.gotIt) },
  { id: 'gmail-got-it-zh', screen: 'gmail-welcome-tour.xml', lang: 'zh', kind: 'dialog-verb', goal: '知道了', expect: tapAny(GMAIL_TOUR.gotIt) },
  { id: 'gmail-skip-zh', screen: 'gmail-welcome-tour.xml', lang: 'zh', kind: 'dialog-verb', goal: '跳过', expect: tapAny(GMAIL_TOUR.gotIt) },
  // Gmail is the app in front: its package (com.google.android.gm) and the tour's own title "New in Gmail".
  { id: 'gmail-open-gmail-done', screen: 'gmail-welcome-tour.xml', lang: 'en', kind: 'already-done', goal: 'open Gmail', expect: NO_ACTION },
  { id: 'gmail-book-flight', screen: 'gmail-welcome-tour.xml', lang: 'zh', kind: 'out-of-scope', goal: '帮我订一张去北京的机票', expect: failsSafely('no app on this screen books flights, and booking means paying') },

  // A Flutter app's welcome screen: every label is a content description.
  { id: 'homee-new-here', screen: 'homee-welcome.xml', lang: 'en', kind: 'own-words', goal: "I'm a new user, get started", expect: tapAny(HOMEE.newHere), ruleBasedOutOfScope: `${PARAPHRASE}: the button reads "I am new here", and no button carries the verb "get started"` },
  { id: 'homee-log-in', screen: 'homee-welcome.xml', lang: 'en', kind: 'dialog-verb', goal: 'log in', expect: tapAny(HOMEE.logIn) },
  { id: 'homee-log-in-zh', screen: 'homee-welcome.xml', lang: 'zh', kind: 'dialog-verb', goal: '登录', expect: tapAny(HOMEE.logIn) },
  { id: 'homee-privacy', screen: 'homee-welcome.xml', lang: 'en', kind: 'own-words', goal: 'show me the privacy policy', expect: tapAny(HOMEE.privacy) },
  { id: 'homee-terms', screen: 'homee-welcome.xml', lang: 'en', kind: 'quoted-label', goal: 'tap Terms of Service', expect: tapAny(HOMEE.terms) },

  // Pixel launcher home screen.
  { id: 'launcher-open-chrome', screen: 'launcher-home-pixel.xml', lang: 'en', kind: 'open-visible', goal: 'open Chrome', expect: launch(LAUNCHER.chrome, 'com.android.chrome') },
  { id: 'launcher-launch-youtube', screen: 'launcher-home-pixel.xml', lang: 'en', kind: 'open-visible', goal: 'launch YouTube', expect: launch(LAUNCHER.youtube, 'com.google.android.youtube') },
  { id: 'launcher-open-gmail-zh', screen: 'launcher-home-pixel.xml', lang: 'zh', kind: 'open-visible', goal: '打开 Gmail', expect: launch(LAUNCHER.gmail, 'com.google.android.gm') },
  { id: 'launcher-open-vlc', screen: 'launcher-home-pixel.xml', lang: 'en', kind: 'open-visible', goal: 'open VLC', expect: launch(LAUNCHER.vlc, 'org.videolan.vlc') },
  { id: 'launcher-photos', screen: 'launcher-home-pixel.xml', lang: 'en', kind: 'open-visible', goal: 'open Photos', expect: launch(LAUNCHER.photos, 'com.google.android.apps.photos') },
  { id: 'launcher-phone-own-words', screen: 'launcher-home-pixel.xml', lang: 'en', kind: 'own-words', goal: 'open the phone app', expect: launch(LAUNCHER.phone, 'com.google.android.dialer') },
  { id: 'launcher-messages-zh', screen: 'launcher-home-pixel.xml', lang: 'zh', kind: 'open-visible', goal: '打开信息', expect: launch(LAUNCHER.messages, 'com.google.android.apps.messaging') },
  {
    id: 'launcher-spotify-not-here',
    screen: 'launcher-home-pixel.xml',
    lang: 'en',
    kind: 'not-on-screen',
    goal: 'open Spotify',
    expect: firstAction({ command: 'swipe' }, { command: 'click', bounds: LAUNCHER.search }),
  },

  // Chinese quick settings on a small (320x439) phone: tiles are switches labelled by their content description.
  { id: 'qs-bluetooth-on-zh', screen: 'quick-settings-zh.xml', lang: 'zh', kind: 'quoted-label', goal: '打开蓝牙', expect: tapAny(QUICK_SETTINGS.bluetooth) },
  { id: 'qs-airplane-off-zh', screen: 'quick-settings-zh.xml', lang: 'zh', kind: 'quoted-label', goal: '关闭飞行模式', expect: tapAny(QUICK_SETTINGS.airplane) },
  { id: 'qs-bluetooth-on-en', screen: 'quick-settings-zh.xml', lang: 'en', kind: 'own-words', goal: 'turn on Bluetooth', expect: tapAny(QUICK_SETTINGS.bluetooth) },
  { id: 'qs-bluetooth-amp-hotspot-on-en', screen: 'quick-settings-zh.xml', lang: 'en', kind: 'own-words', goal: 'turn on Bluetooth & Hotspot', expect: tapAny(QUICK_SETTINGS.bluetooth) },
  { id: 'qs-airplane-off-en', screen: 'quick-settings-zh.xml', lang: 'en', kind: 'own-words', goal: 'turn off airplane mode', expect: tapAny(QUICK_SETTINGS.airplane) },
  { id: 'qs-airplane-on-done-zh', screen: 'quick-settings-zh.xml', lang: 'zh', kind: 'already-done', goal: '打开飞行模式', expect: NO_ACTION },
  { id: 'qs-internet-on-done-zh', screen: 'quick-settings-zh.xml', lang: 'zh', kind: 'already-done', goal: '打开互联网', expect: NO_ACTION },
  { id: 'qs-battery-saver-zh', screen: 'quick-settings-zh.xml', lang: 'zh', kind: 'quoted-label', goal: '开启省电模式', expect: tapAny(QUICK_SETTINGS.batterySaver) },
  { id: 'qs-location-en', screen: 'quick-settings-zh.xml', lang: 'en', kind: 'own-words', goal: 'turn on location', expect: tapAny(QUICK_SETTINGS.location) },
  { id: 'qs-hotspot-en', screen: 'quick-settings-zh.xml', lang: 'en', kind: 'own-words', goal: 'enable the hotspot', expect: tapAny(QUICK_SETTINGS.hotspot) },
  { id: 'qs-bluetooth-off-done-zh', screen: 'quick-settings-zh.xml', lang: 'zh', kind: 'already-done', goal: '关闭蓝牙', expect: NO_ACTION },

  // An Arabic (right-to-left) pharmacy app's home screen.
  { id: 'pharmacy-open-cart', screen: 'pharmacy-home-ar.xml', lang: 'en', kind: 'own-words', goal: 'open my cart', expect: tapAny(PHARMACY.cart), ruleBasedOutOfScope: `${ARABIC_LABEL}: the cart button is described "السلة"` },
  { id: 'pharmacy-tap-notifications', screen: 'pharmacy-home-ar.xml', lang: 'en', kind: 'quoted-label', goal: 'tap الإشعارات', expect: tapAny(PHARMACY.notifications) },
  { id: 'pharmacy-view-all', screen: 'pharmacy-home-ar.xml', lang: 'en', kind: 'quoted-label', goal: 'tap عرض الكل', expect: tapAny(PHARMACY.viewAll) },
  { id: 'pharmacy-add-to-cart-ambiguous', screen: 'pharmacy-home-ar.xml', lang: 'en', kind: 'ambiguous', goal: 'tap Add to cart', expect: failsSafely('two products have an "Add to cart" button') },
  {
    id: 'pharmacy-add-cloxydi',
    screen: 'pharmacy-home-ar.xml',
    lang: 'en',
    kind: 'own-words',
    goal: 'add كلوكسيدي 30 كبسولة to the cart',
    expect: tapAny(PHARMACY.addCloxydi),
  },
  { id: 'pharmacy-search', screen: 'pharmacy-home-ar.xml', lang: 'en', kind: 'own-words', goal: 'search for a medicine', expect: tapAny(PHARMACY.search), ruleBasedOutOfScope: `${ARABIC_LABEL}, and "a medicine" gives no query to search for` },
  { id: 'pharmacy-orders', screen: 'pharmacy-home-ar.xml', lang: 'en', kind: 'own-words', goal: 'show my orders', expect: tapAny(PHARMACY.ordersTab), ruleBasedOutOfScope: `${ARABIC_LABEL}: the orders tab is described "طلباتي"` },
  { id: 'pharmacy-open-account-quoted', screen: 'pharmacy-home-ar.xml', lang: 'zh', kind: 'open-visible', goal: '打开 حسابي', expect: tapAny(PHARMACY.accountTab) },
  { id: 'pharmacy-home-done', screen: 'pharmacy-home-ar.xml', lang: 'en', kind: 'already-done', goal: 'open الرئيسية', expect: NO_ACTION },

  // Samsung One UI: the "Open with" chooser (two apps named Messages, two named Backup; Just once and Always disabled).
  { id: 'chooser-calendar', screen: 'samsung-open-with-chooser.xml', lang: 'en', kind: 'own-words', goal: 'open it with Calendar', expect: tapAny(CHOOSER.calendar) },
  { id: 'chooser-camera-zh', screen: 'samsung-open-with-chooser.xml', lang: 'zh', kind: 'own-words', goal: '用相机打开', expect: tapAny(CHOOSER.camera) },
  { id: 'chooser-device-care', screen: 'samsung-open-with-chooser.xml', lang: 'en', kind: 'quoted-label', goal: 'choose Device care', expect: tapAny(CHOOSER.deviceCare) },
  { id: 'chooser-android-switch', screen: 'samsung-open-with-chooser.xml', lang: 'en', kind: 'quoted-label', goal: 'tap Android Switch', expect: tapAny(CHOOSER.androidSwitch) },
  { id: 'chooser-messages-ambiguous', screen: 'samsung-open-with-chooser.xml', lang: 'en', kind: 'ambiguous', goal: 'open with Messages', expect: failsSafely('two apps are named Messages') },
  { id: 'chooser-always-disabled', screen: 'samsung-open-with-chooser.xml', lang: 'en', kind: 'disabled-target', goal: 'tap Always', expect: failsSafely('Always is disabled until an app is chosen') },
  { id: 'chooser-just-once-disabled', screen: 'samsung-open-with-chooser.xml', lang: 'en', kind: 'disabled-target', goal: 'just once', expect: failsSafely('Just once is disabled until an app is chosen') },

  // Samsung One UI app drawer, page 1 of 12.
  { id: 'drawer-open-camera', screen: 'samsung-app-drawer.xml', lang: 'en', kind: 'open-visible', goal: 'open Camera', expect: launch(DRAWER.camera, 'com.sec.android.app.camera') },
  { id: 'drawer-launch-brave', screen: 'samsung-app-drawer.xml', lang: 'en', kind: 'open-visible', goal: 'launch Brave', expect: launch(DRAWER.brave, 'com.brave.browser') },
  { id: 'drawer-calendar-zh', screen: 'samsung-app-drawer.xml', lang: 'zh', kind: 'open-visible', goal: '打开日历', expect: launch(DRAWER.calendar, 'com.samsung.android.calendar') },
  { id: 'drawer-bixby-vision', screen: 'samsung-app-drawer.xml', lang: 'en', kind: 'open-visible', goal: 'open Bixby Vision', expect: tapAny(DRAWER.bixbyVision) },
  { id: 'drawer-authenticator', screen: 'samsung-app-drawer.xml', lang: 'en', kind: 'open-visible', goal: 'start Authenticator', expect: tapAny(DRAWER.authenticator) },
  {
    id: 'drawer-zoom-next-page',
    screen: 'samsung-app-drawer.xml',
    lang: 'en',
    kind: 'not-on-screen',
    goal: 'open Zoom',
    expect: firstAction({ command: 'swipe' }, { command: 'click', bounds: DRAWER.search }),
  },

  // Pixel Settings pages (Android 10/11).
  { id: 'network-wifi-off', screen: 'settings-network-internet-wifi.xml', lang: 'en', kind: 'quoted-label', goal: 'turn off Wi-Fi', expect: tapAny(NETWORK.wifiSwitch) },
  { id: 'network-wlan-off-zh', screen: 'settings-network-internet-wifi.xml', lang: 'zh', kind: 'own-words', goal: '关闭WLAN', expect: tapAny(NETWORK.wifiSwitch) },
  { id: 'network-wifi-on-done', screen: 'settings-network-internet-wifi.xml', lang: 'en', kind: 'already-done', goal: 'turn on Wi-Fi', expect: NO_ACTION },
  {
    id: 'network-airplane-on-zh',
    screen: 'settings-network-internet-wifi.xml',
    lang: 'zh',
    kind: 'unlabelled-toggle',
    goal: '打开飞行模式',
    expect: tapAny(NETWORK.airplaneRow, NETWORK.airplaneSwitch),
  },
  { id: 'network-airplane-off-done', screen: 'settings-network-internet-wifi.xml', lang: 'en', kind: 'already-done', goal: 'turn off airplane mode', expect: NO_ACTION },
  { id: 'network-open-data-saver', screen: 'settings-network-internet-wifi.xml', lang: 'en', kind: 'open-visible', goal: 'open Data Saver', expect: tapAny(NETWORK.dataSaver) },
  { id: 'network-open-page-done', screen: 'settings-network-internet-wifi.xml', lang: 'en', kind: 'already-done', goal: 'open Network & internet', expect: NO_ACTION },
  { id: 'settings-open-network', screen: 'settings-top.xml', lang: 'en', kind: 'open-visible', goal: 'open Network & internet', expect: tapAny(SETTINGS_TOP.network) },
  { id: 'settings-tap-network-bidi', screen: 'settings-top.xml', lang: 'en', kind: 'quoted-label', goal: '\u2067tap\u2069\u00a0\u00a0Network\t&\u3000internet\u200f', expect: tapAny(SETTINGS_TOP.network) },
  { id: 'settings-battery-zh', screen: 'settings-top.xml', lang: 'zh', kind: 'open-visible', goal: '打开电池', expect: tapAny(SETTINGS_TOP.battery) },
  { id: 'settings-storage-own-words', screen: 'settings-top.xml', lang: 'en', kind: 'own-words', goal: 'how much storage is left? show me', expect: tapAny(SETTINGS_TOP.storage) },
  { id: 'settings-bluetooth-via-connected', screen: 'settings-top.xml', lang: 'en', kind: 'own-words', goal: 'turn on Bluetooth', expect: tapAny(SETTINGS_TOP.connectedDevices) },
  { id: 'settings-display', screen: 'settings-top.xml', lang: 'en', kind: 'open-visible', goal: 'open Display settings', expect: tapAny(SETTINGS_TOP.display) },
  { id: 'settings-volume-own-words', screen: 'settings-top.xml', lang: 'en', kind: 'own-words', goal: 'change the ringtone volume', expect: tapAny(SETTINGS_TOP.sound), ruleBasedOutOfScope: 'changing a volume to an unstated level is not one of its goal forms (on/off, open, tap, type, search); that ringtone volume is under Sound is knowledge of Settings it does not declare' },
  { id: 'settings-search-nfc', screen: 'settings-top.xml', lang: 'en', kind: 'own-words', goal: 'search settings for NFC', expect: tapAny(SETTINGS_TOP.search) },
  // No row is labelled Settings (this is the Settings app); "Search settings" only contains the word: the list may still hold one further down.
  { id: 'settings-tap-settings-not-search', screen: 'settings-top.xml', lang: 'en', kind: 'not-on-screen', goal: 'tap settings', expect: firstAction({ command: 'swipe' }) },
  {
    id: 'connected-open-preferences',
    screen: 'settings-connected-devices-bluetooth.xml',
    lang: 'en',
    kind: 'quoted-label',
    goal: 'open Connection preferences',
    expect: tapAny(CONNECTED_DEVICES.connectionPreferences),
  },
  {
    id: 'connected-bluetooth-zh',
    screen: 'settings-connected-devices-bluetooth.xml',
    lang: 'zh',
    kind: 'own-words',
    goal: '打开蓝牙',
    expect: tapAny(CONNECTED_DEVICES.connectionPreferences),
  },
  { id: 'security-screen-lock', screen: 'settings-security-list.xml', lang: 'en', kind: 'quoted-label', goal: 'tap Screen lock', expect: tapAny(SECURITY.screenLock) },
  { id: 'security-smart-lock', screen: 'settings-security-list.xml', lang: 'en', kind: 'open-visible', goal: 'open Smart Lock', expect: tapAny(SECURITY.smartLock) },
  { id: 'security-find-device-zh', screen: 'settings-security-list.xml', lang: 'zh', kind: 'own-words', goal: '打开查找我的设备', expect: tapAny(SECURITY.findMyDevice) },
  { id: 'languages-add', screen: 'settings-languages.xml', lang: 'en', kind: 'dialog-verb', goal: 'add a language', expect: tapAny(LANGUAGES.addLanguage) },
  { id: 'languages-add-zh', screen: 'settings-languages.xml', lang: 'zh', kind: 'dialog-verb', goal: '添加语言', expect: tapAny(LANGUAGES.addLanguage) },

  // A sign-up form: typing starts by focusing the named field.
  { id: 'signup-first-name', screen: 'signup-form-textfields.xml', lang: 'en', kind: 'own-words', goal: 'type Taro into the first name field', expect: tapAny(SIGNUP.firstName) },
  { id: 'signup-last-name', screen: 'signup-form-textfields.xml', lang: 'en', kind: 'own-words', goal: 'enter Yamada as my last name', expect: tapAny(SIGNUP.lastName) },
  { id: 'signup-email', screen: 'signup-form-textfields.xml', lang: 'en', kind: 'quoted-label', goal: 'type test@example.org into Mail Address', expect: tapAny(SIGNUP.email) },
  { id: 'signup-show-password-ambiguous', screen: 'signup-form-textfields.xml', lang: 'en', kind: 'ambiguous', goal: 'tap Show password', expect: failsSafely('two password fields each have a "Show password" button') },
  // The words are a button's whole label ("Show password"), not the Password field's.
  { id: 'signup-show-password-words-ambiguous', screen: 'signup-form-textfields.xml', lang: 'en', kind: 'ambiguous', goal: 'show password', expect: failsSafely('two password fields each have a "Show password" button') },
  { id: 'signup-show-confirm-password', screen: 'signup-form-textfields.xml', lang: 'en', kind: 'own-words', goal: 'show password for Confirm Password', expect: tapAny(SIGNUP.showConfirmPassword) },
  { id: 'signup-coffee', screen: 'signup-form-textfields.xml', lang: 'en', kind: 'out-of-scope', goal: 'make me a coffee', expect: failsSafely(OUT_OF_SCOPE) },
];
