import type { SessionTurn } from '@mobileclaw/domain';
import { RuleBasedMemorySummarizer } from './rule-based-memory-summarizer';

const at = '2026-12-02T10:00:00.000Z';
const turn = (role: SessionTurn['role'], text: string): SessionTurn => ({ role, text, at });

describe('RuleBasedMemorySummarizer', () => {
  const summarizer = new RuleBasedMemorySummarizer();

  it('keeps each goal with its outcome as a priority-3 task, and "remember" statements as priority-6 facts', async () => {
    const turns = [
      turn('user', 'Turn on   Wi-Fi'),
      turn('assistant', 'tap "Wi-Fi"'),
      turn('tool', 'ok'),
      turn('assistant', 'completed'),
      turn('user', 'remember that mom is Alice'),
      turn('assistant', 'memory_store'),
      turn('user', '记住：办公室无线网络是ACME-5G'),
      turn('user', 'Please remember: my office Wi-Fi is ACME-5G'),
      turn('user', 'open the camera'),
    ];
    expect(await summarizer.summarize(turns)).toEqual([
      { text: 'Turn on Wi-Fi → completed', category: 'task', priority: 3 },
      { text: 'mom is Alice', category: 'fact', priority: 6 },
      { text: '办公室无线网络是ACME-5G', category: 'fact', priority: 6 },
      { text: 'my office Wi-Fi is ACME-5G', category: 'fact', priority: 6 },
      { text: 'open the camera', category: 'task', priority: 3 },
    ]);
  });

  it('keeps a repeated memory once and nothing of a session without user turns', async () => {
    expect(await summarizer.summarize([turn('user', 'remember that mom is Alice'), turn('user', 'Remember that  MOM is alice')])).toEqual([{ text: 'mom is Alice', category: 'fact', priority: 6 }]);
    expect(await summarizer.summarize([turn('tool', 'ok')])).toEqual([]);
  });

  it('organizes: keeps sections of priority ≥ 9 or a curated category, as priority 9', async () => {
    const day1 = '# 2026-11-30\n\n## 09:00 · task · p3\n\nopened the camera\n\n## 09:10 · preference · p4\n\nPrefers dark mode\n';
    const day2 = '# 2026-12-01\n\n## 08:00 · contact · p9\n\nMom is Alice\n\n## A note\n\nbuy milk\n\n## 08:30 · preference · p6\n\nprefers  dark mode\n';
    expect(await summarizer.organize([
      { day: '2026-11-30', text: day1 },
      { day: '2026-12-01', text: day2 },
    ])).toEqual([
      { text: 'Prefers dark mode', category: 'preference', priority: 9 },
      { text: 'Mom is Alice', category: 'contact', priority: 9 },
    ]);
  });
});

describe('RuleBasedMemorySummarizer limits', () => {
  it('cuts a task memory to 4,000 characters', async () => {
    const [candidate] = await new RuleBasedMemorySummarizer().summarize([turn('user', 'g'.repeat(3000)), turn('tool', 'o'.repeat(3000))]);
    expect(candidate.text).toHaveLength(4000);
    expect(candidate.text.startsWith(`${'g'.repeat(3000)} → o`)).toBe(true);
  });
});
