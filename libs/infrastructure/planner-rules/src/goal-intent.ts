/**
 * What the rule-based planner understood a goal to mean. A goal is one intent or several run in
 * order ("open Settings and turn on Wi-Fi").
 */
export type GoalIntent =
  /**
   * Launch an app by name, or (when no app has that name) open the visible item with that label.
   * `orSwitchOn`: the goal's verb also means "turn on" (Chinese "打开X"), so when nothing on the
   * screen is X but one switch is labelled X ("打开8:30的闹钟": the 8:30 alarm's switch), X is
   * switched on instead.
   */
  | { kind: 'open'; name: string; orSwitchOn?: true }
  /**
   * Tap the element labelled `target` (as the goal wrote it). `names`, when set, lists every label
   * that counts as that target, most specific first, both languages (e.g. for "dismiss the dialog":
   * Dismiss, Close, Got it, Cancel, …, 关闭, 取消); default `[target]`. Set for a dialog, permission or
   * tour verb ("allow", "skip", "知道了"), for "add X" and for a control of something ("expand X");
   * a goal that says "tap X" names one label.
   * - `whole`: a label counts only when it is one of `names` whole (exact, or but for case, spaces
   *   and punctuation), never when it merely contains one ("Close" is not "Close app"); set for
   *   dialog verbs, whose names are complete button labels.
   * - `fallback`: labels tried (also whole) only when none of `names` is on the screen (a tour's
   *   "Got it" for "skip").
   * - `within`: the thing the control belongs to ("expand the 9:00 AM alarm": an "Expand" button
   *   inside the card that shows 9:00 AM; "add X to the cart": the "Add to cart" button of X's card).
   */
  | { kind: 'tap'; target: string; names?: readonly string[]; whole?: true; fallback?: readonly string[]; within?: string }
  /** Type `text` into the field labelled `field` (or the focused / only field when absent). */
  | { kind: 'type'; text: string; field?: string }
  /** Set the switch of `setting` to `on`. */
  | { kind: 'toggle'; setting: string; on: boolean }
  /** Send `text` to `recipient` in the messaging app. */
  | { kind: 'send_message'; recipient: string; text: string }
  /** Load `url` in the browser. */
  | { kind: 'open_url'; url: string }
  | { kind: 'back' }
  | { kind: 'home' };

/** Characters of a text quoted whole in reasons and summaries; longer texts are shortened. */
const QUOTE_LIMIT = 60;

/**
 * `text` as a JSON string for a reason or summary; a text longer than {@link QUOTE_LIMIT} code points
 * is cut there and its length given, e.g. `"zzzz…" (1000 characters)`, so that a long message does
 * not flood a task's log.
 */
export function quoteText(text: string): string {
  const chars = Array.from(text);
  if (chars.length <= QUOTE_LIMIT) return JSON.stringify(text);
  return `${JSON.stringify(chars.slice(0, QUOTE_LIMIT).join('') + '…')} (${chars.length} characters)`;
}

/** A short English description, e.g. `turn on "Wi-Fi"`, for reasons and summaries. */
export function describeIntent(intent: GoalIntent): string {
  switch (intent.kind) {
    case 'open':
      return `open ${JSON.stringify(intent.name)}`;
    case 'tap':
      return intent.within === undefined ? `tap ${JSON.stringify(intent.target)}` : `tap ${JSON.stringify(intent.target)} of ${JSON.stringify(intent.within)}`;
    case 'type':
      return intent.field === undefined
        ? `type ${quoteText(intent.text)}`
        : `type ${quoteText(intent.text)} into ${JSON.stringify(intent.field)}`;
    case 'toggle':
      return `turn ${intent.on ? 'on' : 'off'} ${JSON.stringify(intent.setting)}`;
    case 'send_message':
      return `send ${quoteText(intent.text)} to ${JSON.stringify(intent.recipient)}`;
    case 'open_url':
      return `open ${JSON.stringify(intent.url)} in the browser`;
    case 'back':
      return 'go back';
    case 'home':
      return 'go to the home screen';
  }
}

/** {@link describeIntent} for a whole goal: the intents joined by ", then ". */
export function describeGoal(intents: readonly GoalIntent[]): string {
  return intents.map(describeIntent).join(', then ');
}
