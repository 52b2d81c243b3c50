import { MobileClawError, type MemoryCandidate, type SessionTurn } from '@mobileclaw/domain';
import { ScriptedMemorySummarizer, memoryHarness } from './testing';

const SCOPE = 'device:sim-1';
const DAILY = 'device/sim-1/2026-12-02.md';
const CURATED = 'device/sim-1/MEMORY.md';
const at = '2026-12-02T09:00:00.000Z';

function turn(text: string, role: SessionTurn['role'] = 'user'): SessionTurn {
  return { role, text, at };
}

/** A promise with its resolve and reject outside. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('MemoryService session layer and flush', () => {
  it('keeps the turns per scope, oldest first, texts cut to 4,000 characters', () => {
    const { service } = memoryHarness();
    service.recordTurn(SCOPE, turn('one'));
    service.recordTurn(SCOPE, turn('x'.repeat(4100), 'tool'));
    service.recordTurn('device:sim-2', turn('elsewhere'));
    expect(service.sessionTurns(SCOPE)).toEqual([turn('one'), turn('x'.repeat(4000), 'tool')]);
    expect(service.sessionTurns('device:sim-2')).toEqual([turn('elsewhere')]);
    expect(service.sessionTurns('device:sim-3')).toEqual([]);
  });

  it('flushes on demand (/new): the summary stored in the daily layer, the session cleared', async () => {
    const { service, files } = memoryHarness();
    service.recordTurn(SCOPE, turn('Turn on Wi-Fi'));
    service.recordTurn(SCOPE, turn('completed', 'assistant'));
    service.recordTurn(SCOPE, turn('remember that mom is Alice'));
    const { turns, stored } = await service.flush(SCOPE);
    expect(turns).toBe(3);
    expect(stored.map((record) => [record.layer, record.text, record.category, record.priority])).toEqual([
      ['daily', 'Turn on Wi-Fi → completed', 'task', 3],
      ['daily', 'mom is Alice', 'fact', 6],
    ]);
    expect(files.text(DAILY)).toBe('# 2026-12-02\n\n## 10:00 · task · p3\n\nTurn on Wi-Fi → completed\n\n## 10:00 · fact · p6\n\nmom is Alice\n');
    expect(service.sessionTurns(SCOPE)).toEqual([]);
    expect(await service.flush(SCOPE)).toEqual({ turns: 0, stored: [] });
  });

  it('never curates from a flush: priorities capped at 7, curated categories kept daily only', async () => {
    const summarizer = new ScriptedMemorySummarizer();
    summarizer.summarizeWith = () => [
      { text: 'Mom is Alice', category: 'contact', priority: 9 },
      { text: 'Prefers dark mode', category: 'preference', priority: 2 },
      { text: 'Parked on level 3' },
      { text: '   ', priority: 4 },
      { text: 'bad category', category: 'Bad!' },
    ];
    const { service, files } = memoryHarness({ summarizer });
    service.recordTurn(SCOPE, turn('anything'));
    const { stored } = await service.flush(SCOPE);
    expect(stored.map((record) => [record.layer, record.text, record.category, record.priority])).toEqual([
      ['daily', 'Mom is Alice', 'contact', 7],
      ['daily', 'Prefers dark mode', 'preference', 2],
      ['daily', 'Parked on level 3', 'fact', 5],
    ]);
    expect(files.text(CURATED)).toBe('');
  });

  it('flushes automatically at flushThreshold (50) turns, in the background', async () => {
    const summarizer = new ScriptedMemorySummarizer();
    summarizer.summarizeWith = (turns) => [{ text: `${turns.length} turns summed up` }];
    const { service, index } = memoryHarness({ summarizer });
    for (let i = 1; i <= 49; i++) service.recordTurn(SCOPE, turn(`turn ${i}`));
    await service.idle();
    expect(summarizer.summarized).toEqual([]);
    service.recordTurn(SCOPE, turn('turn 50'));
    await service.idle();
    expect(summarizer.summarized.map((turns) => turns.length)).toEqual([50]);
    expect(index.all().map((record) => record.text)).toEqual(['50 turns summed up']);
    expect(service.sessionTurns(SCOPE)).toEqual([]);
  });

  it('keeps turns added during a flush, and never runs two flushes of one scope at once', async () => {
    const summarizer = new ScriptedMemorySummarizer();
    const started = deferred<void>();
    const first = deferred<MemoryCandidate[]>();
    summarizer.summarizeWith = (turns) => {
      if (summarizer.summarized.length > 1) return [{ text: `then ${turns.map((t) => t.text).join(', ')}` }];
      started.resolve();
      return first.promise;
    };
    const { service } = memoryHarness({ summarizer, options: { flushThreshold: 2 } });
    service.recordTurn(SCOPE, turn('a'));
    service.recordTurn(SCOPE, turn('b')); // the automatic flush starts
    await started.promise;
    service.recordTurn(SCOPE, turn('c'));
    service.recordTurn(SCOPE, turn('d')); // threshold again, but a flush runs: no second one
    const onDemand = service.flush(SCOPE); // waits for the running one
    expect(summarizer.summarized.map((turns) => turns.map((t) => t.text))).toEqual([['a', 'b']]);
    first.resolve([{ text: 'a and b' }]);
    expect((await onDemand).stored.map((record) => record.text)).toEqual(['then c, d']);
    await service.idle();
    expect(summarizer.summarized.map((turns) => turns.map((t) => t.text))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(service.sessionTurns(SCOPE)).toEqual([]);
  });

  it('flushes every scope’s session for a shutdown, one failing scope keeping its turns and not stopping the others', async () => {
    const summarizer = new ScriptedMemorySummarizer();
    summarizer.summarizeWith = (turns) => {
      if (turns.some((t) => t.text === 'fails')) throw new MobileClawError('PLANNER_ERROR', 'model down');
      return turns.map((t) => ({ text: `did ${t.text}`, category: 'task', priority: 3 }));
    };
    const { service } = memoryHarness({ summarizer });
    service.recordTurn('device:sim-1', turn('Turn on Wi-Fi'));
    service.recordTurn('context:broken', turn('fails'));
    service.recordTurn('context:chat-7', turn('Open Maps'));
    service.recordTurn('context:chat-7', turn('Open Clock'));
    expect(await service.flushAll()).toEqual({ scopes: 2, turns: 3 });
    expect(service.sessionTurns('device:sim-1')).toEqual([]);
    expect(service.sessionTurns('context:chat-7')).toEqual([]);
    expect(service.sessionTurns('context:broken').map((t) => t.text)).toEqual(['fails']);
    expect((await service.list('context:chat-7', 'daily', { limit: 10, offset: 0 })).records.map((record) => record.text).sort()).toEqual(['did Open Clock', 'did Open Maps']);
  });

  it('keeps the session when the summariser fails, and tries again only after flushThreshold more turns', async () => {
    const summarizer = new ScriptedMemorySummarizer();
    summarizer.summarizeWith = () => {
      throw new MobileClawError('PLANNER_ERROR', 'model down');
    };
    const { service } = memoryHarness({ summarizer, options: { flushThreshold: 2 } });
    service.recordTurn(SCOPE, turn('a'));
    service.recordTurn(SCOPE, turn('b'));
    await service.idle();
    service.recordTurn(SCOPE, turn('c'));
    await service.idle();
    expect(summarizer.summarized).toHaveLength(1);
    await expect(service.flush(SCOPE)).rejects.toThrow('model down');
    expect(service.sessionTurns(SCOPE).map((t) => t.text)).toEqual(['a', 'b', 'c']);
    service.recordTurn(SCOPE, turn('d'));
    service.recordTurn(SCOPE, turn('e'));
    await service.idle();
    expect(summarizer.summarized).toHaveLength(3);
    // At most twice the threshold is kept while flushes fail: the oldest went.
    expect(service.sessionTurns(SCOPE).map((t) => t.text)).toEqual(['b', 'c', 'd', 'e']);
  });

  it('beyond maxSessions, flushes the least recently used scope in the background and drops it', async () => {
    const summarizer = new ScriptedMemorySummarizer();
    summarizer.summarizeWith = (turns) => turns.map((t) => ({ text: t.text }));
    const { service, index } = memoryHarness({ summarizer, options: { maxSessions: 2 } });
    service.recordTurn('device:a', turn('from a'));
    service.recordTurn('device:b', turn('from b'));
    service.recordTurn('device:a', turn('a again')); // a is now the most recently used
    service.recordTurn('device:c', turn('from c')); // b goes
    await service.idle();
    expect(service.sessionTurns('device:b')).toEqual([]);
    expect(service.sessionTurns('device:a').map((t) => t.text)).toEqual(['from a', 'a again']);
    expect(index.all().map((record) => [record.scope, record.text])).toEqual([['device:b', 'from b']]);
  });
});

describe('MemoryService organize', () => {
  it('reads at most organizeDays daily files of 3,000 characters and keeps priority ≥ 9 only, in both layers', async () => {
    const summarizer = new ScriptedMemorySummarizer();
    summarizer.organizeWith = () => [
      { text: 'Mom is Alice', category: 'contact', priority: 9 },
      { text: 'Went to the dentist', priority: 8 },
      { text: 'Prefers dark mode', category: 'preference', priority: 10 },
      { text: 'no priority' },
    ];
    const { service, files } = memoryHarness({ summarizer });
    // 35 days of files up to today, each 5,000 characters long.
    for (let d = 34; d >= 0; d--) {
      const day = new Date(Date.parse('2026-12-02T00:00:00.000Z') - d * 86_400_000).toISOString().slice(0, 10);
      files.edit(`device/sim-1/${day}.md`, `# ${day}\n\n## note\n\n${'x'.repeat(5000)}\n`);
    }
    files.edit('device/sim-1/2026-11-20.md', '   \n');
    const { days, stored } = await service.organize(SCOPE);
    expect(days).toBe(29); // of the last 30, the blank day left out
    expect(summarizer.organized[0].map((day) => day.day)).toEqual(
      Array.from({ length: 30 }, (_, d) => new Date(Date.parse('2026-11-03T00:00:00.000Z') + d * 86_400_000).toISOString().slice(0, 10)).filter((day) => day !== '2026-11-20'),
    );
    expect(summarizer.organized[0].every((day) => day.text.length === 3000)).toBe(true);
    expect(stored.map((record) => [record.layer, record.text, record.priority])).toEqual([
      ['daily', 'Mom is Alice', 9],
      ['curated', 'Mom is Alice', 9],
      ['daily', 'Prefers dark mode', 10],
      ['curated', 'Prefers dark mode', 10],
    ]);
    expect(files.text(CURATED)).toBe('# Long-term memory\n\n## contact · p9 · 2026-12-02\n\nMom is Alice\n\n## preference · p10 · 2026-12-02\n\nPrefers dark mode\n');
  });

  it('shows the summariser each day’s highest-priority and newest sections first, whole, within the limit', async () => {
    const summarizer = new ScriptedMemorySummarizer();
    // Room for the heading line, the p9 fact and the newest chatter; the next heading does not fit whole.
    const { service, files } = memoryHarness({ summarizer, options: { organizeFileChars: 120 } });
    const chatter = Array.from({ length: 6 }, (_, i) => `## 0${i}:00 · task · p3\n\nopened the clock app, round ${i}\n`).join('\n');
    files.edit('device/sim-1/2026-12-02.md', `# 2026-12-02\n\n${chatter}\n## 09:30 · fact · p9\n\nallergic to penicillin\n`);
    await service.organize(SCOPE);
    expect(summarizer.organized[0]).toEqual([
      {
        day: '2026-12-02',
        text: '# 2026-12-02\n\n## 09:30 · fact · p9\n\nallergic to penicillin\n\n## 05:00 · task · p3\n\nopened the clock app, round 5\n',
      },
    ]);
  });

  it('does not ask the summariser without daily files', async () => {
    const summarizer = new ScriptedMemorySummarizer();
    const { service } = memoryHarness({ summarizer });
    expect(await service.organize(SCOPE)).toEqual({ days: 0, stored: [] });
    expect(summarizer.organized).toEqual([]);
  });

  it('with the rule-based summariser, promotes the daily preferences and priority-9 sections to the curated layer', async () => {
    const { service, files } = memoryHarness();
    await service.onModuleInit();
    await service.remember(SCOPE, { text: 'opened the camera', category: 'task', priority: 3 }, 'tool');
    expect((await service.organize(SCOPE)).stored).toEqual([]);
    // A preference a flush wrote (daily only), and a person's note.
    files.edit('device/sim-1/2026-12-01.md', '# 2026-12-01\n\n## 08:00 · preference · p4\n\nPrefers dark mode\n\n## shopping\n\nmilk\n');
    const { days, stored } = await service.organize(SCOPE);
    expect(days).toBe(2);
    // The daily memory was there already: only the curated one is new.
    expect(stored.map((record) => [record.layer, record.text, record.priority, record.source.file])).toEqual([
      ['curated', 'Prefers dark mode', 9, CURATED],
    ]);
    service.onModuleDestroy();
  });
});
