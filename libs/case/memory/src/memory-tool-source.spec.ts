import { MobileClawError, type MemoryCandidate, type MemoryHit, type MemoryRecord, type MemoryScope, type MemorySearchResult, type ToolInvocationContext } from '@mobileclaw/domain';
import { MemoryToolSource, NATIVE_MEMORY_TOOL_SOURCE } from './memory-tool-source';
import { MemoryService, type MemoryOrigin, type MemorySearchOptions } from './memory.service';

/** A MemoryService that answers what the test gives it and records each call. */
class ScriptedMemory extends MemoryService {
  readonly searches: { scope: MemoryScope; query: string; options: MemorySearchOptions }[] = [];
  readonly remembered: { scope: MemoryScope; candidate: MemoryCandidate; origin: MemoryOrigin }[] = [];
  answer: (scope: MemoryScope, query: string) => Promise<MemorySearchResult> = async (scope, query) => ({ scope, query, hits: [], semantic: 'on' });
  storeAnswer: (scope: MemoryScope, candidate: MemoryCandidate) => Promise<MemoryRecord[]> = async (scope, candidate) => [record(scope, 'daily', candidate.text)];

  constructor() {
    super(undefined as never, undefined as never, undefined as never, undefined as never);
  }

  override search(scope: MemoryScope, query: string, options: MemorySearchOptions = {}): Promise<MemorySearchResult> {
    this.searches.push({ scope, query, options });
    return this.answer(scope, query);
  }

  override remember(scope: MemoryScope, candidate: MemoryCandidate, origin: MemoryOrigin): Promise<MemoryRecord[]> {
    this.remembered.push({ scope, candidate, origin });
    return this.storeAnswer(scope, candidate);
  }
}

function record(scope: MemoryScope, layer: 'daily' | 'curated', text: string): MemoryRecord {
  const file = layer === 'daily' ? 'device/sim-1/2026-12-02.md' : 'device/sim-1/MEMORY.md';
  return { id: `mem_${layer}`, scope, layer, text, category: 'fact', priority: 5, createdAt: '2026-12-02T02:00:00.000Z', source: { file, line: layer === 'daily' ? 3 : 7 }, contentHash: 'h', embedding: 'none' };
}

function hit(layer: MemoryHit['layer'], text: string, score: number, ageDays: number, source?: { file: string; line: number }): MemoryHit {
  return { layer, text, score, ageDays, createdAt: '2026-12-01T00:00:00.000Z', parts: { lexical: score, semantic: null, relevance: score, decay: 1 }, ...(source ? { source } : {}) };
}

function context(overrides: Partial<ToolInvocationContext> = {}): ToolInvocationContext {
  return { toolCallId: 'call-1', signal: new AbortController().signal, deadlineMs: 5000, ...overrides };
}

describe('MemoryToolSource', () => {
  let memory: ScriptedMemory;
  let source: MemoryToolSource;

  beforeEach(() => {
    memory = new ScriptedMemory();
    source = new MemoryToolSource(memory);
  });

  it('is native:memory and lists memory_search (OBSERVATION) and memory_store (ACTION) with bounded schemas', async () => {
    expect(source.ref).toEqual({ kind: 'native', id: 'memory' });
    expect(NATIVE_MEMORY_TOOL_SOURCE).toEqual({ kind: 'native', id: 'memory' });
    const tools = await source.list();
    expect(tools.map((tool) => [tool.name, tool.kind, tool.mode, tool.source, tool.available, tool.eligibility.eligible])).toEqual([
      ['memory_search', 'OBSERVATION', 'NATIVE', { kind: 'native', id: 'memory' }, true, true],
      ['memory_store', 'ACTION', 'NATIVE', { kind: 'native', id: 'memory' }, true, true],
    ]);
    const [search, store] = tools;
    expect(search.inputSchema).toMatchObject({
      required: ['query'],
      additionalProperties: false,
      properties: { query: { type: 'string', minLength: 1, maxLength: 1000 }, k: { type: 'integer', minimum: 1, maximum: 20 }, scope: { type: 'string' } },
    });
    expect(store.inputSchema).toMatchObject({
      required: ['text'],
      additionalProperties: false,
      properties: { text: { type: 'string', minLength: 1, maxLength: 4000 }, category: { pattern: '^[a-z0-9_]{1,40}$' }, priority: { type: 'integer', minimum: 1, maximum: 10 } },
    });
    // The listing is a copy: a caller changing it changes nothing.
    tools[0].name = 'x';
    expect((await source.list())[0].name).toBe('memory_search');
  });

  it('searches the caller’s scope, ignoring a scope argument, and answers hits with layer, score, source and age', async () => {
    memory.answer = async (scope, query) => ({
      scope,
      query,
      semantic: 'on',
      hits: [hit('session', 'send hi to mom', 1, 0.01), hit('curated', 'mom is Alice', 0.8123, 3.24, { file: 'device/sim-1/MEMORY.md', line: 7 })],
    });
    const result = await source.invoke('memory_search', { query: 'mom', k: 4, scope: 'device:other' }, context({ scope: 'device:sim-1' }));
    expect(result).toEqual({
      ok: true,
      verified: true,
      content: {
        semantic: 'on',
        hits: [
          { layer: 'session', text: 'send hi to mom', score: 1, ageDays: 0 },
          { layer: 'curated', text: 'mom is Alice', score: 0.812, source: { file: 'device/sim-1/MEMORY.md', line: 7 }, ageDays: 3.2 },
        ],
      },
      text: '[session · 0 days · 1] send hi to mom\n[curated · 3.2 days · 0.81] mom is Alice',
    });
    expect(memory.searches).toEqual([{ scope: 'device:sim-1', query: 'mom', options: { k: 4, signal: expect.any(AbortSignal) } }]);
  });

  it('says when nothing matched and when the search was by words only', async () => {
    memory.answer = async (scope, query) => ({ scope, query, hits: [], semantic: 'degraded', notice: 'the embeddings endpoint failed' });
    expect(await source.invoke('memory_search', { query: 'wifi', scope: 'context:chat-1' }, context())).toEqual({
      ok: true,
      verified: true,
      content: { hits: [], semantic: 'degraded' },
      text: 'No memory matches "wifi".\n(word search only: the embeddings endpoint failed)',
    });
    expect(memory.searches.map((call) => call.scope)).toEqual(['context:chat-1']);
  });

  it('stores in the caller’s scope as origin tool and echoes the stored records', async () => {
    memory.storeAnswer = async (scope, candidate) => [record(scope, 'daily', candidate.text), record(scope, 'curated', candidate.text)];
    const result = await source.invoke('memory_store', { text: 'mom is Alice', category: 'contact', priority: 8 }, context({ scope: 'context:chat-1' }));
    expect(result).toEqual({
      ok: true,
      verified: true,
      content: {
        stored: [
          { id: 'mem_daily', layer: 'daily', source: { file: 'device/sim-1/2026-12-02.md', line: 3 } },
          { id: 'mem_curated', layer: 'curated', source: { file: 'device/sim-1/MEMORY.md', line: 7 } },
        ],
      },
      text: 'Remembered "mom is Alice" in daily (device/sim-1/2026-12-02.md:3) and curated (device/sim-1/MEMORY.md:7).',
    });
    expect(memory.remembered).toEqual([{ scope: 'context:chat-1', candidate: { text: 'mom is Alice', category: 'contact', priority: 8 }, origin: 'tool' }]);
  });

  it('needs a valid scope argument when the caller has no scope, and refuses a bad scope of either kind', async () => {
    expect(await source.invoke('memory_store', { text: 'x' }, context())).toEqual({
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: 'tool memory_store: scope is required here (context:<id> or device:<deviceId>)', retryable: false },
    });
    expect(await source.invoke('memory_search', { query: 'x', scope: 'user:7' }, context())).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('memory scope must be') } });
    expect(await source.invoke('memory_search', { query: 'x' }, context({ scope: 'nobody' }))).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(memory.searches).toEqual([]);
    expect(memory.remembered).toEqual([]);
  });

  it('refuses bad arguments before the memory sees them', async () => {
    const scoped = context({ scope: 'device:sim-1' });
    const refusals = await Promise.all([
      source.invoke('memory_search', { query: '   ' }, scoped),
      source.invoke('memory_search', { query: 'x'.repeat(1001) }, scoped),
      source.invoke('memory_search', { query: 'x', k: 21 }, scoped),
      source.invoke('memory_search', { query: 'x', k: 1.5 }, scoped),
      source.invoke('memory_store', { text: '' }, scoped),
      source.invoke('memory_store', { text: 'x'.repeat(4001) }, scoped),
      source.invoke('memory_store', { text: 'x', category: 'Not OK' }, scoped),
      source.invoke('memory_store', { text: 'x', priority: 11 }, scoped),
      source.invoke('memory_store', { text: 'x', priority: '5' }, scoped),
    ]);
    expect(refusals.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(Array(9).fill('VALIDATION_FAILED'));
    expect(memory.searches).toEqual([]);
    expect(memory.remembered).toEqual([]);
  });

  it('answers the service’s failures as results with their codes, and a bug as INTERNAL_ERROR', async () => {
    memory.storeAnswer = async () => Promise.reject(new MobileClawError('STORAGE_ERROR', 'disk full'));
    expect(await source.invoke('memory_store', { text: 'x' }, context({ scope: 'device:sim-1' }))).toEqual({ ok: false, error: { code: 'STORAGE_ERROR', message: 'disk full', retryable: true } });
    memory.answer = async () => Promise.reject(new TypeError('boom'));
    expect(await source.invoke('memory_search', { query: 'x' }, context({ scope: 'device:sim-1' }))).toMatchObject({ ok: false, error: { code: 'INTERNAL_ERROR', message: 'boom' } });
  });

  it('answers TOOL_NOT_FOUND for another name, ABORTED for a caller that gave up, TIMEOUT past the deadline', async () => {
    expect(await source.invoke('list_devices', {}, context())).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND', message: 'no tool list_devices among the memory tools' } });
    const gaveUp = new AbortController();
    gaveUp.abort();
    expect(await source.invoke('memory_search', { query: 'x' }, context({ scope: 'device:sim-1', signal: gaveUp.signal }))).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
    expect(memory.searches).toEqual([]);

    memory.answer = () => new Promise(() => undefined);
    const leaving = new AbortController();
    const pending = source.invoke('memory_search', { query: 'x' }, context({ scope: 'device:sim-1', signal: leaving.signal }));
    leaving.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'ABORTED', message: 'tool memory_search: the caller gave up' } });

    jest.useFakeTimers();
    try {
      const late = source.invoke('memory_search', { query: 'x' }, context({ scope: 'device:sim-1', deadlineMs: 250 }));
      await jest.advanceTimersByTimeAsync(250);
      expect(await late).toEqual({ ok: false, error: { code: 'TIMEOUT', message: 'tool memory_search: no answer within 250 ms', retryable: true } });
    } finally {
      jest.useRealTimers();
    }
  });
});
