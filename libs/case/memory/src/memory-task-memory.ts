import { Injectable } from '@nestjs/common';
import { TaskMemory, type MemoryHit, type MemoryScope, type SessionTurn } from '@mobileclaw/domain';
import { MemoryService } from './memory.service';

/** The most memories a task's planner is shown for its goal. */
export const TASK_RECALL_MAX_HITS = 6;
/** The longest query {@link MemoryService.search} takes, in characters: a longer goal is searched by its start. */
const QUERY_MAX_CHARS = 1000;

/**
 * The task loop's memory ({@link TaskMemory}) over {@link MemoryService}: `recall` searches the daily
 * and curated layers for the goal (the session's own turns are the task's history already), at most
 * {@link TASK_RECALL_MAX_HITS} hits, best first; `record` adds a turn to the scope's session layer.
 * Neither ever rejects nor throws: a memory that fails leaves the task planning without memory.
 */
@Injectable()
export class MemoryTaskMemory extends TaskMemory {
  constructor(private readonly memory: MemoryService) {
    super();
  }

  override async recall(scope: MemoryScope, goal: string, signal: AbortSignal): Promise<MemoryHit[]> {
    const query = goal.trim().slice(0, QUERY_MAX_CHARS);
    if (query === '' || signal.aborted) return [];
    try {
      const result = await this.memory.search(scope, query, { k: TASK_RECALL_MAX_HITS, layers: ['daily', 'curated'], signal });
      return result.hits.slice(0, TASK_RECALL_MAX_HITS);
    } catch {
      return [];
    }
  }

  override record(scope: MemoryScope, turn: SessionTurn): void {
    try {
      this.memory.recordTurn(scope, turn);
    } catch {
      // A session turn is a hint for later; losing one must not touch the task.
    }
  }
}
