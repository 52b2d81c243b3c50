import { foldPunctuation, hasCjk } from './goal-text';
import { equivalentLabels } from './ui-glossary';

/**
 * What a dialog, permission or tour verb may name as its object ("skip the tour", "关闭弹窗"). The
 * object never changes which buttons the verb taps; it only lets the goal say what it acts on.
 */
type ObjectKind = 'dialog' | 'tour' | 'permission' | 'terms' | 'it' | 'account' | 'awaited';

/** The objects of each kind: English (lower case; a space matches any spaces) and Chinese. */
const OBJECTS: Record<ObjectKind, { en: readonly string[]; zh: readonly string[] }> = {
  dialog: {
    en: ['dialog', 'dialogue', 'dialog box', 'popup', 'pop-up', 'pop up', 'prompt', 'alert', 'message', 'window', 'banner', 'tip', 'tooltip', 'hint', 'overlay', 'sheet', 'notice', 'ad', 'ads', 'advert', 'advertisement', 'splash screen'],
    zh: ['对话框', '弹窗', '弹框', '弹出框', '提示框', '提示', '窗口', '浮窗', '广告', '横幅'],
  },
  tour: {
    en: ['tour', 'intro', 'introduction', 'tutorial', 'onboarding', 'walkthrough', 'guide', 'welcome screen', 'tips', 'setup'],
    zh: ['引导', '新手引导', '引导页', '教程', '介绍', '欢迎页', '向导', '广告'],
  },
  permission: {
    en: ['permission', 'permissions', 'permission request', 'request', 'access', 'location access', 'camera access', 'microphone access', 'notifications'],
    zh: ['权限', '权限请求', '访问', '授权', '定位权限', '位置权限', '相机权限', '麦克风权限', '通知权限'],
  },
  terms: {
    en: ['terms', 'terms and conditions', 'terms & conditions', 'terms of service', 'conditions', 'privacy policy', 'policy', 'agreement', 'license', 'licence', 'eula', 'cookies', 'all cookies'],
    zh: ['协议', '条款', '用户协议', '服务协议', '服务条款', '隐私政策', '隐私协议', '许可协议'],
  },
  it: { en: ['it', 'this', 'that', 'them'], zh: ['它', '这个', '此'] },
  account: { en: ['account', 'to account', 'to my account', 'to your account', 'to the account', 'to the app', 'to it'], zh: ['账号', '帐号', '账户', '我的账号'] },
  // What a wait is for: "wait for Settings", "keep waiting for the app" (any words after "for"; see AWAITED).
  awaited: { en: [], zh: [] },
};

/**
 * The object of a wait in English: "for" and whatever follows, to the end ("wait for Settings", "keep
 * waiting for it to load"). `[^]` (any character, line breaks too) makes it end the match at once, so
 * nothing after it is tried in many ways.
 */
const AWAITED = 'for \\S[^]*';

/**
 * One verb a goal may use on a dialog, a permission prompt or a tour, and the button labels that
 * carry it out. It is read as a tap whose `names` are {@link DialogVerb.names}.
 */
export interface DialogVerb {
  /** English phrases a goal may use (lower case; a space matches one space or none, `'` is optional). */
  en: readonly string[];
  /** Chinese phrases a goal may use. */
  zh: readonly string[];
  /** What the verb may be said to act on ("dismiss the dialog"); none: only the bare verb. */
  objects: readonly ObjectKind[];
  /**
   * The button labels that do what the verb asks, most specific first, English then Chinese. Only
   * labels with the same effect are listed: a verb that declines never lists one that accepts, and
   * none lists a label that grants or deletes more than the verb says. A label counts only when it
   * is the button's whole label (exactly, or but for case, spaces and punctuation): "Close" never
   * taps "Close app", "Allow" never taps "Allow all the time".
   */
  names: readonly string[];
  /**
   * Labels tapped only when none of {@link names} is on the screen: another way out that does what
   * the verb asks there, e.g. a tour's "Got it" for "skip" when the tour has no Skip button.
   */
  fallback?: readonly string[];
}

/**
 * The dialog, permission and tour verbs, one row per meaning. Decisions that keep a tap safe:
 * "dismiss"/"close" list only closing and declining labels (Close, Got it, Cancel, Not now…), never
 * OK, Allow or Continue, since on a confirmation dialog those carry the action out; "allow" lists
 * the foreground grants (Allow, While using the app, Only this time) but not "Allow all the time";
 * "deny" lists plain refusals but not "Deny & don't ask again"; "close the app" is the "Close app"
 * button of an app-not-responding dialog, not a way to leave an app; "go back" stays the back key;
 * "skip" falls back to a way out that only closes (a tour's "Got it", "Close", "Not now"), never to
 * "Done", "OK" or "Continue", which may save or confirm what the screen shows; "log in" and "sign
 * up" open those flows, nothing is typed.
 */
export const DIALOG_VERBS: readonly DialogVerb[] = [
  {
    en: ['dismiss', 'close'],
    zh: ['关闭', '关掉', '关了'],
    objects: ['dialog', 'tour', 'it'],
    names: ['Dismiss', 'Close', 'Got it', 'Cancel', 'Not now', 'No thanks', '关闭', '知道了', '我知道了', '取消', '暂不', '以后再说'],
  },
  {
    en: ['close the app', 'close app', 'close this app', 'close the application', 'force close', 'force close the app'],
    zh: ['关闭应用', '关闭此应用', '关闭该应用', '关闭这个应用', '关掉应用', '关闭程序', '关闭应用程序'],
    objects: [],
    names: ['Close app', '关闭应用'],
  },
  { en: ['wait', 'keep waiting'], zh: ['等待', '继续等待', '等一下'], objects: ['awaited'], names: ['Wait', '等待'] },
  { en: ['ok', 'okay'], zh: ['确定', '好的', '好'], objects: [], names: ['OK', 'Okay', '确定', '好', '好的'] },
  { en: ['confirm'], zh: ['确认'], objects: ['it'], names: ['Confirm', 'OK', '确认', '确定'] },
  { en: ['cancel'], zh: ['取消'], objects: ['dialog', 'it'], names: ['Cancel', '取消'] },
  { en: ['got it', 'understood', 'i understand'], zh: ['知道了', '我知道了', '明白了'], objects: [], names: ['Got it', 'OK', '知道了', '我知道了', '好的', '确定'] },
  {
    en: ['allow', 'grant', 'permit'],
    zh: ['允许', '授权', '授予', '同意授权'],
    objects: ['permission', 'it'],
    names: ['Allow', 'While using the app', 'Allow only while using the app', 'Only this time', '允许', '仅在使用该应用时允许', '仅在使用中允许', '使用时允许', '仅限这一次', '本次允许'],
  },
  {
    en: ['deny', "don't allow", 'do not allow', 'refuse'],
    zh: ['拒绝', '不允许', '禁止'],
    objects: ['permission', 'it'],
    names: ['Deny', "Don't allow", 'Do not allow', '拒绝', '不允许', '禁止'],
  },
  { en: ['decline', 'disagree', 'reject', 'reject all'], zh: ['不同意', '拒绝全部'], objects: ['terms', 'it'], names: ['Decline', 'Disagree', 'Reject', 'Reject all', '不同意', '拒绝', '全部拒绝'] },
  {
    en: ['skip'],
    zh: ['跳过'],
    objects: ['tour', 'it'],
    names: ['Skip', 'Skip for now', 'Skip tour', '跳过', '暂时跳过', '跳过广告'],
    fallback: ['Got it', 'Close', 'Dismiss', 'Not now', 'No thanks', 'Maybe later', '知道了', '我知道了', '关闭', '暂不', '以后再说'],
  },
  { en: ['next', 'next step', 'next page', 'go next', 'go to the next step', 'go to the next page'], zh: ['下一步', '下一个', '下一页'], objects: [], names: ['Next', 'Next step', '下一步', '下一个', '下一页'] },
  { en: ['done', 'finish', 'finish up', "i'm done"], zh: ['完成', '好了'], objects: ['tour', 'it'], names: ['Done', 'Finish', '完成', '好了'] },
  { en: ['continue', 'proceed', 'go on'], zh: ['继续'], objects: [], names: ['Continue', 'Proceed', '继续'] },
  { en: ['accept', 'accept all'], zh: ['接受', '全部接受'], objects: ['terms', 'it'], names: ['Accept', 'Accept all', 'I accept', 'Agree', 'I agree', '接受', '全部接受', '同意', '我同意'] },
  { en: ['agree', 'i agree', 'agree to'], zh: ['同意', '我同意'], objects: ['terms', 'it'], names: ['Agree', 'I agree', 'Accept', '同意', '我同意', '接受'] },
  {
    en: ['agree and continue', 'agree & continue', 'accept and continue', 'accept & continue'],
    zh: ['同意并继续', '接受并继续'],
    objects: [],
    names: ['Agree and continue', 'Agree & continue', 'Accept and continue', 'Accept & continue', '同意并继续', '接受并继续'],
  },
  { en: ['not now', 'not right now'], zh: ['暂不', '暂时不', '现在不'], objects: [], names: ['Not now', 'Later', 'Maybe later', '暂不', '以后再说', '稍后', '下次再说'] },
  { en: ['no thanks', 'no, thanks', 'no thank you', 'no, thank you'], zh: ['不用了', '不用了，谢谢', '不，谢谢', '不了，谢谢'], objects: [], names: ['No thanks', 'No, thanks', 'No thank you', '不用了', '不，谢谢', '不了，谢谢'] },
  {
    en: ['later', 'maybe later', 'remind me later'],
    zh: ['稍后', '以后再说', '下次再说', '稍后提醒'],
    objects: [],
    names: ['Later', 'Maybe later', 'Remind me later', 'Not now', '稍后', '以后再说', '下次再说', '稍后提醒', '暂不'],
  },
  { en: ['retry', 'try again'], zh: ['重试', '再试一次', '重新尝试'], objects: [], names: ['Retry', 'Try again', '重试', '再试一次', '重新尝试'] },
  {
    en: ['start', 'get started', 'begin', "let's go", "let's start"],
    zh: ['开始', '开始使用', '立即开始', '立即体验'],
    objects: ['tour'],
    names: ['Start', 'Get started', 'Begin', "Let's go", '开始', '开始使用', '立即开始', '立即体验'],
  },
  {
    en: ['log in', 'login', 'log on', 'sign in', 'signin', 'log into', 'sign into'],
    zh: ['登录', '登入', '登陆'],
    objects: ['account'],
    names: ['Log in', 'Login', 'Sign in', '登录', '登入'],
  },
  { en: ['sign up', 'signup', 'register'], zh: ['注册'], objects: [], names: ['Sign up', 'Register', 'Create account', '注册', '立即注册'] },
  { en: ['yes'], zh: ['是', '是的'], objects: [], names: ['Yes', '是'] },
  { en: ['no'], zh: ['否'], objects: [], names: ['No', '否'] },
  { en: ['add'], zh: ['添加', '新建', '新增'], objects: [], names: ['Add', '+', 'New', '添加', '新建', '新增'] },
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A regex alternation of `phrases` (folded, longest first) for a folded, normalized goal (one space
 * at most between words): a space matches one space or none, `'` and `,` are optional.
 */
function alternation(phrases: readonly string[]): string {
  return [...new Set(phrases.map(foldPunctuation))]
    .sort((a, b) => b.length - a.length)
    .map((p) => escapeRegExp(p).replace(/ +/g, ' ?').replace(/'/g, "'?").replace(/,/g, ',?'))
    .join('|');
}

/** One pattern per language and row; group `verb` is the verb as written, `object` what it acts on. */
export interface DialogVerbPattern {
  pattern: RegExp;
  verb: DialogVerb;
}

/**
 * What may follow an English dialog verb: " button", " now", ", please", " for now", any number of
 * times. Each repetition starts with a space or a comma and ends with a word, so a text splits into
 * repetitions in exactly one way and matching stays linear (a tail whose separator could match an
 * empty string, such as `(?: ?,? ?now)*`, splits a text in exponentially many ways).
 */
const POLITE_TAIL = '(?:(?: ?, ?| )(?:now|please|for now)| button)*';

function patternsOf(verb: DialogVerb): DialogVerbPattern[] {
  const en = verb.objects.flatMap((o) => OBJECTS[o].en);
  const zh = verb.objects.flatMap((o) => OBJECTS[o].zh);
  const enObjects = [
    ...(en.length === 0 ? [] : [`(?:(?:the|this|that|these|those|all|a|an|my) )?(?:${alternation(en)})`]),
    ...(verb.objects.includes('awaited') ? [AWAITED] : []),
  ];
  const enObject = enObjects.length === 0 ? '' : `(?: (?<object>${enObjects.join('|')}))?`;
  const zhObject = zh.length === 0 ? '' : `(?: ?(?:这个|那个|该|此|掉|一下)? ?(?<object>${alternation(zh)}))?`;
  return [
    { verb, pattern: new RegExp(`^(?:please )?(?:(?:just|now) )?(?<verb>${alternation(verb.en)})${enObject}${POLITE_TAIL}$`, 'i') },
    { verb, pattern: new RegExp(`^(?:请|麻烦)?(?:帮我|给我)?(?<verb>${alternation(verb.zh)})${zhObject} ?(?:按钮|吧|一下)*$`) },
  ];
}

/** The patterns of {@link DIALOG_VERBS}, tried in table order on a folded clause of the normalized goal (see `normalizeGoal`). */
export const DIALOG_VERB_PATTERNS: readonly DialogVerbPattern[] = DIALOG_VERBS.flatMap(patternsOf);

/**
 * The labels of the button that adds `thing` ("alarm", "闹钟"), most specific first: for the thing
 * and each of its glossary equivalents, "Add X", "New X", "Create X" (English terms) or "添加X",
 * "新建X", "新增X" (Chinese terms), then the bare add buttons ("Add", "+", "New", "添加", "新建",
 * "新增"). `addNames("alarm")` starts `["Add alarm", "New alarm", "Create alarm", "Add Alarms", …,
 * "添加闹钟", "新建闹钟", "新增闹钟"]`.
 */
export function addNames(thing: string): string[] {
  const specific = equivalentLabels(thing).flatMap((term) =>
    hasCjk(term) ? [`添加${term}`, `新建${term}`, `新增${term}`] : [`Add ${term}`, `New ${term}`, `Create ${term}`],
  );
  const generic = DIALOG_VERBS.find((v) => v.en.includes('add'))?.names ?? [];
  const byScript = (cjk: boolean) => (name: string) => hasCjk(name) === cjk;
  return [...specific.filter(byScript(false)), ...specific.filter(byScript(true)), ...generic.filter((n) => !specific.includes(n))];
}
