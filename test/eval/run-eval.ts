import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Task, TaskStatus, TaskStep } from '@mobileclaw/domain';
import type { RunningGateway } from '@mobileclaw/gateway';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { configuredPlanner, followTask, gatewayApi as api, mapConcurrently, round, withEvalGateway } from './eval-gateway';
import { EVAL_GOALS, type EvalGoal } from './goals';
import { snapshotPhone, type CheckResult } from './phone-checks';

export { configuredPlanner } from './eval-gateway';

/**
 * The evaluation runner: starts the real gateway in-process (HTTP API, SQLite store, the configured
 * planner), connects a fresh {@link SimulatedPhone} per goal, runs each goal as a task through
 * `POST /api/tasks`, follows it on its SSE stream to the end, and judges it by the goal's checker on
 * the phone's final state. Goals run on different phones concurrently.
 */

export interface EvalOptions {
  /** Default {@link EVAL_GOALS}. */
  goals?: readonly EvalGoal[];
  /**
   * Where the planner's configuration is read from: `MOBILECLAW_LLM_*` (see
   * `resolveLlmPlannerOptions`) selects the LLM planner, otherwise the rule-based one. Default `process.env`.
   */
  env?: Record<string, string | undefined>;
  /** Goals running at the same time, each on its own phone. Default 4. */
  concurrency?: number;
  /** Step budget per task; default: the gateway's (25). */
  maxSteps?: number;
  /** A task still running after this many ms is canceled (a watchdog, not a pacing). Default 120 000. */
  taskTimeoutMs?: number;
  /** When set, the per-goal results are written there as JSON (directories created). */
  resultsFile?: string;
  /**
   * A running gateway to use (left running; its planner comes from `env`, which must be the one it
   * was started with). Default: one started for this run and stopped after it.
   */
  gateway?: RunningGateway;
}

/** Mean duration of one step's phases, in ms; `total` is their sum. */
export interface PhaseMeans {
  /** Waiting for the UI to settle before the screenshot. */
  settle: number;
  capture: number;
  transfer: number;
  planning: number;
  action: number;
  total: number;
}

/** A goal that did not end as expected. `status` is the task's final status, or `crashed`. */
export interface EvalFailure {
  id: string;
  goal: string;
  status: TaskStatus | 'crashed';
  reason: string;
}

/** The outcome of one goal. */
export interface GoalResult {
  id: string;
  goal: string;
  lang: EvalGoal['lang'];
  form: EvalGoal['form'];
  expect: EvalGoal['expect'];
  succeeded: boolean;
  /** Final task status, or `crashed` when the run itself threw (HTTP error, setup error…). */
  status: TaskStatus | 'crashed';
  /** The checker's answer (`true` or why not); absent when the run crashed. */
  check?: CheckResult;
  /** Why the goal did not succeed; absent when it did. */
  reason?: string;
  taskId?: string;
  /** Planner name the gateway recorded on the task, e.g. `rule-based` or `llm:qwen-vl-max`. */
  planner?: string;
  steps: number;
  actions: number;
  approvals: number;
  /** The planner's summary, or the task's error message. */
  outcome?: string;
  /** Sums over the task's steps, in ms. */
  timings: { settleMs: number; captureMs: number; transferMs: number; planningMs: number; actionMs: number };
  /** Wall time from the task's creation to its end as seen here, in ms. */
  wallMs: number;
}

/** The one-line summary (`npm run eval` prints it as JSON) and the per-goal results. */
export interface EvalReport {
  /** `rule-based`, or `llm:<model>`. */
  planner: string;
  goals: number;
  succeeded: number;
  /** succeeded / goals, 0–1 (4 decimals). */
  success_rate: number;
  /** Mean recorded steps per task (the final done/fail step included). */
  mean_steps: number;
  /** Means over every recorded step of every task, in ms (2 decimals). */
  mean_ms_per_step: PhaseMeans;
  failures: EvalFailure[];
  /** Goals whose run threw instead of ending in a task status. */
  crashed: number;
  /** Wall time of the whole evaluation, in ms (from the gateway's start to its stop when the run starts its own). */
  wall_ms: number;
  results: GoalResult[];
}

/** The summary fields of {@link EvalReport}, without the per-goal results. */
export type EvalSummary = Omit<EvalReport, 'results'>;

type TaskWithSteps = Task & { steps: TaskStep[] };

/**
 * Runs every goal and summarises. Each goal gets a fresh phone (set up by `goal.setup` before it
 * connects); a goal succeeds when the task ended as `goal.expect` says (`completed` / `failed`), the
 * checker passed, the approvals went as expected and the action budget `maxActions` held.
 * @throws Error when the gateway cannot start, or when goal ids are not unique.
 */
export async function runEvaluation(options: EvalOptions = {}): Promise<EvalReport> {
  const goals = options.goals ?? EVAL_GOALS;
  const ids = new Set(goals.map((g) => g.id));
  if (ids.size !== goals.length) throw new Error('evaluation goal ids must be unique');
  const env = options.env ?? process.env;
  const planner = configuredPlanner(env);
  const started = performance.now();
  const results = await withEvalGateway(env, options.gateway, (gateway) =>
    mapConcurrently(goals, options.concurrency ?? 4, (goal: EvalGoal, index: number) => runGoal(gateway, goal, index, options)),
  );
  const report = summarise(planner, results, performance.now() - started);
  if (options.resultsFile) {
    mkdirSync(dirname(options.resultsFile), { recursive: true });
    writeFileSync(options.resultsFile, `${JSON.stringify(report, null, 2)}\n`);
  }
  return report;
}

/** {@link EvalReport} without `results`, as one JSON line (no newline). */
export function summaryLine(report: EvalReport): string {
  const { results: _results, ...summary } = report;
  return JSON.stringify(summary satisfies EvalSummary);
}

function emptyResult(goal: EvalGoal): GoalResult {
  return {
    id: goal.id,
    goal: goal.goal,
    lang: goal.lang,
    form: goal.form,
    expect: goal.expect,
    succeeded: false,
    status: 'crashed',
    steps: 0,
    actions: 0,
    approvals: 0,
    timings: { settleMs: 0, captureMs: 0, transferMs: 0, planningMs: 0, actionMs: 0 },
    wallMs: 0,
  };
}

async function runGoal(gateway: RunningGateway, goal: EvalGoal, index: number, options: EvalOptions): Promise<GoalResult> {
  const result = emptyResult(goal);
  const phone = new SimulatedPhone({ host: '127.0.0.1', port: gateway.devicePort, token: gateway.deviceToken, deviceId: `eval-${index + 1}-${goal.id}`,
    ...(goal.screen ? { screen: goal.screen } : {}),
  });
  try {
    goal.setup?.(phone);
    const before = snapshotPhone(phone);
    await phone.start();
    const began = performance.now();
    const created = await api(gateway, 'POST', '/api/tasks', { deviceId: phone.deviceId, goal: goal.goal, ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}) });
    result.taskId = created.taskId as string;
    result.approvals = await followTask(gateway, result.taskId, { approve: goal.approval === 'approve', timeoutMs: options.taskTimeoutMs ?? 120_000 });
    result.wallMs = round(performance.now() - began, 1);
    const task = (await api(gateway, 'GET', `/api/tasks/${result.taskId}`)) as TaskWithSteps;
    result.status = task.status;
    result.planner = task.planner;
    result.steps = task.steps.length;
    result.actions = task.steps.filter((s) => s.plan?.type === 'action' && s.result !== undefined && s.result.status !== 'denied').length;
    result.outcome = task.summary ?? task.error?.message;
    for (const step of task.steps) {
      result.timings.settleMs += step.timings.settleMs ?? 0;
      result.timings.captureMs += step.timings.captureMs;
      result.timings.transferMs += step.timings.transferMs;
      result.timings.planningMs += step.timings.planningMs;
      result.timings.actionMs += step.timings.actionMs;
    }
    result.check = goal.check(phone, before);
    result.reason = judge(goal, task, result);
    result.succeeded = result.reason === undefined;
  } catch (err) {
    result.status = 'crashed';
    result.reason = `crashed: ${err instanceof Error ? err.message : String(err)}`;
  } finally {
    await phone.stop();
  }
  if (result.succeeded) delete result.reason;
  return result;
}

/** Why the goal did not succeed, or `undefined` when it did. */
function judge(goal: EvalGoal, task: TaskWithSteps, result: GoalResult): string | undefined {
  const wanted: TaskStatus = goal.expect === 'complete' ? 'completed' : 'failed';
  const why = task.error ? `${task.error.code}: ${task.error.message}` : (task.summary ?? 'no reason given');
  if (task.status !== wanted) return `expected the task to end ${wanted}, it ended ${task.status} (${why})`;
  // An honest failure is the planner's own verdict, not a crash or an exhausted step budget.
  if (wanted === 'failed' && task.error?.code !== 'GOAL_FAILED') return `expected the planner to give up on the goal (GOAL_FAILED), the task failed with ${why}`;
  if (result.check !== true) return `check failed: ${result.check}`;
  if (goal.approval === 'approve' && result.approvals === 0) return 'expected an approval request, none came';
  if (goal.approval === undefined && result.approvals > 0) return `unexpected approval request (${task.pendingAction?.reason ?? 'denied'})`;
  if (goal.maxActions !== undefined && result.actions > goal.maxActions) return `took ${result.actions} actions, at most ${goal.maxActions} expected`;
  return undefined;
}

function summarise(planner: string, results: GoalResult[], wallMs: number): EvalReport {
  const succeeded = results.filter((r) => r.succeeded).length;
  const ran = results.filter((r) => r.status !== 'crashed');
  const steps = ran.reduce((n, r) => n + r.steps, 0);
  const sum = (pick: (r: GoalResult) => number): number => ran.reduce((n, r) => n + pick(r), 0);
  const mean = (total: number): number => (steps === 0 ? 0 : round(total / steps, 2));
  const settle = sum((r) => r.timings.settleMs);
  const capture = sum((r) => r.timings.captureMs);
  const transfer = sum((r) => r.timings.transferMs);
  const planning = sum((r) => r.timings.planningMs);
  const action = sum((r) => r.timings.actionMs);
  return {
    planner,
    goals: results.length,
    succeeded,
    success_rate: results.length === 0 ? 0 : round(succeeded / results.length, 4),
    mean_steps: ran.length === 0 ? 0 : round(steps / ran.length, 2),
    mean_ms_per_step: {
      settle: mean(settle),
      capture: mean(capture),
      transfer: mean(transfer),
      planning: mean(planning),
      action: mean(action),
      total: mean(settle + capture + transfer + planning + action),
    },
    failures: results.filter((r) => !r.succeeded).map((r) => ({ id: r.id, goal: r.goal, status: r.status, reason: r.reason ?? 'unknown' })),
    crashed: results.filter((r) => r.status === 'crashed').length,
    wall_ms: Math.round(wallMs),
    results,
  };
}
