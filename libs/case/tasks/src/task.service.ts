import { Inject, Injectable, Logger, Optional, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Observable, defer, takeWhile, type Subscription } from 'rxjs';
import {
  Clock,
  ControlLeases,
  TAKEOVER_REASON,
  type AgentAction,
  type ControlLease,
  type DeviceControllerEvent,
  type ExecuteOptions,
  DEFAULT_GATEWAY_INSTANCE_ID,
  GATEWAY_INSTANCE_ID,
  IdSource,
  MobileClawError,
  MobileClawService,
  NoTaskContext,
  NoTaskMetrics,
  Planner,
  TERMINAL_TASK_EVENT_TYPES,
  TaskContext,
  TaskEventBus,
  TaskMetrics,
  TaskRepository,
  TaskTools,
  isTerminalTaskStatus,
  transitionTask,
  type Task,
  type TaskEvent,
  type TaskOwner,
  type TaskPage,
  type TaskFilter,
  type TaskQuery,
  type TaskStep,
  type CommandResult,
  type CallerToolSpec,
  type ToolCallAnswer,
  callerToolsErrors,
  toolCallAnswerErrors,
} from '@mobileclaw/domain';
import { InProcessTaskEventBus } from './in-process-task-event-bus';
import { RandomIdSource } from './random-id-source';
import { ScreenSettler, StableTreeSettler } from './screen-settling';
import { SystemClock } from './system-clock';
import { TASK_CASE_OPTIONS, type TaskCaseOptions } from './task-case.options';
import { TaskJournal } from './task-journal';
import { TaskRunner, type HumanActionRecord } from './task-runner';

/** Input of {@link TaskService.start}. */
export interface StartTaskInput {
  deviceId: string;
  goal: string;
  /** Step budget, 1…`maxStepsLimit`; default `defaultMaxSteps`. */
  maxSteps?: number;
  /** `queue` (default): wait behind the phone's running task. `reject`: fail with `DEVICE_BUSY` instead. */
  onBusy?: 'queue' | 'reject';
  /** The caller's conversation id ({@link Task.contextId}): 1–256 printable characters. */
  contextId?: string;
  /**
   * The caller's tools the planner may call ({@link Task.tools}); present (even `[]`) when the caller
   * answers tool calls ({@link TaskService.submitToolResult}). Checked by `callerToolsErrors`.
   */
  tools?: CallerToolSpec[];
  /**
   * The planner of this task instead of the service's (a learned skill's replay, which hands over to
   * the service's planner itself); its `name` is the task's `planner`. Held in memory only until the
   * task runs: like the task's loop, it does not outlive the gateway.
   */
  planner?: Planner;
}

/** Longest {@link Task.contextId}, in characters. */
export const MAX_CONTEXT_ID_LENGTH = 256;

/** A task with its recorded steps, as `GET /api/tasks/:id` returns it. */
export type TaskWithSteps = Task & { steps: TaskStep[] };

interface DeviceLane {
  running?: TaskRunner;
  waiting: Task[];
}

/**
 * The task use cases: start, cancel, approve, read and follow tasks. One task runs at a time per
 * phone; the others wait in that phone's FIFO queue. Orchestration only: phones, planners, storage,
 * live events, time and ids are ports.
 *
 * The last nine constructor parameters are optional: without a host provider, time is the
 * {@link SystemClock}, task ids come from the {@link RandomIdSource}, events travel on an
 * {@link InProcessTaskEventBus} of this service, the instance id is {@link DEFAULT_GATEWAY_INSTANCE_ID},
 * observations wait for the UI to settle with a {@link StableTreeSettler} on the options'
 * `settleTimeoutMs` and `settlePollMs`, nothing is reported to {@link TaskMetrics} ({@link NoTaskMetrics}),
 * and each task's loop runs as it is ({@link NoTaskContext}; a host's {@link TaskContext} gives it the
 * task's own context, e.g. for its log lines). With the host's {@link ControlLeases}, a person taking a
 * phone over pauses the task running on it (and one that starts on a held phone starts paused) until
 * they hand it back (see {@link TaskRunner}); without them, tasks are never paused. With the host's
 * {@link TaskTools} (the tool registry), planners may call the gateway's tools as steps; without
 * them, a task's planner has only the phone's actions and the caller's tools.
 */
@Injectable()
export class TaskService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(TaskService.name);
  private readonly journal: TaskJournal;
  private readonly settler: ScreenSettler;
  private readonly lanes = new Map<string, DeviceLane>();
  private readonly runners = new Map<string, TaskRunner>();
  /** Each running task's loop; resolves with the final task. */
  private readonly runs = new Map<string, Promise<Task>>();
  /** The cancel in progress of each task being canceled; resolves with the canceled task. */
  private readonly cancels = new Map<string, Promise<Task>>();
  /** The planners of tasks given their own ({@link StartTaskInput.planner}), until their loop starts or they leave the queue. */
  private readonly taskPlanners = new Map<string, Planner>();
  private pruneTimer?: NodeJS.Timeout;
  private closing = false;
  private readonly controllerChanges?: Subscription;

  constructor(
    private readonly devices: MobileClawService,
    private readonly planner: Planner,
    private readonly repository: TaskRepository,
    @Inject(TASK_CASE_OPTIONS) private readonly options: TaskCaseOptions,
    @Optional() private readonly clock: Clock = new SystemClock(),
    @Optional() private readonly ids: IdSource = new RandomIdSource(),
    @Optional() bus: TaskEventBus = new InProcessTaskEventBus(),
    /** This gateway instance's id: it owns the tasks it accepts. */
    @Optional() @Inject(GATEWAY_INSTANCE_ID) readonly instanceId: string = DEFAULT_GATEWAY_INSTANCE_ID,
    @Optional() settler?: ScreenSettler,
    @Optional() private readonly metrics: TaskMetrics = new NoTaskMetrics(),
    @Optional() private readonly context: TaskContext = new NoTaskContext(),
    @Optional() private readonly leases?: ControlLeases,
    @Optional() private readonly tools?: TaskTools,
  ) {
    this.journal = new TaskJournal(repository, bus, clock);
    this.settler = settler ?? new StableTreeSettler({ timeoutMs: options.settleTimeoutMs, pollMs: options.settlePollMs });
    metrics.observeTasks(() => this.load());
    this.controllerChanges = leases?.changes$.subscribe((event) => this.controllerChanged(event));
  }

  /**
   * Marks the tasks this instance left unfinished (crash or kill), and those no live instance holds,
   * as `interrupted`; then prunes old history.
   */
  async onApplicationBootstrap(): Promise<void> {
    const at = this.clock.now().toISOString();
    const interrupted = await this.repository.interruptUnfinished(this.instanceId, 'the gateway stopped while the task was unfinished', at);
    if (interrupted.length > 0) this.logger.warn(`marked ${interrupted.length} unfinished task(s) interrupted`);
    await this.prune();
    this.pruneTimer = setInterval(() => void this.prune(), this.options.pruneIntervalMs);
    this.pruneTimer.unref();
  }

  /** Interrupts running and queued tasks (recorded as `interrupted`) and waits for their records. */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.controllerChanges?.unsubscribe();
    const reason = 'the gateway shut down while the task was unfinished';
    for (const lane of this.lanes.values()) {
      for (const task of lane.waiting.splice(0)) {
        await this.journal.updateAndRecord(this.endTask(task, 'interrupted', { code: 'INTERRUPTED', message: reason }), 'task.interrupted', { reason, status: 'interrupted' });
        this.metrics.taskFinished('interrupted', 'INTERRUPTED');
      }
    }
    for (const runner of this.runners.values()) runner.stop({ kind: 'shutdown', message: reason });
    await Promise.allSettled([...this.runs.values()]);
    this.journal.complete();
  }

  /**
   * Accepts a task for a phone: it starts at once when the phone is idle, or waits in the phone's queue.
   * The task gets an id from the {@link IdSource}, `createdAt` from the {@link Clock}, and this
   * instance as its `owner`.
   * @returns the stored task (`running` or `queued` with `queuePosition`).
   * @throws MobileClawError `VALIDATION_FAILED` (empty/too long goal, maxSteps out of range, bad
   *   `tools`: a field error per bad member, e.g. `tools.0.name`),
   *   `DEVICE_NOT_FOUND` (the gateway has never seen the phone), `DEVICE_DISCONNECTED` (the phone is
   *   offline), `DEVICE_BUSY` (`onBusy: 'reject'` and the phone runs a task, or its queue is full),
   *   `SHUTTING_DOWN`.
   */
  async start(input: StartTaskInput): Promise<Task> {
    if (this.closing) throw new MobileClawError('SHUTTING_DOWN', 'the gateway is shutting down');
    const goal = input.goal.trim();
    const maxSteps = input.maxSteps ?? this.options.defaultMaxSteps;
    const fieldErrors = [];
    const goalError = checkGoal(goal, this.options.maxGoalLength);
    if (goalError) fieldErrors.push({ field: 'goal', message: goalError });
    if (!Number.isInteger(maxSteps) || maxSteps < 1 || maxSteps > this.options.maxStepsLimit) {
      fieldErrors.push({ field: 'maxSteps', message: `maxSteps must be an integer from 1 to ${this.options.maxStepsLimit}` });
    }
    const contextIdError = input.contextId === undefined ? undefined : checkContextId(input.contextId);
    if (contextIdError) fieldErrors.push({ field: 'contextId', message: contextIdError });
    if (input.tools !== undefined) fieldErrors.push(...callerToolsErrors(input.tools));
    if (fieldErrors.length > 0) throw new MobileClawError('VALIDATION_FAILED', fieldErrors.map((f) => f.message).join('; '), { fieldErrors });
    const device = await this.devices.getDevice(input.deviceId);
    if (this.closing) throw new MobileClawError('SHUTTING_DOWN', 'the gateway is shutting down');
    if (device.status === 'offline') {
      throw new MobileClawError('DEVICE_DISCONNECTED', `device ${input.deviceId} is offline (since ${device.disconnectedAt ?? device.lastSeenAt}${device.statusReason === undefined ? '' : `; ${device.statusReason}`})`, { deviceId: input.deviceId });
    }

    const lane = this.lane(input.deviceId);
    const busy = lane.running !== undefined || lane.waiting.length > 0;
    if (busy && input.onBusy === 'reject') {
      throw new MobileClawError('DEVICE_BUSY', `device ${input.deviceId} is running task ${lane.running?.current.taskId ?? lane.waiting[0]?.taskId}`, { deviceId: input.deviceId });
    }
    if (lane.waiting.length >= this.options.maxQueuedPerDevice) {
      throw new MobileClawError('DEVICE_BUSY', `device ${input.deviceId} already has ${lane.waiting.length} tasks waiting`, { deviceId: input.deviceId });
    }
    const task: Task = {
      taskId: this.ids.taskId(),
      deviceId: input.deviceId,
      goal,
      ...(input.contextId === undefined ? {} : { contextId: input.contextId }),
      ...(input.tools === undefined ? {} : { tools: input.tools.map(({ name, description, inputSchema, kind }) => ({ name, description, inputSchema: structuredClone(inputSchema), kind })) }),
      status: 'queued',
      maxSteps,
      planner: (input.planner ?? this.planner).name,
      createdAt: this.clock.now().toISOString(),
      stepCount: 0,
      owner: this.claim(),
    };
    await this.repository.createTask(task);
    if (input.planner) this.taskPlanners.set(task.taskId, input.planner);
    await this.journal.record(task.taskId, 'task.accepted', { task });
    if (busy) {
      lane.waiting.push(task);
      task.queuePosition = lane.waiting.length;
      await this.journal.updateAndRecord(task, 'task.queued', { position: task.queuePosition });
      return structuredClone(task);
    }
    const runner = this.launch(task, lane);
    await this.journal.flush(task.taskId);
    return structuredClone(runner.current);
  }

  /**
   * Cancels a task: a queued one leaves the queue, a running one has its in-flight command aborted on
   * the phone. Resolves when the task is recorded `canceled`.
   * @throws MobileClawError `TASK_NOT_FOUND`, `TASK_STATE_CONFLICT` (already finished).
   */
  async cancel(taskId: string, reason = 'canceled by a caller'): Promise<Task> {
    // One cancel per task wins; callers that come while it settles (before the store says `canceled`)
    // get the same conflict as those that come after, once it has settled.
    const pending = this.cancels.get(taskId);
    if (pending) {
      await pending.catch(() => undefined);
      const task = await this.find(taskId);
      throw new MobileClawError('TASK_STATE_CONFLICT', `task ${taskId} is already ${task.status}`);
    }
    const canceling = this.cancelOnce(taskId, reason);
    this.cancels.set(taskId, canceling);
    try {
      return await canceling;
    } finally {
      this.cancels.delete(taskId);
    }
  }

  private async cancelOnce(taskId: string, reason: string): Promise<Task> {
    const runner = this.runners.get(taskId);
    if (runner) {
      runner.stop({ kind: 'cancel', message: reason });
      return this.waitForEnd(taskId);
    }
    for (const lane of this.lanes.values()) {
      const at = lane.waiting.findIndex((t) => t.taskId === taskId);
      if (at === -1) continue;
      const [task] = lane.waiting.splice(at, 1);
      this.taskPlanners.delete(taskId);
      const ended = this.endTask(task, 'canceled', { code: 'CANCELED', message: reason });
      await this.journal.updateAndRecord(ended, 'task.canceled', { status: 'canceled', error: ended.error });
      this.metrics.taskFinished('canceled', 'CANCELED');
      await this.renumber(lane);
      return ended;
    }
    const task = await this.find(taskId);
    throw new MobileClawError('TASK_STATE_CONFLICT', `task ${taskId} is already ${task.status}`);
  }

  /**
   * Answers a task waiting in `input_required`: approve runs the pending action (or gateway tool call),
   * deny ends the task `canceled` with `APPROVAL_DENIED` — or, for a gateway tool call
   * (`pendingToolApproval`), ends that step `denied` while the task goes on. Resolves with the task
   * after the answer is recorded.
   * @throws MobileClawError `TASK_NOT_FOUND`, `TASK_STATE_CONFLICT` (not waiting for approval).
   */
  async approve(taskId: string, approve: boolean): Promise<Task> {
    const runner = this.runners.get(taskId);
    if (!runner) {
      const task = await this.find(taskId);
      throw new MobileClawError('TASK_STATE_CONFLICT', `task ${taskId} is ${task.status}, not waiting for approval`);
    }
    const toolCall = runner.current.pendingToolApproval !== undefined;
    const recorded = runner.decide(approve);
    if (!approve && !toolCall) return this.waitForEnd(taskId);
    await recorded;
    await this.journal.flush(taskId);
    return structuredClone(runner.current);
  }

  /**
   * Answers the tool call a task waits on with the caller's result (`outcome: 'ok'`, any JSON value of
   * at most 64 KiB as JSON) or rejection (`outcome: 'rejected'` with a reason of 1–2000 characters).
   * Resolves with the task once the answer is recorded (`task.resumed`, the step's `step.acted`):
   * usually `running`, or already further on.
   * @throws MobileClawError `VALIDATION_FAILED` (a bad answer, a field error per member), `TASK_NOT_FOUND`,
   *   `TOOL_CALL_NOT_PENDING` (the task does not wait for that `toolCallId`: answered already, another
   *   id, or the task ended; the message says which).
   */
  async submitToolResult(taskId: string, answer: ToolCallAnswer): Promise<Task> {
    const fieldErrors = toolCallAnswerErrors(answer);
    if (fieldErrors.length > 0) throw new MobileClawError('VALIDATION_FAILED', fieldErrors.map((f) => f.message).join('; '), { fieldErrors });
    const runner = this.runners.get(taskId);
    if (!runner) {
      const task = await this.find(taskId);
      throw new MobileClawError('TOOL_CALL_NOT_PENDING', `task ${taskId} is ${task.status} and waits for no tool call (tool call ${answer.toolCallId} was answered already, or never made)`);
    }
    const copy: ToolCallAnswer = answer.outcome === 'ok' ? { toolCallId: answer.toolCallId, outcome: 'ok', result: structuredClone(answer.result) } : { toolCallId: answer.toolCallId, outcome: 'rejected', reason: answer.reason };
    await runner.answerToolCall(copy);
    await this.journal.flush(taskId);
    return structuredClone(runner.current);
  }

  /**
   * Sends an action a person holding `deviceId` took, as `holder` (their display name). When a task
   * is paused by their takeover, the action is recorded in its timeline as a `human` step
   * ({@link TaskRunner.actAsHuman}) and `record` says which; otherwise it is only sent. The caller has
   * checked that the person holds the phone.
   * @throws MobileClawError the command error codes.
   */
  async actAsHolder(deviceId: string, holder: string, action: AgentAction, options: ExecuteOptions = {}): Promise<{ result: CommandResult; record?: HumanActionRecord & { taskId: string } }> {
    const runner = this.lanes.get(deviceId)?.running;
    if (runner?.takeover) {
      const record = await runner.actAsHuman(holder, action, options);
      return { result: record.result, record: { ...record, taskId: runner.current.taskId } };
    }
    return { result: await this.devices.execute(deviceId, action, options) };
  }

  /** The id of the task a takeover pauses on `deviceId`, if any. */
  pausedTaskOn(deviceId: string): string | undefined {
    const runner = this.lanes.get(deviceId)?.running;
    return runner?.takeover ? runner.current.taskId : undefined;
  }

  /** @throws MobileClawError `TASK_NOT_FOUND`. */
  async get(taskId: string): Promise<TaskWithSteps> {
    const task = await this.find(taskId);
    return { ...task, steps: await this.repository.listSteps(taskId) };
  }

  /**
   * The task without its steps: the running copy when it runs, else the stored one.
   * @throws MobileClawError `TASK_NOT_FOUND`.
   */
  async find(taskId: string): Promise<Task> {
    const running = this.runners.get(taskId)?.current;
    const task = running ? structuredClone(running) : await this.repository.getTask(taskId);
    if (!task) throw new MobileClawError('TASK_NOT_FOUND', `no task ${taskId}`);
    return task;
  }

  /** @throws MobileClawError `VALIDATION_FAILED` for a bad cursor. */
  list(query: TaskQuery): Promise<TaskPage> {
    return this.repository.listTasks(query);
  }

  /**
   * How many tasks `filter` selects (all pages of {@link list} with that filter).
   * @throws MobileClawError `VALIDATION_FAILED` for an unknown status.
   */
  count(filter: TaskFilter): Promise<number> {
    return this.repository.countTasks(filter);
  }

  /** @throws MobileClawError `TASK_NOT_FOUND`. */
  async screenshot(taskId: string, stepIndex: number): Promise<{ mime: string; bytes: Uint8Array }> {
    const image = await this.repository.getScreenshot(taskId, stepIndex);
    if (!image) throw new MobileClawError('TASK_NOT_FOUND', `no screenshot for step ${stepIndex} of task ${taskId}`);
    return image;
  }

  /**
   * A task's events with `id > afterId`: first replayed from the store, then live, with no gap and no
   * duplicate, completing after the terminal event (at once if the task already ended).
   * @throws MobileClawError `TASK_NOT_FOUND` (on subscription).
   */
  events(taskId: string, afterId = 0): Observable<TaskEvent> {
    return defer(() => {
      let last = afterId;
      const buffered: TaskEvent[] = [];
      let replaying = true;
      // Subscribe to live events before reading the store, so that nothing falls between the two.
      const live$ = this.journal.events$(taskId);
      return new Observable<TaskEvent>((subscriber) => {
        const liveSub = live$.subscribe((event) => {
          if (replaying) buffered.push(event);
          else if (event.id > last) {
            last = event.id;
            subscriber.next(event);
          }
        });
        const replay = async (): Promise<void> => {
          // Writes already queued for the task land first, so a finished task's store holds its end.
          await this.journal.flush(taskId);
          const task = await this.find(taskId);
          for (const event of await this.repository.listEvents(taskId, afterId)) {
            if (event.id <= last) continue;
            last = event.id;
            subscriber.next(event);
          }
          replaying = false;
          for (const event of buffered.splice(0)) {
            if (event.id <= last) continue;
            last = event.id;
            subscriber.next(event);
          }
          if (isTerminalTaskStatus(task.status)) subscriber.complete();
        };
        replay().catch((err) => subscriber.error(err));
        return () => liveSub.unsubscribe();
      });
    }).pipe(takeWhile((e) => !TERMINAL_TASK_EVENT_TYPES.includes(e.type), true));
  }

  /**
   * The id of the task's last recorded event (0 when it has none), after the writes already queued
   * for it have landed.
   * @throws MobileClawError `TASK_NOT_FOUND`.
   */
  async lastEventId(taskId: string): Promise<number> {
    await this.journal.flush(taskId);
    await this.find(taskId);
    return (await this.repository.listEvents(taskId, 0)).at(-1)?.id ?? 0;
  }

  /** Live events of every task (for dashboards), until shutdown. */
  get allEvents$(): Observable<TaskEvent> {
    return this.journal.events$();
  }

  /** Waits until no task is running or queued (tests, evaluation). */
  async idle(): Promise<void> {
    while (this.runs.size > 0) await Promise.allSettled([...this.runs.values()]);
  }

  /** The live tasks by state, for a metrics scrape. */
  private load(): { queued: number; running: number; inputRequired: number } {
    let queued = 0;
    let running = 0;
    let inputRequired = 0;
    for (const lane of this.lanes.values()) queued += lane.waiting.length;
    for (const runner of this.runners.values()) {
      const status = runner.current.status;
      if (status === 'input_required') inputRequired++;
      else if (status === 'queued') queued++;
      else if (!isTerminalTaskStatus(status)) running++;
    }
    return { queued, running, inputRequired };
  }

  private lane(deviceId: string): DeviceLane {
    let lane = this.lanes.get(deviceId);
    if (!lane) {
      lane = { waiting: [] };
      this.lanes.set(deviceId, lane);
    }
    return lane;
  }

  private launch(task: Task, lane: DeviceLane): TaskRunner {
    const planner = this.taskPlanners.get(task.taskId) ?? this.planner;
    this.taskPlanners.delete(task.taskId);
    const runner = new TaskRunner(task, this.devices, planner, this.repository, this.journal, this.options, this.clock, () => this.claim(), this.settler, this.metrics, this.tools);
    // A task that starts on a phone a person holds starts paused.
    const lease = this.leases?.current(task.deviceId);
    if (lease) runner.takeOver(takeoverOf(lease));
    lane.running = runner;
    this.runners.set(task.taskId, runner);
    const run = this.context
      .run({ taskId: task.taskId, deviceId: task.deviceId }, () => runner.run())
      .catch((err: unknown) => {
        this.logger.error(`task ${task.taskId} crashed: ${err instanceof Error ? err.stack : String(err)}`);
        return runner.current;
      })
      .finally(() => {
        this.runners.delete(task.taskId);
        this.runs.delete(task.taskId);
        lane.running = undefined;
        void this.next(lane, task.deviceId);
      });
    this.runs.set(task.taskId, run);
    return runner;
  }

  private async next(lane: DeviceLane, deviceId: string): Promise<void> {
    if (this.closing || lane.running) return;
    const task = lane.waiting.shift();
    if (!task) {
      this.lanes.delete(deviceId);
      return;
    }
    this.launch(task, lane);
    await this.renumber(lane);
  }

  /** Pauses the task running on a phone a person took, resumes it when the phone comes back. */
  private controllerChanged(event: DeviceControllerEvent): void {
    const runner = this.lanes.get(event.deviceId)?.running;
    if (!runner) return;
    const lease = this.leases?.current(event.deviceId);
    if (event.controller && lease) runner.takeOver(takeoverOf(lease));
    else if (!event.controller) runner.handBack();
  }

  /** Tells each waiting task its new place after the queue moved. */
  private async renumber(lane: DeviceLane): Promise<void> {
    for (const [i, task] of lane.waiting.entries()) {
      if (task.queuePosition === i + 1) continue;
      task.queuePosition = i + 1;
      await this.journal.updateAndRecord(task, 'task.queued', { position: task.queuePosition });
    }
  }

  /** This instance's claim on a task, valid for `leaseMs` from now. */
  private claim(): TaskOwner {
    return { instanceId: this.instanceId, leaseExpiresAt: new Date(this.clock.now().getTime() + this.options.leaseMs).toISOString() };
  }

  /** The task ended now (clock time) with `status` and `error`, out of the queue and not waiting for approval. */
  private endTask(task: Task, status: Task['status'], error: Task['error']): Task {
    return transitionTask(task, status, this.clock.now().toISOString(), { error });
  }

  private async waitForEnd(taskId: string): Promise<Task> {
    const run = this.runs.get(taskId);
    return run ? structuredClone(await run) : this.find(taskId);
  }

  private async prune(): Promise<void> {
    try {
      const removed = await this.repository.prune(this.options.retention, this.clock.now());
      if (removed > 0) this.logger.log(`pruned ${removed} old task(s)`);
    } catch (err) {
      this.logger.error(`pruning failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/** The {@link TaskTakeover} a lease puts on the task running on its phone. */
function takeoverOf(lease: ControlLease): { reason: string; holder: string; since: string } {
  return { reason: TAKEOVER_REASON, holder: lease.holder, since: lease.since };
}

/**
 * Why a goal is unusable, or undefined: it must be well-formed Unicode (no lone surrogates), have no
 * control characters other than line breaks and tabs, show something besides spaces and invisible
 * format characters, and be at most `maxLength` characters (code points, so an emoji counts once).
 */
/**
 * A conversation id: 1–{@link MAX_CONTEXT_ID_LENGTH} characters, none of them a control, format or
 * separator-other-than-space character (it is shown, logged and compared as is).
 */
export function checkContextId(contextId: unknown): string | undefined {
  if (typeof contextId !== 'string' || contextId.length === 0) return 'contextId must be a non-empty string';
  if ([...contextId].length > MAX_CONTEXT_ID_LENGTH) return `contextId must be at most ${MAX_CONTEXT_ID_LENGTH} characters`;
  if (/[\p{C}\p{Zl}\p{Zp}]/u.test(contextId)) return 'contextId must be printable (no control, format or line-separator characters)';
  return undefined;
}

function checkGoal(goal: string, maxLength: number): string | undefined {
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(goal)) return 'goal must be well-formed Unicode text (it has a lone surrogate)';
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(goal)) return 'goal must not contain control characters';
  if (goal.replace(/[\s\p{Cf}]/gu, '') === '') return 'goal must not be empty';
  const length = [...goal].length;
  if (length > maxLength) return `goal must be at most ${maxLength} characters (it has ${length})`;
  return undefined;
}

