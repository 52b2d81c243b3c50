import { memoryFileTitle, memorySectionHeading, parseMemoryMarkdown } from './memory-markdown';

describe('parseMemoryMarkdown', () => {
  it("reads the gateway's daily sections and a person's, skipping text before the first ##", () => {
    const text = [
      '# 2026-12-02', // 1
      'an intro that is not a memory', // 2
      '', // 3
      '## 09:05 · contact · p8', // 4
      '', // 5
      'Mom is Alice', // 6
      '', // 7
      '## Groceries', // 8
      '', // 9
      'milk', // 10
      'eggs', // 11
      '', // 12
      '## Call the bank', // 13
      '### not a section', // 14
      '##no space is text', // 15
      '## 25:00 · fact · p5', // 16 a time that is none: a person's title
      '',
    ].join('\n');
    expect(parseMemoryMarkdown(text, 'daily', '2026-12-02')).toEqual([
      { line: 4, endLine: 7, text: 'Mom is Alice', category: 'contact', priority: 8, at: '2026-12-02T09:05:00.000Z' },
      { line: 8, endLine: 12, text: 'milk\neggs', category: 'note', priority: 5 },
      { line: 13, endLine: 15, text: '### not a section\n##no space is text', category: 'note', priority: 5 },
      { line: 16, endLine: 16, text: '25:00 · fact · p5', category: 'note', priority: 5 },
    ]);
  });

  it("reads curated sections: the gateway's with their day, a person's as priority 9 notes", () => {
    const text = '# Long-term memory\n\n## preference · p9 · 2026-11-30\n\nPrefers dark mode\n\n## Work\n\nWorks at ACME\n';
    expect(parseMemoryMarkdown(text, 'curated')).toEqual([
      { line: 3, endLine: 6, text: 'Prefers dark mode', category: 'preference', priority: 9, at: '2026-11-30T00:00:00.000Z' },
      { line: 7, endLine: 9, text: 'Works at ACME', category: 'note', priority: 9 },
    ]);
  });

  it('leaves out sections without text, and reads CRLF files', () => {
    expect(parseMemoryMarkdown('# 2026-12-02\r\n## 10:00 · fact · p5\r\n\r\n## \r\n## Title only\r\n', 'daily', '2026-12-02')).toEqual([
      { line: 5, endLine: 5, text: 'Title only', category: 'note', priority: 5 },
    ]);
  });
});

describe('headings and titles', () => {
  it('writes the daily heading with the UTC time and the curated one with the day', () => {
    expect(memorySectionHeading('daily', { category: 'fact', priority: 6 }, '2026-12-02T07:08:09.123Z')).toBe('## 07:08 · fact · p6');
    expect(memorySectionHeading('curated', { category: 'preference', priority: 9 }, '2026-12-02T07:08:09.123Z')).toBe('## preference · p9 · 2026-12-02');
    expect(memoryFileTitle('daily', '2026-12-02')).toBe('# 2026-12-02');
    expect(memoryFileTitle('curated', '2026-12-02')).toBe('# Long-term memory');
  });

  it('reads back what it writes', () => {
    const daily = `${memoryFileTitle('daily', '2026-12-02')}\n\n${memorySectionHeading('daily', { category: 'task', priority: 3 }, '2026-12-02T23:59:00.000Z')}\n\nturned on Wi-Fi\n`;
    expect(parseMemoryMarkdown(daily, 'daily', '2026-12-02')).toEqual([{ line: 3, endLine: 5, text: 'turned on Wi-Fi', category: 'task', priority: 3, at: '2026-12-02T23:59:00.000Z' }]);
  });
});
