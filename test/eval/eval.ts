/**
 * `npm run eval`: runs the evaluation suite with the configured planner (the LLM planner when
 * `MOBILECLAW_LLM_BASE_URL` and `MOBILECLAW_LLM_MODEL` are set, else the rule-based one) and prints
 * one JSON line on stdout (see {@link EvalReport}); the per-goal results go to a file.
 *
 * Usage: `node --require ./tools/register-typescript.cjs test/eval/eval.ts
 *   [--concurrency N] [--results FILE] [--only id,id…]`
 * (defaults: 4 goals at a time, `test-output/eval-results.json`, every goal).
 *
 * Exit status: 0; 1 when a goal crashed, or when the rule-based planner did not reach a success
 * rate of 1 (every goal is in its declared scope); 2 on bad arguments or when the run could not start.
 */
import { EVAL_GOALS } from './goals';
import { runEvaluation, summaryLine, type EvalOptions, type EvalReport } from './run-eval';

interface CliArguments {
  concurrency: number;
  resultsFile: string;
  only?: string[];
}

function parseArguments(argv: readonly string[]): CliArguments {
  const parsed: CliArguments = { concurrency: 4, resultsFile: 'test-output/eval-results.json' };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined || !['--concurrency', '--results', '--only'].includes(flag ?? '')) throw new Error(`unknown or incomplete argument ${JSON.stringify(flag)}`);
    i++;
    if (flag === '--concurrency') {
      parsed.concurrency = Number(value);
      if (!Number.isInteger(parsed.concurrency) || parsed.concurrency < 1) throw new Error(`--concurrency must be a positive integer, got ${JSON.stringify(value)}`);
    } else if (flag === '--results') {
      parsed.resultsFile = value;
    } else {
      parsed.only = value.split(',').map((id) => id.trim()).filter(Boolean);
      const unknown = parsed.only.filter((id) => !EVAL_GOALS.some((g) => g.id === id));
      if (unknown.length > 0) throw new Error(`--only: no goal ${unknown.join(', ')}`);
    }
  }
  return parsed;
}

/** 1 when a goal crashed, or when the rule-based planner missed any goal; else 0. */
export function exitStatus(report: EvalReport): number {
  if (report.crashed > 0) return 1;
  return report.planner === 'rule-based' && report.success_rate < 1 ? 1 : 0;
}

async function main(): Promise<number> {
  let args: CliArguments;
  try {
    args = parseArguments(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`eval: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  const options: EvalOptions = { concurrency: args.concurrency, resultsFile: args.resultsFile };
  if (args.only) options.goals = EVAL_GOALS.filter((g) => args.only?.includes(g.id));
  const report = await runEvaluation(options);
  process.stdout.write(`${summaryLine(report)}\n`);
  return exitStatus(report);
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
