import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type {
  CommandName,
  CommandOutcome,
  DeviceLoad,
  DeviceMetrics,
  DiscardedFrameReason,
  DroppedReplyReason,
  ErrorCode,
  EventStreamKind,
  EventStreamMetrics,
  MetricsExposition,
  PlannerFailure,
  PlannerMetrics,
  PlannerRetryReason,
  SessionStart,
  StepPhase,
  TaskLoad,
  TaskMetrics,
  TaskStatus,
} from '@mobileclaw/domain';

export interface PrometheusMetricsOptions {
  /**
   * Adds a `device_id` label to the per-phone series (commands, command latency, queue wait, pending
   * requests, queued commands, heartbeat round trip). Every phone then makes its own series: for small
   * fleets only (a Prometheus server holds every series it ever saw). Default false. Task ids are never
   * labels: each task is new, so their number grows without bound.
   */
  deviceLabels?: boolean;
  /** Adds prom-client's default process and Node.js metrics (`process_*`, `nodejs_*`). Default true. */
  processMetrics?: boolean;
}

/** Histogram buckets in seconds. */
const COMMAND_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const QUEUE_WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60];
const RTT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const PHASE_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

const DISCARD_REASONS: readonly DiscardedFrameReason[] = ['oversized', 'malformed', 'unexpected'];
const DROP_REASONS: readonly DroppedReplyReason[] = ['late', 'unknown'];
const PLANNER_FAILURES: readonly PlannerFailure[] = ['error', 'timeout'];
const RETRY_REASONS: readonly PlannerRetryReason[] = ['http', 'invalid_answer'];
const STREAMS: readonly EventStreamKind[] = ['devices', 'task', 'socket'];

const seconds = (ms: number): number => ms / 1000;

/**
 * The gateway's metrics ports on one prom-client {@link Registry} of its own (never the global one, so
 * that several gateways in a process keep apart), rendered as Prometheus text exposition. Names follow
 * the Prometheus conventions: the `mobileclaw_` prefix, `_total` counters, durations in `_seconds`.
 * Label values are bounded: command names and outcome codes come from closed lists, reasons and
 * phases are enums, transports are the configured ones; device ids only with
 * {@link PrometheusMetricsOptions.deviceLabels}. Gauges of the current state (phones connected,
 * pending and queued commands, tasks by state) are read from the observed sources at each scrape.
 */
export class PrometheusMetrics implements DeviceMetrics, TaskMetrics, PlannerMetrics, EventStreamMetrics, MetricsExposition {
  readonly registry = new Registry();
  private readonly deviceLabels: boolean;
  private deviceLoad: () => DeviceLoad = () => ({ transports: [], devices: [] });
  private taskLoad: () => TaskLoad = () => ({ queued: 0, running: 0, inputRequired: 0 });

  private readonly commands: Counter;
  private readonly commandDuration: Histogram;
  private readonly queueWait: Histogram;
  private readonly framesDiscarded: Counter;
  private readonly repliesDropped: Counter;
  private readonly heartbeatRtt: Histogram;
  private readonly sessions: Counter;
  private readonly refusals: Counter;
  private readonly tasksFinished: Counter;
  private readonly stepPhases: Histogram;
  private readonly plannerErrors: Counter;
  private readonly plannerRetries: Counter;
  private readonly sseClients: Gauge;

  constructor(options: PrometheusMetricsOptions = {}) {
    this.deviceLabels = options.deviceLabels ?? false;
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    const perDevice = (labels: string[]) => (this.deviceLabels ? [...labels, 'device_id'] : labels);

    const connected: Gauge = new Gauge({
      name: 'mobileclaw_devices_connected',
      help: 'Phones connected now, by the transport their session came through.',
      labelNames: ['transport'],
      registers,
      collect: () => {
        connected.reset();
        const load = this.deviceLoad();
        for (const transport of load.transports) connected.set({ transport }, 0);
        for (const device of load.devices) connected.inc({ transport: device.transport });
      },
    });
    const pending: Gauge = new Gauge({
      name: 'mobileclaw_device_pending_requests',
      help: 'Commands in flight or queued, over all phones (per phone with device labels).',
      labelNames: perDevice([]),
      registers,
      collect: () => this.setPerDevice(pending, (device) => device.pendingRequests),
    });
    const queued: Gauge = new Gauge({
      name: 'mobileclaw_device_queued_commands',
      help: 'Commands waiting behind the one in flight, over all phones (per phone with device labels).',
      labelNames: perDevice([]),
      registers,
      collect: () => this.setPerDevice(queued, (device) => device.queuedCommands),
    });
    this.commands = new Counter({
      name: 'mobileclaw_device_commands_total',
      help: 'Commands settled, by command and outcome (ok, or the error code).',
      labelNames: perDevice(['command', 'outcome']),
      registers,
    });
    this.commandDuration = new Histogram({
      name: 'mobileclaw_device_command_duration_seconds',
      help: 'Time from a command call to its answer, queue wait included (commands that were queued).',
      labelNames: perDevice(['command']),
      buckets: COMMAND_BUCKETS,
      registers,
    });
    this.queueWait = new Histogram({
      name: 'mobileclaw_device_command_queue_wait_seconds',
      help: 'Time a command waited behind others before it was sent to its phone.',
      labelNames: perDevice([]),
      buckets: QUEUE_WAIT_BUCKETS,
      registers,
    });
    const framesDiscarded: Counter = new Counter({
      name: 'mobileclaw_device_frames_discarded_total',
      help: 'Frames from phones thrown away: oversized (over the frame limit), malformed (not a valid frame), unexpected (a type phones never send).',
      labelNames: ['reason', 'transport'],
      registers,
      collect: () => {
        // Every transport's series exist from its start on, at 0.
        for (const transport of this.deviceLoad().transports) for (const reason of DISCARD_REASONS) framesDiscarded.inc({ reason, transport }, 0);
      },
    });
    this.framesDiscarded = framesDiscarded;
    this.repliesDropped = new Counter({
      name: 'mobileclaw_device_replies_dropped_total',
      help: 'Replies nobody waited for: late (the request had timed out, was aborted or answered) or unknown.',
      labelNames: ['reason'],
      registers,
    });
    this.heartbeatRtt = new Histogram({
      name: 'mobileclaw_device_heartbeat_rtt_seconds',
      help: 'Heartbeat round trips (ping to pong).',
      labelNames: perDevice([]),
      buckets: RTT_BUCKETS,
      registers,
    });
    this.sessions = new Counter({
      name: 'mobileclaw_device_sessions_started_total',
      help: 'Phone sessions started, by transport and kind: first (an id not seen before), reconnect (an id seen offline), replacement (an id whose session was still open).',
      labelNames: ['transport', 'kind'],
      registers,
    });
    this.refusals = new Counter({
      name: 'mobileclaw_device_connections_refused_total',
      help: 'Phone connections refused at or before hello, by the error code sent.',
      labelNames: ['code'],
      registers,
    });
    const tasks: Gauge = new Gauge({
      name: 'mobileclaw_tasks',
      help: 'Tasks not finished, by state: queued, running, input_required (waiting for approval).',
      labelNames: ['state'],
      registers,
      collect: () => {
        const load = this.taskLoad();
        tasks.set({ state: 'queued' }, load.queued);
        tasks.set({ state: 'running' }, load.running);
        tasks.set({ state: 'input_required' }, load.inputRequired);
      },
    });
    this.tasksFinished = new Counter({
      name: 'mobileclaw_tasks_finished_total',
      help: 'Tasks that reached a final status, by status and error code (none for completed tasks).',
      labelNames: ['status', 'code'],
      registers,
    });
    this.stepPhases = new Histogram({
      name: 'mobileclaw_task_step_phase_seconds',
      help: 'Duration of the phases of task steps: settle (waiting for a still UI), capture (on the phone), transfer, planning, action.',
      labelNames: ['phase'],
      buckets: PHASE_BUCKETS,
      registers,
    });
    this.plannerErrors = new Counter({
      name: 'mobileclaw_planner_errors_total',
      help: 'Planning calls that gave no decision: error (the planner failed) or timeout (past the planning deadline).',
      labelNames: ['reason'],
      registers,
    });
    this.plannerRetries = new Counter({
      name: 'mobileclaw_planner_retries_total',
      help: 'Planner retries: http (a model API request tried again) or invalid_answer (the model asked again after an unusable answer).',
      labelNames: ['reason'],
      registers,
    });
    this.sseClients = new Gauge({
      name: 'mobileclaw_sse_clients',
      help: 'Clients following a live event stream now: devices (the device list) or task (one task) over Server-Sent Events, socket (the /ws/events WebSocket).',
      labelNames: ['stream'],
      registers,
    });
    // Known label values start at 0, so that rates and alerts see the series before the first event.
    for (const reason of DROP_REASONS) this.repliesDropped.inc({ reason }, 0);
    for (const reason of PLANNER_FAILURES) this.plannerErrors.inc({ reason }, 0);
    for (const reason of RETRY_REASONS) this.plannerRetries.inc({ reason }, 0);
    for (const stream of STREAMS) this.sseClients.set({ stream }, 0);
  }

  // ---- MetricsExposition ----------------------------------------------------------------------

  get contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  // ---- DeviceMetrics --------------------------------------------------------------------------

  commandSettled(sample: { deviceId: string; command: CommandName | 'unknown'; outcome: CommandOutcome; durationMs?: number }): void {
    this.commands.inc(this.device({ command: sample.command, outcome: sample.outcome }, sample.deviceId));
    if (sample.durationMs !== undefined) this.commandDuration.observe(this.device({ command: sample.command }, sample.deviceId), seconds(sample.durationMs));
  }

  commandDispatched(sample: { deviceId: string; command: CommandName; queuedMs: number }): void {
    this.queueWait.observe(this.device({}, sample.deviceId), seconds(Math.max(0, sample.queuedMs)));
  }

  frameDiscarded(reason: DiscardedFrameReason, transport: string): void {
    this.framesDiscarded.inc({ reason, transport });
  }

  replyDropped(reason: DroppedReplyReason): void {
    this.repliesDropped.inc({ reason });
  }

  heartbeatMeasured(deviceId: string, rttMs: number): void {
    this.heartbeatRtt.observe(this.device({}, deviceId), seconds(rttMs));
  }

  sessionStarted(_deviceId: string, transport: string, start: SessionStart): void {
    this.sessions.inc({ transport, kind: start });
  }

  connectionRefused(code: string): void {
    this.refusals.inc({ code });
  }

  observeDevices(source: () => DeviceLoad): void {
    this.deviceLoad = source;
  }

  // ---- TaskMetrics ----------------------------------------------------------------------------

  taskFinished(status: TaskStatus, errorCode?: ErrorCode): void {
    this.tasksFinished.inc(errorCode === undefined ? { status } : { status, code: errorCode });
  }

  stepPhaseMeasured(phase: StepPhase, durationMs: number): void {
    this.stepPhases.observe({ phase }, seconds(durationMs));
  }

  plannerFailed(failure: PlannerFailure): void {
    this.plannerErrors.inc({ reason: failure });
  }

  observeTasks(source: () => TaskLoad): void {
    this.taskLoad = source;
  }

  // ---- PlannerMetrics -------------------------------------------------------------------------

  retried(reason: PlannerRetryReason): void {
    this.plannerRetries.inc({ reason });
  }

  // ---- EventStreamMetrics ---------------------------------------------------------------------

  clientConnected(stream: EventStreamKind): void {
    this.sseClients.inc({ stream });
  }

  clientDisconnected(stream: EventStreamKind): void {
    this.sseClients.dec({ stream });
  }

  // ---- internals ------------------------------------------------------------------------------

  /** `labels`, plus `device_id` when device labels are on. */
  private device<L extends Record<string, string>>(labels: L, deviceId: string): L | (L & { device_id: string }) {
    return this.deviceLabels ? { ...labels, device_id: deviceId } : labels;
  }

  /** Sets a per-phone gauge: the sum over phones, or one series per phone with device labels. */
  private setPerDevice(gauge: Gauge, value: (device: DeviceLoad['devices'][number]) => number): void {
    gauge.reset();
    const { devices } = this.deviceLoad();
    if (!this.deviceLabels) {
      gauge.set(devices.reduce((sum, device) => sum + value(device), 0));
      return;
    }
    for (const device of devices) gauge.set({ device_id: device.deviceId }, value(device));
  }
}
