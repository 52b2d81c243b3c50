import { join } from 'node:path';
import { exitStatus } from './eval';
import { EVAL_GOALS, type EvalGoal, type GoalForm } from './goals';
import { screenIs, switchIs, unchanged, type PhoneCheck } from './phone-checks';
import { runEvaluation, summaryLine } from './run-eval';

/** No message was sent to `name` (the conversation may have been opened). */
const nothingSentTo =
  (name: string): PhoneCheck =>
  (phone) =>
    (phone.ui.state.conversations[name] ?? []).length === 0 || `a message was sent to ${name}`;

const FORMS: GoalForm[] = ['open_app', 'open_item', 'toggle', 'tap', 'type', 'send_message', 'open_url', 'back_home', 'compound', 'unknown'];

describe('evaluation suite (real gateway, simulated phones, rule-based planner)', () => {
  it('covers every declared goal form in English and Chinese, with honest failures', () => {
    expect(EVAL_GOALS.length).toBeGreaterThanOrEqual(25);
    expect(new Set(EVAL_GOALS.map((g) => g.id)).size).toBe(EVAL_GOALS.length);
    for (const form of FORMS) {
      expect(EVAL_GOALS.filter((g) => g.form === form && g.lang === 'en').length).toBeGreaterThan(0);
      expect(EVAL_GOALS.filter((g) => g.form === form && g.lang === 'zh').length).toBeGreaterThan(0);
    }
    expect(EVAL_GOALS.filter((g) => g.expect === 'fail').length).toBeGreaterThanOrEqual(2);
    expect(EVAL_GOALS.filter((g) => g.setup !== undefined).length).toBeGreaterThan(EVAL_GOALS.length / 2);
  });

  it('runs goals through the gateway and judges them on the phones’ final state: one goal of every form in each language succeeds', async () => {
    // `npm run eval` runs every goal (and fails on any miss); here the runner is tested on one goal per
    // form and language, so that CI, which runs both, does not run the whole evaluation twice.
    const goals = FORMS.flatMap((form) => (['en', 'zh'] as const).map((lang) => EVAL_GOALS.find((g) => g.form === form && g.lang === lang) as EvalGoal));
    const report = await runEvaluation({ goals, env: {}, resultsFile: join(__dirname, '..', '..', 'test-output', 'eval-spec-results.json') });
    console.log(summaryLine(report));
    expect(report.planner).toBe('rule-based');
    expect(report.goals).toBe(20);
    expect(new Set(report.results.map((r) => r.id)).size).toBe(20);
    expect(report.failures).toEqual([]);
    expect(report.crashed).toBe(0);
    expect(report.success_rate).toBe(1);
    expect(exitStatus(report)).toBe(0);
    // Every task really ran through the gateway with the rule-based planner and recorded its steps.
    for (const result of report.results) {
      expect(result).toMatchObject({ succeeded: true, planner: 'rule-based', check: true, taskId: expect.any(String) });
      expect(result.status).toBe(result.expect === 'complete' ? 'completed' : 'failed');
      expect(result.steps).toBeGreaterThanOrEqual(1);
    }
    expect(report.mean_steps).toBeGreaterThan(1);
    const { settle, capture, transfer, planning, action, total } = report.mean_ms_per_step;
    // Each observation waited at least one 200 ms pause (the default) for the still simulated screen.
    expect(settle).toBeGreaterThanOrEqual(200);
    expect(capture).toBeGreaterThan(0);
    expect(action).toBeGreaterThan(0);
    expect(total).toBeCloseTo(settle + capture + transfer + planning + action, 1);
    // A guard against a hung run, not a speed check: every observation waits for the UI to settle.
  }, 180_000);

  it('reports goals that did not end as expected, with the reason, and never trusts the planner’s claim', async () => {
    const goals: EvalGoal[] = [
      { id: 'wrong-state', lang: 'en', form: 'toggle', goal: 'Turn on Wi-Fi', check: switchIs('wifi', false), expect: 'complete' },
      { id: 'not-understood', lang: 'en', form: 'unknown', goal: 'make me a sandwich', check: unchanged(), expect: 'complete' },
      { id: 'did-not-fail', lang: 'en', form: 'open_app', goal: 'open Settings', check: screenIs('settings'), expect: 'fail' },
      { id: 'too-many-actions', lang: 'en', form: 'toggle', goal: 'Turn on Bluetooth', check: switchIs('bluetooth', true), expect: 'complete', maxActions: 0 },
      { id: 'unexpected-approval', lang: 'en', form: 'send_message', goal: "send 'hi' to Nina", check: nothingSentTo('Nina'), expect: 'complete' },
      {
        id: 'bad-setup',
        lang: 'en',
        form: 'back_home',
        goal: 'go home',
        setup: () => {
          throw new Error('no such screen');
        },
        check: screenIs('launcher'),
        expect: 'complete',
      },
    ];
    const report = await runEvaluation({ goals, env: {}, concurrency: 3 });
    expect(report).toMatchObject({ planner: 'rule-based', goals: 6, succeeded: 0, success_rate: 0, crashed: 1 });
    const reasons = Object.fromEntries(report.failures.map((f) => [f.id, [f.status, f.reason]]));
    expect(reasons).toEqual({
      'wrong-state': ['completed', 'check failed: Wi-Fi is on, expected off'],
      'not-understood': ['failed', expect.stringMatching(/^expected the task to end completed, it ended failed \(GOAL_FAILED: I do not understand the goal "make me a sandwich"/)],
      'did-not-fail': ['completed', 'expected the task to end failed, it ended completed (Settings is open.)'],
      'too-many-actions': ['completed', 'took 2 actions, at most 0 expected'],
      'unexpected-approval': ['canceled', expect.stringMatching(/^expected the task to end completed, it ended canceled \(APPROVAL_DENIED: /)],
      'bad-setup': ['crashed', 'crashed: no such screen'],
    });
    // The denied message was never sent.
    expect(report.results.find((r) => r.id === 'unexpected-approval')).toMatchObject({ approvals: 1, check: true });
    expect(exitStatus(report)).toBe(1);
    expect(JSON.parse(summaryLine(report))).not.toHaveProperty('results');
  }, 60_000);
});
