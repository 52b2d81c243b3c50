import {
  MobileClawError,
  isMobileClawError,
  foregroundPackage,
  toUiElements,
  settleOrAbort,
  transitionTask,
  type TaskTransitionChanges,
  type Clock,
  type CommandResult,
  type ErrorCode,
  type MobileClawService,
  type PlanDecision,
  type Planner,
  type PlannerHistoryEntry,
  type PlannerHistoryObservation,
  type PlanningProgress,
  type ScreenInfo,
  type ScreenshotData,
  type StepObservation,
  type StepResult,
  type Task,
  type TaskError,
  type TaskMetrics,
  type TaskOwner,
  type TaskRepository,
  type TaskStep,
  type UiElement,
  type UiTreeData,
  type AgentAction,
  type TaskTakeover,
  type ExecuteOptions,
  type PendingToolCall,
  type PendingToolApproval,
  type TaskToolSpec,
  type TaskTools,
  type TaskMemory,
  type MemoryHit,
  type MemoryScope,
  type SessionTurn,
  type ToolCallAnswer,
  type ToolInvocationResult,
  RESERVED_TOOL_NAMES,
  isTerminalTaskStatus,
  toolCallIdOf,
  toolFailureFromError,
  recordActionTarget,
  memoryScopeOf,
  mentionsSecret,
} from '@mobileclaw/domain';
import { approvalFor } from './approval-policy';
import { NoEffectRule } from './no-effect-rule';
import type { ScreenSettler, SettledUi } from './screen-settling';
import { verifyAction, type ActionVerdict, type ScreenSnapshot } from './step-verification';
import type { TaskCaseOptions } from './task-case.options';
import { TaskEndedElsewhere, type TaskJournal } from './task-journal';
import { SECRET_TURN_TEXT, decisionTurnText, finalTurnText, resultTurnText } from './task-turns';

/** Why a run stopped early: canceled by a caller, or interrupted by the gateway's shutdown. */
export type StopReason = { kind: 'cancel'; message: string } | { kind: 'shutdown'; message: string };

interface Observation {
  step: StepObservation;
  /** The UI tree the elements come from. */
  tree: UiTreeData;
  elements: UiElement[];
  screenshot: ScreenshotData;
  settleMs: number;
  captureMs: number;
  transferMs: number;
}

/** A person's hold on the task's phone, as the runner sees it. */
interface Hold {
  takeover: TaskTakeover;
  /** Resolves when they hand the phone back (or the task is stopped). */
  released: Promise<void>;
  release: () => void;
}

/** What one action a person took during a takeover did: the step recorded for it and the phone's reply. */
export interface HumanActionRecord {
  step: TaskStep;
  result: CommandResult;
}

/** The tool call the loop waits on, and how to hand it the caller's answer. */
interface ToolCallWait {
  toolCallId: string;
  answer: (answer: ToolCallAnswer) => void;
  /** Resolves once the answer is recorded (`task.resumed`, `step.acted`) or the wait ended otherwise. */
  recorded: Promise<void>;
}

/** The memory tool after whose step the loop recalls again: the planner should see what it just stored. */
const MEMORY_STORE_TOOL = 'memory_store';

/** Command errors after which the loop cannot go on: the phone is gone or the gateway is closing. */
const FATAL_COMMAND_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['DEVICE_NOT_FOUND', 'DEVICE_DISCONNECTED', 'DEVICE_REPLACED', 'SHUTTING_DOWN', 'UNAUTHORIZED']);

/**
 * RunTask: runs one task's observe → plan → act → record loop on its phone until the planner says
 * `done`/`fail`, the step budget runs out, the task is canceled, or a fatal device error. Each
 * observation waits for the UI to settle first ({@link ScreenSettler}); the next observation judges
 * each action's effect ({@link verifyAction}), and {@link NoEffectRule} fails the task with `NO_EFFECT`
 * rather than let it end `completed` on an effect nothing on screen confirms. Talks only to ports:
 * {@link MobileClawService}, {@link Planner}, {@link TaskRepository} (through {@link TaskJournal}),
 * {@link Clock} (timestamps; step durations use the monotonic `performance.now()`, the settle wait its
 * settler's timer). Every state change is stored before it is published. Each step's phases and each
 * planner failure are reported to {@link TaskMetrics}. Resolves with the final task; never rejects.
 *
 * Takeover: while a person holds the phone ({@link takeOver} … {@link handBack}) the task is
 * `input_required` with its `takeover`, and the loop waits on a promise (no polling) at its next
 * checkpoint. An action planned but not yet sent is not sent (its step ends `canceled` with
 * `DEVICE_CONTROLLED`); an action already in flight is left to finish (the phone may be mid-gesture, and
 * aborting would not undo it) and is recorded as usual; a `done`/`fail` decided on a screen observed
 * before the takeover is dropped too. After the hand back the loop observes the screen afresh and plans
 * again; steps so dropped do not count toward `maxSteps`, and the wait counts toward no timeout (each
 * command and planner deadline covers one call, never the pause). The person's own actions are recorded
 * as `human` steps ({@link actAsHuman}). Cancel works at any time during the pause.
 *
 * Caller tools: a `tool_call` decision of a task with `tools` pauses the task (`input_required` with
 * its `pendingToolCall`, event `task.input_required` `{toolCall}`) until the caller answers
 * ({@link answerToolCall}) or `toolResultTimeoutMs` passes — a promise and one timer, no polling. Then
 * `task.resumed` and the step's result: `success` with the `output`, `denied` with the reason, or
 * `error` `TOOL_RESULT_TIMEOUT`; the loop goes on in all three cases. A tool step counts toward
 * `maxSteps`, sends nothing to the phone and is never judged for its effect on the screen. A task
 * without `tools` gets its tool call `denied` (with gateway tools: see below).
 *
 * Gateway tools: with a {@link TaskTools} provider, each step lists the gateway's tools afresh and
 * offers them to the planner (`PlanningContext.gatewayTools`), minus any whose name (ignoring case) is
 * one of the task's caller tools or a phone action's ({@link RESERVED_TOOL_NAMES}): those win a clash.
 * A `tool_call` is resolved in order: a caller tool's name takes the caller path above; a listed
 * gateway tool's name is called at once ({@link callGatewayTool}: the decision gets its `gatewayTool`,
 * the step its result and `actionMs`; an `ACTION` tool that needs approval first waits for a person,
 * as a sensitive action does, with `pendingToolApproval`); any other name goes to the caller when the
 * task has caller tools (as without a registry), else ends the step `error` `TOOL_NOT_FOUND`. Gateway
 * tool steps count toward `maxSteps` and never end the task: the planner sees each result and goes on.
 * Each call gets the task's memory scope (`memoryScopeOf(task)`: its conversation, else its phone).
 *
 * Memory: with a {@link TaskMemory} provider, the loop recalls what its scope remembers for the goal
 * before the first planning, and again after a `memory_store` tool step, and shows it to the planner
 * in every step (`PlanningContext.memories`); it records the task's turns in the scope's session layer
 * — the goal, each decision, each result, the end ({@link decisionTurnText}) — handed over when the
 * task ends: a text typed where no known non-password field took it is `[secret]`, and a text typed
 * into a password field is `[secret]` wherever it occurs (the goal too). Without one, tasks plan
 * without memory.
 */
export class TaskRunner {
  private readonly abort = new AbortController();
  private stopReason?: StopReason;
  /** The approval the loop waits for; `recorded` resolves once the answer is recorded (gateway tool approvals only). */
  private approval?: { resolve: (approve: boolean) => void; recorded?: Promise<void> };
  /** Set while the loop waits for the caller's answer to a tool call. */
  private toolCall?: ToolCallWait;
  /** Ends the tool-call wait when the task is stopped. */
  private toolCallStopped?: () => void;
  private history: PlannerHistoryEntry[] = [];
  private readonly noEffect = new NoEffectRule();
  /** Set while a person holds the phone. */
  private hold?: Hold;
  /** Takeovers so far: a step compares it with its start value to learn that a person acted meanwhile. */
  private takeovers = 0;
  /** A person's steps recorded so far (at most `maxStepsLimit`). */
  private humanSteps = 0;
  /** Index of the next step, agent's or person's. */
  private nextIndex = 0;
  /** Set once the loop has decided the task's end (`done`/`fail`): a takeover then no longer pauses it. */
  private finishing = false;
  /** The first failure storing a status change made outside the loop; the loop ends the task with it at its next checkpoint. */
  private writeFailure?: { error: unknown };
  /** The task's memory scope: its conversation's, else its phone's. */
  private readonly scope: MemoryScope;
  /** What the memory recalled for the goal, shown to the planner at every step; undefined without memory. */
  private memories?: MemoryHit[];
  /** True until the first recall, and again after the planner stored a memory. */
  private recallDue = true;
  /** The task's turns for its memory, handed over when it ends ({@link recordTurns}). */
  private readonly turns: SessionTurn[] = [];
  /** Texts the task typed into password fields: never in a turn. */
  private readonly secrets = new Set<string>();

  constructor(
    private task: Task,
    private readonly devices: MobileClawService,
    private readonly planner: Planner,
    private readonly repository: TaskRepository,
    private readonly journal: TaskJournal,
    private readonly options: TaskCaseOptions,
    private readonly clock: Clock,
    /** A fresh claim of this instance on the task: stored when it starts, at every step and when it resumes. */
    private readonly claim: () => TaskOwner,
    private readonly settler: ScreenSettler,
    private readonly metrics: TaskMetrics,
    /** The gateway's tools the planner may call; absent: none (a `tool_call` goes to the caller, as before). */
    private readonly tools?: TaskTools,
    /** The memory the planner is shown and the task's turns go to; absent: tasks plan without memory. */
    private readonly memory?: TaskMemory,
  ) {
    this.scope = memoryScopeOf(task);
  }


  get current(): Task {
    return this.task;
  }

  /** Aborts the in-flight command or planner call; the run ends `canceled` (or `interrupted`). */
  stop(reason: StopReason): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.abort.abort(new MobileClawError('ABORTED', reason.message));
    this.approval?.resolve(false);
    this.toolCallStopped?.();
    this.hold?.release();
  }

  /** The takeover the task waits on, while a person holds the phone; undefined once the task is ending (its person's actions then belong to no task). */
  get takeover(): TaskTakeover | undefined {
    return this.finishing || this.stopReason || isTerminalTaskStatus(this.task.status) ? undefined : this.hold?.takeover;
  }

  /**
   * A person took the phone: the task becomes `input_required` with `takeover` at once (a task waiting
   * for an approval keeps waiting, now with `takeover` too), records `task.taken_over`, and its loop
   * pauses at its next checkpoint. A task about to end (its planner said `done`/`fail`) ends anyway.
   */
  takeOver(takeover: TaskTakeover): void {
    if (this.hold || this.stopReason || isTerminalTaskStatus(this.task.status)) return;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    this.hold = { takeover, released, release };
    this.takeovers++;
    if (this.finishing || this.task.status === 'queued') return;
    if (this.task.status === 'running') this.recordOutside(transitionTask(this.task, 'input_required', this.now(), { takeover }), 'task.taken_over', { status: 'input_required', takeover });
    else this.recordOutside({ ...this.task, takeover }, 'task.taken_over', { status: this.task.status, takeover });
  }

  /**
   * The person handed the phone back (or their lease ended): the task is `running` again (or keeps
   * waiting for its approval), records `task.handed_back`, and the loop observes the screen afresh.
   */
  handBack(): void {
    const hold = this.hold;
    if (!hold) return;
    this.hold = undefined;
    if (!this.finishing && !this.stopReason && this.task.status === 'input_required') {
      if (this.task.pendingAction || this.task.pendingToolCall || this.task.pendingToolApproval) {
        const next = { ...this.task };
        delete next.takeover;
        this.recordOutside(next, 'task.handed_back', { status: next.status, holder: hold.takeover.holder });
      } else {
        this.recordOutside(transitionTask(this.task, 'running', this.now(), { owner: this.claim() }), 'task.handed_back', { status: 'running', holder: hold.takeover.holder });
      }
    }
    hold.release();
  }

  /**
   * Sends an action a person took while holding the phone and records it as a `human` step (by
   * `holder`): the screen it was taken on (a screenshot, stored like an agent step's; skipped when the
   * phone cannot give one), the action as the step's plan, its result. The step takes the next index;
   * it does not count toward `maxSteps`.
   * @throws MobileClawError `TASK_STATE_CONFLICT` when nobody holds the phone or the task is ending, and the action's command
   *   error codes (the step is recorded `error` first).
   */
  async actAsHuman(holder: string, action: AgentAction, options: ExecuteOptions = {}): Promise<HumanActionRecord> {
    if (!this.takeover) throw new MobileClawError('TASK_STATE_CONFLICT', `task ${this.task.taskId} is not paused by a takeover`);
    // A person's steps are bounded like an agent's (each stores a screenshot): past the largest step
    // budget a caller may ask for, the action is refused before it is sent or recorded.
    if (this.humanSteps >= this.options.maxStepsLimit) {
      throw new MobileClawError(
        'TASK_STATE_CONFLICT',
        `task ${this.task.taskId} already records ${this.humanSteps} human steps, the most one task keeps: hand the phone back, or cancel the task to act on the phone unrecorded`,
      );
    }
    this.humanSteps++;
    const index = this.nextIndex++;
    const step: TaskStep = { taskId: this.task.taskId, index, actor: 'human', holder, startedAt: this.now(), timings: { settleMs: 0, captureMs: 0, transferMs: 0, planningMs: 0, actionMs: 0 } };
    const who = { actor: 'human', holder };
    await this.journal.record(this.task.taskId, 'step.started', { index, ...who });
    const observation = await this.screenOfHumanStep(index, step, options);
    step.plan = { type: 'action', action, reasoning: `by ${holder}` };
    this.task = { ...this.task, stepCount: Math.max(this.task.stepCount, index + 1) };
    await this.journal.updateTask(this.task);
    await this.journal.saveStep(step);
    if (observation) await this.journal.record(this.task.taskId, 'step.observed', { index, observation, timings: { settleMs: 0, captureMs: step.timings.captureMs, transferMs: step.timings.transferMs }, ...who });
    await this.journal.record(this.task.taskId, 'step.planned', { index, plan: step.plan, planningMs: 0, ...who });
    const started = performance.now();
    try {
      const result = await this.devices.execute(this.task.deviceId, action, options);
      step.timings.actionMs = Math.round(performance.now() - started);
      await this.endStep(step, { status: 'success' });
      return { step: structuredClone(step), result };
    } catch (err) {
      step.timings.actionMs = Math.round(performance.now() - started);
      const code = isMobileClawError(err) ? err.code : 'INTERNAL_ERROR';
      await this.endStep(step, { status: 'error', errorCode: code, message: err instanceof Error ? err.message : String(err) });
      throw err;
    }
  }

  /**
   * Answers the pending approval. Resolves once a gateway tool call's answer is recorded (`task.resumed`,
   * and for a denial the step's `step.acted`); at once for a phone action's.
   * @throws MobileClawError `TASK_STATE_CONFLICT` when the task is not waiting for one.
   */
  decide(approve: boolean): Promise<void> {
    if (!this.approval || this.task.status !== 'input_required') {
      throw new MobileClawError('TASK_STATE_CONFLICT', `task ${this.task.taskId} is ${this.task.status}, not waiting for approval`);
    }
    const { resolve, recorded } = this.approval;
    resolve(approve);
    return recorded ?? Promise.resolve();
  }

  /**
   * Hands the caller's answer to the tool call the task waits on. Resolves once the answer is recorded
   * (`task.resumed`, then the step's `step.acted`).
   * @throws MobileClawError `TOOL_CALL_NOT_PENDING` when the task waits for no tool call, or for
   *   another one (the message names the one it waits for).
   */
  answerToolCall(answer: ToolCallAnswer): Promise<void> {
    const waiting = this.toolCall;
    if (!waiting || this.stopReason || isTerminalTaskStatus(this.task.status)) {
      throw new MobileClawError('TOOL_CALL_NOT_PENDING', `task ${this.task.taskId} is ${this.task.status} and waits for no tool call (tool call ${answer.toolCallId} was answered already, or never made)`);
    }
    if (waiting.toolCallId !== answer.toolCallId) {
      throw new MobileClawError('TOOL_CALL_NOT_PENDING', `task ${this.task.taskId} waits for tool call ${waiting.toolCallId}, not ${answer.toolCallId}`);
    }
    this.toolCall = undefined;
    waiting.answer(answer);
    return waiting.recorded;
  }

  /**
   * Runs the loop to the task's end and resolves with the final task. When the store says the task
   * already ended ({@link TaskEndedElsewhere}: another instance interrupted it after this instance's
   * lease expired), the loop stops at that write and the stored task is the result, written nowhere.
   */
  async run(): Promise<Task> {
    try {
      try {
        await this.setStatus('running', { owner: this.claim() }, 'task.started', {});
        this.remember('user', this.task.goal);
        await this.loop();
      } catch (err) {
        if (err instanceof TaskEndedElsewhere) throw err;
        await this.finishOnError(err);
      }
    } catch (err) {
      if (!(err instanceof TaskEndedElsewhere)) throw err;
      this.endedElsewhere(err.stored);
    }
    await this.journal.flush(this.task.taskId);
    return this.task;
  }

  /** Adopts the stored end of the task and lets go of whatever the loop still waits on. */
  private endedElsewhere(stored: Task): void {
    this.task = stored;
    this.stop({ kind: 'shutdown', message: `task ${stored.taskId} ended elsewhere (${stored.status})` });
  }

  private async loop(): Promise<void> {
    let before: ScreenSnapshot | undefined;
    /** The tree the last action was planned on, when it ran: the settle wait looks for a change from it. */
    let treeBeforeAction: UiTreeData | undefined;
    let lastStep: TaskStep | undefined;
    let actionErrors = 0;
    /** Agent steps that count toward `maxSteps`: all but those dropped by a takeover. */
    let budgetUsed = 0;
    let seenTakeovers = this.takeovers;
    while (budgetUsed < this.task.maxSteps) {
      if (this.stopReason) throw this.abort.signal.reason;
      await this.waitWhileHeld();
      if (this.takeovers !== seenTakeovers) {
        // A person acted: the last action can no longer be judged on the next screen, nor the settle wait look for its change.
        seenTakeovers = this.takeovers;
        before = undefined;
        treeBeforeAction = undefined;
        lastStep = undefined;
      }
      const takeoversAtStart = this.takeovers;
      const index = this.nextIndex++;
      const step: TaskStep = {
        taskId: this.task.taskId,
        index,
        startedAt: this.now(),
        timings: { settleMs: 0, captureMs: 0, transferMs: 0, planningMs: 0, actionMs: 0 },
      };
      await this.journal.record(this.task.taskId, 'step.started', { index });

      const observed = await this.observe(index, treeBeforeAction);
      step.observation = observed.step;
      step.timings.settleMs = observed.settleMs;
      step.timings.captureMs = observed.captureMs;
      step.timings.transferMs = observed.transferMs;
      // Measured only when the UI was waited for (settling on).
      if (observed.step.settled !== undefined) this.metrics.stepPhaseMeasured('settle', observed.settleMs);
      this.metrics.stepPhaseMeasured('capture', observed.captureMs);
      this.metrics.stepPhaseMeasured('transfer', observed.transferMs);
      const screen: ScreenSnapshot = { elements: observed.elements, package: observed.step.package };
      const takenOver = this.takenOverSince(takeoversAtStart);
      const verdict = before && lastStep && !takenOver ? await this.verifyPrevious(lastStep, before, screen) : undefined;
      this.task = { ...this.task, stepCount: Math.max(this.task.stepCount, index + 1), owner: this.claim() };
      await this.journal.updateTask(this.task);
      await this.journal.saveStep(step);
      await this.journal.record(this.task.taskId, 'step.observed', {
        index,
        observation: observed.step,
        timings: { settleMs: step.timings.settleMs, captureMs: step.timings.captureMs, transferMs: step.timings.transferMs },
        ...(verdict && lastStep ? { verifiedStep: { index: lastStep.index, verified: verdict.verified } } : {}),
      });
      if (this.takenOverSince(takeoversAtStart)) {
        await this.dropStep(step);
        continue;
      }
      if (before && lastStep) {
        const error = this.noEffect.judge(lastStep.index, lastStep.plan, verdict, plannedTarget(lastStep.plan, before.elements));
        if (error) {
          await this.finish('failed', 'task.failed', { error }, { error });
          return;
        }
      }

      const gatewayTools = await this.listGatewayTools();
      await this.recall();
      const decision = await this.plan(index, observed, step, gatewayTools);
      this.metrics.stepPhaseMeasured('planning', step.timings.planningMs);
      // A caller tool's name wins over a gateway tool's (the list leaves clashing ones out anyway).
      const gatewayTool =
        decision.type === 'tool_call' && !this.task.tools?.some((tool) => tool.name === decision.name) ? gatewayTools?.find((tool) => tool.name === decision.name) : undefined;
      if (decision.type === 'tool_call') {
        // The call's id is the task's and the step's: the same call keeps it after a restart or a redelivery.
        decision.toolCallId = toolCallIdOf(this.task.taskId, index);
        if (gatewayTool) decision.gatewayTool = { source: gatewayTool.source, kind: gatewayTool.kind, mode: gatewayTool.mode };
      }
      // What the decision acts on, as this screen shows it: a learned skill finds it again by that.
      recordActionTarget(decision, observed.elements, observed.step.package, this.history);
      step.plan = decision;
      await this.journal.saveStep(step);
      await this.journal.record(this.task.taskId, 'step.planned', { index, plan: decision, planningMs: step.timings.planningMs });
      if (decision.type === 'action' && decision.action.command === 'input' && decision.target?.password && decision.action.text !== '') this.secrets.add(decision.action.text);
      this.remember('assistant', decisionTurnText(decision));

      // Decided on a screen a person may have changed since: dropped, planned again after the hand back.
      if (this.takenOverSince(takeoversAtStart)) {
        await this.dropStep(step);
        continue;
      }
      budgetUsed++;
      if (decision.type === 'tool_call') {
        if (gatewayTool) {
          await this.callGatewayTool(index, decision, gatewayTool, step, observed);
          // What the planner just stored is recalled for its next step.
          if (decision.name === MEMORY_STORE_TOOL) this.recallDue = true;
        }
        else if (this.tools && this.task.tools === undefined) await this.refuseUnknownTool(index, decision, step, observed, gatewayTools ?? []);
        else await this.callTool(index, decision, step, observed);
        // The screen was not touched: the next step's observation has no action to judge.
        before = undefined;
        treeBeforeAction = undefined;
        lastStep = undefined;
        continue;
      }
      if (decision.type !== 'action') this.finishing = true;
      if (decision.type === 'done') {
        await this.endStep(step, { status: 'success' });
        const error = this.noEffect.refuseDone(index);
        if (error) {
          await this.finish('failed', 'task.failed', { error }, { error });
          return;
        }
        await this.finish('completed', 'task.completed', { summary: decision.summary }, { summary: decision.summary });
        return;
      }
      if (decision.type === 'fail') {
        await this.endStep(step, { status: 'success' });
        const error: TaskError = { code: 'GOAL_FAILED', message: decision.reason };
        await this.finish('failed', 'task.failed', { error }, { error });
        return;
      }

      const approval = approvalFor(decision, observed.elements);
      if (approval) {
        const approved = await this.waitForApproval(index, decision, approval.reason);
        if (!approved) {
          if (this.stopReason) throw this.abort.signal.reason;
          await this.endStep(step, { status: 'denied', message: 'a human denied the action' });
          const error: TaskError = { code: 'APPROVAL_DENIED', message: `a human denied: ${approval.reason}` };
          await this.finish('canceled', 'task.canceled', { error }, { error });
          return;
        }
      }

      // The approval wait may have let a person take the phone: the action is then not sent.
      if (this.takenOverSince(takeoversAtStart)) {
        await this.dropStep(step);
        continue;
      }
      const result = await this.act(decision, observed, step);
      this.metrics.stepPhaseMeasured('action', step.timings.actionMs);
      await this.endStep(step, result);
      const seen: PlannerHistoryObservation = { elements: observed.elements };
      if (observed.step.package !== undefined) seen.package = observed.step.package;
      this.history.push({ index, decision, result, observation: seen });
      before = screen;
      treeBeforeAction = result.status === 'success' ? observed.tree : undefined;
      lastStep = step;
      if (result.status === 'error') {
        actionErrors++;
        if (result.errorCode && FATAL_COMMAND_ERRORS.has(result.errorCode)) {
          throw new MobileClawError(result.errorCode, result.message ?? result.errorCode);
        }
        if (actionErrors >= this.options.maxConsecutiveActionErrors) {
          const error: TaskError = { code: result.errorCode ?? 'DEVICE_ERROR', message: `${actionErrors} actions failed in a row; last: ${result.message}` };
          await this.finish('failed', 'task.failed', { error }, { error });
          return;
        }
      } else {
        actionErrors = 0;
      }
    }
    const error: TaskError = { code: 'MAX_STEPS', message: `the goal was not reached within ${this.task.maxSteps} steps` };
    await this.finish('failed', 'task.failed', { error }, { error });
  }

  /**
   * Waits for the UI to settle (reading UI trees only), then takes the screenshot and uses the settled
   * tree with it when both have the same screen geometry, else reads the tree again; the pair is taken
   * once more when the geometry changed between the two. `captureMs`/`transferMs` count the screenshot
   * and a tree read after it; the trees read while settling count in `settleMs`.
   * @param treeBeforeAction the tree the last action was planned on, when it ran (see {@link ScreenSettler.settle}).
   */
  private async observe(index: number, treeBeforeAction: UiTreeData | undefined): Promise<Observation> {
    const readTree = () => this.devices.execute<UiTreeData>(this.task.deviceId, { command: 'ui_tree' }, this.commandOptions());
    const settling: SettledUi | undefined = await this.settler.settle(readTree, this.abort.signal, treeBeforeAction);
    let settledTree = settling?.tree;
    for (let attempt = 0; ; attempt++) {
      const shot = await this.devices.execute<ScreenshotData>(this.task.deviceId, { command: 'screenshot' }, this.commandOptions());
      const shotScreen = shot.data.screen ?? { width: shot.data.width, height: shot.data.height };
      const reused = settledTree && sameGeometry(shotScreen, settledTree.data.screen ?? shotScreen) ? settledTree : undefined;
      settledTree = undefined;
      const tree = reused ?? (await readTree());
      const treeScreen = tree.data.screen ?? shotScreen;
      if (!sameGeometry(shotScreen, treeScreen) && attempt === 0) continue;
      const read = reused ? [shot] : [shot, tree];
      const captureMs = read.reduce((sum, result) => sum + phoneCaptureMs(result), 0);
      const roundTripMs = read.reduce((sum, result) => sum + result.durationMs - result.queuedMs, 0);
      const bytes = Buffer.from(shot.data.base64, 'base64');
      await this.repository.saveScreenshot(this.task.taskId, index, { mime: shot.data.mime, bytes });
      const elements = toUiElements(tree.data.nodes ?? []);
      const step: StepObservation = {
        frameId: shot.data.frameId ?? tree.data.frameId,
        screenshotMime: shot.data.mime,
        screen: { width: treeScreen.width, height: treeScreen.height, rotation: treeScreen.rotation ?? 0 },
        elementCount: elements.length,
      };
      const pkg = foregroundPackage(tree.data.nodes ?? []);
      if (pkg) step.package = pkg;
      if (settling) step.settled = settling.settled;
      return { step, tree: tree.data, elements, screenshot: shot.data, settleMs: settling?.settleMs ?? 0, captureMs, transferMs: Math.max(0, Math.round(roundTripMs - captureMs)) };
    }
  }

  /**
   * Asks the planner for step `index`'s decision. The planner's signal fires when the task is stopped or
   * `planningTimeoutMs` passes, and the wait ends then even if the planner ignores its signal; after the
   * deadline the task fails with `PLANNER_ERROR`. Progress the planner reports is recorded as
   * `step.planning` events, which the journal's write order puts before `step.planned`.
   */
  private async plan(index: number, observed: Observation, step: TaskStep, gatewayTools: TaskToolSpec[] | undefined): Promise<PlanDecision> {
    const started = performance.now();
    const timeoutMs = this.options.planningTimeoutMs;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new PlannerError(`the planner (${this.planner.name}) did not answer within ${timeoutMs} ms`)), timeoutMs);
    const signal = AbortSignal.any([this.abort.signal, deadline.signal]);
    const progress = new PlanningProgressRecorder(this.journal, this.task.taskId, index);
    try {
      const decision = await settleOrAbort(
        this.planner.plan({
          taskId: this.task.taskId,
          deviceId: this.task.deviceId,
          goal: this.task.goal,
          stepIndex: index,
          maxSteps: this.task.maxSteps,
          observation: {
            frameId: observed.step.frameId,
            screen: observed.step.screen,
            elements: observed.elements,
            package: observed.step.package,
            screenshot: { mime: observed.screenshot.mime, width: observed.screenshot.width, height: observed.screenshot.height, base64: observed.screenshot.base64 },
          },
          history: this.history.map((h) => structuredClone(h)),
          ...(this.task.tools === undefined ? {} : { tools: structuredClone(this.task.tools) }),
          ...(gatewayTools === undefined ? {} : { gatewayTools: structuredClone(gatewayTools) }),
          ...(this.memories === undefined ? {} : { memories: structuredClone(this.memories) }),
          signal,
          onProgress: (reported) => progress.report(reported),
        }),
        signal,
      );
      await progress.close();
      return decision;
    } catch (err) {
      progress.close().catch(() => undefined);
      if (this.stopReason) throw this.abort.signal.reason;
      if (deadline.signal.aborted) {
        this.metrics.plannerFailed('timeout');
        throw deadline.signal.reason;
      }
      this.metrics.plannerFailed('error');
      if (isMobileClawError(err)) throw err;
      throw new PlannerError(err instanceof Error ? err.message : String(err));
    } finally {
      clearTimeout(timer);
      step.timings.planningMs = Math.round(performance.now() - started);
    }
  }

  private async act(decision: Extract<PlanDecision, { type: 'action' }>, observed: Observation, step: TaskStep): Promise<StepResult> {
    const started = performance.now();
    try {
      await this.devices.execute(this.task.deviceId, decision.action, { ...this.commandOptions(), frameId: observed.step.frameId });
      return { status: 'success' };
    } catch (err) {
      if (this.stopReason) {
        // The command was already sent: record that, since the phone may have performed it.
        step.timings.actionMs = Math.round(performance.now() - started);
        await this.endStep(step, { status: 'canceled', errorCode: 'ABORTED', message: 'canceled while the action was in flight; the phone may have performed it' });
        throw this.abort.signal.reason;
      }
      if (!isMobileClawError(err)) throw err;
      return { status: 'error', errorCode: err.code, message: err.deviceCode ? `${err.deviceCode}: ${err.message}` : err.message };
    } finally {
      step.timings.actionMs = Math.round(performance.now() - started);
    }
  }

  /** Judges the previous step's action on the new screen and stores the verdict as its `result.verified`. */
  private async verifyPrevious(previous: TaskStep, before: ScreenSnapshot, after: ScreenSnapshot): Promise<ActionVerdict | undefined> {
    if (!previous.result || previous.result.status !== 'success') return undefined;
    const verdict = verifyAction(previous.plan, before, after);
    if (verdict === undefined) return undefined;
    previous.result = { ...previous.result, verified: verdict.verified };
    await this.journal.saveStep(previous);
    const entry = this.history.find((h) => h.index === previous.index);
    if (entry) entry.result = previous.result;
    return verdict;
  }

  private async waitForApproval(index: number, decision: Extract<PlanDecision, { type: 'action' }>, reason: string): Promise<boolean> {
    const answer = new Promise<boolean>((resolve) => (this.approval = { resolve }));
    const pendingAction = { stepIndex: index, action: decision.action, reason };
    await this.setStatus('input_required', { pendingAction }, 'task.input_required', { pendingAction });
    if (this.stopReason) return false;
    const approved = await answer;
    this.approval = undefined;
    if (approved) await this.setStatus('running', { owner: this.claim() }, 'task.resumed', { stepIndex: index });
    return approved;
  }

  /**
   * Runs a `tool_call` step: denied at once when the task offers no caller tools; else the task waits
   * in `input_required` with its `pendingToolCall` for the caller's answer, at most
   * `toolResultTimeoutMs`, then resumes and records the step's result. The decision gets its
   * `toolCallId` before it is stored.
   * @throws the stop reason when the task is stopped while waiting.
   */
  private async callTool(index: number, decision: Extract<PlanDecision, { type: 'tool_call' }>, step: TaskStep, observed: Observation): Promise<void> {
    const toolCallId = decision.toolCallId ?? toolCallIdOf(this.task.taskId, index);
    const seen: PlannerHistoryObservation = { elements: observed.elements };
    if (observed.step.package !== undefined) seen.package = observed.step.package;
    if (this.task.tools === undefined) {
      const result: StepResult = { status: 'denied', message: 'this task offers no caller tools' };
      await this.endStep(step, result);
      this.history.push({ index, decision, result, observation: seen });
      return;
    }
    const kind = this.task.tools.find((tool) => tool.name === decision.name)?.kind;
    const pendingToolCall: PendingToolCall = { stepIndex: index, toolCallId, name: decision.name, arguments: decision.arguments, ...(kind ? { kind } : {}) };
    const started = performance.now();
    let settle!: (outcome: ToolCallAnswer | 'timeout' | 'stopped') => void;
    const outcome = new Promise<ToolCallAnswer | 'timeout' | 'stopped'>((resolve) => (settle = resolve));
    let recorded!: () => void;
    const wait: ToolCallWait = { toolCallId, answer: settle, recorded: new Promise<void>((resolve) => (recorded = resolve)) };
    this.toolCallStopped = () => settle('stopped');
    const timeoutMs = this.options.toolResultTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    // Waiting before the status is stored: an answer that comes as soon as the event is out finds the call.
    this.toolCall = wait;
    try {
      await this.setStatus('input_required', { pendingToolCall }, 'task.input_required', { toolCall: { toolCallId, name: decision.name, arguments: decision.arguments, ...(kind ? { kind } : {}), stepIndex: index } });
      if (this.stopReason) throw this.abort.signal.reason;
      timer = setTimeout(() => {
        // An answer that came first wins; a later one finds no pending call.
        if (this.toolCall !== wait) return;
        this.toolCall = undefined;
        settle('timeout');
      }, timeoutMs);
      const got = await outcome;
      if (got === 'stopped' || this.stopReason) throw this.abort.signal.reason;
      const result: StepResult =
        got === 'timeout'
          ? { status: 'error', errorCode: 'TOOL_RESULT_TIMEOUT', message: `the caller did not answer tool call ${toolCallId} (${decision.name}) within ${timeoutMs} ms` }
          : got.outcome === 'ok'
            ? { status: 'success', output: got.result === undefined ? null : got.result }
            : { status: 'denied', message: got.reason };
      step.timings.actionMs = Math.round(performance.now() - started);
      await this.setStatus('running', { owner: this.claim() }, 'task.resumed', { stepIndex: index });
      await this.endStep(step, result);
      this.history.push({ index, decision, result, observation: seen });
    } finally {
      clearTimeout(timer);
      this.toolCall = undefined;
      this.toolCallStopped = undefined;
      recorded();
    }
  }

  /**
   * The gateway tools the planner may call at this step, or undefined without a {@link TaskTools}
   * provider: the listed ones minus those whose name (ignoring case) a caller tool or a phone action
   * has. A listing that fails offers none.
   * @throws the stop reason when the task is stopped while a source is still listing (a remote one may be slow).
   */
  private async listGatewayTools(): Promise<TaskToolSpec[] | undefined> {
    if (!this.tools) return undefined;
    const taken = new Set([...RESERVED_TOOL_NAMES, ...(this.task.tools ?? []).map((tool) => tool.name.toLowerCase())]);
    const listed = await settleOrAbort(this.tools.list().catch((): TaskToolSpec[] => []), this.abort.signal);
    return listed.filter((tool) => !taken.has(tool.name.toLowerCase()));
  }

  /**
   * Runs a `tool_call` step of a gateway tool: when the tool needs approval, the task first waits in
   * `input_required` with its `pendingToolApproval` for a person ({@link decide}); denied, the step ends
   * `denied`. Then the tool is called with the step's `toolCallId` within `gatewayToolTimeoutMs` and the
   * step records the result: `success` with `output` (the result's content), `message` (its text) and
   * `verified` when the tool says (false: its answer shows no sign the tool ran), or `error` with the
   * failure's code and message. The planner goes on in every case.
   * @throws the stop reason when the task is stopped while waiting or calling (the step is recorded
   *   `canceled` first when the call was already made).
   */
  private async callGatewayTool(index: number, decision: Extract<PlanDecision, { type: 'tool_call' }>, tool: TaskToolSpec, step: TaskStep, observed: Observation): Promise<void> {
    const toolCallId = decision.toolCallId ?? toolCallIdOf(this.task.taskId, index);
    const seen: PlannerHistoryObservation = { elements: observed.elements };
    if (observed.step.package !== undefined) seen.package = observed.step.package;
    const tools = this.tools as TaskTools;
    if (tool.needsApproval) {
      const pendingToolApproval: PendingToolApproval = {
        stepIndex: index,
        toolCallId,
        name: decision.name,
        arguments: decision.arguments,
        kind: tool.kind,
        mode: tool.mode,
        source: tool.source,
        reason: `${tool.kind} tool ${decision.name} (${tool.source}) runs only once a person approves it`,
      };
      const approved = await this.waitForToolApproval(index, pendingToolApproval, async () => {
        const result: StepResult = { status: 'denied', message: `a person denied the call of ${decision.name}` };
        await this.endStep(step, result);
        this.history.push({ index, decision, result, observation: seen });
      });
      if (!approved) return;
    }
    const started = performance.now();
    let outcome: ToolInvocationResult;
    try {
      const call = tools.invoke(decision.name, decision.arguments, {
        toolCallId,
        signal: this.abort.signal,
        deadlineMs: this.options.gatewayToolTimeoutMs,
        scope: this.scope,
        ...(tool.needsApproval ? { approved: true } : {}),
      });
      outcome = await settleOrAbort(call, this.abort.signal).catch((err: unknown) => (this.stopReason ? Promise.reject(err) : toolFailureFromError(err)));
    } catch (err) {
      step.timings.actionMs = Math.round(performance.now() - started);
      await this.endStep(step, { status: 'canceled', errorCode: 'ABORTED', message: `canceled while tool ${decision.name} was being called; it may have run` });
      throw err;
    }
    step.timings.actionMs = Math.round(performance.now() - started);
    this.metrics.stepPhaseMeasured('action', step.timings.actionMs);
    if (this.stopReason) {
      await this.endStep(step, { status: 'canceled', errorCode: 'ABORTED', message: `canceled while tool ${decision.name} was being called; it may have run` });
      throw this.abort.signal.reason;
    }
    const result: StepResult = outcome.ok
      ? { status: 'success', output: outcome.content, message: outcome.text, ...(outcome.verified === undefined ? {} : { verified: outcome.verified }) }
      : { status: 'error', errorCode: outcome.error.code, message: outcome.error.message };
    await this.endStep(step, result);
    this.history.push({ index, decision, result, observation: seen });
  }

  /** Ends a `tool_call` step whose name neither the caller nor the gateway offers: `error` `TOOL_NOT_FOUND`; the planner goes on. */
  private async refuseUnknownTool(index: number, decision: Extract<PlanDecision, { type: 'tool_call' }>, step: TaskStep, observed: Observation, offered: readonly TaskToolSpec[]): Promise<void> {
    const seen: PlannerHistoryObservation = { elements: observed.elements };
    if (observed.step.package !== undefined) seen.package = observed.step.package;
    const names = offered.map((tool) => tool.name);
    const result: StepResult = {
      status: 'error',
      errorCode: 'TOOL_NOT_FOUND',
      message: `no tool ${decision.name}: the task has no caller tools and the gateway offers ${names.length === 0 ? 'none' : names.join(', ')}`,
    };
    await this.endStep(step, result);
    this.history.push({ index, decision, result, observation: seen });
  }

  /**
   * Waits in `input_required` with `pending` for a person's answer ({@link decide}). Approved: the task
   * is `running` again (`task.resumed`) and this resolves true. Denied: `task.resumed`, then `onDenied`
   * records the step, and this resolves false. {@link decide} resolves once either is recorded.
   * @throws the stop reason when the task is stopped meanwhile.
   */
  private async waitForToolApproval(index: number, pending: PendingToolApproval, onDenied: () => Promise<void>): Promise<boolean> {
    let recorded!: () => void;
    const answer = new Promise<boolean>((resolve) => (this.approval = { resolve, recorded: new Promise<void>((done) => (recorded = done)) }));
    try {
      await this.setStatus('input_required', { pendingToolApproval: pending }, 'task.input_required', { toolApproval: pending });
      if (this.stopReason) throw this.abort.signal.reason;
      const approved = await answer;
      this.approval = undefined;
      if (this.stopReason) throw this.abort.signal.reason;
      await this.setStatus('running', { owner: this.claim() }, 'task.resumed', { stepIndex: index });
      if (!approved) await onDenied();
      return approved;
    } finally {
      this.approval = undefined;
      recorded();
    }
  }

  private async endStep(step: TaskStep, result: StepResult): Promise<void> {
    step.result = result;
    step.endedAt = this.now();
    await this.journal.saveStep(step);
    await this.journal.record(this.task.taskId, 'step.acted', { index: step.index, result, timings: step.timings, ...(step.actor === 'human' ? { actor: 'human', holder: step.holder } : {}) });
    // An action's or a tool call's outcome; a `done`/`fail` step's is the task's end, recorded by {@link finish}.
    if (step.actor !== 'human' && (step.plan?.type === 'action' || step.plan?.type === 'tool_call')) this.remember('tool', resultTurnText(result));
  }

  /**
   * Recalls the memories for the goal when due (before the first planning, after a `memory_store`
   * step). A recall that fails gives none; a stop meanwhile ends the wait at once.
   * @throws the stop reason when the task is stopped while recalling.
   */
  private async recall(): Promise<void> {
    if (!this.memory || !this.recallDue) return;
    this.recallDue = false;
    const memory = this.memory;
    const recalled = Promise.resolve()
      .then(() => memory.recall(this.scope, this.task.goal, this.abort.signal))
      .catch((): MemoryHit[] => []);
    this.memories = await settleOrAbort(recalled, this.abort.signal);
  }

  /** Keeps a turn of this task for its memory's session layer (nothing without memory); {@link recordTurns} hands them over. */
  private remember(role: SessionTurn['role'], text: string): void {
    if (!this.memory) return;
    this.turns.push({ role, text, at: this.now(), taskId: this.task.taskId });
  }

  /**
   * Hands the task's turns to its memory, once it ends (in final `status`): every text typed into a password field is
   * `[secret]` in all of them by then — the goal's own words included, which were recorded before the
   * task knew that a text of it was a password. A task whose goal mentions a credential
   * (`mentionsSecret`: password, PIN, 密码, …) hands over no words of it at all ({@link withheldTurns}).
   * Never throws.
   */
  private recordTurns(status: Task['status']): void {
    const memory = this.memory;
    if (!memory) return;
    const recorded = this.turns.splice(0);
    // A goal about a credential may hold it in its own words before any step showed a password field:
    // such a task leaves only that it happened and how it ended.
    const turns = mentionsSecret(this.task.goal) && recorded.length > 0 ? withheldTurns(recorded, status) : recorded;
    for (const turn of turns) {
      let text = turn.text;
      for (const secret of this.secrets) text = text.split(secret).join(SECRET_TURN_TEXT);
      try {
        memory.record(this.scope, { ...turn, text });
      } catch {
        // The port never throws; a memory that does must not end the task.
      }
    }
  }

  /** True when a person holds the phone now or took it since the step began (`takeoversAtStart`). */
  private takenOverSince(takeoversAtStart: number): boolean {
    return this.hold !== undefined || this.takeovers !== takeoversAtStart;
  }

  /** Ends a step whose decision a takeover made moot; nothing was sent. */
  private async dropStep(step: TaskStep): Promise<void> {
    const holder = this.hold?.takeover.holder ?? 'a person';
    await this.endStep(step, { status: 'canceled', errorCode: 'DEVICE_CONTROLLED', message: `not sent: ${holder} took over the phone` });
  }

  /**
   * Waits, while a person holds the phone, until they hand it back or the task is stopped. A task that
   * starts on a held phone becomes `input_required` here.
   * @throws the stop reason when the task is stopped meanwhile; a failure to store a status change made by {@link takeOver}/{@link handBack}.
   */
  private async waitWhileHeld(): Promise<void> {
    while (this.hold) {
      const hold = this.hold;
      if (this.task.status === 'running') {
        await this.setStatus('input_required', { takeover: hold.takeover }, 'task.taken_over', { status: 'input_required', takeover: hold.takeover });
      }
      await hold.released;
      if (this.stopReason) throw this.abort.signal.reason;
    }
    await this.journal.flush(this.task.taskId);
    if (this.writeFailure) throw this.writeFailure.error;
  }

  /** Stores a status change made outside the loop (a takeover or a hand back) in the task's write order. */
  private recordOutside(next: Task, type: 'task.taken_over' | 'task.handed_back', data: Record<string, unknown>): void {
    this.task = next;
    this.journal.updateAndRecord(next, type, data).catch((error: unknown) => {
      this.writeFailure ??= { error };
    });
  }

  /** Captures the screen a person acts on for their step; undefined (and no image) when the phone cannot give one. */
  private async screenOfHumanStep(index: number, step: TaskStep, options: ExecuteOptions): Promise<StepObservation | undefined> {
    try {
      const shot = await this.devices.execute<ScreenshotData>(this.task.deviceId, { command: 'screenshot' }, { ...options, timeoutMs: options.timeoutMs ?? this.options.commandTimeoutMs });
      await this.repository.saveScreenshot(this.task.taskId, index, { mime: shot.data.mime, bytes: Buffer.from(shot.data.base64, 'base64') });
      const screen = shot.data.screen ?? { width: shot.data.width, height: shot.data.height };
      step.timings.captureMs = phoneCaptureMs(shot);
      step.timings.transferMs = Math.max(0, Math.round(shot.durationMs - shot.queuedMs - step.timings.captureMs));
      step.observation = { frameId: shot.data.frameId, screenshotMime: shot.data.mime, screen: { width: screen.width, height: screen.height, rotation: screen.rotation ?? 0 }, elementCount: 0 };
      return step.observation;
    } catch (err) {
      if (isMobileClawError(err) && err.code !== 'STORAGE_ERROR') return undefined;
      throw err;
    }
  }

  private async finishOnError(err: unknown): Promise<void> {
    // The device layer closing under a running task is the gateway's shutdown, not the task's failure.
    if (!this.stopReason && isMobileClawError(err, 'SHUTTING_DOWN')) this.stopReason = { kind: 'shutdown', message: err.message };
    if (this.stopReason) {
      const { kind, message } = this.stopReason;
      if (kind === 'shutdown') {
        const error: TaskError = { code: 'INTERRUPTED', message };
        await this.finish('interrupted', 'task.interrupted', { reason: message, status: 'interrupted' }, { error });
      } else {
        const error: TaskError = { code: 'CANCELED', message };
        await this.finish('canceled', 'task.canceled', { error }, { error });
      }
      return;
    }
    const error: TaskError =
      err instanceof PlannerError
        ? { code: 'PLANNER_ERROR', message: err.message }
        : isMobileClawError(err)
          ? { code: err.code, message: err.message }
          : { code: 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err) };
    await this.finish('failed', 'task.failed', { error }, { error });
  }

  /** Moves the task to its final `status` and reports it once stored. */
  private async finish(status: Task['status'], type: 'task.completed' | 'task.failed' | 'task.canceled' | 'task.interrupted', data: Record<string, unknown>, changes: TaskTransitionChanges): Promise<void> {
    // Before the end is published: whoever follows the task finds its last turn recorded.
    this.remember('assistant', finalTurnText({ status, summary: changes.summary, error: changes.error }));
    this.recordTurns(status);
    await this.setStatus(status, changes, type, { status, ...data });
    this.metrics.taskFinished(status, changes.error?.code);
  }

  /** Moves the task by the domain's lifecycle rule, stores it and records `type` with `data`. */
  private async setStatus(to: Task['status'], changes: TaskTransitionChanges, type: Parameters<TaskJournal['record']>[1], data: Record<string, unknown>): Promise<void> {
    const next = transitionTask(this.task, to, this.now(), changes);
    this.task = next;
    await this.journal.updateAndRecord(next, type, data);
  }

  /** The clock's time as ISO-8601. */
  private now(): string {
    return this.clock.now().toISOString();
  }

  private commandOptions(): { signal: AbortSignal; timeoutMs?: number } {
    return this.options.commandTimeoutMs === undefined ? { signal: this.abort.signal } : { signal: this.abort.signal, timeoutMs: this.options.commandTimeoutMs };
  }
}

/** A planner failure (thrown error, or no answer by the deadline), as opposed to a device error. */
class PlannerError extends Error {}

/**
 * Records the progress a planner reports during one step as `step.planning` events `{index, attempt,
 * maxAttempts}`. Reports after {@link close} (a planner still running after its deadline) are dropped.
 */
class PlanningProgressRecorder {
  private closed = false;
  private writes: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | undefined;

  constructor(
    private readonly journal: TaskJournal,
    private readonly taskId: string,
    private readonly index: number,
  ) {}

  report({ attempt, maxAttempts }: PlanningProgress): void {
    if (this.closed) return;
    // The journal writes one task's records in call order, so this needs no await to stay in order.
    this.writes = this.journal.record(this.taskId, 'step.planning', { index: this.index, attempt, maxAttempts }).then(
      () => undefined,
      (error: unknown) => {
        this.failure ??= { error };
      },
    );
  }

  /**
   * Stops recording and waits for the events recorded so far.
   * @throws the first error storing one of them (e.g. `STORAGE_ERROR`).
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.writes;
    if (this.failure) throw this.failure.error;
  }
}

/** True when two screens have the same size and rotation. */
function sameGeometry(a: ScreenInfo, b: ScreenInfo): boolean {
  return a.width === b.width && a.height === b.height && (a.rotation ?? 0) === (b.rotation ?? 0);
}

/** The element a step's action was planned on, when the plan names one. */
function plannedTarget(plan: PlanDecision | undefined, elements: UiElement[]): UiElement | undefined {
  if (plan?.type !== 'action' || plan.elementIndex === undefined) return undefined;
  return elements.find((e) => e.index === plan.elementIndex);
}

function phoneCaptureMs(result: CommandResult<ScreenshotData | UiTreeData>): number {
  const value = (result.data as unknown as { captureMs?: unknown }).captureMs;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0;
}

/** What a task whose goal mentions a credential leaves in memory: that it ran, and how it ended — none of its words. */
export function withheldTurns(turns: readonly SessionTurn[], status: Task['status']): SessionTurn[] {
  const [first] = turns;
  const last = turns[turns.length - 1];
  return [
    { ...first, role: 'user', text: WITHHELD_GOAL_TEXT },
    { ...last, role: 'assistant', text: `task ${status}` },
  ];
}

/** The goal of a task about a credential, as its memory keeps it. */
export const WITHHELD_GOAL_TEXT = '[a task about a password or another secret: its words are not kept]';
