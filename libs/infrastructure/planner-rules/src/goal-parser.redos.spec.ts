import { checkSync } from 'recheck';
import { GOAL_PATTERNS, parseGoal } from './goal-parser';

/**
 * Goal parsing runs synchronously in the gateway, so a pattern that backtracks exponentially on some
 * goal freezes every session. recheck proves the absence of exponential backtracking statically;
 * the parses below would hang the suite (jest timeout) rather than pass if it came back.
 */
describe('goal patterns', () => {
  it('none backtracks exponentially', () => {
    const exponential = GOAL_PATTERNS.map((pattern) => checkSync(pattern.source, pattern.flags.replace(/[gd]/g, '')))
      .filter((result) => result.status === 'vulnerable' && result.complexity.type === 'exponential')
      .map((result) => result.source);
    expect(exponential).toEqual([]);
  }, 300_000);
});

describe('parseGoal on pathological goals', () => {
  it('gives no intent for a dialog verb followed by 2,000 characters of politeness and a stray word', () => {
    expect(parseGoal('dismiss' + ' now'.repeat(500) + ' x')).toBeUndefined();
    expect(parseGoal('ok' + ' now'.repeat(500) + ' x')).toBeUndefined();
  });

  it('reads "add" followed by 2,000 characters as adding the thing so named', () => {
    const thing = ' please'.repeat(286).slice(1) + ' x';
    expect(parseGoal('add ' + thing)).toEqual([expect.objectContaining({ kind: 'tap', target: `add ${thing}` })]);
  });

  it('reads a 2,100-character tap goal without separators as one tap', () => {
    const goal = 'tap a b'.repeat(300);
    expect(parseGoal(goal)).toEqual([{ kind: 'tap', target: goal.slice('tap '.length) }]);
  });

  it('still reads politeness after a dialog verb', () => {
    expect(parseGoal('dismiss now, please')).toEqual([expect.objectContaining({ kind: 'tap', target: 'dismiss', whole: true })]);
    expect(parseGoal('skip for now')).toEqual([expect.objectContaining({ kind: 'tap', target: 'skip', whole: true })]);
    expect(parseGoal('close the dialog button')).toEqual([expect.objectContaining({ kind: 'tap', target: 'close', whole: true })]);
  });
});
