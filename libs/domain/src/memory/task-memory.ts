import type { MemoryHit, MemoryScope, SessionTurn } from './memory';

/**
 * Memory as the task loop uses it: the memories a task's planner is shown, and the turns a task adds
 * to its scope's session layer. An abstract class so that it doubles as a DI token; without a
 * provider tasks plan without memory. Neither method ever rejects: a memory that fails leaves the
 * task as it would be without memory.
 */
export abstract class TaskMemory {
  /**
   * The memories for planning a task toward `goal` in `scope` (a search of every layer, best first,
   * at most a handful), or none when memory fails.
   */
  abstract recall(scope: MemoryScope, goal: string, signal: AbortSignal): Promise<MemoryHit[]>;

  /**
   * Adds a turn to the scope's session layer (which may flush it to the daily layer once long
   * enough). Text typed into a password field must never be given here. Returns at once.
   */
  abstract record(scope: MemoryScope, turn: SessionTurn): void;
}
