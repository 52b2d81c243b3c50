import { checkSync } from 'recheck';
import { GOAL_PATTERNS, parseGoal } from './goal-parser';
import { TOOL_CLAUSE_PATTERNS } from './tool-call-clauses';

/**
 * Goal parsing runs synchronously in the gateway, so a pattern that backtracks more than linearly on
 * some goal freezes every session (a quadratic or cubic pattern takes seconds on a goal of a few
 * hundred characters). recheck proves each pattern safe: its automaton checker finds no input on
 * which matching takes more than linear time. It runs without a time limit, so its verdict does not
 * depend on how busy the machine is.
 */
describe('goal patterns', () => {
  it.each(GOAL_PATTERNS.map((pattern, index) => [index, pattern.source.slice(0, 80), pattern] as const))('#%i %s is safe from catastrophic backtracking', (_index, _source, pattern) => {
    const result = checkSync(pattern.source, pattern.flags.replace(/[gd]/g, ''), { timeout: null });
    expect(result.status === 'vulnerable' ? { status: result.status, complexity: result.complexity, attack: result.attack.pattern } : { status: result.status }).toEqual({
      status: 'safe',
    });
  }, 600_000);

  // Sticky patterns match at one position only: checked anchored there, by the automaton checker alone
  // (its verdict is a proof, not a fuzzing result that could depend on the machine's load).
  it.each(TOOL_CLAUSE_PATTERNS.map((pattern, index) => [index, pattern.source.slice(0, 80), pattern] as const))('tool-call clause pattern #%i %s is safe from catastrophic backtracking', (_index, _source, pattern) => {
    expect(pattern.sticky).toBe(true);
    const result = checkSync(`^(?:${pattern.source})`, pattern.flags.replace(/[gdy]/g, ''), { timeout: null, checker: 'automaton' });
    expect(result.status === 'vulnerable' ? { status: result.status, complexity: result.complexity, attack: result.attack.pattern } : { status: result.status }).toEqual({
      status: 'safe',
    });
  }, 600_000);
});

/** The longest goal a task accepts (`maxGoalLength` of the task case, in code points). */
const MAX_GOAL_LENGTH = 2000;

/** `prefix` + `run` repeated + `suffix`, as long as fits in {@link MAX_GOAL_LENGTH} code points; `run` repeated how many times. */
function padded(prefix: string, run: string, suffix: string): { goal: string; times: number } {
  const length = (text: string) => Array.from(text).length;
  const times = Math.floor((MAX_GOAL_LENGTH - length(prefix) - length(suffix)) / length(run));
  return { goal: prefix + run.repeat(times) + suffix, times };
}

describe('parseGoal on goals of the maximum length', () => {
  it.each([
    ['spaces', ' '],
    ['tabs', '\t'],
    ['no-break spaces', '\u00a0'],
    ['ideographic spaces', '\u3000'],
    ['line breaks and em spaces', '\n\u2003'],
    ['zero-width spaces, bidi marks and spaces', '\u200b \u200e\u200f'],
  ])('reads a message after a run of %s as the message', (_name, run) => {
    expect(parseGoal(padded('text Bob:', run, 'hi').goal)).toEqual([{ kind: 'send_message', recipient: 'Bob', text: 'hi' }]);
    expect(parseGoal(padded('send a message to', run, 'Bob: see you').goal)).toEqual([{ kind: 'send_message', recipient: 'Bob', text: 'see you' }]);
  });

  it.each([
    ['spaces', ' '],
    ['ideographic spaces', '\u3000'],
    ['tabs', '\t'],
  ])('reads Chinese goals padded with %s', (_name, run) => {
    expect(parseGoal(padded('在X', run, '输入你好').goal)).toEqual([{ kind: 'type', text: '你好', field: 'X' }]);
    expect(parseGoal(padded('把X', run, '打开').goal)).toEqual([{ kind: 'toggle', setting: 'X', on: true }]);
    expect(parseGoal(padded('打开', run, '蓝牙').goal)).toEqual([{ kind: 'toggle', setting: '蓝牙', on: true }]);
  });

  it('keeps every inner space of a quoted text to type', () => {
    const { goal } = padded('type "a', ' ', 'b" into Search');
    expect(parseGoal(goal)).toEqual([{ kind: 'type', text: goal.slice('type "'.length, -'" into Search'.length), field: 'Search' }]);
  });

  it('reads a run of repeated words as one label, message or text', () => {
    const words = padded('tap', ' a', '');
    expect(parseGoal(words.goal)).toEqual([{ kind: 'tap', target: words.goal.slice('tap '.length) }]);
    const to = padded('send hi', ' to Bob', '');
    expect(parseGoal(to.goal)).toEqual([{ kind: 'send_message', recipient: 'Bob', text: 'hi' + ' to Bob'.repeat(to.times - 1) }]);
    const as = padded('enter x', ' as my', ' name');
    expect(parseGoal(as.goal)).toEqual([{ kind: 'type', text: 'x' + ' as my'.repeat(as.times - 1), field: 'name' }]);
    const into = padded('type x', ' into x', '');
    expect(parseGoal(into.goal)).toEqual([{ kind: 'type', text: 'x' + ' into x'.repeat(into.times - 1), field: 'x' }]);
    expect(parseGoal(padded('wait for', ' now', '').goal)).toEqual([{ kind: 'tap', target: 'wait', names: ['Wait', '等待'], whole: true }]);
  });

  it('reads a run of clauses as one intent each', () => {
    const thenTap = padded('tap a', ' then tap a', '');
    expect(parseGoal(thenTap.goal)).toEqual(Array.from({ length: thenTap.times + 1 }, () => ({ kind: 'tap', target: 'a' })));
    const wifi = padded('turn on Wi-Fi', ' and Wi-Fi', '');
    expect(parseGoal(wifi.goal)).toEqual(Array.from({ length: wifi.times + 1 }, () => ({ kind: 'toggle', setting: 'Wi-Fi', on: true })));
    const quoted = padded('tap ', '"a" & ', '"a"');
    expect(parseGoal(quoted.goal)).toEqual(Array.from({ length: quoted.times + 1 }, () => ({ kind: 'tap', target: 'a' })));
  });

  it('reads at most 12 Chinese clauses written one after the other, the rest as one', () => {
    const goal = '打开设置'.repeat(MAX_GOAL_LENGTH / 4);
    expect(parseGoal(goal)).toEqual([...Array.from({ length: 11 }, () => ({ kind: 'open', name: '设置' })), { kind: 'open', name: goal.slice(11 * 4 + 2), orSwitchOn: true }]);
    const visits = padded('打开浏览器', '访问example.com', '');
    expect(parseGoal(visits.goal)).toEqual([{ kind: 'open', name: '浏览器' }, ...Array.from({ length: 10 }, () => ({ kind: 'open_url', url: 'example.com' })), { kind: 'open_url', url: visits.goal.slice(5 + 10 * 13 + 2) }]);
  });

  it('understands nothing in punctuation, repeated serial verbs or invisible characters', () => {
    expect(parseGoal('.'.repeat(MAX_GOAL_LENGTH))).toBeUndefined();
    expect(parseGoal('给'.repeat(MAX_GOAL_LENGTH))).toBeUndefined();
    expect(parseGoal('在'.repeat(MAX_GOAL_LENGTH))).toBeUndefined();
    expect(parseGoal('\u202e'.repeat(MAX_GOAL_LENGTH))).toBeUndefined();
    expect(parseGoal('\u200b \u2066'.repeat(MAX_GOAL_LENGTH / 3))).toBeUndefined();
  });

  it('takes the dialog verb, not politeness, after a run of punctuation', () => {
    expect(parseGoal(padded('tap OK', '!', '').goal)).toEqual([{ kind: 'tap', target: 'OK' }]);
    expect(parseGoal('dismiss' + ' now'.repeat(498) + ' x')).toBeUndefined();
    expect(parseGoal('ok' + ' now'.repeat(499) + ' x')).toBeUndefined();
  });
});

describe('parseGoal on pathological goals', () => {
  it('reads "add" followed by 2,000 characters as adding the thing so named', () => {
    const thing = ' please'.repeat(284).slice(1) + ' x';
    expect(parseGoal('add ' + thing)).toEqual([expect.objectContaining({ kind: 'tap', target: `add ${thing}` })]);
  });

  it('reads a 2,000-character tap goal without separators as one tap', () => {
    const goal = 'tap a b'.repeat(285);
    expect(parseGoal(goal)).toEqual([{ kind: 'tap', target: goal.slice('tap '.length) }]);
  });

  it('still reads politeness after a dialog verb', () => {
    expect(parseGoal('dismiss now, please')).toEqual([expect.objectContaining({ kind: 'tap', target: 'dismiss', whole: true })]);
    expect(parseGoal('skip for now')).toEqual([expect.objectContaining({ kind: 'tap', target: 'skip', whole: true })]);
    expect(parseGoal('close the dialog button')).toEqual([expect.objectContaining({ kind: 'tap', target: 'close', whole: true })]);
  });
});
