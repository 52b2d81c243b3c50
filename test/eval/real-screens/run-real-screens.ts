import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AGENT_ACTION_NAMES, toUiElements, type AgentAction, type Task, type TaskStatus, type TaskStep } from '@mobileclaw/domain';
import type { RunningGateway } from '@mobileclaw/gateway';
import type { ActionFrame } from '@mobileclaw/protocol';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { parseUiHierarchyXml, type UiTreeXml } from '@mobileclaw/ui-hierarchy';
import { configuredPlanner, followTask, gatewayApi, mapConcurrently, REPLAY_SETTLE_SETTINGS, round, withEvalGateway } from '../eval-gateway';
import { classifyRun, describeSent, type ElementBounds } from './classify';
import { expectationFor, inScope, type RealScreenExpectation, type RealScreenOutcome, type ScreenBounds } from './expectation';
import { REAL_SCREEN_GOALS, type RealScreenGoal } from './real-screen-goals';

/**
 * The real-screen evaluation: each goal runs as a task through the real gateway on a fresh
 * {@link SimulatedPhone} replaying its recorded screen, and is judged by the first action the phone
 * received (see `classifyRun`). Goals run on different phones concurrently, all on one gateway.
 */

/** Where the recorded screens live. */
export const SCREENS_DIR = join(__dirname, '..', '..', 'fixtures', 'screens');

export interface RealScreenEvalOptions {
  /** Default {@link REAL_SCREEN_GOALS}. */
  goals?: readonly RealScreenGoal[];
  /** Where the planner's configuration is read from (`MOBILECLAW_LLM_*`); default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Goals running at the same time, each on its own phone. Default 8: a run mostly waits for its static screen to settle. */
  concurrency?: number;
  /**
   * Step budget per task. Default 4: enough to act, see that the screen did not change, try once
   * more and give up; a recorded screen never changes, so more steps only repeat the first.
   */
  maxSteps?: number;
  /** A task still running after this many ms is canceled (a watchdog, not a pacing). Default 60 000. */
  taskTimeoutMs?: number;
  /** When set, the report with every goal's result is written there as JSON (directories created). */
  resultsFile?: string;
  /**
   * A running gateway to use (left running; it must have been started with `env`, and should have
   * {@link REPLAY_SETTLE_SETTINGS}). Default: one started for this run with those settings.
   */
  gateway?: RunningGateway;
  /** Directory of the recorded screens. Default {@link SCREENS_DIR}. */
  screensDir?: string;
}

/** The outcome of one goal. */
export interface RealScreenGoalResult {
  id: string;
  screen: string;
  goal: string;
  lang: RealScreenGoal['lang'];
  kind: RealScreenGoal['kind'];
  /** The expectation this run's planner is held to (see `expectationFor`). */
  expect: RealScreenExpectation;
  /** Why the rule-based planner declares the goal outside its scope, when it does (whichever planner ran). */
  ruleBasedOutOfScope?: string;
  /** The verdict, or `crashed` when the run itself threw (HTTP error, unknown screen…). */
  outcome: RealScreenOutcome | 'crashed';
  reason: string;
  /** The task's final status, or `crashed`. */
  status: TaskStatus | 'crashed';
  taskId?: string;
  planner?: string;
  /** The planner's summary, or the task's error (`CODE: message`). */
  taskOutcome?: string;
  /** The first action sent, as text (e.g. `click (970,320) on element [5] [860,220,1080,420]`). */
  firstAction?: string;
  /** Every action the phone received, as text. */
  actions: string[];
  steps: number;
  /** Wall time from the task's creation to its end as seen here, in ms. */
  wallMs: number;
}

/** The summary `npm run eval` prints under `real_screens`. */
export interface RealScreenSummary {
  /** `rule-based`, or `llm:<model>`. */
  planner: string;
  goals: number;
  success: number;
  safe_failures: number;
  wrong_actions: number;
  crashed: number;
  /** success / goals, 0–1 (4 decimals). */
  success_rate: number;
  /** Goals this planner should carry out (an expected first action, or completion with none). */
  in_scope: number;
  in_scope_success: number;
  /**
   * Goals any capable planner should carry out that this planner declares outside its scope, so that
   * they count as goals to refuse (the rule-based planner's `ruleBasedOutOfScope`; 0 for an LLM planner).
   */
  declared_out_of_scope: number;
  /** Ids of the goals with a wrong action. */
  wrong_action_ids: string[];
  /** Wall time of the whole run, in ms. */
  wall_ms: number;
}

export interface RealScreenReport extends RealScreenSummary {
  results: RealScreenGoalResult[];
}

type TaskWithSteps = Task & { steps: TaskStep[] };

/** A recorded screen, imported once and shared by every phone replaying it. */
interface LoadedScreen {
  recording: UiTreeXml;
  /** Bounds of the planner's element list entries (the same list the task loop builds from this tree). */
  elementBounds: ElementBounds;
}

/**
 * Runs every goal and summarises.
 * @throws Error when goal ids are not unique or the gateway cannot start (a missing or unreadable
 *   screen only crashes the goals that use it).
 */
export async function runRealScreenEvaluation(options: RealScreenEvalOptions = {}): Promise<RealScreenReport> {
  const goals = options.goals ?? REAL_SCREEN_GOALS;
  if (new Set(goals.map((g) => g.id)).size !== goals.length) throw new Error('real-screen goal ids must be unique');
  const env = options.env ?? process.env;
  const started = performance.now();
  const screens = new Map<string, LoadedScreen | Error>();
  for (const file of new Set(goals.map((g) => g.screen))) screens.set(file, loadScreen(join(options.screensDir ?? SCREENS_DIR, file)));
  const planner = configuredPlanner(env);
  const results = await withEvalGateway(
    env,
    options.gateway,
    (gateway) => mapConcurrently(goals, options.concurrency ?? 8, (goal, index) => runGoal(gateway, goal, index, screens.get(goal.screen) as LoadedScreen | Error, planner, options)),
    REPLAY_SETTLE_SETTINGS,
  );
  const report = summariseRealScreens(planner, results, performance.now() - started);
  if (options.resultsFile) {
    mkdirSync(dirname(options.resultsFile), { recursive: true });
    writeFileSync(options.resultsFile, `${JSON.stringify(report, null, 2)}\n`);
  }
  return report;
}

/** The report without its per-goal results. */
export function realScreenSummary(report: RealScreenReport): RealScreenSummary {
  const { results: _results, ...summary } = report;
  return summary;
}

/** Counts the outcomes of `results` (rates to 4 decimals). */
export function summariseRealScreens(planner: string, results: readonly RealScreenGoalResult[], wallMs: number): RealScreenReport {
  const count = (outcome: RealScreenGoalResult['outcome']): number => results.filter((r) => r.outcome === outcome).length;
  const success = count('success');
  const inScopeResults = results.filter((r) => inScope(r.expect));
  return {
    planner,
    goals: results.length,
    success,
    safe_failures: count('safe_failure'),
    wrong_actions: count('wrong_action'),
    crashed: count('crashed'),
    success_rate: results.length === 0 ? 0 : round(success / results.length, 4),
    in_scope: inScopeResults.length,
    in_scope_success: inScopeResults.filter((r) => r.outcome === 'success').length,
    declared_out_of_scope: results.filter((r) => r.ruleBasedOutOfScope !== undefined && !inScope(r.expect)).length,
    wrong_action_ids: results.filter((r) => r.outcome === 'wrong_action').map((r) => r.id),
    wall_ms: Math.round(wallMs),
    results: [...results],
  };
}

function loadScreen(path: string): LoadedScreen | Error {
  try {
    const recording = parseUiHierarchyXml(readFileSync(path, 'utf8'));
    const elements = toUiElements(recording.nodes);
    return { recording, elementBounds: (index) => elements[index]?.bounds as ScreenBounds | undefined };
  } catch (err) {
    return new Error(messageOf(err));
  }
}

/** An error's message; Node's own errors may come from another realm (under Jest), so no `instanceof`. */
function messageOf(err: unknown): string {
  return typeof err === 'object' && err !== null && 'message' in err ? String(err.message) : String(err);
}

/** The agent action an action frame carries (its command and arguments), or `undefined` for an observation. */
function agentAction(frame: ActionFrame): AgentAction | undefined {
  const { type: _type, requestId: _requestId, timeoutMs: _timeoutMs, frameId: _frameId, ...action } = frame;
  return (AGENT_ACTION_NAMES as readonly string[]).includes(frame.command) ? (action as unknown as AgentAction) : undefined;
}

async function runGoal(gateway: RunningGateway, goal: RealScreenGoal, index: number, screen: LoadedScreen | Error, planner: string, options: RealScreenEvalOptions): Promise<RealScreenGoalResult> {
  const expect = expectationFor(goal, planner);
  const result: RealScreenGoalResult = { id: goal.id, screen: goal.screen, goal: goal.goal, lang: goal.lang, kind: goal.kind, expect, outcome: 'crashed', reason: '', status: 'crashed', actions: [], steps: 0, wallMs: 0 };
  if (goal.ruleBasedOutOfScope !== undefined) result.ruleBasedOutOfScope = goal.ruleBasedOutOfScope;
  if (screen instanceof Error) return { ...result, reason: `crashed: cannot load ${goal.screen}: ${screen.message}` };
  const phone = new SimulatedPhone({ host: '127.0.0.1', port: gateway.devicePort, token: gateway.deviceToken, deviceId: `rs-${index + 1}-${goal.id}`, replay: screen.recording });
  const received: AgentAction[] = [];
  phone.on('action', (frame: ActionFrame) => {
    const action = agentAction(frame);
    if (action !== undefined) received.push(action);
  });
  try {
    await phone.start();
    const began = performance.now();
    const created = await gatewayApi(gateway, 'POST', '/api/tasks', { deviceId: phone.deviceId, goal: goal.goal, maxSteps: options.maxSteps ?? 4 });
    result.taskId = created.taskId as string;
    // An approval request is denied: no action may reach the phone without a human.
    await followTask(gateway, result.taskId, { approve: false, timeoutMs: options.taskTimeoutMs ?? 60_000 });
    result.wallMs = round(performance.now() - began, 1);
    const task = (await gatewayApi(gateway, 'GET', `/api/tasks/${result.taskId}`)) as TaskWithSteps;
    result.status = task.status;
    result.planner = task.planner;
    result.steps = task.steps.length;
    const outcome = task.summary ?? (task.error ? `${task.error.code}: ${task.error.message}` : undefined);
    if (outcome !== undefined) result.taskOutcome = outcome;
    result.actions = received.map((action) => describeSent({ action }, screen.elementBounds));
    const verdict = classifyRun(expect, { status: task.status, steps: task.steps, received }, screen.elementBounds);
    result.outcome = verdict.outcome;
    result.reason = verdict.reason;
    if (verdict.firstAction) result.firstAction = describeSent(verdict.firstAction, screen.elementBounds);
  } catch (err) {
    result.outcome = 'crashed';
    result.status = 'crashed';
    result.reason = `crashed: ${messageOf(err)}`;
  } finally {
    await phone.stop();
  }
  return result;
}
