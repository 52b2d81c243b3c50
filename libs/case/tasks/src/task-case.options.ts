import type { RetentionPolicy } from '@mobileclaw/domain';

/** Settings of the task workflow. Durations in ms. */
export interface TaskCaseOptions {
  /** Step budget when a task does not give one. Default 25. */
  defaultMaxSteps: number;
  /** Largest `maxSteps` a caller may ask for. Default 200. */
  maxStepsLimit: number;
  /** Deadline of each observe/act command; default: the gateway's command timeout. */
  commandTimeoutMs?: number;
  /**
   * Longest wait for the planner's decision on one step, in ms. When it passes, the planner's signal
   * fires and the task fails with `PLANNER_ERROR`, so that a model that never answers does not hold the
   * phone (and the tasks queued on it). Default 300 000 (5 min).
   */
  planningTimeoutMs: number;
  /**
   * Longest wait, in ms, for the phone's UI to settle before each observation (two consecutive equal
   * UI trees), so that no step is planned on a half-drawn or animating screen; when it passes, the
   * screen is observed anyway and the step's observation says `settled: false`. 0 observes at once.
   * Default 2000.
   */
  settleTimeoutMs: number;
  /** Pause between two UI-tree reads while the UI settles, in ms (> 0). Default 200. */
  settlePollMs: number;
  /** The task fails after this many action errors in a row (the planner sees each one). Default 3. */
  maxConsecutiveActionErrors: number;
  /** Longest goal text, in characters. Default 2000. */
  maxGoalLength: number;
  /** Waiting tasks per phone; one more is refused with `DEVICE_BUSY`. Default 100. */
  maxQueuedPerDevice: number;
  /** History kept; pruned at start-up and every `pruneIntervalMs`. */
  retention: RetentionPolicy;
  /** Default 3 600 000 (1 h). */
  pruneIntervalMs: number;
  /**
   * How long this instance's claim on a task (`Task.owner.leaseExpiresAt`) lasts, in ms. It is set
   * when the task starts, at each step and when it resumes, and renewed for every unfinished task of
   * this instance every `leaseMs / 3` (queued and waiting ones too); every `leaseMs / 2` each instance
   * interrupts the tasks whose lease expired. Matters only when several instances share a store: a
   * task of an instance that died ends `interrupted` between `leaseMs` and `1.5 × leaseMs` after its
   * last renewal. The instances' clocks must agree to well within `leaseMs / 3`, or a fast clock
   * sweeps a live instance's tasks. Default 60 000 (1 min).
   */
  leaseMs: number;
  /** How long an `Idempotency-Key` of a task creation is remembered, in ms. Default 86 400 000 (24 h). */
  idempotencyTtlMs: number;
  /**
   * Longest wait for the caller's answer to a tool call, in ms. When it passes, the step ends `error`
   * with `TOOL_RESULT_TIMEOUT` and the task goes on (its planner sees the timeout). The wait counts
   * toward no other deadline. Default 300 000 (5 min).
   */
  toolResultTimeoutMs: number;
  /**
   * Longest a gateway tool's call (a step calling a registry tool) may take, in ms: the deadline the
   * tool gets. Past it the step ends `error` `TIMEOUT` and the task goes on. A person's approval before
   * the call counts toward no deadline. Default 120 000 (2 min: a delegated agent's answer fits).
   */
  gatewayToolTimeoutMs: number;
}

/** Finished tasks kept when the host sets no retention. */
export const DEFAULT_RETENTION_MAX_TASKS = 1000;

export const DEFAULT_TASK_CASE_OPTIONS: TaskCaseOptions = {
  defaultMaxSteps: 25,
  maxStepsLimit: 200,
  planningTimeoutMs: 300_000,
  settleTimeoutMs: 2000,
  settlePollMs: 200,
  maxConsecutiveActionErrors: 3,
  maxGoalLength: 2000,
  maxQueuedPerDevice: 100,
  retention: { maxTasks: DEFAULT_RETENTION_MAX_TASKS },
  pruneIntervalMs: 3_600_000,
  leaseMs: 60_000,
  idempotencyTtlMs: 86_400_000,
  toolResultTimeoutMs: 300_000,
  gatewayToolTimeoutMs: 120_000,
};

/** DI token of the {@link TaskCaseOptions}. */
export const TASK_CASE_OPTIONS = Symbol('TASK_CASE_OPTIONS');
