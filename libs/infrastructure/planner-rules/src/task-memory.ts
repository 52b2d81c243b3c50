import type { AgentAction } from '@mobileclaw/domain';

/** What the planner remembers about one intent of a goal while working on it. */
export interface IntentMemory {
  /** Packages this intent launched with `open`. */
  opened: Set<string>;
  /** Normalised labels this intent tapped (navigation rows, fields, buttons). */
  tapped: Set<string>;
  /** Swipes done to look for a target. */
  scrolls: number;
  /** Free-form facts of the intent's own flow (e.g. `recipientIsNew`, `sent`, `scrolledBeforeHome`). */
  facts: Map<string, boolean | string | number>;
}

/** One planned action, with the screen it was planned on. */
export interface PlannedStep {
  signature: string;
  /** Canonical JSON of the action, to compare actions. */
  actionKey: string;
}

/** What the planner remembers about one task (its earlier steps' screens, the current intent). */
export interface TaskMemory {
  goal: string;
  /** Index of the intent being worked on, for compound goals. */
  intentIndex: number;
  intents: IntentMemory[];
  /** Planned actions by step index. */
  steps: Map<number, PlannedStep>;
  /**
   * Actions that must happen at most once (see `StepOutcome.once`), keyed by intent index and
   * description (`2:send "hi" to Alice`), with the step index they were planned at.
   */
  once: Map<string, number>;
}

export function newIntentMemory(): IntentMemory {
  return { opened: new Set(), tapped: new Set(), scrolls: 0, facts: new Map() };
}

/** Canonical JSON of an action (keys sorted), e.g. `{"command":"click","x":540,"y":497}`. */
export function actionKey(action: AgentAction): string {
  const entries = Object.entries(action).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(Object.fromEntries(entries));
}

/**
 * Per-task memories, least recently used evicted beyond `capacity` tasks. A planner serves many
 * tasks; the memory of a finished task simply ages out.
 */
export class TaskMemoryStore {
  private readonly tasks = new Map<string, TaskMemory>();

  constructor(private readonly capacity = 256) {}

  /**
   * The memory of `taskId`, created fresh when unknown, when the goal changed, or when the task is
   * at its first step (a task id reused for a new run starts clean).
   */
  get(taskId: string, goal: string, fresh: boolean): TaskMemory {
    let memory = this.tasks.get(taskId);
    this.tasks.delete(taskId);
    if (!memory || fresh || memory.goal !== goal) memory = { goal, intentIndex: 0, intents: [], steps: new Map(), once: new Map() };
    this.tasks.set(taskId, memory);
    while (this.tasks.size > this.capacity) this.tasks.delete(this.tasks.keys().next().value as string);
    return memory;
  }

  /** Number of tasks remembered. */
  get size(): number {
    return this.tasks.size;
  }
}
