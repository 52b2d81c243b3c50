import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evalLine, exitStatus, REAL_SCREEN_GATE, realScreenProblems } from '../eval';
import type { EvalReport } from '../run-eval';
import { expectationFor, failsSafely, NO_ACTION, tapAny } from './expectation';
import { REAL_SCREEN_GOALS, type RealScreenGoal } from './real-screen-goals';
import { realScreenSummary, runRealScreenEvaluation, summariseRealScreens, type RealScreenGoalResult, type RealScreenSummary } from './run-real-screens';

const byId = (id: string): RealScreenGoal => {
  const goal = REAL_SCREEN_GOALS.find((g) => g.id === id);
  if (!goal) throw new Error(`no goal ${id}`);
  return goal;
};

describe('runRealScreenEvaluation (real gateway, phones replaying recorded screens, rule-based planner)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'mobileclaw-real-screens-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs each goal as a task on its recorded screen and judges what the phone received', async () => {
    const goals: RealScreenGoal[] = [
      byId('network-wifi-off'),
      byId('network-wifi-on-done'),
      byId('anr-sandwich'),
      byId('datetime-ja-auto-time-off'),
      { id: 'no-such-screen', screen: 'no-such-screen.xml', goal: 'tap OK', lang: 'en', kind: 'dialog-verb', expect: tapAny([0, 0, 10, 10]) },
    ];
    const resultsFile = join(dir, 'out', 'real-screen-results.json');
    const report = await runRealScreenEvaluation({ goals, env: {}, concurrency: 3, resultsFile });
    const results = Object.fromEntries(report.results.map((r) => [r.id, r]));
    // The Wi‑Fi switch is the only way to turn Wi‑Fi off here; the screen never shows the effect.
    expect(results['network-wifi-off']).toMatchObject({ outcome: 'success', planner: 'rule-based', taskId: expect.any(String), firstAction: expect.stringMatching(/^click \(/) });
    expect(results['network-wifi-off']?.actions[0]).toBe(results['network-wifi-off']?.firstAction?.replace(/ on element .*$/, ''));
    expect(results['network-wifi-off']?.status).not.toBe('completed');
    expect(results['network-wifi-on-done']).toMatchObject({ outcome: 'success', status: 'completed', actions: [], steps: 1 });
    expect(results['anr-sandwich']).toMatchObject({ outcome: 'success', status: 'failed', actions: [], taskOutcome: expect.stringMatching(/^GOAL_FAILED: /) });
    expect(results['no-such-screen']).toMatchObject({ outcome: 'crashed', status: 'crashed', reason: expect.stringMatching(/^crashed: cannot load no-such-screen\.xml: ENOENT/) });
    // Outside the rule-based planner's declared scope (a Japanese screen): refused at once, with its reason, and that is its success.
    expect(results['datetime-ja-auto-time-off']).toMatchObject({
      outcome: 'success',
      status: 'failed',
      actions: [],
      steps: 1,
      expect: { kind: 'fails_safely', why: expect.stringMatching(/^outside the rule-based planner's declared scope: the switch is labelled only in Japanese/) },
      ruleBasedOutOfScope: byId('datetime-ja-auto-time-off').ruleBasedOutOfScope,
      taskOutcome: expect.stringMatching(/^GOAL_FAILED: .*the screen is written in Japanese, a language the planner has no words for/),
    });
    expect(realScreenSummary(report)).toEqual({
      planner: 'rule-based',
      goals: 5,
      success: 4,
      safe_failures: 0,
      wrong_actions: 0,
      crashed: 1,
      success_rate: 0.8,
      in_scope: 3,
      in_scope_success: 2,
      declared_out_of_scope: 1,
      wrong_action_ids: [],
      wall_ms: expect.any(Number),
    });
    expect(realScreenProblems(report)).toEqual([`real screen goal no-such-screen (crashed): ${results['no-such-screen']?.reason}`]);
    expect(existsSync(resultsFile)).toBe(true);
    expect(JSON.parse(readFileSync(resultsFile, 'utf8'))).toMatchObject({ goals: 5, results: report.results.map((r) => ({ id: r.id, outcome: r.outcome })) });
  }, 60_000);

  it('refuses duplicate goal ids before starting anything', async () => {
    const goal = byId('anr-sandwich');
    await expect(runRealScreenEvaluation({ goals: [goal, goal], env: {} })).rejects.toThrow('real-screen goal ids must be unique');
  });
});

function result(id: string, outcome: RealScreenGoalResult['outcome'], expect_: RealScreenGoalResult['expect']): RealScreenGoalResult {
  return { id, screen: 's.xml', goal: id, lang: 'en', kind: 'own-words', expect: expect_, outcome, reason: '', status: 'failed', actions: [], steps: 1, wallMs: 1 };
}

describe('expectationFor', () => {
  const marked = byId('clock-timer-5-min');

  it('holds the rule-based planner to refusing a goal it declares outside its scope, with the reason', () => {
    expect(expectationFor(marked, 'rule-based')).toEqual({
      kind: 'fails_safely',
      why: "outside the rule-based planner's declared scope: setting a timer to a duration is several steps with a value (open Timer, enter 5:00, start it), not one of its goal forms",
    });
  });

  it('holds any other planner to the first action every capable planner must take', () => {
    expect(expectationFor(marked, 'llm:qwen-vl-max')).toBe(marked.expect);
    expect(marked.expect).toEqual(tapAny([432, 1868, 648, 2088]));
    const unmarked = byId('network-wifi-off');
    expect(expectationFor(unmarked, 'rule-based')).toBe(unmarked.expect);
  });
});

describe('summariseRealScreens', () => {
  it('counts outcomes and the in-scope goals (an expected action or completion), and lists the wrong ones', () => {
    const report = summariseRealScreens(
      'rule-based',
      [
        result('a', 'success', tapAny([0, 0, 1, 1])),
        result('b', 'safe_failure', NO_ACTION),
        result('c', 'wrong_action', tapAny([0, 0, 1, 1])),
        result('d', 'success', failsSafely('x')),
        result('e', 'wrong_action', failsSafely('x')),
        result('f', 'crashed', NO_ACTION),
        { ...result('g', 'success', failsSafely('outside the rule-based planner\'s declared scope: x')), ruleBasedOutOfScope: 'x' },
        { ...result('h', 'safe_failure', tapAny([0, 0, 1, 1])), ruleBasedOutOfScope: 'y' },
      ],
      1234.4,
    );
    // g: held to refusing it (this planner declared it out of scope); h: marked, but held to acting (another planner's run).
    expect(realScreenSummary(report)).toEqual({
      planner: 'rule-based',
      goals: 8,
      success: 3,
      safe_failures: 2,
      wrong_actions: 2,
      crashed: 1,
      success_rate: 0.375,
      in_scope: 5,
      in_scope_success: 1,
      declared_out_of_scope: 1,
      wrong_action_ids: ['c', 'e'],
      wall_ms: 1234,
    });
    const problems = (r: typeof report): string[] => realScreenProblems(r).map((line) => line.replace(/\): $/, ')'));
    expect(problems(report)).toEqual(['real screen goal b (safe_failure)', 'real screen goal c (wrong_action)', 'real screen goal e (wrong_action)', 'real screen goal f (crashed)', 'real screen goal h (safe_failure)']);
    // An LLM planner is held to no wrong actions and no crashes only.
    expect(problems({ ...report, planner: 'llm:m' })).toEqual(['real screen goal c (wrong_action)', 'real screen goal e (wrong_action)', 'real screen goal f (crashed)']);
    expect(summariseRealScreens('rule-based', [], 0)).toMatchObject({ goals: 0, success_rate: 0 });
  });
});

describe('npm run eval: the real-screen results beside the simulated ones', () => {
  const simulated: EvalReport = {
    planner: 'rule-based',
    goals: 2,
    succeeded: 2,
    success_rate: 1,
    mean_steps: 2,
    mean_ms_per_step: { settle: 1, capture: 1, transfer: 1, planning: 1, action: 1, total: 5 },
    failures: [],
    crashed: 0,
    wall_ms: 10,
    results: [],
  };
  const clean: RealScreenSummary = {
    planner: 'rule-based',
    goals: 3,
    success: 3,
    safe_failures: 0,
    wrong_actions: 0,
    crashed: 0,
    success_rate: 1,
    in_scope: 2,
    in_scope_success: 2,
    declared_out_of_scope: 0,
    wrong_action_ids: [],
    wall_ms: 5,
  };

  it('prints one line: the simulated summary’s fields, and the real-screen summary under real_screens', () => {
    const line = evalLine(simulated, { ...clean, results: [result('a', 'success', NO_ACTION)] });
    expect(line).not.toContain('\n');
    const { real_screens, ...rest } = JSON.parse(line);
    expect(rest).toEqual({ planner: 'rule-based', goals: 2, succeeded: 2, success_rate: 1, mean_steps: 2, mean_ms_per_step: simulated.mean_ms_per_step, failures: [], crashed: 0, wall_ms: 10 });
    expect(real_screens).toEqual(clean);
  });

  it('has the gate on', () => {
    expect(REAL_SCREEN_GATE).toBe(true);
  });

  it('with the gate off, real-screen misses change nothing; a crash always fails the run', () => {
    const missed = { ...clean, success: 1, wrong_actions: 1, in_scope_success: 1, wrong_action_ids: ['x'] };
    expect(exitStatus(simulated, missed, false)).toBe(0);
    expect(exitStatus(simulated, { ...clean, crashed: 1 }, false)).toBe(1);
    expect(exitStatus({ ...simulated, success_rate: 0.5 }, clean, false)).toBe(1);
    expect(exitStatus(simulated)).toBe(0);
  });

  it('with the gate on, a wrong action fails the run, and so does a missed in-scope goal of the rule-based planner', () => {
    expect(exitStatus(simulated, clean)).toBe(0);
    expect(exitStatus(simulated, { ...clean, wrong_actions: 1, wrong_action_ids: ['x'] })).toBe(1);
    expect(exitStatus(simulated, clean, true)).toBe(0);
    expect(exitStatus(simulated, { ...clean, wrong_actions: 1, wrong_action_ids: ['x'] }, true)).toBe(1);
    expect(exitStatus(simulated, { ...clean, in_scope_success: 1 }, true)).toBe(1);
    // An LLM planner is held to no wrong actions only.
    expect(exitStatus({ ...simulated, planner: 'llm:m' }, { ...clean, planner: 'llm:m', in_scope_success: 1 }, true)).toBe(0);
    expect(exitStatus({ ...simulated, planner: 'llm:m' }, { ...clean, planner: 'llm:m', wrong_actions: 1 }, true)).toBe(1);
  });
});
