import { MobileClawError, type MemoryHit, type MemoryScope, type MemorySearchResult, type SessionTurn } from '@mobileclaw/domain';
import { MemoryTaskMemory, TASK_RECALL_MAX_HITS } from './memory-task-memory';
import { MemoryService, type MemorySearchOptions } from './memory.service';

/** A MemoryService that answers what the test gives it and records each call. */
class ScriptedMemory extends MemoryService {
  readonly searches: { scope: MemoryScope; query: string; options: MemorySearchOptions }[] = [];
  readonly turns: { scope: MemoryScope; turn: SessionTurn }[] = [];
  answer: (scope: MemoryScope, query: string) => Promise<MemorySearchResult> = async (scope, query) => ({ scope, query, hits: [], semantic: 'off' });
  failTurns = false;

  constructor() {
    super(undefined as never, undefined as never, undefined as never, undefined as never);
  }

  override search(scope: MemoryScope, query: string, options: MemorySearchOptions = {}): Promise<MemorySearchResult> {
    this.searches.push({ scope, query, options });
    return this.answer(scope, query);
  }

  override recordTurn(scope: MemoryScope, turn: SessionTurn): void {
    if (this.failTurns) throw new MobileClawError('STORAGE_ERROR', 'disk full');
    this.turns.push({ scope, turn });
  }
}

function hit(text: string, score: number): MemoryHit {
  return { layer: 'daily', text, score, ageDays: 1, createdAt: '2026-12-01T00:00:00.000Z', parts: { lexical: score, semantic: null, relevance: score, decay: 1 } };
}

describe('MemoryTaskMemory', () => {
  let memory: ScriptedMemory;
  let taskMemory: MemoryTaskMemory;
  const signal = new AbortController().signal;

  beforeEach(() => {
    memory = new ScriptedMemory();
    taskMemory = new MemoryTaskMemory(memory);
  });

  it('recalls the daily and curated memories for the goal, at most six, best first', async () => {
    const hits = Array.from({ length: 8 }, (_, i) => hit(`fact ${i}`, 1 - i / 10));
    memory.answer = async (scope, query) => ({ scope, query, hits, semantic: 'on' });
    const recalled = await taskMemory.recall('device:sim-1', "send 'hi' to mom", signal);
    expect(recalled.map((h) => h.text)).toEqual(['fact 0', 'fact 1', 'fact 2', 'fact 3', 'fact 4', 'fact 5']);
    expect(TASK_RECALL_MAX_HITS).toBe(6);
    expect(memory.searches).toEqual([{ scope: 'device:sim-1', query: "send 'hi' to mom", options: { k: 6, layers: ['daily', 'curated'], signal } }]);
  });

  it('searches a long goal by its first 1,000 characters and a blank goal not at all', async () => {
    await taskMemory.recall('context:c-1', `  ${'a'.repeat(1500)}`, signal);
    expect(memory.searches.map((call) => call.query)).toEqual(['a'.repeat(1000)]);
    expect(await taskMemory.recall('context:c-1', '   ', signal)).toEqual([]);
    expect(memory.searches).toHaveLength(1);
  });

  it('recalls nothing, without rejecting, when the memory fails or the task is already stopped', async () => {
    memory.answer = async () => Promise.reject(new MobileClawError('STORAGE_ERROR', 'disk gone'));
    expect(await taskMemory.recall('device:sim-1', 'call mom', signal)).toEqual([]);
    memory.answer = async () => Promise.reject(new TypeError('bug'));
    expect(await taskMemory.recall('device:sim-1', 'call mom', signal)).toEqual([]);
    const stopped = new AbortController();
    stopped.abort();
    expect(await taskMemory.recall('device:sim-1', 'call mom', stopped.signal)).toEqual([]);
    expect(memory.searches).toHaveLength(2);
  });

  it('records turns in the scope’s session layer and never throws when that fails', () => {
    const turn: SessionTurn = { role: 'user', text: 'call mom', at: '2026-12-02T02:00:00.000Z', taskId: 't-1' };
    taskMemory.record('device:sim-1', turn);
    expect(memory.turns).toEqual([{ scope: 'device:sim-1', turn }]);
    memory.failTurns = true;
    expect(() => taskMemory.record('device:sim-1', turn)).not.toThrow();
  });
});
