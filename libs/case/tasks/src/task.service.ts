import { Inject, Injectable, Logger, Optional, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Observable, defer, takeWhile, type Subscription } from 'rxjs';
import {
  Clock,
  ControlLeases,
  DeviceTaskLocks,
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
  isMobileClawError,
  NoTaskMetrics,
  Planner,
  TERMINAL_TASK_EVENT_TYPES,
  TaskContext,
  TaskControlRelay,
  TaskEventBus,
  TaskMetrics,
  TaskRepository,
  TaskTools,
  TaskMemory,
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
  type TaskControlListener,
  type TaskControlRequest,
  type ToolCallAnswer,
  callerToolsErrors,
  toolCallAnswerErrors,
} from '@mobileclaw/domain';
import { InProcessTaskEventBus } from './in-process-task-event-bus';
import { LocalDeviceTaskLocks } from './local-device-task-locks';
import { RandomIdSource } from './random-id-source';
import { ScreenSettler, StableTreeSettler } from './screen-settling';
import { SystemClock } from './system-clock';
import { TASK_CASE_OPTIONS, type TaskCaseOptions } from './task-case.options';
import { TaskEndedElsewhere, TaskJournal } from './task-journal';
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
  /** A task of this lane is acquiring the phone's cluster-wide lock ({@link DeviceTaskLocks}): no other may start meanwhile. */
  acquiring?: boolean;
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
 * them, a task's planner has only the phone's actions and the caller's tools. With the host's
 * {@link TaskMemory}, planners are shown what the task's scope remembers for its goal and the tasks'
 * turns go to its session layer; without it, tasks plan without memory.
 *
 * Several instances on one store: every `leaseMs / 3` the service renews the leases of the tasks it
 * holds — runs or queues — ({@link renewLeases}; first it stores the end of any task whose runner
 * crashed without storing it, e.g. in a store outage: {@link recordPendingEnds}) and every `leaseMs / 2` it interrupts the tasks whose lease expired — an
 * instance that died ({@link interruptExpired}); the `task.interrupted` events of those, and of the
 * tasks interrupted at start-up, are published on the bus so that any instance's streams end. With the
 * host's {@link TaskControlRelay}, `cancel`, `approve` and `submitToolResult` for an unfinished task
 * another instance owns go to that instance, and this one answers those relayed to it; without one,
 * such a task is refused with `TASK_STATE_CONFLICT` (`TOOL_CALL_NOT_PENDING`) as on a single instance.
 *
 * One task per phone in the whole cluster: a task starts only once it holds the phone's lock
 * ({@link DeviceTaskLocks}; the default, {@link LocalDeviceTaskLocks}, grants at once). When another
 * instance's task holds it, the task waits first in its phone's queue (`queued`, position 1) and tries
 * again when a lock is released ({@link DeviceTaskLocks.released$}) or at the next sweep tick
 * (`leaseMs / 2`); `onBusy: 'reject'` answers `DEVICE_BUSY` naming that task and instance. Every end
 * of a task releases its lock; a sweep that interrupts a dead instance's task releases that task's
 * lock too; a task whose hold was lost ({@link DeviceTaskLocks.lost$}) is interrupted.
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
  /**
   * The end of each task whose runner stopped without storing it (the store refused the write, e.g.
   * during an outage): stored, and published, by {@link recordPendingEnds} once the store takes
   * writes again. Until then the task is no longer held here (its lease is not renewed) and reads
   * of it show this end.
   */
  private readonly pendingEnds = new Map<string, Task>();
  /** The planners of tasks given their own ({@link StartTaskInput.planner}), until their loop starts or they leave the queue. */
  private readonly taskPlanners = new Map<string, Planner>();
  private pruneTimer?: NodeJS.Timeout;
  /** The lease renewal and expired-lease sweep timers, while the service runs. */
  private readonly leaseTimers: NodeJS.Timeout[] = [];
  /** This instance's answering side of the relay, while the service runs. */
  private controlListener?: TaskControlListener;
  private closing = false;
  private readonly controllerChanges?: Subscription;
  private readonly lockChanges: Subscription[] = [];
  /** Lanes moving on to their next task (acquiring the phone's lock first), until it launched or waits. */
  private readonly advancing = new Set<Promise<void>>();

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
    @Optional() private readonly memory?: TaskMemory,
    @Optional() private readonly relay?: TaskControlRelay,
    @Optional() private readonly locks: DeviceTaskLocks = new LocalDeviceTaskLocks(),
  ) {
    this.journal = new TaskJournal(repository, bus, clock);
    this.settler = settler ?? new StableTreeSettler({ timeoutMs: options.settleTimeoutMs, pollMs: options.settlePollMs });
    metrics.observeTasks(() => this.load());
    this.controllerChanges = leases?.changes$.subscribe((event) => this.controllerChanged(event));
    this.lockChanges.push(locks.released$.subscribe((deviceId) => this.retryLane(deviceId)));
    this.lockChanges.push(locks.lost$.subscribe((lost) => this.lockLost(lost.deviceId, lost.taskId, lost.reason)));
  }

  /**
   * Marks the tasks this instance left unfinished (crash or kill), and those no live instance holds,
   * as `interrupted` and publishes their `task.interrupted` events; then prunes old history, starts
   * the lease timers (renewal every `leaseMs / 3`, sweep every `leaseMs / 2`; unref'd, a failed tick
   * is logged and the next one tries again) and answers relayed task control.
   */
  async onApplicationBootstrap(): Promise<void> {
    const at = this.clock.now().toISOString();
    const interrupted = await this.repository.interruptUnfinished(this.instanceId, 'the gateway stopped while the task was unfinished', at);
    if (interrupted.length > 0) this.logger.warn(`marked ${interrupted.length} unfinished task(s) interrupted`);
    await this.publishInterrupted(interrupted);
    await this.prune();
    this.pruneTimer = setInterval(() => void this.prune(), this.options.pruneIntervalMs);
    this.pruneTimer.unref();
    this.leaseTimers.push(this.every(this.options.leaseMs / 3, 'renewing task leases', () => this.renewLeases()));
    this.leaseTimers.push(
      this.every(this.options.leaseMs / 2, 'interrupting tasks with expired leases', () => {
        // Holds that expired are announced nowhere: lanes waiting for another instance's task try again.
        for (const deviceId of [...this.lanes.keys()]) this.retryLane(deviceId);
        return this.interruptExpired();
      }),
    );
    this.controlListener = await this.relay?.listen((request) => this.answerRelayed(request));
  }

  /**
   * First stores the ends still pending ({@link recordPendingEnds}); then extends to now + `leaseMs`
   * the lease of every unfinished task this instance really holds — a runner runs it or it waits in
   * a phone's queue — so that no other instance interrupts them while this one lives. A task stored
   * as this instance's that it no longer holds (its runner crashed, or a write that ended it failed)
   * is not renewed: its lease expires and a sweep ends it. The lease timer calls it every `leaseMs / 3`.
   * A failure to store a pending end is logged and the renewal goes on (the held tasks must not
   * expire because of another task's end).
   * @returns how many tasks it extended.
   * @throws MobileClawError the repository's (`STORAGE_ERROR`, `SHUTTING_DOWN`) from the renewal.
   */
  async renewLeases(): Promise<number> {
    await this.recordPendingEnds().catch((err: unknown) => this.logger.error(`storing the end of ${this.pendingEnds.size} crashed task(s) failed (next try with the next lease renewal): ${err instanceof Error ? err.message : String(err)}`));
    const held = [...this.runners.keys(), ...[...this.lanes.values()].flatMap((lane) => lane.waiting.map((task) => task.taskId))];
    if (held.length === 0) return 0;
    return this.repository.renewLeases(this.instanceId, new Date(this.clock.now().getTime() + this.options.leaseMs).toISOString(), held);
  }

  /**
   * Stores, and publishes, the end of each task whose runner stopped without storing it: the end the
   * runner was writing (e.g. `failed` with `STORAGE_ERROR` when a store outage failed the task), or
   * `failed` with the crash's error code (`INTERNAL_ERROR` for a non-domain error) when it had none.
   * A task another instance ended meanwhile keeps that end. An end the store refuses for good (any
   * error but `STORAGE_ERROR` and `SHUTTING_DOWN`) is dropped with a log line: the task, no longer
   * renewed, is then interrupted by a sweep once its lease expires. {@link renewLeases} calls it
   * first, so an end is stored at most `leaseMs / 3` after the store takes writes again.
   * @returns how many ends it stored.
   * @throws MobileClawError `STORAGE_ERROR` or `SHUTTING_DOWN` for the first end the store could not
   *   take now; that one and the later ones stay pending.
   */
  async recordPendingEnds(): Promise<number> {
    let stored = 0;
    for (const [taskId, end] of [...this.pendingEnds]) {
      try {
        await this.journal.updateAndRecord(end, `task.${end.status}` as TaskEvent['type'], endEventData(end));
        this.metrics.taskFinished(end.status, end.error?.code);
        this.logger.log(`stored the end (${end.status}) of task ${taskId}, which its runner could not store`);
        stored += 1;
      } catch (err) {
        if (isMobileClawError(err, 'STORAGE_ERROR') || isMobileClawError(err, 'SHUTTING_DOWN')) throw err;
        if (!(err instanceof TaskEndedElsewhere)) this.logger.error(`the store refuses the end of task ${taskId} (a sweep interrupts it once its lease expires): ${err instanceof Error ? err.message : String(err)}`);
      }
      this.pendingEnds.delete(taskId);
    }
    return stored;
  }

  /**
   * Renews this instance's leases first (so that a pause of this process — a suspended host — never
   * makes its own tasks look abandoned; a failed renewal is logged and the sweep goes on), then marks
   * `interrupted` every unfinished task whose lease expired — its instance died or lost the store —
   * and publishes each one's `task.interrupted` event. A task among them that this instance still
   * runs or queues (its renewals failed) is stopped or leaves its queue; its runner adopts the stored
   * end. The lease timer calls it every `leaseMs / 2`.
   * @returns the tasks it interrupted, oldest first.
   * @throws MobileClawError the repository's `interruptExpired` errors (`STORAGE_ERROR`, `SHUTTING_DOWN`).
   */
  async interruptExpired(): Promise<Task[]> {
    await this.renewLeases().catch((err: unknown) => this.logger.error(`renewing task leases before the sweep failed: ${err instanceof Error ? err.message : String(err)}`));
    const reason = 'the gateway instance that held the task stopped renewing its lease';
    const interrupted = await this.repository.interruptExpired(reason, this.clock.now().toISOString());
    if (interrupted.length > 0) this.logger.warn(`marked ${interrupted.length} task(s) with an expired lease interrupted`);
    for (const task of interrupted) {
      // The phone of a task whose instance died is free now, not only when that instance's hold expires.
      if (!this.runners.has(task.taskId)) await this.releaseLock(task.deviceId, task.taskId);
      this.runners.get(task.taskId)?.stop({ kind: 'shutdown', message: reason });
      for (const lane of this.lanes.values()) {
        const at = lane.waiting.findIndex((t) => t.taskId === task.taskId);
        if (at === -1) continue;
        lane.waiting.splice(at, 1);
        this.taskPlanners.delete(task.taskId);
        await this.renumber(lane);
      }
    }
    await this.publishInterrupted(interrupted);
    return interrupted;
  }

  /** Interrupts running and queued tasks (recorded as `interrupted`) and waits for their records. */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    for (const timer of this.leaseTimers.splice(0)) clearInterval(timer);
    await this.controlListener?.close();
    this.controllerChanges?.unsubscribe();
    for (const sub of this.lockChanges.splice(0)) sub.unsubscribe();
    const reason = 'the gateway shut down while the task was unfinished';
    for (const lane of this.lanes.values()) {
      for (const task of lane.waiting.splice(0)) {
        await this.journal.updateAndRecord(this.endTask(task, 'interrupted', { code: 'INTERRUPTED', message: reason }), 'task.interrupted', { reason, status: 'interrupted' });
        this.metrics.taskFinished('interrupted', 'INTERRUPTED');
      }
    }
    for (const runner of this.runners.values()) runner.stop({ kind: 'shutdown', message: reason });
    await Promise.allSettled([...this.runs.values()]);
    // A lane that was acquiring its phone's lock gives it back (its task left the queue above).
    await Promise.allSettled([...this.advancing]);
    await this.recordPendingEnds().catch((err: unknown) => this.logger.error(`storing ${this.pendingEnds.size} task end(s) failed at shutdown (the next start interrupts those tasks): ${err instanceof Error ? err.message : String(err)}`));
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
    const busy = lane.running !== undefined || lane.waiting.length > 0 || lane.acquiring === true;
    if (busy && input.onBusy === 'reject') {
      const message = lane.running
        ? `device ${input.deviceId} is running task ${lane.running.current.taskId}`
        : lane.waiting.length > 0
          ? `device ${input.deviceId} has task ${lane.waiting[0].taskId} waiting for it (a task of another gateway instance runs on it)`
          : `device ${input.deviceId} is starting another task`;
      throw new MobileClawError('DEVICE_BUSY', message, { deviceId: input.deviceId });
    }
    if (lane.waiting.length >= this.options.maxQueuedPerDevice) {
      throw new MobileClawError('DEVICE_BUSY', `device ${input.deviceId} already has ${lane.waiting.length} tasks waiting`, { deviceId: input.deviceId });
    }
    const taskId = this.ids.taskId();
    // An idle lane is this task's to start: it takes the phone's lock, which another instance's task may hold.
    const reserved = !busy;
    let granted = false;
    if (reserved) lane.acquiring = true;
    try {
      if (reserved) granted = await this.acquireForStart(input.deviceId, taskId, input.onBusy === 'reject');
      const task: Task = {
        taskId,
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
      try {
        await this.repository.createTask(task);
      } catch (err) {
        if (granted) await this.releaseLock(input.deviceId, taskId);
        throw err;
      }
      if (input.planner) this.taskPlanners.set(task.taskId, input.planner);
      await this.journal.record(task.taskId, 'task.accepted', { task });
      if (!granted) {
        // Behind this instance's tasks of the phone, or behind another instance's (the lock is held
        // elsewhere: then it came before the tasks queued while it asked for the lock).
        if (reserved) {
          lane.waiting.unshift(task);
          await this.renumber(lane);
        } else {
          lane.waiting.push(task);
          task.queuePosition = lane.waiting.length;
          await this.journal.updateAndRecord(task, 'task.queued', { position: task.queuePosition });
        }
        return structuredClone(task);
      }
      lane.acquiring = false;
      const runner = this.launch(task, lane);
      await this.journal.flush(task.taskId);
      return structuredClone(runner.current);
    } finally {
      if (reserved && lane.acquiring) {
        lane.acquiring = false;
        // Not started here (refused, failed, or waiting for another instance's task): the lane moves on
        // by itself — a release that came while this task was not yet queued is not missed.
        this.advance(lane, input.deviceId);
      }
    }
  }

  /**
   * Takes the phone's cluster-wide lock for a new task on an idle lane.
   * @returns whether it holds it; false when another task holds it (or the lock's storage could not
   *   be reached: the task waits and its lane tries again).
   * @throws MobileClawError `DEVICE_BUSY` when `reject` and another task holds the phone; the locks'
   *   `STORAGE_ERROR` when `reject` and they cannot be reached.
   */
  private async acquireForStart(deviceId: string, taskId: string, reject: boolean): Promise<boolean> {
    let lock;
    try {
      lock = await this.locks.tryAcquire(deviceId, taskId);
    } catch (err) {
      if (reject) throw err;
      this.logger.warn(`cannot take the task lock of device ${deviceId} for task ${taskId} (it waits, tried again when the phone is released or in ${Math.round(this.options.leaseMs / 2)} ms): ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
    if (lock.granted) return true;
    if (reject) {
      const where = lock.holder?.instanceId === undefined || lock.holder.instanceId === this.instanceId ? '' : ` on gateway instance ${lock.holder.instanceId}`;
      throw new MobileClawError('DEVICE_BUSY', `device ${deviceId} is running task ${lock.holder?.taskId ?? '(unknown)'}${where}`, { deviceId });
    }
    return false;
  }

  /**
   * Cancels a task: a queued one leaves the queue, a running one has its in-flight command aborted on
   * the phone. Resolves when the task is recorded `canceled`. An unfinished task another instance
   * owns is canceled there, through the {@link TaskControlRelay} when the host gives one.
   * @throws MobileClawError `TASK_NOT_FOUND`, `TASK_STATE_CONFLICT` (already finished, or run by
   *   another instance and no relay), and the relay's `DEVICE_DISCONNECTED`/`TIMEOUT`.
   */
  cancel(taskId: string, reason = 'canceled by a caller'): Promise<Task> {
    return this.cancelTask(taskId, reason, true);
  }

  private async cancelTask(taskId: string, reason: string, relay: boolean): Promise<Task> {
    // One cancel per task wins; callers that come while it settles (before the store says `canceled`)
    // get the same conflict as those that come after, once it has settled.
    const pending = this.cancels.get(taskId);
    if (pending) {
      await pending.catch(() => undefined);
      const task = await this.find(taskId);
      throw new MobileClawError('TASK_STATE_CONFLICT', `task ${taskId} is already ${task.status}`);
    }
    const canceling = this.cancelOnce(taskId, reason, relay);
    this.cancels.set(taskId, canceling);
    try {
      return await canceling;
    } finally {
      this.cancels.delete(taskId);
    }
  }

  private async cancelOnce(taskId: string, reason: string, relay: boolean): Promise<Task> {
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
    const owner = relay ? this.remoteOwnerOf(task) : undefined;
    if (owner) return this.relay!.send(owner, { op: 'cancel', taskId, reason });
    throw new MobileClawError('TASK_STATE_CONFLICT', `task ${taskId} is already ${task.status}`);
  }

  /**
   * Answers a task waiting in `input_required`: approve runs the pending action (or gateway tool call),
   * deny ends the task `canceled` with `APPROVAL_DENIED` — or, for a gateway tool call
   * (`pendingToolApproval`), ends that step `denied` while the task goes on. Resolves with the task
   * after the answer is recorded. A task another instance owns gets the answer there, through the
   * {@link TaskControlRelay} when the host gives one.
   * @throws MobileClawError `TASK_NOT_FOUND`, `TASK_STATE_CONFLICT` (not waiting for approval), and the
   *   relay's `DEVICE_DISCONNECTED`/`TIMEOUT`.
   */
  approve(taskId: string, approve: boolean): Promise<Task> {
    return this.approveTask(taskId, approve, true);
  }

  private async approveTask(taskId: string, approve: boolean, relay: boolean): Promise<Task> {
    const runner = this.runners.get(taskId);
    if (!runner) {
      const task = await this.find(taskId);
      const owner = relay ? this.remoteOwnerOf(task) : undefined;
      if (owner) return this.relay!.send(owner, { op: 'approve', taskId, approve });
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
   *   id, or the task ended; the message says which), and the relay's `DEVICE_DISCONNECTED`/`TIMEOUT`
   *   when another instance runs the task (the answer goes there through the {@link TaskControlRelay}).
   */
  submitToolResult(taskId: string, answer: ToolCallAnswer): Promise<Task> {
    return this.submitToolResultTo(taskId, answer, true);
  }

  private async submitToolResultTo(taskId: string, answer: ToolCallAnswer, relay: boolean): Promise<Task> {
    const fieldErrors = toolCallAnswerErrors(answer);
    if (fieldErrors.length > 0) throw new MobileClawError('VALIDATION_FAILED', fieldErrors.map((f) => f.message).join('; '), { fieldErrors });
    const runner = this.runners.get(taskId);
    if (!runner) {
      const task = await this.find(taskId);
      const owner = relay ? this.remoteOwnerOf(task) : undefined;
      if (owner) return this.relay!.send(owner, { op: 'tool_result', taskId, answer });
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
    const inMemory = this.runners.get(taskId)?.current ?? this.pendingEnds.get(taskId);
    const task = inMemory ? structuredClone(inMemory) : await this.repository.getTask(taskId);
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
   * duplicate, completing after the terminal event (at once if the task already ended). The bus may
   * drop events (a broker): when a live event's id skips ahead of the last one sent, the missing ones
   * are read from the store and sent first, and when the bus signals a resync (its link came back)
   * the store is read for any event after the last one sent; ids already sent are ignored.
   * @throws MobileClawError `TASK_NOT_FOUND` (on subscription); the repository's errors when a
   *   replay or a gap read fails.
   */
  events(taskId: string, afterId = 0): Observable<TaskEvent> {
    return defer(() => {
      // Subscribe to live events before reading the store, so that nothing falls between the two.
      const live$ = this.journal.events$(taskId);
      return new Observable<TaskEvent>((subscriber) => {
        let last = afterId;
        /** Store reads (the replay, gap fills) and the live events behind them, in arrival order. */
        let queue = Promise.resolve();
        let queued = 0;
        const send = (event: TaskEvent): void => {
          if (event.id <= last) return;
          last = event.id;
          subscriber.next(event);
        };
        /** Sends the stored events after the last one sent, up to `upTo` when given. */
        const catchUp = async (upTo = Infinity): Promise<void> => {
          for (const event of await this.repository.listEvents(taskId, last)) if (event.id <= upTo) send(event);
        };
        const enqueue = (work: () => Promise<void>): void => {
          queued++;
          queue = queue
            .then(() => (subscriber.closed ? undefined : work()))
            .catch((err: unknown) => subscriber.error(err))
            .finally(() => queued--);
        };
        // The bus says events may be lost with no later one to show it: read the store for them.
        const resyncSub = this.journal.resync$().subscribe(() => enqueue(() => catchUp()));
        const liveSub = live$.subscribe((event) => {
          // The usual case, the next id with nothing queued: sent at once, in the publisher's call.
          if (queued === 0 && event.id <= last + 1) return send(event);
          enqueue(async () => {
            if (event.id > last + 1) await catchUp(event.id - 1);
            send(event);
          });
        });
        enqueue(async () => {
          // Writes already queued for the task land first, so a finished task's store holds its end.
          await this.journal.flush(taskId);
          const task = await this.find(taskId);
          await catchUp();
          // A pending end is not stored yet: the stream ends with its event, published once stored.
          if (isTerminalTaskStatus(task.status) && !this.pendingEnds.has(taskId)) subscriber.complete();
        });
        return () => {
          liveSub.unsubscribe();
          resyncSub.unsubscribe();
        };
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
    while (this.runs.size > 0 || this.advancing.size > 0) await Promise.allSettled([...this.runs.values(), ...this.advancing]);
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
    const runner = new TaskRunner(task, this.devices, planner, this.repository, this.journal, this.options, this.clock, () => this.claim(), this.settler, this.metrics, this.tools, this.memory);
    // A task that starts on a phone a person holds starts paused.
    const lease = this.leases?.current(task.deviceId);
    if (lease) runner.takeOver(takeoverOf(lease));
    lane.running = runner;
    this.runners.set(task.taskId, runner);
    const run = this.context
      .run({ taskId: task.taskId, deviceId: task.deviceId }, () => runner.run())
      .catch((err: unknown) => {
        const end = crashEnd(runner.current, err, this.clock.now().toISOString());
        this.pendingEnds.set(task.taskId, end);
        this.logger.error(`task ${task.taskId} crashed; its end (${end.status}${end.error ? `: ${end.error.code}` : ''}) is stored once the store takes writes: ${err instanceof Error ? err.stack : String(err)}`);
        return end;
      })
      .finally(async () => {
        this.runners.delete(task.taskId);
        lane.running = undefined;
        // Every end (done, failed, canceled, interrupted, crashed, shut down) frees the phone for the cluster.
        await this.releaseLock(task.deviceId, task.taskId);
        this.runs.delete(task.taskId);
        this.advance(lane, task.deviceId);
      });
    this.runs.set(task.taskId, run);
    return runner;
  }

  /** Moves `lane` on to its next task ({@link next}), tracked until done so that {@link idle} waits for it. */
  private advance(lane: DeviceLane, deviceId: string): void {
    const moving = this.next(lane, deviceId).catch((err: unknown) => this.logger.error(`starting the next task of device ${deviceId} failed: ${err instanceof Error ? err.stack : String(err)}`));
    this.advancing.add(moving);
    void moving.finally(() => this.advancing.delete(moving));
  }

  /** Tries again to start the first task of `deviceId`'s lane when it waits on an idle lane (the phone's lock was held elsewhere). */
  private retryLane(deviceId: string): void {
    const lane = this.lanes.get(deviceId);
    if (!lane || lane.running || lane.acquiring) return;
    if (lane.waiting.length > 0) this.advance(lane, deviceId);
    else this.lanes.delete(deviceId);
  }

  /**
   * Starts the first waiting task of an idle lane once it holds the phone's lock; when another task
   * holds it (another instance's), the task keeps waiting, first in the queue, until the lock is
   * released ({@link DeviceTaskLocks.released$}) or the next sweep tick tries again.
   */
  private async next(lane: DeviceLane, deviceId: string): Promise<void> {
    if (this.closing || lane.running || lane.acquiring) return;
    const task = lane.waiting[0];
    if (!task) {
      if (this.lanes.get(deviceId) === lane) this.lanes.delete(deviceId);
      return;
    }
    lane.acquiring = true;
    let granted = false;
    try {
      granted = (await this.locks.tryAcquire(deviceId, task.taskId)).granted;
    } catch (err) {
      this.logger.warn(`cannot take the task lock of device ${deviceId} for task ${task.taskId} (tried again when the phone is released or in ${Math.round(this.options.leaseMs / 2)} ms): ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      lane.acquiring = false;
    }
    if (!granted) return;
    if (this.closing || lane.running || lane.waiting[0] !== task) {
      // The task left the queue meanwhile (canceled, interrupted, shut down): the next one, if any, gets its turn.
      await this.releaseLock(deviceId, task.taskId);
      if (!this.closing && !lane.running) return this.next(lane, deviceId);
      return;
    }
    lane.waiting.shift();
    this.launch(task, lane);
    await this.renumber(lane);
  }

  /** Releases the phone's lock of `taskId`; a failure is logged (the hold then expires, no instance renewing it). */
  private async releaseLock(deviceId: string, taskId: string): Promise<void> {
    try {
      await this.locks.release(deviceId, taskId);
    } catch (err) {
      this.logger.warn(`could not release the task lock of device ${deviceId} held by task ${taskId} (it expires instead): ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** The phone's lock of a task this instance runs ended without a release: the task stops, as another instance may start one there. */
  private lockLost(deviceId: string, taskId: string, reason: string): void {
    const runner = this.runners.get(taskId);
    if (!runner) return;
    this.logger.error(`task ${taskId} lost its hold on device ${deviceId} (${reason}): it is interrupted so that no two tasks run on the phone`);
    runner.stop({ kind: 'shutdown', message: `the task lost its hold on device ${deviceId}: ${reason}` });
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

  /** The other instance that owns `task` when it is unfinished and a relay can reach that instance; else undefined. */
  private remoteOwnerOf(task: Task): string | undefined {
    if (!this.relay || isTerminalTaskStatus(task.status) || !task.owner || task.owner.instanceId === this.instanceId) return undefined;
    return task.owner.instanceId;
  }

  /** Answers a request another instance relayed here, never relaying it further (no loops). */
  private answerRelayed(request: TaskControlRequest): Promise<Task> {
    switch (request.op) {
      case 'cancel':
        return this.cancelTask(request.taskId, request.reason, false);
      case 'approve':
        return this.approveTask(request.taskId, request.approve, false);
      case 'tool_result':
        return this.submitToolResultTo(request.taskId, request.answer, false);
    }
  }

  /** Publishes the stored `task.interrupted` event of each task the repository interrupted; a failure is logged. */
  private async publishInterrupted(tasks: Task[]): Promise<void> {
    for (const task of tasks) {
      try {
        await this.journal.publishStored(task.taskId, 'task.interrupted');
      } catch (err) {
        this.logger.error(`publishing the end of task ${task.taskId} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /**
   * Runs `work` every `intervalMs` (unref'd: it never keeps the process alive), skipping a tick while
   * the previous run is still going; a failure is logged and the next tick tries again.
   */
  private every(intervalMs: number, what: string, work: () => Promise<unknown>): NodeJS.Timeout {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      work()
        .catch((err: unknown) => this.logger.error(`${what} failed (next try in ${Math.round(intervalMs)} ms): ${err instanceof Error ? err.message : String(err)}`))
        .finally(() => (busy = false));
    }, intervalMs);
    timer.unref();
    return timer;
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

/**
 * The end of a task whose runner crashed with `err`: the runner's own end when it had reached one
 * (the write of that end is what failed), else `failed` at `at` with the error's code — a domain
 * error's (e.g. `STORAGE_ERROR`), `INTERNAL_ERROR` for any other.
 */
function crashEnd(current: Task, err: unknown, at: string): Task {
  if (isTerminalTaskStatus(current.status)) return structuredClone(current);
  const error = isMobileClawError(err) ? { code: err.code, message: err.message } : { code: 'INTERNAL_ERROR' as const, message: err instanceof Error ? err.message : String(err) };
  return transitionTask(current, 'failed', at, { error });
}

/** The data of an ended task's terminal event, as its runner records it. */
function endEventData(task: Task): Record<string, unknown> {
  switch (task.status) {
    case 'completed':
      return { status: task.status, summary: task.summary };
    case 'interrupted':
      return { reason: task.error?.message, status: task.status };
    default:
      return { status: task.status, error: task.error };
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

