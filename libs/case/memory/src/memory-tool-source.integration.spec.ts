import { Logger } from '@nestjs/common';
import type { ToolInvocationContext } from '@mobileclaw/domain';
import { MemoryTaskMemory } from './memory-task-memory';
import { MemoryToolSource } from './memory-tool-source';
import { memoryHarness } from './testing';

function context(scope?: string): ToolInvocationContext {
  return { toolCallId: 'call-1', signal: new AbortController().signal, deadlineMs: 5000, ...(scope === undefined ? {} : { scope }) };
}

describe('the memory tools and the task memory over MemoryService', () => {
  beforeAll(() => Logger.overrideLogger(false));
  it('stores with memory_store, finds it with memory_search and recalls it for a task, in its own scope only', async () => {
    const { service } = memoryHarness({ embeddings: false });
    const tools = new MemoryToolSource(service);
    const stored = await tools.invoke('memory_store', { text: 'mom is Alice', category: 'contact', priority: 6 }, context('device:sim-1'));
    expect(stored).toEqual({
      ok: true,
      verified: true,
      content: { stored: [{ id: expect.stringMatching(/^mem_[0-9a-f]{24}$/), layer: 'daily', source: { file: 'device/sim-1/2026-12-02.md', line: 3 } }] },
      text: 'Remembered "mom is Alice" in daily (device/sim-1/2026-12-02.md:3).',
    });

    const found = await tools.invoke('memory_search', { query: 'mom' }, context('device:sim-1'));
    expect(found).toMatchObject({ ok: true, content: { semantic: 'off', hits: [{ layer: 'daily', text: 'mom is Alice', source: { file: 'device/sim-1/2026-12-02.md', line: 3 }, ageDays: 0 }] } });
    // Another scope, named by a caller without one, sees none of it.
    expect(await tools.invoke('memory_search', { query: 'mom', scope: 'device:sim-2' }, context())).toMatchObject({ ok: true, content: { hits: [] } });

    const recalled = await new MemoryTaskMemory(service).recall('device:sim-1', "send 'hi' to mom", new AbortController().signal);
    expect(recalled.map((hit) => [hit.layer, hit.text])).toEqual([['daily', 'mom is Alice']]);
    expect(await new MemoryTaskMemory(service).recall('context:chat-1', "send 'hi' to mom", new AbortController().signal)).toEqual([]);
  });

  it('keeps a curated memory (priority 8) in both layers and records task turns in the session layer', async () => {
    const { service } = memoryHarness({ embeddings: false });
    const tools = new MemoryToolSource(service);
    const stored = await tools.invoke('memory_store', { text: 'my office Wi-Fi is ACME-5G', priority: 8 }, context('context:chat-1'));
    expect(stored.ok && (stored.content as { stored: { layer: string }[] }).stored.map((record) => record.layer)).toEqual(['daily', 'curated']);
    const taskMemory = new MemoryTaskMemory(service);
    taskMemory.record('context:chat-1', { role: 'user', text: 'connect to the office Wi-Fi', at: '2026-12-02T10:00:00.000Z', taskId: 't-1' });
    expect(service.sessionTurns('context:chat-1').map((turn) => turn.text)).toEqual(['connect to the office Wi-Fi']);
  });
});
