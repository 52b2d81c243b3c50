/**
 * `npm run eval`: runs the evaluation suite with the configured planner (the LLM planner when
 * `MOBILECLAW_LLM_BASE_URL` and `MOBILECLAW_LLM_MODEL` are set, else the rule-based one): first the
 * goals on simulated phones, then the goals on recorded screens of real phones, each part on a
 * gateway of its own (the recorded screens' one settles faster, see `REPLAY_SETTLE_SETTINGS`).
 * It prints one JSON line on stdout: the simulated run's summary (see {@link EvalReport}) with the
 * real-screen summary under `real_screens` (see {@link RealScreenSummary}); the per-goal results go
 * to two files.
 *
 * Usage: `node --require ./tools/register-typescript.cjs test/eval/eval.ts
 *   [--concurrency N] [--results FILE] [--real-screen-results FILE] [--only id,id…]`
 * (defaults: 4 simulated and 8 recorded-screen goals at a time — a recorded screen's run mostly
 * waits for its static screen to settle —, `test-output/eval-results.json`,
 * `test-output/real-screen-results.json`, every goal; `--concurrency` sets both; `--only` takes
 * ids of either table).
 *
 * Exit status: 0; 1 when a goal crashed, when the rule-based planner did not reach a success rate
 * of 1 on the simulated goals (every goal is in its declared scope), or — with {@link
 * REAL_SCREEN_GATE} on, as it is — when a real-screen goal took a wrong action or the rule-based
 * planner missed an in-scope real-screen goal (each such goal is named on stderr); 2 on bad
 * arguments or when the run could not start.
 */
import { EVAL_GOALS } from './goals';
import { REAL_SCREEN_GOALS } from './real-screens/real-screen-goals';
import { inScope } from './real-screens/expectation';
import { realScreenSummary, runRealScreenEvaluation, type RealScreenReport, type RealScreenSummary } from './real-screens/run-real-screens';
import { runEvaluation, summaryLine, type EvalReport } from './run-eval';

/**
 * ───── GATE SWITCH ─────
 * When true, the exit status also requires every real-screen goal to be free of wrong actions and,
 * with the rule-based planner, every in-scope real-screen goal to succeed (a goal it declares outside
 * its scope must then fail safely, which is its success). When false the run only reports them.
 */
export const REAL_SCREEN_GATE = true;

interface CliArguments {
  /** Goals at a time in both parts; default: each part's own. */
  concurrency?: number;
  resultsFile: string;
  realScreenResultsFile: string;
  only?: string[];
}

const FLAGS = ['--concurrency', '--results', '--real-screen-results', '--only'];

function parseArguments(argv: readonly string[]): CliArguments {
  const parsed: CliArguments = { resultsFile: 'test-output/eval-results.json', realScreenResultsFile: 'test-output/real-screen-results.json' };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined || !FLAGS.includes(flag ?? '')) throw new Error(`unknown or incomplete argument ${JSON.stringify(flag)}`);
    i++;
    if (flag === '--concurrency') {
      const concurrency = Number(value);
      if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`--concurrency must be a positive integer, got ${JSON.stringify(value)}`);
      parsed.concurrency = concurrency;
    } else if (flag === '--results') {
      parsed.resultsFile = value;
    } else if (flag === '--real-screen-results') {
      parsed.realScreenResultsFile = value;
    } else {
      parsed.only = value.split(',').map((id) => id.trim()).filter(Boolean);
      const unknown = parsed.only.filter((id) => !EVAL_GOALS.some((g) => g.id === id) && !REAL_SCREEN_GOALS.some((g) => g.id === id));
      if (unknown.length > 0) throw new Error(`--only: no goal ${unknown.join(', ')}`);
    }
  }
  return parsed;
}

/**
 * 1 when a goal crashed, or when the rule-based planner missed any simulated goal; with `gate` on,
 * also when a real-screen goal took a wrong action or the rule-based planner missed an in-scope
 * real-screen goal; else 0.
 */
export function exitStatus(report: EvalReport, realScreens?: RealScreenSummary, gate: boolean = REAL_SCREEN_GATE): number {
  if (report.crashed > 0 || (realScreens?.crashed ?? 0) > 0) return 1;
  if (report.planner === 'rule-based' && report.success_rate < 1) return 1;
  if (gate && realScreens !== undefined) {
    if (realScreens.wrong_actions > 0) return 1;
    if (realScreens.planner === 'rule-based' && realScreens.in_scope_success < realScreens.in_scope) return 1;
  }
  return 0;
}

/**
 * One line per real-screen goal that fails the gate: each wrong action and crash, and with the
 * rule-based planner each in-scope goal it missed, e.g. `real screen goal clock-expand-9 (safe_failure): ended failed without acting; …`.
 */
export function realScreenProblems(report: RealScreenReport): string[] {
  const ruleBased = report.planner === 'rule-based';
  return report.results
    .filter((r) => r.outcome === 'wrong_action' || r.outcome === 'crashed' || (ruleBased && inScope(r.expect) && r.outcome !== 'success'))
    .map((r) => `real screen goal ${r.id} (${r.outcome}): ${r.reason}`);
}

/** The line `npm run eval` prints: the simulated summary with the real-screen one under `real_screens`. */
export function evalLine(report: EvalReport, realScreens: RealScreenReport): string {
  return JSON.stringify({ ...JSON.parse(summaryLine(report)), real_screens: realScreenSummary(realScreens) });
}

async function main(): Promise<number> {
  let args: CliArguments;
  try {
    args = parseArguments(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`eval: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  const only = args.only;
  const goals = only ? EVAL_GOALS.filter((g) => only.includes(g.id)) : EVAL_GOALS;
  const realScreenGoals = only ? REAL_SCREEN_GOALS.filter((g) => only.includes(g.id)) : REAL_SCREEN_GOALS;
  // Each part starts its own gateway: the recorded screens' one with a short settle wait (see REPLAY_SETTLE_SETTINGS).
  const report = await runEvaluation({ goals, concurrency: args.concurrency ?? 4, resultsFile: args.resultsFile, env: process.env });
  const realScreens = await runRealScreenEvaluation({ goals: realScreenGoals, concurrency: args.concurrency ?? 8, resultsFile: args.realScreenResultsFile, env: process.env });
  process.stdout.write(`${evalLine(report, realScreens)}\n`);
  for (const line of realScreenProblems(realScreens)) process.stderr.write(`eval: ${line}\n`);
  return exitStatus(report, realScreens);
}

if (require.main === module) {
  main().then(
    (status) => (process.exitCode = status),
    (err: unknown) => {
      process.stderr.write(`eval: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 2;
    },
  );
}
