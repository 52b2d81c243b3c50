/**
 * Wire shapes of the gateway's REST API and SSE streams, as the page reads them. The model types are
 * the domain's own (`@mobileclaw/domain`, imported as types only, so nothing of it reaches the browser
 * bundle); the constants below are the page's runtime copies of the domain's lists.
 * Times are ISO-8601 strings, durations ms, coordinates device px of the screen's current rotation.
 */
import type {
  DeviceEvent,
  MemoryRecord,
  StepObservation as DomainStepObservation,
  Task as DomainTask,
  TaskEventType,
  TaskStatus,
  TaskStep as DomainTaskStep,
  ToolDescriptor,
  ToolSourceRef,
} from '@mobileclaw/domain';

export type {
  AgentAction,
  DeviceController,
  DeviceEvent,
  DeviceInfo,
  DeviceStatus,
  MemoryHit,
  MemoryLayer,
  MemoryRecord,
  MemoryScoreParts,
  MemorySearchResult,
  PlanDecision,
  ScreenInfo,
  StepResult,
  StepTimings,
  TaskError,
  TaskEvent,
  TaskEventType,
  TaskStatus,
  ToolSourceRef,
} from '@mobileclaw/domain';

/** A task as the API shows it: the domain's, without the internal `owner`. */
export type Task = Omit<DomainTask, 'owner'>;

/** A step observation as the API shows it: with the screenshot's URL when one is stored. */
export type StepObservation = DomainStepObservation & { screenshotUrl?: string };

export type TaskStep = Omit<DomainTaskStep, 'observation'> & { observation?: StepObservation };

/** `GET /api/tasks` answer. */
export interface TaskPage {
  tasks: Task[];
  nextCursor?: string;
}

export const DEVICE_EVENT_TYPES: readonly DeviceEvent['type'][] = [
  'device.connected',
  'device.disconnected',
  'device.replaced',
  'device.status',
  'device.heartbeat',
  'device.event',
  'device.updated',
  'device.controller',
];

export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'canceled', 'interrupted'];

export function isTerminalStatus(status: TaskStatus): boolean {
  return TERMINAL_TASK_STATUSES.includes(status);
}

/** The action waiting for a human, while a task is `input_required`. */
export type PendingAction = NonNullable<Task['pendingAction']>;

/** `GET /api/tasks/:id` answer: the task with its steps. */
export type TaskWithSteps = Task & { steps: TaskStep[] };

/** `POST /api/tasks` answer (202). */
export interface TaskAccepted {
  taskId: string;
  status: TaskStatus;
  queuePosition?: number;
  events: string;
}

/**
 * Every task event type the page listens for. The page cannot load the domain's runtime list (it
 * imports the domain's types only), so it keeps its own — checked against the domain's type below.
 */
export const TASK_EVENT_TYPES = [
  'task.accepted',
  'task.queued',
  'task.started',
  'task.resumed',
  'step.started',
  'step.observed',
  'step.planning',
  'step.planned',
  'step.acted',
  'task.input_required',
  'task.taken_over',
  'task.handed_back',
  'task.completed',
  'task.failed',
  'task.canceled',
  'task.interrupted',
] as const satisfies readonly TaskEventType[];

/** Fails to compile when the domain gains an event type the page does not listen for (a missed event would look like a gap). */
const EVERY_TASK_EVENT_TYPE_HEARD: Exclude<TaskEventType, (typeof TASK_EVENT_TYPES)[number]> extends never ? true : false = true;
void EVERY_TASK_EVENT_TYPE_HEARD;

/** The stream ends after one of these. */
export const TERMINAL_TASK_EVENT_TYPES: readonly TaskEventType[] = ['task.completed', 'task.failed', 'task.canceled', 'task.interrupted'];

/** RFC 9457 problem details, the body of every API error. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  errors?: { field: string; message: string }[];
}

/** `GET /api/pairing` answer: how a new phone connects (the link holds the device token). */
export interface PairingInfo {
  /** `mobileclaw://pair?host=…&port=…&token=…` (+ `&tls=1`). */
  link: string;
  host: string;
  port: number;
  transport: 'tcp';
  tls: boolean;
  deviceToken: string;
  hostSource: 'configured' | 'device-listener' | 'request' | 'interface' | 'loopback';
  hostGuessed: boolean;
  /** Sentences to show beside the code, e.g. that the host is a guess. */
  warnings: string[];
  /** The link as a QR code, an SVG document. */
  qrSvg: string;
}

/**
 * One source's tool, named as that source lists it (the registry's `ToolRef`, `@mobileclaw/case-tools`,
 * which the page may not import: its copy of that wire shape).
 */
export interface ToolRef {
  source: ToolSourceRef;
  name: string;
}

/**
 * One tool of `GET /api/tools`: its source's descriptor plus what the registry's merge decided
 * (`ToolEntry` of `@mobileclaw/case-tools`). `visible` is false for a shadowed tool (`shadowedBy` names
 * the winner); `nameTakenBy` is set when the tool got its source's prefix because another one holds its name.
 */
export interface ToolEntry extends ToolDescriptor {
  exposedName: string;
  visible: boolean;
  shadowedBy?: ToolRef;
  shadows: ToolRef[];
  nameTakenBy?: ToolRef;
}

/** A problem a tool source reports (an invalid SKILL.md, a symbolic link leaving its root, …). */
export interface ToolSourceIssue {
  source: ToolSourceRef;
  /** The source's own kind of problem, e.g. `invalid`, `shadowed`, `symlink_escapes_root`. */
  kind: string;
  /** Where, for people, e.g. `workspace:broken/SKILL.md`. */
  location: string;
  message: string;
}

/** `GET /api/tools` answer. */
export interface ToolList {
  tools: ToolEntry[];
  issues: ToolSourceIssue[];
}

/** A skill saved from a completed task (`POST /api/tasks/:taskId/skill` → 201 `{skill}`). */
export interface SavedSkill {
  name: string;
  description: string;
  /** Where its SKILL.md is, for people (e.g. `workspace:learned/book-table/SKILL.md`). */
  location: string;
  /** The values typed during the task, now the skill's arguments. */
  parameters: { name: string; description: string; example: string }[];
  /** How many recorded steps a replay runs. */
  steps: number;
}

/** A stored layer of memory: the daily files, or the curated `MEMORY.md`. */
export type StoredMemoryLayer = MemoryRecord['layer'];

/** `GET /api/memory/records` answer: a page of one layer, newest first. */
export interface MemoryRecordPage {
  records: MemoryRecord[];
  /** How many records the scope has in that layer. */
  total: number;
}

/** `GET /api/memory/status` answer (`MemoryStatus` of `@mobileclaw/case-memory`, which the page may not import). */
export interface MemoryStatus {
  /** `off` when no embeddings endpoint is configured: lexical search only. */
  semantic: 'on' | 'off';
  embeddingModel?: string;
  /** Who summarises flushes and organizes: `rule-based` or `llm:<model>`. */
  summarizer: string;
  records: number;
  missingEmbeddings: number;
}

/** `POST /api/memory/flush` answer: the session's turns summarised and what was kept. */
export interface MemoryFlushResult {
  turns: number;
  stored: MemoryRecord[];
}

/** `POST /api/memory/organize` answer: the daily files read and the lasting memories kept. */
export interface MemoryOrganizeResult {
  days: number;
  stored: MemoryRecord[];
}
