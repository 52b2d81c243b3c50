import { findKnownApp } from './app-catalog';
import type { GoalIntent } from './goal-intent';
import { foldPunctuation, normalizeLabel, quotedSpans, unquote } from './goal-text';
import { findKnownSetting } from './setting-catalog';

/**
 * The goal forms the rule-based planner understands (its declared scope), one line each with
 * English and Chinese examples. Printed in README and used by the evaluation suite.
 */
export const SUPPORTED_GOAL_FORMS: readonly string[] = [
  'open an app by name: "open Settings", "launch Messages", "start the Browser app", "打开设置", "启动浏览器", "打开联系人"',
  'open a visible item by its label: "open Network & internet", "打开 网络和互联网"',
  'turn a setting on or off: "turn on Wi-Fi", "turn Bluetooth off", "enable Bluetooth", "disable Wi‑Fi", "打开 Wi-Fi", "关闭蓝牙", "开启蓝牙", "把 WLAN 关掉"',
  'tap an element by its text: "tap Network & internet", "click the Send button", "点击 蓝牙", "点一下 Next"',
  'type text into a field: "type hello into Search", "enter example.com in the address bar", "type hello", "在搜索框输入 你好", "输入 你好"',
  'send a message: "send \'Hello 世界 👋\' to Alice", "send a message to Bob saying see you", "text Bob: see you", "给 Alice 发消息 你好", "发消息给 Bob：明天见", "发送 你好 给 张伟"',
  'open a web address in the browser: "open example.com in browser", "visit https://example.org", "在浏览器打开 example.com", "访问 example.com"',
  'go back or home: "go back", "press back", "go home", "返回", "回到主屏幕", "回到桌面"',
  'several of these in order, joined by "and", "then", ",", "然后", "接着", "，": "open Settings and turn on Wi-Fi", "打开设置，然后打开蓝牙"',
];

/** A substring of the goal: `text` as written, `folded` after {@link foldPunctuation} (same length). */
interface GoalSpan {
  text: string;
  folded: string;
}

type Captures = (name: string) => string | undefined;

interface GoalRule {
  pattern: RegExp;
  build(capture: Captures): GoalIntent | undefined;
}

const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:\/\/\S+|(?:www\.)?[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}(?::\d+)?(?:[/?#]\S*)?)$/iu;
const ON_VERBS_ZH = /^(?:打开|开启|启用|开)$/;

function label(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = unquote(value).replace(/^[\s.,;:!?]+|[\s.,;:!?]+$/g, '');
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
  return text?.replace(/\s*(?:switch|toggle|开关|功能)$/i, '').trim() || undefined;
}

function toggle(what: string | undefined, on: boolean): GoalIntent | undefined {
  const setting = settingName(what);
  return setting === undefined ? undefined : { kind: 'toggle', setting, on };
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
  const target = label(field.replace(/\s+(?:field|box|text ?box|text ?field|input)$/i, ''));
  return target === undefined ? undefined : { kind: 'type', text: value, field: target };
}

/** "打开X": a known setting (or "…开关") is switched on; a known app or anything else is opened. */
function openOrTurnOn(what: string | undefined): GoalIntent | undefined {
  const name = label(what);
  if (name === undefined) return undefined;
  if (findKnownApp(name)) return { kind: 'open', name: name.replace(/\s*(?:应用|程序|app)$/i, '') };
  if (findKnownSetting(name) || /开关$/.test(name)) return toggle(name, true);
  if (URL_LIKE.test(name)) return { kind: 'open_url', url: name };
  return { kind: 'open', name };
}

/** Patterns on the folded goal, most specific first. Named groups are sliced from the goal as written. */
const RULES: readonly GoalRule[] = [
  // back / home
  { pattern: /^(?:please\s+)?(?:go|navigate|press(?:\s+the)?|tap(?:\s+the)?)?\s*back(?:\s+(?:button|key))?$/i, build: () => ({ kind: 'back' }) },
  { pattern: /^(?:请)?(?:返回|后退|回退|返回上一(?:页|级|步|屏)|回到上一(?:页|级|步|屏)|按返回键?)$/, build: () => ({ kind: 'back' }) },
  {
    pattern: /^(?:please\s+)?(?:(?:go|return|navigate|get|head)\s+(?:back\s+)?(?:to\s+)?(?:the\s+)?home(?:\s+screen)?|press(?:\s+the)?\s+home(?:\s+(?:button|key))?|home(?:\s+screen)?)$/i,
    build: () => ({ kind: 'home' }),
  },
  { pattern: /^(?:请)?(?:回到|返回|回|去|进入|按)?\s*(?:主屏幕|主屏|桌面|主界面|主页键?|home\s*键)$/i, build: () => ({ kind: 'home' }) },
  // web address
  {
    pattern: /^(?:open|load|go\s+to|visit|browse(?:\s+to)?|navigate\s+to|show)\s+(?<url>\S+)\s+(?:in|with|using|on)\s+(?:the\s+|a\s+)?(?:web\s+)?(?:browser|chrome)$/i,
    build: (c) => {
      const u = url(c('url'));
      return u === undefined ? undefined : { kind: 'open_url', url: u };
    },
  },
  {
    pattern: /^(?:open|load|visit|browse(?:\s+to)?|go\s+to|navigate\s+to)\s+(?:the\s+)?(?:url|website|web\s*page|web\s*site|site|page|address|link)?\s*(?<url>\S+)$/i,
    build: (c) => {
      const u = url(c('url'));
      return u === undefined ? undefined : { kind: 'open_url', url: u };
    },
  },
  {
    pattern: /^(?:请)?(?:在|用|使用|通过)\s*(?:浏览器|chrome)\s*(?:中|里|上)?\s*(?:打开|访问|浏览|进入)\s*(?:网址|网站|网页|链接)?\s*(?<url>\S+)$/i,
    build: (c) => {
      const u = url(c('url'));
      return u === undefined ? undefined : { kind: 'open_url', url: u };
    },
  },
  {
    pattern: /^(?:请)?(?:访问|浏览|打开网址|打开网站|打开网页|打开链接)\s*(?<url>\S+)$/,
    build: (c) => {
      const u = url(c('url'));
      return u === undefined ? undefined : { kind: 'open_url', url: u };
    },
  },
  // messages
  {
    pattern: /^(?:please\s+)?(?:send|write)\s+(?:an?\s+)?(?:(?:text|sms)\s+)?(?:message|text|sms)\s+to\s+(?<to>.+?)\s*(?::|,|\s+saying|\s+that\s+says|\s+with(?:\s+the)?\s+text)\s*(?<text>.+)$/is,
    build: (c) => sendMessage(c('to'), c('text')),
  },
  { pattern: /^(?:please\s+)?(?:text|message|sms|tell)\s+(?<to>[^"':,]+?)\s*(?::|,|\s+saying|\s+that)\s*(?<text>.+)$/is, build: (c) => sendMessage(c('to'), c('text')) },
  {
    pattern: /^(?:please\s+)?(?:send|text|message|sms)\s+(?:an?\s+)?(?:(?:text|sms)\s+)?(?:message\s+)?(?<text>.+)\s+to\s+(?<to>[^"']+?)$/is,
    build: (c) => sendMessage(c('to'), c('text')),
  },
  { pattern: /^(?:请)?(?:发送?|发)(?:一条)?(?:消息|短信|信息)给\s*(?<to>.+?)\s*(?:[:,]|\s|说)\s*(?<text>.+)$/s, build: (c) => sendMessage(c('to'), c('text')) },
  {
    pattern: /^(?:请)?(?:给|向|跟|和|对)\s*(?<to>.+?)\s*发送?(?:一条|一个)?(?:消息|短信|信息)?\s*(?:说)?\s*[:,]?\s*(?<text>.+)$/s,
    build: (c) => sendMessage(c('to'), c('text')),
  },
  { pattern: /^(?:请)?发送?(?:一条)?(?:消息|短信|信息)?\s*(?<text>.+?)\s*给\s*(?<to>.+)$/s, build: (c) => sendMessage(c('to'), c('text')) },
  // switches
  { pattern: /^(?:please\s+)?(?:turn|switch|toggle|set)\s+(?<state>on|off)\s+(?:the\s+)?(?<what>.+)$/i, build: (c) => toggle(c('what'), c('state')?.toLowerCase() === 'on') },
  { pattern: /^(?:please\s+)?(?:turn|switch|toggle|set)\s+(?:the\s+)?(?<what>.+?)\s+(?:to\s+)?(?<state>on|off)$/i, build: (c) => toggle(c('what'), c('state')?.toLowerCase() === 'on') },
  { pattern: /^(?:please\s+)?(?<verb>enable|disable|activate|deactivate)\s+(?:the\s+)?(?<what>.+)$/i, build: (c) => toggle(c('what'), /^(?:enable|activate)$/i.test(c('verb') ?? '')) },
  { pattern: /^(?:请)?(?:把|将)\s*(?<what>.+?)\s*(?<verb>打开|开启|启用|关闭|关掉|关上|停用|禁用)$/, build: (c) => toggle(c('what'), ON_VERBS_ZH.test(c('verb') ?? '')) },
  { pattern: /^(?:请)?(?<verb>开启|启用|关闭|关掉|关上|停用|禁用)\s*(?<what>.+)$/, build: (c) => toggle(c('what'), ON_VERBS_ZH.test(c('verb') ?? '')) },
  { pattern: /^(?:请)?打开\s*(?<what>.+)$/, build: (c) => openOrTurnOn(c('what')) },
  // typing
  {
    pattern: /^(?:please\s+)?(?:type|enter|input|write|fill\s+in)\s+(?<text>.+)\s+(?:into|in|on)\s+(?:the\s+)?(?<field>.+?)$/is,
    build: (c) => typeText(c('text'), c('field')),
  },
  { pattern: /^(?:please\s+)?(?:type|enter|input|write)\s+(?<text>.+)$/is, build: (c) => typeText(c('text')) },
  {
    pattern: /^(?:请)?(?:在|往|向|于)\s*(?<field>.+?)\s*(?:中|里|内|上|里面)?\s*(?:输入|键入|填写|填入|打字)\s*:?\s*(?<text>.+)$/s,
    build: (c) => typeText(c('text'), c('field')),
  },
  { pattern: /^(?:请)?(?:输入|键入|填写|打字)\s*:?\s*(?<text>.+)$/s, build: (c) => typeText(c('text')) },
  // apps and items
  {
    pattern: /^(?:please\s+)?(?:open|launch|start|run|show|go\s+to|switch\s+to)\s+(?:the\s+)?(?<name>.+?)(?:\s+app(?:lication)?)?$/i,
    build: (c) => {
      const name = label(c('name'));
      return name === undefined ? undefined : { kind: 'open', name };
    },
  },
  {
    pattern: /^(?:请)?(?:启动|运行|进入|打开)\s*(?<name>.+?)(?:应用|程序|app)?$/i,
    build: (c) => {
      const name = label(c('name'));
      return name === undefined ? undefined : { kind: 'open', name };
    },
  },
  {
    pattern: /^(?:please\s+)?(?:tap|click|press|select|touch|choose|hit)\s+(?:on\s+)?(?:the\s+)?(?<target>.+?)(?:\s+(?:button|row|item|tab|icon|link|option|entry))?$/i,
    build: (c) => {
      const target = label(c('target'));
      return target === undefined ? undefined : { kind: 'tap', target };
    },
  },
  {
    pattern: /^(?:请)?(?:点击|点按|轻触|轻点|单击|点一下|按下|点|按)\s*(?<target>.+?)(?:按钮|选项|图标|条目)?$/,
    build: (c) => {
      const target = label(c('target'));
      return target === undefined ? undefined : { kind: 'tap', target };
    },
  },
];

/** Separators between the parts of a compound goal (tried on the goal with quoted passages masked). */
const SEPARATOR = /\s*[,;]?\s*(?:然后|接着|之后|随后|并且|再)\s*|\s*[,;]\s*(?:and\s+)?then\s+|\s+and\s+then\s+|\s+then\s+|\s+and\s+|\s*[,;]\s*/giu;

function trimSpan(span: GoalSpan): GoalSpan {
  const lead = span.folded.length - span.folded.trimStart().length;
  const end = span.folded.trimEnd().length;
  return { text: span.text.slice(lead, end), folded: span.folded.slice(lead, end) };
}

function parseSingle(span: GoalSpan): GoalIntent | undefined {
  const { text, folded } = trimSpan(span);
  // Each rule sees the part as written (a message keeps its final "?"), then without the sentence's final punctuation.
  const bodies = [folded, folded.replace(/[\s.!?]+$/, '')].filter((b, i, all) => b !== '' && all.indexOf(b) === i);
  for (const rule of RULES) {
    for (const body of bodies) {
      const match = new RegExp(rule.pattern.source, rule.pattern.flags + 'd').exec(body);
      if (!match) continue;
      const capture: Captures = (name) => {
        const at = match.indices?.groups?.[name];
        return at === undefined ? undefined : text.slice(at[0], at[1]);
      };
      const intent = rule.build(capture);
      if (intent) return intent;
    }
  }
  return undefined;
}

/** Splits `span` at separators outside quoted passages; one part when there is none. */
function splitCompound(span: GoalSpan): GoalSpan[] {
  let masked = span.folded;
  for (const [start, end] of quotedSpans(span.folded)) masked = masked.slice(0, start) + '\u0000'.repeat(end - start) + masked.slice(end);
  const parts: GoalSpan[] = [];
  let from = 0;
  for (const m of masked.matchAll(SEPARATOR)) {
    const at = m.index ?? 0;
    if (at === 0 || at + m[0].length >= masked.length) continue;
    parts.push({ text: span.text.slice(from, at), folded: span.folded.slice(from, at) });
    from = at + m[0].length;
  }
  parts.push({ text: span.text.slice(from), folded: span.folded.slice(from) });
  return parts.filter((p) => p.folded.trim() !== '');
}

/**
 * Parses a goal (English or Chinese, any case, typographic quotes and Unicode hyphens allowed) into
 * the intents it asks for, in order. A compound goal is split at "and"/"then"/","/"然后"… only when
 * every part is understood on its own (so "tap Terms and Conditions" stays one tap).
 * @returns the intents, or `undefined` when the goal matches none of {@link SUPPORTED_GOAL_FORMS}.
 */
export function parseGoal(goal: string): GoalIntent[] | undefined {
  const whole: GoalSpan = { text: goal, folded: foldPunctuation(goal) };
  const parts = splitCompound(whole);
  if (parts.length > 1) {
    const intents = parts.map(parseSingle);
    if (intents.every((i): i is GoalIntent => i !== undefined)) return intents;
  }
  const single = parseSingle(whole);
  return single === undefined ? undefined : [single];
}
