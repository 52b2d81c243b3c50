import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evalLine, exitStatus } from '../eval';
import type { EvalReport } from '../run-eval';
import { failsSafely, NO_ACTION, tapAny } from './expectation';
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
    expect(realScreenSummary(report)).toEqual({
      planner: 'rule-based',
      goals: 4,
      success: 3,
      safe_failures: 0,
      wrong_actions: 0,
      crashed: 1,
      success_rate: 0.75,
      in_scope: 3,
      in_scope_success: 2,
      wrong_action_ids: [],
      wall_ms: expect.any(Number),
    });
    expect(existsSync(resultsFile)).toBe(true);
    expect(JSON.parse(readFileSync(resultsFile, 'utf8'))).toMatchObject({ goals: 4, results: report.results.map((r) => ({ id: r.id, outcome: r.outcome })) });
  }, 60_000);

  it('refuses duplicate goal ids before starting anything', async () => {
    const goal = byId('anr-sandwich');
    await expect(runRealScreenEvaluation({ goals: [goal, goal], env: {} })).rejects.toThrow('real-screen goal ids must be unique');
  });
});

function result(id: string, outcome: RealScreenGoalResult['outcome'], expect_: RealScreenGoalResult['expect']): RealScreenGoalResult {
  return { id, screen: 's.xml', goal: id, lang: 'en', kind: 'own-words', expect: expect_, outcome, reason: '', status: 'failed', actions: [], steps: 1, wallMs: 1 };
}

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
      ],
      1234.4,
    );
    expect(realScreenSummary(report)).toEqual({
      planner: 'rule-based',
      goals: 6,
      success: 2,
      safe_failures: 1,
      wrong_actions: 2,
      crashed: 1,
      success_rate: 0.3333,
      in_scope: 4,
      in_scope_success: 1,
      wrong_action_ids: ['c', 'e'],
      wall_ms: 1234,
    });
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
  const clean: RealScreenSummary = { planner: 'rule-based', goals: 3, success: 3, safe_failures: 0, wrong_actions: 0, crashed: 0, success_rate: 1, in_scope: 2, in_scope_success: 2, wrong_action_ids: [], wall_ms: 5 };

  it('prints one line: the simulated summary’s fields, and the real-screen summary under real_screens', () => {
    const line = evalLine(simulated, { ...clean, results: [result('a', 'success', NO_ACTION)] });
    expect(line).not.toContain('\n');
    const { real_screens, ...rest } = JSON.parse(line);
    expect(rest).toEqual({ planner: 'rule-based', goals: 2, succeeded: 2, success_rate: 1, mean_steps: 2, mean_ms_per_step: simulated.mean_ms_per_step, failures: [], crashed: 0, wall_ms: 10 });
    expect(real_screens).toEqual(clean);
  });

  it('with the gate off, real-screen misses change nothing; a crash always fails the run', () => {
    const missed = { ...clean, success: 1, wrong_actions: 1, in_scope_success: 1, wrong_action_ids: ['x'] };
    expect(exitStatus(simulated, missed, false)).toBe(0);
    expect(exitStatus(simulated, { ...clean, crashed: 1 }, false)).toBe(1);
    expect(exitStatus({ ...simulated, success_rate: 0.5 }, clean, false)).toBe(1);
    expect(exitStatus(simulated)).toBe(0);
  });

  it('with the gate on, a wrong action fails the run, and so does a missed in-scope goal of the rule-based planner', () => {
    expect(exitStatus(simulated, clean, true)).toBe(0);
    expect(exitStatus(simulated, { ...clean, wrong_actions: 1, wrong_action_ids: ['x'] }, true)).toBe(1);
    expect(exitStatus(simulated, { ...clean, in_scope_success: 1 }, true)).toBe(1);
    // An LLM planner is held to no wrong actions only.
    expect(exitStatus({ ...simulated, planner: 'llm:m' }, { ...clean, planner: 'llm:m', in_scope_success: 1 }, true)).toBe(0);
    expect(exitStatus({ ...simulated, planner: 'llm:m' }, { ...clean, planner: 'llm:m', wrong_actions: 1 }, true)).toBe(1);
  });
});
