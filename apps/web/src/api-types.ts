/**
 * Wire shapes of the gateway's REST API and SSE streams, as the page reads them (they mirror
 * libs/domain: device.ts and task/task.ts; the page is a separate browser bundle and does not import it).
 * Times are ISO-8601 strings, durations ms, coordinates device px of the screen's current rotation.
 */

export type DeviceStatus = 'online' | 'busy' | 'offline';

/** Screen size in px, density and rotation (0–3, quarter turns). */
export interface ScreenInfo {
  width: number;
  height: number;
  densityDpi?: number;
  rotation?: number;
}

/** One phone the gateway knows (`GET /api/devices`). */
export interface DeviceInfo {
  deviceId: string;
  status: DeviceStatus;
  model?: string;
  manufacturer?: string;
  android?: string;
  screen?: ScreenInfo;
  connectedAt?: string;
  lastSeenAt?: string;
  disconnectedAt?: string;
  /** Last heartbeat round-trip, ms. */
  rttMs?: number;
  /** Commands waiting behind the one in flight. */
  queueLength?: number;
}

/** Events of `GET /api/devices/events` after the first `devices` snapshot. */
export type DeviceEvent =
  | { type: 'device.connected'; deviceId: string; device: DeviceInfo; at: string }
  | { type: 'device.disconnected'; deviceId: string; reason: string; at: string }
  | { type: 'device.replaced'; deviceId: string; oldSessionId: string; newSessionId: string; at: string }
  | { type: 'device.status'; deviceId: string; status: DeviceStatus; queueLength: number; at: string }
  | { type: 'device.heartbeat'; deviceId: string; rttMs: number; at: string }
  | { type: 'device.event'; deviceId: string; event: string; data: Record<string, unknown>; at: string };

export const DEVICE_EVENT_TYPES: readonly DeviceEvent['type'][] = [
  'device.connected',
  'device.disconnected',
  'device.replaced',
  'device.status',
  'device.heartbeat',
  'device.event',
];

export type TaskStatus = 'queued' | 'running' | 'input_required' | 'completed' | 'failed' | 'canceled' | 'interrupted';

export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'canceled', 'interrupted'];

export function isTerminalStatus(status: TaskStatus): boolean {
  return TERMINAL_TASK_STATUSES.includes(status);
}

/** An action the agent takes on a phone (`click`, `swipe`, … with their arguments). */
export type AgentAction =
  | { command: 'open'; app: string }
  | { command: 'click'; x: number; y: number }
  | { command: 'long_press'; x: number; y: number; durationMs?: number }
  | { command: 'swipe'; x1: number; y1: number; x2: number; y2: number; durationMs?: number }
  | { command: 'input'; text: string; clear?: boolean }
  | { command: 'back' }
  | { command: 'home' };

/** What the planner decided for one step. */
export type PlanDecision =
  | { type: 'action'; action: AgentAction; reasoning: string; elementIndex?: number; approval?: { reason: string } }
  | { type: 'done'; summary: string; reasoning: string }
  | { type: 'fail'; reason: string; reasoning: string };

export interface TaskError {
  code: string;
  message: string;
}

export interface PendingAction {
  stepIndex: number;
  action: AgentAction;
  reason: string;
}

/** A task (`GET /api/tasks` rows; `GET /api/tasks/:id` adds `steps`). */
export interface Task {
  taskId: string;
  deviceId: string;
  goal: string;
  status: TaskStatus;
  maxSteps: number;
  planner: string;
  createdAt: string;
  startedAt?: string;
  endedAt?: string;
  summary?: string;
  error?: TaskError;
  /** 1-based place in the phone's task queue, while `queued`. */
  queuePosition?: number;
  /** The action waiting for a human, while `input_required`. */
  pendingAction?: PendingAction;
  stepCount: number;
}

export interface StepObservation {
  frameId?: string;
  /** Path of the full-resolution screenshot, e.g. `/api/tasks/{taskId}/steps/{index}/screenshot`. */
  screenshotUrl?: string;
  screenshotMime?: string;
  /** The screen the action's coordinates refer to. */
  screen: ScreenInfo;
  elementCount: number;
  package?: string;
}

export interface StepResult {
  status: 'success' | 'error' | 'denied' | 'canceled';
  errorCode?: string;
  message?: string;
  /** True/false when the next observation confirms/contradicts the effect; absent when it cannot tell. */
  verified?: boolean;
}

/** Phase durations of one step, ms. */
export interface StepTimings {
  captureMs: number;
  transferMs: number;
  planningMs: number;
  actionMs: number;
}

export interface TaskStep {
  taskId: string;
  /** 0-based. */
  index: number;
  startedAt: string;
  endedAt?: string;
  observation?: StepObservation;
  plan?: PlanDecision;
  result?: StepResult;
  timings: StepTimings;
}

export interface TaskWithSteps extends Task {
  steps: TaskStep[];
}

/** `GET /api/tasks` answer, newest first. */
export interface TaskPage {
  tasks: Task[];
  nextCursor?: string;
}

/** `POST /api/tasks` answer (202). */
export interface TaskAccepted {
  taskId: string;
  status: TaskStatus;
  queuePosition?: number;
  events: string;
}

export type TaskEventType =
  | 'task.accepted'
  | 'task.queued'
  | 'task.started'
  | 'task.resumed'
  | 'step.started'
  | 'step.observed'
  | 'step.planned'
  | 'step.acted'
  | 'task.input_required'
  | 'task.completed'
  | 'task.failed'
  | 'task.canceled'
  | 'task.interrupted';

export const TASK_EVENT_TYPES: readonly TaskEventType[] = [
  'task.accepted',
  'task.queued',
  'task.started',
  'task.resumed',
  'step.started',
  'step.observed',
  'step.planned',
  'step.acted',
  'task.input_required',
  'task.completed',
  'task.failed',
  'task.canceled',
  'task.interrupted',
];

/** The stream ends after one of these. */
export const TERMINAL_TASK_EVENT_TYPES: readonly TaskEventType[] = ['task.completed', 'task.failed', 'task.canceled', 'task.interrupted'];

/** One progress event of `GET /api/tasks/:id/events`; `id` counts 1, 2, 3… per task, without gaps. */
export interface TaskEvent {
  taskId: string;
  id: number;
  type: TaskEventType;
  at: string;
  data: Record<string, unknown>;
}

/** RFC 9457 problem details, the body of every API error. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  errors?: { field: string; message: string }[];
}
