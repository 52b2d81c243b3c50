import type { MemoryHit } from '../memory/memory';
import type { ScreenInfo, UiNode } from '../results';
import type { PlanDecision, StepResult } from './task';
import type { CallerToolSpec } from './caller-tool';
import type { TaskToolSpec } from './task-tools';
import type { UiElement } from './ui-elements';

/** One earlier step, as a planner sees it. */
export interface PlannerHistoryEntry {
  index: number;
  decision: PlanDecision;
  /**
   * How the step ended; for an action, `result.verified` is the next screen's verdict on its effect
   * (true: seen, false: not seen, absent: cannot tell), set once that screen was observed. The task
   * loop fails the task with `NO_EFFECT` when an action without seen effect is repeated exactly and
   * again shows none, or when `done` follows right after one.
   */
  result?: StepResult;
  /**
   * What the step was planned on: its element list and foreground package (no screenshot). With it a
   * planner can derive everything it knows about the task from the history alone, so any planner
   * instance can plan any step of any task. Absent when unknown (e.g. a history rebuilt from stored
   * steps, which keep no element list).
   */
  observation?: PlannerHistoryObservation;
}

/** The part of an earlier step's {@link PlannerObservation} a history entry keeps. */
export type PlannerHistoryObservation = Pick<PlannerObservation, 'elements' | 'package'>;

/** The current screen, as a planner sees it. */
export interface PlannerObservation {
  frameId?: string;
  screen: ScreenInfo;
  /** Compact indexed element list (see {@link toUiElements}); password text is never included. */
  elements: UiElement[];
  /** Foreground package, when known. */
  package?: string;
  /** Full-resolution screenshot; planners downscale it themselves if they send it anywhere. */
  screenshot?: { mime: string; width: number; height: number; base64: string };
}

/** How far a planner got with one step: reported each time it asks its model for an answer. */
export interface PlanningProgress {
  /** 1-based number of the model answer now requested for this step. */
  attempt: number;
  /** Most answers the planner requests for one step. */
  maxAttempts: number;
}

export interface PlanningContext {
  taskId: string;
  deviceId: string;
  goal: string;
  /** 0-based index of the step being planned. */
  stepIndex: number;
  maxSteps: number;
  observation: PlannerObservation;
  /** Every earlier step of the task, oldest first. */
  history: PlannerHistoryEntry[];
  /**
   * The caller's tools ({@link Task.tools}), which the planner may call with a `tool_call` decision;
   * absent when the task has none (a `tool_call` is then denied).
   */
  tools?: CallerToolSpec[];
  /**
   * The gateway's tools the planner may call with a `tool_call` decision (run by the gateway at once,
   * the result in the step's history entry), listed afresh for each step; absent when the host has no
   * tool registry. Never a name of {@link tools} or of a phone action (those win a clash, and the loop
   * leaves the gateway tool out). Ineligible and unavailable tools are listed with what they lack.
   */
  gatewayTools?: TaskToolSpec[];
  /**
   * What the task's memory recalls for its goal (session turns, daily and curated memories, best
   * first); absent when the host has no memory. Memories are hints a person told or the agent noted
   * earlier (e.g. `mom is Alice`), never instructions that override the goal.
   */
  memories?: MemoryHit[];
  /**
   * Fires when the task is canceled or the step's planning deadline passes; planners must stop (e.g.
   * abort their HTTP request).
   */
  signal: AbortSignal;
  /**
   * Tells the task loop that a planner that waits on something slow (a model) is still working: call
   * it when each request for an answer starts. The loop records it as a `step.planning` event. Planners
   * that answer at once (rule-based) never call it. Returns at once; never throws.
   */
  onProgress?: (progress: PlanningProgress) => void;
}

/**
 * The port that decides the next step of a task. Adapters live in `@mobileclaw/infrastructure`
 * (rule-based, OpenAI-compatible LLM). Abstract class so that it doubles as the Nest DI token.
 */
export abstract class Planner {
  /** Shown on tasks, e.g. `rule-based` or `llm:gpt-4o`. */
  abstract readonly name: string;

  /**
   * Decides one step: an action, `done`, `fail`, or a `tool_call` of one of `ctx.tools` or `ctx.gatewayTools`.
   * @throws MobileClawError `ABORTED` when `ctx.signal` fires; any other error fails the task with
   *   code `PLANNER_ERROR` and the error's message.
   */
  abstract plan(ctx: PlanningContext): Promise<PlanDecision>;
}

/** Flattened UI nodes for the planner to read; a convenience for planners that need the raw tree. */
export type { UiNode };
