import { COORDINATION_PATTERNS, coordinatedObjects, isKnownApp, isKnownSetting } from './coordinated-objects';
import { DIALOG_VERBS, DIALOG_VERB_PATTERNS, addNames } from './dialog-verbs';
import type { GoalIntent } from './goal-intent';
import { LABEL_PATTERNS, foldPunctuation, hasCjk, normalizeGoal, normalizeLabel, quotedSpans, trimmedBounds, unquote } from './goal-text';

/**
 * The goal forms the rule-based planner understands (its declared scope), one line each with
 * English and Chinese examples. Printed in README and used by the evaluation suite.
 */
export const SUPPORTED_GOAL_FORMS: readonly string[] = [
  'open an app by name: "open Settings", "launch Messages", "start the Browser app", "打开设置", "启动浏览器", "打开联系人"',
  'open a visible item by its label (a tab, a row, an app in a chooser): "open Network & internet", "show me the privacy policy", "go to the Timer tab", "open it with Calendar", "打开 网络和互联网", "打开闹钟", "用相机打开"',
  'open the page a question is about: "how much storage is left? show me", "show me how much battery is left", "存储空间还剩多少"',
  'turn a setting on or off, in the app in front or in Settings, named by its label or its row\'s or card\'s (an alarm by its time or days): "turn on Wi-Fi", "turn Bluetooth off", "enable Bluetooth", "disable Wi‑Fi", "turn on the 8:30 AM alarm", "switch on the weekend alarm", "打开 Wi-Fi", "关闭蓝牙", "开启蓝牙", "把 WLAN 关掉", "打开8:30的闹钟"',
  'tap an element by its text: "tap Network & internet", "click the Send button", "点击 蓝牙", "点一下 Next"',
  'answer a dialog, permission prompt, tour or welcome screen (a button labelled so exactly; "skip" also takes a tour\'s "Got it" or "Close" when there is no Skip): "OK", "cancel", "dismiss the dialog", "close the pop-up", "skip the tour", "got it", "wait", "keep waiting for Settings", "close the app", "allow", "deny the permission", "next", "done", "continue", "accept the terms", "not now", "no thanks", "later", "retry", "get started", "log in", "sign in", "sign up", "确定", "取消", "关闭弹窗", "跳过", "知道了", "等待", "关闭应用", "允许", "拒绝", "下一步", "完成", "同意", "登录", "注册"',
  'use a control of something on the screen: "expand the 9:00 AM alarm", "collapse the Advanced section", "add كلوكسيدي 30 كبسولة to the cart", "展开8:30的闹钟", "把牛奶加入购物车"',
  'add something: "add an alarm", "add a contact", "添加闹钟", "新建闹钟"',
  'type text into a field: "type hello into Search", "enter example.com in the address bar", "enter Yamada as my last name", "type hello", "在搜索框输入 你好", "把山田填入姓氏栏", "输入 你好"',
  'search for a given query (tapping the search field or what opens it first; an app named is opened first): "search for \'dark mode\'", "search settings for NFC", "搜索 蓝牙耳机", "在设置中搜索 NFC"',
  'send a message: "send \'Hello 世界 👋\' to Alice", "send a message to Bob saying see you", "text Bob: see you", "给 Alice 发消息 你好", "发消息给 Bob：明天见", "发送 你好 给 张伟"',
  'open a web address in the browser: "open example.com in browser", "visit https://example.org", "在浏览器打开 example.com", "访问 example.com"',
  'go back or home: "go back", "press back", "go home", "返回", "回到主屏幕", "回到桌面"',
  'one verb on a list of known settings or apps, or of quoted labels (a list of other labels is one label: "tap Terms and Conditions"): "turn on Bluetooth and Wi-Fi", "turn on Bluetooth & Wi-Fi", "enable Wi-Fi, Bluetooth and NFC", "open Settings and Browser", "tap \'Alarm\', \'Timer\' and \'Stopwatch\'", "关闭蓝牙和WLAN", "打开蓝牙、WLAN 和 NFC"',
  'several of these in order, joined by "and", "&", "then", ",", "然后", "接着", "，" or, in Chinese, written one after the other: "open Settings and turn on Wi-Fi", "打开设置，然后打开蓝牙", "打开浏览器访问 example.com", "进入设置关闭WLAN"',
];

/**
 * A substring of the {@link normalizeGoal normalized} goal: `text` (format characters dropped, one
 * space for each run of white space), `folded` after {@link foldPunctuation} (same length), and
 * `origin`, the index in `source` (the goal as written) of each unit of `text`.
 */
interface GoalSpan {
  text: string;
  folded: string;
  origin: readonly number[];
  source: string;
}

/** `[start, end)` of `span`. */
function sliceSpan(span: GoalSpan, start: number, end: number): GoalSpan {
  return { text: span.text.slice(start, end), folded: span.folded.slice(start, end), origin: span.origin.slice(start, end), source: span.source };
}

/** `[start, end)` of `span` as the user wrote it: every space and format character between its first and last unit kept. */
function asWritten(span: GoalSpan, start: number, end: number): string {
  if (end <= start) return '';
  return span.source.slice(span.origin[start] as number, (span.origin[end - 1] as number) + 1);
}

/**
 * Capture groups whose text is typed or sent, taken from the goal as written (inner runs of spaces,
 * tabs, line breaks and format characters such as a ZWJ inside an emoji stay exactly as the user
 * wrote them). Every other group (a label, a recipient, a field) is taken from the normalized goal.
 */
const PAYLOAD_GROUPS: ReadonlySet<string> = new Set(['text']);

type Captures = (name: string) => string | undefined;

/** What a rule makes of a goal clause: one intent, one per object of a coordinated list, or nothing. */
type Built = GoalIntent | readonly GoalIntent[] | undefined;

interface GoalRule {
  pattern: RegExp;
  build(capture: Captures): Built;
}

const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:\/\/\S+|(?:www\.)?[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}(?::\d+)?(?:[/?#]\S*)?)$/iu;
const ON_VERBS_ZH = /^(?:打开|开启|启用|开)$/;

/** A trailing word that says a label is a switch ("Wi-Fi switch", "蓝牙开关"); labels come from the normalized goal, one space at most. */
const SWITCH_WORD = / ?(?:switch|toggle|开关|功能)$/i;
/** A trailing word that says a label is a text field ("the Search box"). */
const FIELD_WORD = / (?:field|box|text ?box|text ?field|input)$/i;
/** A trailing word that says a name is an app's ("联系人应用", "Browser app"). */
const APP_WORD = / ?(?:应用|程序|app|application)$/i;

/** Spaces and sentence punctuation (after {@link foldPunctuation}). */
const SENTENCE_PUNCTUATION = /[\s.,;:!?]/;
/** Spaces and the punctuation that ends a sentence (after {@link foldPunctuation}). */
const SENTENCE_END = /[\s.!?]/;

/** `text` without leading and trailing spaces and sentence punctuation, full-width "。" "，" included. */
function trimPunctuation(text: string): string {
  const [start, end] = trimmedBounds(foldPunctuation(text), SENTENCE_PUNCTUATION);
  return text.slice(start, end);
}

/** A label named by the goal: punctuation around it and one pair of quotes enclosing it removed; `undefined` when nothing is left. */
function label(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = trimPunctuation(unquote(trimPunctuation(value)));
  return normalizeLabel(text) === '' ? undefined : text;
}

function payload(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = unquote(value);
  return text === '' ? undefined : text;
}

function url(value: string | undefined): string | undefined {
  const text = label(value);
  return text !== undefined && URL_LIKE.test(text) ? text : undefined;
}

function settingName(value: string | undefined): string | undefined {
  const text = label(value);
  return text?.replace(SWITCH_WORD, '').trim() || undefined;
}

function toggle(what: string | undefined, on: boolean): GoalIntent | undefined {
  const setting = settingName(what);
  return setting === undefined ? undefined : { kind: 'toggle', setting, on };
}

/** Every intent of `each` applied to the objects, or `undefined` when one of them is not understood. */
function all(objects: readonly string[], each: (object: string) => GoalIntent | undefined): GoalIntent[] | undefined {
  const intents = objects.map(each);
  return intents.every((i): i is GoalIntent => i !== undefined) ? intents : undefined;
}

/**
 * What a verb acts on: the one thing `value` names (cleaned by `clean`), or each object of a list the
 * verb distributes over (see {@link coordinatedObjects}); a text quoted as a whole is one label.
 */
function objects(value: string | undefined, standsAlone: (part: string) => boolean, clean: (value: string) => string | undefined = label): string[] | undefined {
  const whole = value === undefined ? undefined : clean(value);
  if (value === undefined || whole === undefined) return undefined;
  const bare = trimPunctuation(value);
  if (unquote(bare) !== bare) return [whole];
  return coordinatedObjects(whole, standsAlone) ?? [whole];
}

/** Switches one setting, or each of a list of known settings ("Bluetooth and Wi-Fi", "蓝牙和WLAN"). */
function toggles(what: string | undefined, on: boolean): Built {
  const settings = objects(what, isKnownSetting, settingName);
  return settings && all(settings, (setting) => toggle(setting, on));
}

function sendMessage(to: string | undefined, text: string | undefined): GoalIntent | undefined {
  const recipient = label(to);
  const message = payload(text);
  return recipient === undefined || message === undefined ? undefined : { kind: 'send_message', recipient, text: message };
}

function typeText(text: string | undefined, field?: string): GoalIntent | undefined {
  const value = payload(text);
  if (value === undefined) return undefined;
  if (field === undefined) return { kind: 'type', text: value };
  const target = label(field.replace(FIELD_WORD, ''));
  return target === undefined ? undefined : { kind: 'type', text: value, field: target };
}

/**
 * Something "open" reaches from anywhere, so that "open A and B" is two opens: a known app or a known
 * setting. A term that is only a page or a tab is not enough: "open Settings and privacy" is the
 * one item of an app's menu, not the Settings app followed by a Privacy page.
 */
function opensAlone(name: string): boolean {
  return isKnownApp(name) || isKnownSetting(name);
}

/** A known app's name without a trailing "app"/"应用"/"程序" ("联系人应用" → "联系人"); other names as they are. */
function appName(name: string): string {
  return isKnownApp(name) ? name.replace(APP_WORD, '') : name;
}

/** Opens one thing, or each of a list of things that open on their own ("Settings and Browser"). */
function opens(what: string | undefined): Built {
  const names = objects(what, opensAlone);
  return names && all(names, (name) => ({ kind: 'open', name: appName(name) }));
}

/**
 * "打开X": X (or a glossary equivalent) a known app is opened, a known setting (or "…开关") is switched
 * on, a web address is loaded, anything else is opened (a tab, a row, an app by its icon). A list of
 * known apps and settings ("蓝牙、WLAN 和 NFC", "设置和浏览器") gives one intent each.
 */
function openOrTurnOn(what: string | undefined): Built {
  const names = objects(what, opensAlone);
  return names && all(names, (name) => {
    if (isKnownApp(name)) return { kind: 'open', name: appName(name) };
    if (isKnownSetting(name) || /开关$/.test(name)) return toggle(name, true);
    if (URL_LIKE.test(name)) return { kind: 'open_url', url: name };
    return { kind: 'open', name, orSwitchOn: true };
  });
}

/** Taps one label, or each of a list of known settings or apps ("Wi-Fi and Bluetooth"); any other "X and Y" is one label. */
function taps(what: string | undefined): Built {
  const targets = objects(what, (part) => isKnownSetting(part) || isKnownApp(part));
  return targets && all(targets, (target) => ({ kind: 'tap', target }));
}

/** A dialog, permission or tour verb: a tap on any of the labels that carry it out, each a whole label (see `DialogVerb`). */
function dialogTap(verb: string | undefined, names: readonly string[], fallback: readonly string[] | undefined): GoalIntent | undefined {
  const target = label(verb);
  if (target === undefined) return undefined;
  return fallback === undefined ? { kind: 'tap', target, names, whole: true } : { kind: 'tap', target, names, whole: true, fallback };
}

/** The labels of a control that shows more of something ("Expand alarm"), or less. */
const EXPAND_NAMES: readonly string[] = ['Expand', 'Show more', '展开', '显示更多'];
const COLLAPSE_NAMES: readonly string[] = ['Collapse', 'Show less', '收起', '折叠', '显示更少'];

/** "expand the 9:00 AM alarm", "展开8:30的闹钟": the expand (or collapse) control inside the thing named. */
function controlOf(verb: string | undefined, what: string | undefined, names: readonly string[]): GoalIntent | undefined {
  const thing = label(what);
  const target = label(verb);
  return thing === undefined || target === undefined ? undefined : { kind: 'tap', target, names, within: thing };
}

/** The labels of a product's add-to-cart button. */
const ADD_TO_CART_NAMES: readonly string[] = ['Add to cart', 'Add to basket', 'Add to bag', 'Add to shopping cart', 'Add to trolley', '加入购物车', '添加到购物车', '加入购物袋'];

/** "add X to the cart", "把X加入购物车": the add-to-cart button of X's card. */
function addToCart(what: string | undefined): GoalIntent | undefined {
  const thing = label(what);
  return thing === undefined ? undefined : { kind: 'tap', target: 'Add to cart', names: ADD_TO_CART_NAMES, within: thing };
}

/** A search query that names nothing in particular ("a medicine", "something"): there is nothing to type. */
const VAGUE_QUERY = /^(?:a|an|some|any|something|anything|stuff)(?:\s|$)/i;

/**
 * "search [in] W for Q", "在W中搜索 Q": Q typed into the search field (tapping what opens it first);
 * when W is a known app ("settings", "YouTube"), that app is opened first. A vague Q ("a medicine")
 * is not understood: the planner does not choose a query for the user.
 */
function search(where: string | undefined, query: string | undefined, cjk: boolean): Built {
  const text = payload(query === undefined ? undefined : trimPunctuation(query));
  if (text === undefined || VAGUE_QUERY.test(text)) return undefined;
  const typing: GoalIntent = { kind: 'type', text, field: cjk ? '搜索' : 'Search' };
  const place = label(where);
  if (place === undefined) return typing;
  return isKnownApp(place) ? [{ kind: 'open', name: appName(place) }, typing] : typing;
}

/** A text typed "as" a field ("enter Yamada as my last name"): a text with a stray quote is not cut there. */
function typeAs(text: string | undefined, field: string | undefined): GoalIntent | undefined {
  if (text === undefined || (/["']/.test(text) && unquote(text) === text.trim())) return undefined;
  return typeText(text, field);
}

/** "add an alarm", "添加闹钟": a tap on the button that adds that kind of thing. */
function addThing(verb: string | undefined, what: string | undefined, cjk: boolean): GoalIntent | undefined {
  const thing = label(what);
  if (verb === undefined || thing === undefined) return undefined;
  return { kind: 'tap', target: cjk ? `${verb}${thing}` : `${verb} ${thing}`, names: addNames(thing) };
}

/** A text that starts with a CJK ideograph. */
const HAN_START = /^\p{Script=Han}/u;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A pattern for words separated by single spaces, without quotes, none of which is `word` (case
 * aside): `wordsOtherThan('to')` matches "Bob Smith" and "Tom" but not "Bob to Alice". A name that
 * ends a goal after "… to <name>" is then found at one place only, the last " to ", so a goal with
 * many " to " is read in linear time (a lazy `[^"']+?$` is retried to the end after each of them).
 */
function wordsOtherThan(word: string): string {
  const letter = `[^"' ]`;
  const other: string[] = [];
  for (let k = 0; k < word.length; k++) other.push(`${escapeRegExp(word.slice(0, k))}[^"' ${escapeRegExp(word[k] as string)}]${letter}*`);
  for (let k = 1; k < word.length; k++) other.push(escapeRegExp(word.slice(0, k)));
  other.push(`${escapeRegExp(word)}${letter}+`);
  const one = `(?:${other.join('|')})`;
  return `${one}(?: ${one})*`;
}

/** Patterns on the folded goal, most specific first. Named groups are sliced from the goal as written. */
const RULES: readonly GoalRule[] = [
  // back / home
  { pattern: /^(?:please )?(?:go|navigate|press(?: the)?|tap(?: the)?)? ?back(?: (?:button|key))?$/i, build: () => ({ kind: 'back' }) },
  { pattern: /^(?:请)?(?:返回|后退|回退|返回上一(?:页|级|步|屏)|回到上一(?:页|级|步|屏)|按返回键?)$/, build: () => ({ kind: 'back' }) },
  {
    pattern: /^(?:please )?(?:(?:go|return|navigate|get|head) (?:back )?(?:to )?(?:the )?home(?: screen)?|press(?: the)? home(?: (?:button|key))?|home(?: screen)?)$/i,
    build: () => ({ kind: 'home' }),
  },
  { pattern: /^(?:请)?(?:回到|返回|回|去|进入|按)? ?(?:主屏幕|主屏|桌面|主界面|主页键?|home ?键)$/i, build: () => ({ kind: 'home' }) },
  // web address
  {
    pattern: /^(?:open|load|go to|visit|browse(?: to)?|navigate to|show) (?<url>\S+) (?:in|with|using|on) (?:the |a )?(?:web )?(?:browser|chrome)$/i,
    build: (c) => {
      const u = url(c('url'));
      return u === undefined ? undefined : { kind: 'open_url', url: u };
    },
  },
  {
    pattern: /^(?:open|load|visit|browse(?: to)?|go to|navigate to) (?:the )?(?:url|website|web ?page|web ?site|site|page|address|link)? ?(?<url>\S+)$/i,
    build: (c) => {
      const u = url(c('url'));
      return u === undefined ? undefined : { kind: 'open_url', url: u };
    },
  },
  {
    pattern: /^(?:请)?(?:在|用|使用|通过) ?(?:浏览器|chrome) ?(?:中|里|上)? ?(?:打开|访问|浏览|进入) ?(?:网址|网站|网页|链接)? ?(?<url>\S+)$/i,
    build: (c) => {
      const u = url(c('url'));
      return u === undefined ? undefined : { kind: 'open_url', url: u };
    },
  },
  {
    pattern: /^(?:请)?(?:访问|浏览|打开网址|打开网站|打开网页|打开链接) ?(?<url>\S+)$/,
    build: (c) => {
      const u = url(c('url'));
      return u === undefined ? undefined : { kind: 'open_url', url: u };
    },
  },
  // messages
  {
    pattern: /^(?:please )?(?:send|write) (?:an? )?(?:(?:text|sms) )?(?:message|text|sms) to (?<to>.+?) ?(?::|,| saying| that says| with(?: the)? text) ?(?<text>.+)$/is,
    build: (c) => sendMessage(c('to'), c('text')),
  },
  { pattern: /^(?:please )?(?:text|message|sms|tell) (?<to>[^"':,]+?) ?(?::|,| saying| that) ?(?<text>.+)$/is, build: (c) => sendMessage(c('to'), c('text')) },
  {
    pattern: new RegExp(`^(?:please )?(?:send|text|message|sms) (?:an? )?(?:(?:text|sms) )?(?:message )?(?<text>.+) to (?<to>${wordsOtherThan('to')})$`, 'is'),
    build: (c) => sendMessage(c('to'), c('text')),
  },
  { pattern: /^(?:请)?(?:发送?|发)(?:一条)?(?:消息|短信|信息)给 ?(?<to>.+?) ?(?:[:,]| |说) ?(?<text>.+)$/s, build: (c) => sendMessage(c('to'), c('text')) },
  {
    pattern: /^(?:请)?(?:给|向|跟|和|对) ?(?<to>.+?) ?发送?(?:一条|一个)?(?:消息|短信|信息)? ?(?:说)? ?[:,]? ?(?<text>.+)$/s,
    build: (c) => sendMessage(c('to'), c('text')),
  },
  { pattern: /^(?:请)?发送?(?:一条)?(?:消息|短信|信息)? ?(?<text>.+?) ?给 ?(?<to>.+)$/s, build: (c) => sendMessage(c('to'), c('text')) },
  // dialogs, permission prompts and tours (before switches: "关闭弹窗" closes a pop-up, "关闭蓝牙" is a switch)
  ...DIALOG_VERB_PATTERNS.map(({ pattern, verb }): GoalRule => ({ pattern, build: (c) => dialogTap(c('verb'), verb.names, verb.fallback) })),
  // a control of something on the screen
  { pattern: /^(?:please )?(?<verb>expand) (?:the |my )?(?<what>.+)$/i, build: (c) => controlOf(c('verb'), c('what'), EXPAND_NAMES) },
  { pattern: /^(?:please )?(?<verb>collapse) (?:the |my )?(?<what>.+)$/i, build: (c) => controlOf(c('verb'), c('what'), COLLAPSE_NAMES) },
  { pattern: /^(?:请)?(?<verb>展开) ?(?<what>.+)$/, build: (c) => controlOf(c('verb'), c('what'), EXPAND_NAMES) },
  { pattern: /^(?:请)?(?<verb>收起|折叠) ?(?<what>.+)$/, build: (c) => controlOf(c('verb'), c('what'), COLLAPSE_NAMES) },
  {
    pattern: /^(?:please )?(?:add|put) (?<what>.+?) (?:to|in|into) (?:the |my )?(?:shopping )?(?:cart|basket|bag|trolley)$/i,
    build: (c) => addToCart(c('what')),
  },
  { pattern: /^(?:请)?(?:帮我)?(?:把|将)? ?(?<what>.+?) ?(?:加入|添加到|加到|放入|放进) ?(?:购物车|购物袋)(?:里|中)?$/, build: (c) => addToCart(c('what')) },
  // "open with": the app chosen on the screen's chooser, never launched on its own
  {
    pattern: /^(?:please )?open (?:(?:it|this|that|them|the \S+) )?(?:with|using) (?:the )?(?<target>.+?)(?: app)?$/i,
    build: (c) => taps(c('target')),
  },
  { pattern: /^(?:请)?(?:用|使用|通过) ?(?<target>.+?) ?打开(?:它|这个|此|文件|链接)?$/, build: (c) => taps(c('target')) },
  // a question whose answer is on the page of its subject
  {
    pattern:
      /^(?:please )?(?:(?:show|tell) me )?how (?:much|many) (?<name>.+?) (?:is|are|do i have|have i(?: got)?) (?:still )?(?:left|remaining|free|available|used)(?: ?\? ?(?:(?:please )?show me(?: please)?)?)?$/i,
    build: (c) => opens(c('name')),
  },
  { pattern: /^(?:请)?(?:帮我)?(?:看看|查看|看一下)? ?(?<name>.+?) ?(?:还剩下|还剩|剩下|剩余|还有)(?:多少|几)(?:了|呢)?$/, build: (c) => opens(c('name')) },
  { pattern: /^(?:请)?(?:还剩下|还剩|剩下|剩余|还有)多少 ?(?<name>.+?)$/, build: (c) => opens(c('name')) },
  // search
  {
    pattern: /^(?:please )?search (?:(?:in|on|through) )?(?:(?:the )?(?<where>.+?) )?for (?<text>.+)$/is,
    build: (c) => search(c('where'), c('text'), false),
  },
  {
    pattern: /^(?:请)?(?:在 ?(?<where>.+?) ?(?:中|里|内|上|里面) ?)?(?:搜索|搜一下)(?<sep> ?: ?| )?(?<text>.+)$/su,
    // Without a space or colon the query starts with a letter that is no ideograph ("搜索NFC"): "搜索设置" is no query.
    build: (c) => (c('sep') === undefined && HAN_START.test(c('text') ?? '') ? undefined : search(c('where'), c('text'), true)),
  },
  {
    pattern: /^(?:please )?(?<verb>add|create) (?:(?:an?|the|one) )?(?:new )?(?<what>(?:(?! (?:to|for|named|called|with|into|in|on|as) )[^:"'])+)$/i,
    build: (c) => addThing(c('verb'), c('what'), false),
  },
  { pattern: /^(?:请)?(?:帮我)?(?<verb>添加|新建|新增|增加|创建) ?(?:一个|一条|一项|个|条|新的|新)? ?(?<what>[^到至:]+)$/, build: (c) => addThing(c('verb'), c('what'), true) },
  // switches
  { pattern: /^(?:please )?(?:turn|switch|toggle|set) (?<state>on|off) (?:the )?(?<what>.+)$/i, build: (c) => toggles(c('what'), c('state')?.toLowerCase() === 'on') },
  { pattern: /^(?:please )?(?:turn|switch|toggle|set) (?:the )?(?<what>.+?) (?:to )?(?<state>on|off)$/i, build: (c) => toggles(c('what'), c('state')?.toLowerCase() === 'on') },
  { pattern: /^(?:please )?(?<verb>enable|disable|activate|deactivate) (?:the )?(?<what>.+)$/i, build: (c) => toggles(c('what'), /^(?:enable|activate)$/i.test(c('verb') ?? '')) },
  { pattern: /^(?:请)?(?:把|将) ?(?<what>.+?) ?(?:都|全部|全都)? ?(?<verb>打开|开启|启用|关闭|关掉|关上|停用|禁用)$/, build: (c) => toggles(c('what'), ON_VERBS_ZH.test(c('verb') ?? '')) },
  { pattern: /^(?:请)?(?<verb>开启|启用|关闭|关掉|关上|停用|禁用) ?(?<what>.+)$/, build: (c) => toggles(c('what'), ON_VERBS_ZH.test(c('verb') ?? '')) },
  { pattern: /^(?:请)?打开 ?(?<what>.+)$/, build: (c) => openOrTurnOn(c('what')) },
  // typing
  {
    pattern: /^(?:please )?(?:type|enter|input|write|fill in) (?<text>.+) (?:into|in|on) (?:the )?(?<field>.+?)$/is,
    build: (c) => typeText(c('text'), c('field')),
  },
  {
    pattern: new RegExp(`^(?:please )?(?:type|enter|input|write|fill in|put) (?<text>.+?) as (?:my|the|your|our|his|her|their) (?<field>${wordsOtherThan('as')})$`, 'is'),
    build: (c) => typeAs(c('text'), c('field')),
  },
  { pattern: /^(?:please )?(?:type|enter|input|write) (?<text>.+)$/is, build: (c) => typeText(c('text')) },
  {
    pattern: /^(?:请)?(?:在|往|向|于) ?(?<field>.+?) ?(?:中|里|内|上|里面)? ?(?:输入|键入|填写|填入|打字) ?:? ?(?<text>.+)$/s,
    build: (c) => typeText(c('text'), c('field')),
  },
  {
    pattern: /^(?:请)?(?:把|将) ?(?<text>.+?) ?(?:填入|填到|填进|填写到|填在|输入到|输入在|写入|写到|写在) ?(?<field>.+?) ?(?:中|里|内|里面|上)?$/s,
    build: (c) => typeAs(c('text'), c('field')),
  },
  { pattern: /^(?:请)?(?:输入|键入|填写|打字) ?:? ?(?<text>.+)$/s, build: (c) => typeText(c('text')) },
  // apps and items
  { pattern: /^(?:please )?(?:open|launch|start|run|show|go to|switch to) (?:the )?(?<name>.+?)(?: app(?:lication)?)?$/i, build: (c) => opens(c('name')) },
  { pattern: /^(?:请)?(?:启动|运行|进入|打开) ?(?<name>.+?)(?:应用|程序|app)?$/i, build: (c) => opens(c('name')) },
  {
    pattern: /^(?:please )?(?:tap|click|press|select|touch|choose|hit) (?:on )?(?:the )?(?<target>.+?)(?: (?:button|row|item|tab|icon|link|option|entry))?$/i,
    build: (c) => taps(c('target')),
  },
  { pattern: /^(?:请)?(?:点击|点按|轻触|轻点|单击|点一下|按下|点(?![击按])|按(?!下)) ?(?<target>.+?)(?:按钮|选项|图标|条目)?$/, build: (c) => taps(c('target')) },
];

/** {@link RULES} with match indices on, compiled once. */
const COMPILED_RULES: readonly GoalRule[] = RULES.map((rule) => ({ pattern: new RegExp(rule.pattern.source, rule.pattern.flags + 'd'), build: rule.build }));

/**
 * Separators between the parts of a compound goal (tried on the normalized goal, one space at most
 * between words, with quoted passages masked): "然后"…, "then", "and", " & ", "," and ";".
 */
const SEPARATOR = / ?[,;]? ?(?:然后|接着|之后|随后|并且|再) ?| ?[,;] ?(?:and )?then | and then | then | and | & | ?[,;] ?/giu;

/**
 * Chinese verbs that may start the second of two clauses written one after the other without a
 * separator ("打开浏览器访问 example.com"): the first words of the Chinese rules and the Chinese dialog
 * verbs of two or more characters (one-character ones such as "好" or "是" occur inside too many words).
 */
const SERIAL_VERB = new RegExp(
  [
    ...new Set([
      ...['打开', '开启', '启用', '关闭', '关掉', '关上', '停用', '禁用', '启动', '运行', '进入', '访问', '浏览', '点击', '点按', '轻触', '轻点', '单击', '点一下'],
      ...['输入', '键入', '填写', '在', '往', '给', '向', '发送', '发消息', '发短信', '把', '将', '返回', '回到', '后退', '添加', '新建', '新增', '创建', '搜索', '展开', '收起'],
      ...DIALOG_VERBS.flatMap((v) => v.zh).filter((verb) => verb.length >= 2),
    ]),
  ]
    .sort((a, b) => b.length - a.length)
    .join('|'),
  'g',
);

/** Words that may join two serial clauses ("打开设置并打开蓝牙", "打开设置后关闭WLAN"); dropped from the first. */
const SERIAL_JOINER = /(?:并且|并|然后|之后|以后|后|再|就|和) ?$/;

/** A plain "and" ("&", "并", "和") between a tap and a bare dialog verb: see {@link joinsOneLabel}. */
const ONE_LABEL_JOINER = /^(?: and | & | ?(?:并|和) ?)$/i;

/** The end of a Chinese noun phrase ("…的"): a serial verb right after it belongs to the phrase. */
const NOUN_PHRASE_END = /的 ?$/;

/** Every pattern goal parsing runs on a goal (rules, separators, serial verbs), for the backtracking check of its spec. */
export const GOAL_PATTERNS: readonly RegExp[] = [
  ...RULES.map((rule) => rule.pattern),
  SEPARATOR,
  SERIAL_VERB,
  SERIAL_JOINER,
  ONE_LABEL_JOINER,
  NOUN_PHRASE_END,
  URL_LIKE,
  SWITCH_WORD,
  FIELD_WORD,
  APP_WORD,
  VAGUE_QUERY,
  ...COORDINATION_PATTERNS,
  ...LABEL_PATTERNS,
];

function trimSpan(span: GoalSpan): GoalSpan {
  const [start, end] = trimmedBounds(span.folded, /\s/);
  return sliceSpan(span, start, end);
}

function masked(folded: string): string {
  let out = folded;
  for (const [start, end] of quotedSpans(folded)) out = out.slice(0, start) + '\u0000'.repeat(end - start) + out.slice(end);
  return out;
}

/** The intents of one clause by the first rule that understands it. */
function parseSingle(span: GoalSpan): GoalIntent[] | undefined {
  const trimmed = trimSpan(span);
  const { text, folded } = trimmed;
  // Each rule sees the part as written (a message keeps its final "?"), then without the sentence's final punctuation.
  const bodies = [folded, folded.slice(0, trimmedBounds(folded, SENTENCE_END)[1])].filter((b, i, all) => b !== '' && all.indexOf(b) === i);
  for (const rule of COMPILED_RULES) {
    for (const body of bodies) {
      const match = rule.pattern.exec(body);
      if (!match) continue;
      const capture: Captures = (name) => {
        const at = match.indices?.groups?.[name];
        if (at === undefined) return undefined;
        return PAYLOAD_GROUPS.has(name) ? asWritten(trimmed, at[0], at[1]) : text.slice(at[0], at[1]);
      };
      const built = rule.build(capture);
      if (built === undefined) continue;
      return Array.isArray(built) ? [...(built as readonly GoalIntent[])] : [built as GoalIntent];
    }
  }
  return undefined;
}

/** Intents that carry text to the end of their clause (a message, typed text): nothing after them is a verb. */
function hasPayload(intents: readonly GoalIntent[]): boolean {
  return intents.some((i) => i.kind === 'send_message' || i.kind === 'type');
}

/** True when `folded` is a dialog or tour verb alone ("continue", "close", "继续"), with nothing it acts on. */
function isBareButtonVerb(folded: string): boolean {
  const trimmed = folded.trim();
  const body = trimmed.slice(0, trimmedBounds(trimmed, SENTENCE_END)[1]);
  return DIALOG_VERB_PATTERNS.some(({ pattern }) => {
    const match = pattern.exec(body);
    return match !== null && match.groups?.['object'] === undefined;
  });
}

/**
 * True when a tap followed by a bare dialog verb, joined by a plain "and" (or "&", "并", "和"), is better read
 * as one label: "Accept and continue", "Save and close", "同意并继续" are buttons of their own.
 */
function joinsOneLabel(first: readonly GoalIntent[], joiner: string, second: string): boolean {
  return first.at(-1)?.kind === 'tap' && ONE_LABEL_JOINER.test(joiner) && isBareButtonVerb(second);
}

/** Most Chinese clauses read one after the other without a separator; the rest of a longer run is one clause. */
const MAX_SERIAL_CLAUSES = 12;
/** Longest first clause (UTF-16 units) tried before a serial verb: a clause is a verb and what it names, a web address at most. */
const MAX_SERIAL_CLAUSE_LENGTH = 200;

/**
 * Two or more Chinese clauses written one after the other without a separator: split before a
 * {@link SERIAL_VERB} (not right after "的", where the verb belongs to a noun phrase) where the first
 * part is understood alone and the rest, recursively, too. The leftmost such split wins. `depth`
 * clauses are already read before `span`; with {@link MAX_SERIAL_CLAUSES} and
 * {@link MAX_SERIAL_CLAUSE_LENGTH}, a goal of n characters is read with O(n) rule matches, each
 * linear, whatever it repeats ("打开设置" 500 times).
 */
function parseSerial(span: GoalSpan, depth: number): GoalIntent[] | undefined {
  if (depth + 1 >= MAX_SERIAL_CLAUSES) return undefined;
  const hidden = masked(span.folded);
  for (const m of hidden.matchAll(SERIAL_VERB)) {
    const at = m.index ?? 0;
    if (at > MAX_SERIAL_CLAUSE_LENGTH) break;
    const before = span.folded.slice(0, at);
    if (before.trim() === '' || NOUN_PHRASE_END.test(before)) continue;
    const joiner = SERIAL_JOINER.exec(before)?.[0] ?? '';
    const left = parseSingle(sliceSpan(span, 0, at - joiner.length));
    if (!left || hasPayload(left)) continue;
    const rest = sliceSpan(span, at, span.text.length);
    if (joinsOneLabel(left, joiner, rest.folded)) continue;
    const right = parseClause(rest, depth + 1);
    if (right) return [...left, ...right];
  }
  return undefined;
}

/**
 * One clause (no separator inside, or only ones that belong to it): Chinese serial verbs first
 * (unless the whole clause is a message or typed text, whose payload runs to its end, or `serial`
 * is false), then the clause as a whole. `depth`: clauses read before it (see {@link parseSerial}).
 */
function parseClause(span: GoalSpan, depth = 0, serial = true): GoalIntent[] | undefined {
  const whole = parseSingle(span);
  if (whole && hasPayload(whole)) return whole;
  return (serial && hasCjk(span.folded) ? parseSerial(span, depth) : undefined) ?? whole;
}

/** A part of a compound goal between separators: `[start, end)` in the goal, and the separator before it. */
interface Part {
  start: number;
  end: number;
  joiner: string;
}

/** Splits the goal at separators outside quoted passages; one part when there is none. */
function splitParts(goal: GoalSpan): Part[] {
  const hidden = masked(goal.folded);
  const parts: Part[] = [];
  let from = 0;
  let joiner = '';
  for (const m of hidden.matchAll(SEPARATOR)) {
    const at = m.index ?? 0;
    if (at === 0 || at + m[0].length >= hidden.length) continue;
    parts.push({ start: from, end: at, joiner });
    from = at + m[0].length;
    joiner = m[0];
  }
  parts.push({ start: from, end: goal.folded.length, joiner });
  return parts.filter((p) => goal.folded.slice(p.start, p.end).trim() !== '');
}

/** Most parts a goal is segmented over in every way; beyond that only "each part a clause" or "one clause" is tried. */
const MAX_SEGMENTED_PARTS = 12;

/** The best reading of parts `from`… to the end: its intents, its number of clauses, and where its first clause ends. */
interface Reading {
  intents: GoalIntent[];
  clauses: number;
  firstEnd: number;
}

/**
 * Groups consecutive parts into clauses so that every clause is understood and there are as many
 * clauses as possible; `strict` also refuses to cut a tap from a bare dialog verb after a plain
 * "and" ({@link joinsOneLabel}).
 */
function segment(goal: GoalSpan, parts: readonly Part[], clause: (i: number, j: number) => GoalIntent[] | undefined, strict: boolean): GoalIntent[] | undefined {
  const n = parts.length;
  const best: Array<Reading | undefined> = new Array(n + 1).fill(undefined);
  best[n] = { intents: [], clauses: 0, firstEnd: n };
  const simple = n > MAX_SEGMENTED_PARTS;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = i; j < n; j++) {
      if (simple && j !== i && !(i === 0 && j === n - 1)) continue;
      const rest = best[j + 1];
      if (!rest) continue;
      const intents = clause(i, j);
      if (!intents) continue;
      if (strict && j + 1 < n) {
        const next = parts[j + 1] as Part;
        const nextClause = goal.folded.slice(next.start, (parts[rest.firstEnd] as Part).end);
        if (joinsOneLabel(intents, next.joiner, nextClause)) continue;
      }
      const clauses = 1 + rest.clauses;
      if (clauses > (best[i]?.clauses ?? 0)) best[i] = { intents: [...intents, ...rest.intents], clauses, firstEnd: j };
    }
  }
  return best[0]?.intents;
}

/**
 * Parses a goal (English or Chinese, any case, full-width letters, typographic quotes and Unicode
 * hyphens and spaces allowed) into the intents it asks for, in order.
 *
 * The rules read the goal {@link normalizeGoal normalized}: invisible format characters (bidi
 * controls, zero-width spaces and joiners, BOM) dropped and every run of white space one space, so
 * that "turn on\u202e  Wi-Fi" is "turn on Wi-Fi" and every rule runs in time linear in the goal's
 * length. Text to type or send is taken from the goal as written, between its first and last
 * visible character: its inner spaces, line breaks and format characters stay as they are.
 *
 * A compound goal is cut at "and"/"then"/","/"然后"… into clauses, each understood on its own, as
 * many as possible: "open Settings and turn on Wi-Fi" is two, while "tap Terms and Conditions" and
 * "send … saying see you, and thanks!" stay one (their second part means nothing alone), and
 * "tap Accept and continue" stays one label. Within a clause, a list of objects gives one intent per
 * object when the verb distributes over it ("turn on Bluetooth and Wi-Fi", "关闭蓝牙和WLAN"; see
 * `coordinatedObjects`), and Chinese clauses written one after the other without a separator are
 * read in turn ("打开浏览器访问 example.com").
 * @returns the intents, or `undefined` when the goal matches none of {@link SUPPORTED_GOAL_FORMS}.
 */
export function parseGoal(goal: string): GoalIntent[] | undefined {
  const normalized = normalizeGoal(goal);
  const whole: GoalSpan = { text: normalized.text, folded: foldPunctuation(normalized.text), origin: normalized.origin, source: goal };
  const parts = splitParts(whole);
  if (parts.length === 0) return undefined;
  const clauses = new Map<string, GoalIntent[] | undefined>();
  const clause = (i: number, j: number): GoalIntent[] | undefined => {
    const key = `${i}:${j}`;
    if (!clauses.has(key)) {
      const start = (parts[i] as Part).start;
      const end = (parts[j] as Part).end;
      // Serial verbs are read within one part: parts joined across a separator make one clause only
      // when the separator belongs to it (a label with a comma), never to cut it again elsewhere.
      clauses.set(key, parseClause(sliceSpan(whole, start, end), 0, i === j));
    }
    return clauses.get(key);
  };
  return segment(whole, parts, clause, true) ?? segment(whole, parts, clause, false);
}
