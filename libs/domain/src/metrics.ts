import type { CommandName } from './commands';
import type { ErrorCode } from './errors';
import type { TaskStatus } from './task/task';

/**
 * Metrics ports: what the device layer, the task workflow, the planners and the event streams report,
 * as plain calls with plain values (no metrics library, no label policy). An adapter turns them into
 * counters, gauges and histograms and decides which labels exist — a device id, for example, only when
 * the host asks for it. Every report is fire-and-forget: it never throws and never waits. Each port
 * has a `No…` implementation that records nothing, the default wherever a host provides none.
 * Durations are reported in ms, as measured (the adapter converts to its own units).
 */

/** How a command ended: `ok` (the phone answered success) or the catalog code it failed with. */
export type CommandOutcome = 'ok' | ErrorCode;

/** Why a frame from a phone was thrown away: over the frame limit, not a valid frame, or a frame a phone never sends. */
export type DiscardedFrameReason = 'oversized' | 'malformed' | 'unexpected';

/**
 * A reply nobody waits for: `late` answers a request this session sent that no longer waits (its
 * deadline passed, its caller aborted, or it was answered already); `unknown` names no request
 * this session sent recently.
 */
export type DroppedReplyReason = 'late' | 'unknown';

/** How a phone's new session relates to earlier ones of the same device id. */
export type SessionStart = 'first' | 'reconnect' | 'replacement';

/** One connected phone at the moment of a scrape. */
export interface ConnectedDeviceLoad {
  deviceId: string;
  /** The transport its session came through (`DeviceTransport.name`, e.g. `tcp`). */
  transport: string;
  /** Commands in flight or queued. */
  pendingRequests: number;
  /** Commands waiting behind the one in flight. */
  queuedCommands: number;
}

/** The device layer's state at the moment of a scrape. */
export interface DeviceLoad {
  /** Every transport phones can use, connected or not (so that an empty one reads 0). */
  transports: string[];
  devices: ConnectedDeviceLoad[];
}

/** What the device layer reports: commands, frames, replies, heartbeats, sessions. */
export abstract class DeviceMetrics {
  /**
   * A command settled. `command` is the command's name, or `unknown` when the caller named none the
   * gateway knows; `durationMs` is from the call to the answer (queue wait included), absent for a
   * command refused before it was queued (device unknown or busy, invalid, shutting down).
   */
  abstract commandSettled(sample: { deviceId: string; command: CommandName | 'unknown'; outcome: CommandOutcome; durationMs?: number }): void;
  /** A queued command was sent to its phone after waiting `queuedMs` behind others (0 when the phone was idle). */
  abstract commandDispatched(sample: { deviceId: string; command: CommandName; queuedMs: number }): void;
  abstract frameDiscarded(reason: DiscardedFrameReason, transport: string): void;
  abstract replyDropped(reason: DroppedReplyReason): void;
  /** A heartbeat round trip (ping → pong) took `rttMs`. */
  abstract heartbeatMeasured(deviceId: string, rttMs: number): void;
  /** A phone finished its handshake on `transport`. */
  abstract sessionStarted(deviceId: string, transport: string, start: SessionStart): void;
  /** A connection was refused at or before its hello, with the wire error code sent (e.g. `UNAUTHORIZED`). */
  abstract connectionRefused(code: string): void;
  /** Where the adapter reads the device layer's state when it is scraped; the last source given wins. */
  abstract observeDevices(source: () => DeviceLoad): void;
}

/** The task workflow's live tasks at the moment of a scrape. */
export interface TaskLoad {
  queued: number;
  running: number;
  /** Waiting for a human's approval. */
  inputRequired: number;
}

/** A timed part of a step: settling, screenshot + tree capture on the phone, transfer, planning, the action. */
export type StepPhase = 'settle' | 'capture' | 'transfer' | 'planning' | 'action';

/** Why a planner gave no decision: it failed, or it did not answer within the planning deadline. */
export type PlannerFailure = 'error' | 'timeout';

/** What the task workflow reports: finished tasks, step phases, planner failures. */
export abstract class TaskMetrics {
  /** A task reached a terminal status; `errorCode` is its error's code, when it has one. */
  abstract taskFinished(status: TaskStatus, errorCode?: ErrorCode): void;
  /** A phase of a step took `durationMs`. */
  abstract stepPhaseMeasured(phase: StepPhase, durationMs: number): void;
  abstract plannerFailed(failure: PlannerFailure): void;
  /** Where the adapter reads the live tasks when it is scraped; the last source given wins. */
  abstract observeTasks(source: () => TaskLoad): void;
}

/**
 * Why a planner asked again: an HTTP request to a model API was retried (a retried status or a lost
 * connection), or the model's answer was unusable and it was asked for another.
 */
export type PlannerRetryReason = 'http' | 'invalid_answer';

/** What a planner adapter reports. */
export abstract class PlannerMetrics {
  abstract retried(reason: PlannerRetryReason): void;
}

/** A live event stream clients follow: the device list or one task's events (SSE), or the live event socket (`/ws/events`, one per connection). */
export type EventStreamKind = 'devices' | 'task' | 'socket';

/** What the event stream endpoints report: clients connected and gone. */
export abstract class EventStreamMetrics {
  abstract clientConnected(stream: EventStreamKind): void;
  /** Called exactly once per {@link clientConnected}. */
  abstract clientDisconnected(stream: EventStreamKind): void;
}

/** The metrics in a text format, as a scrape endpoint serves them. */
export abstract class MetricsExposition {
  /** The media type of {@link render}'s text, e.g. Prometheus' `text/plain; version=0.0.4; charset=utf-8`. */
  abstract readonly contentType: string;
  /** Every metric's current value. */
  abstract render(): Promise<string>;
}

/** Records nothing (the default {@link DeviceMetrics}). */
export class NoDeviceMetrics extends DeviceMetrics {
  commandSettled(): void {}
  commandDispatched(): void {}
  frameDiscarded(): void {}
  replyDropped(): void {}
  heartbeatMeasured(): void {}
  sessionStarted(): void {}
  connectionRefused(): void {}
  observeDevices(): void {}
}

/** Records nothing (the default {@link TaskMetrics}). */
export class NoTaskMetrics extends TaskMetrics {
  taskFinished(): void {}
  stepPhaseMeasured(): void {}
  plannerFailed(): void {}
  observeTasks(): void {}
}

/** Records nothing (the default {@link PlannerMetrics}). */
export class NoPlannerMetrics extends PlannerMetrics {
  retried(): void {}
}

/** Records nothing (the default {@link EventStreamMetrics}). */
export class NoEventStreamMetrics extends EventStreamMetrics {
  clientConnected(): void {}
  clientDisconnected(): void {}
}
