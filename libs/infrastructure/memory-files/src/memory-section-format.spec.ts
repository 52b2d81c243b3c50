import { createHash } from 'node:crypto';
import { isMobileClawError } from '@mobileclaw/domain';
import { formatFileTitle, formatMemorySection, memoryContentHash, parseMemorySections, type MemoryFileFacts } from './memory-section-format';

const DAILY: MemoryFileFacts = { layer: 'daily', day: '2026-12-02', modifiedAt: '2026-12-02T18:00:00.000Z' };
const CURATED: MemoryFileFacts = { layer: 'curated', modifiedAt: '2026-11-20T08:30:00.000Z' };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const parse = (text: string, facts: MemoryFileFacts) =>
  parseMemorySections(Buffer.from(text, 'utf8'), facts).map(({ line, text, category, priority, createdAt }) => ({ line, text, category, priority, createdAt }));

describe('memory sections', () => {
  it('writes the gateway headings: daily HH:MM (UTC) · category · p<n>, curated category · p<n> · day', () => {
    expect(formatMemorySection('daily', { text: 'Mom is Alice', category: 'contact', priority: 6 }, '2026-12-02T09:05:59.999+02:00')).toBe(
      '## 07:05 · contact · p6\n\nMom is Alice\n\n',
    );
    expect(formatMemorySection('curated', { text: ' Office Wi-Fi is ACME-5G \n', category: 'preference', priority: 9 }, '2026-12-01T23:59:00Z', '\r\n')).toBe(
      '## preference · p9 · 2026-12-01\r\n\r\nOffice Wi-Fi is ACME-5G\r\n\r\n',
    );
    expect(formatFileTitle('daily', '2026-12-02')).toBe('# 2026-12-02\n\n');
    expect(formatFileTitle('curated', '2026-12-02', '\r\n')).toBe('# Long-term memory\r\n\r\n');
  });

  it('parses gateway headings back to category, priority and time', () => {
    const file = '# 2026-12-02\n\n## 07:05 · contact · p6\n\nMom is Alice\n\n## 23:59 · task · p10\n\nline one\n  line two\n\n';
    expect(parse(file, DAILY)).toEqual([
      { line: 3, text: 'Mom is Alice', category: 'contact', priority: 6, createdAt: '2026-12-02T07:05:00.000Z' },
      { line: 7, text: 'line one\n  line two', category: 'task', priority: 10, createdAt: '2026-12-02T23:59:00.000Z' },
    ]);
    expect(parse('# Long-term memory\n\n## preference · p9 · 2026-11-03\n\nTea, no sugar\n', CURATED)).toEqual([
      { line: 3, text: 'Tea, no sugar', category: 'preference', priority: 9, createdAt: '2026-11-03T00:00:00.000Z' },
    ]);
  });

  it("reads a person's headings as notes of priority 5 (daily) or 9 (curated), with the heading's time when it has one", () => {
    const daily = '# my day\nsome preamble\n## Lunch with Bob at 12:30\nHe moved to Berlin.\n##   Groceries  ##\n\n  milk\n  eggs  \n\n## Call the bank\n';
    expect(parse(daily, DAILY)).toEqual([
      { line: 3, text: 'He moved to Berlin.', category: 'note', priority: 5, createdAt: '2026-12-02T12:30:00.000Z' },
      { line: 5, text: 'milk\n  eggs', category: 'note', priority: 5, createdAt: '2026-12-02T00:00:00.000Z' },
      { line: 10, text: 'Call the bank', category: 'note', priority: 5, createdAt: '2026-12-02T00:00:00.000Z' },
    ]);
    const curated = '## Since 2026-10-01 14:00\nI work at ACME.\n## Languages\nEnglish and 中文\n## fact · p42 · 2026-01-01\nnot gateway metadata\n';
    expect(parse(curated, CURATED)).toEqual([
      { line: 1, text: 'I work at ACME.', category: 'note', priority: 9, createdAt: '2026-10-01T14:00:00.000Z' },
      { line: 3, text: 'English and 中文', category: 'note', priority: 9, createdAt: '2026-11-20T08:30:00.000Z' },
      { line: 5, text: 'not gateway metadata', category: 'note', priority: 9, createdAt: '2026-01-01T00:00:00.000Z' },
    ]);
  });

  it('ignores text before the first ##, deeper headings, ##-without-space and empty sections', () => {
    expect(parse('## nope\n', { ...DAILY })).toHaveLength(1);
    expect(parse('intro\n### not a section\n##not a heading\n## \n\n##\n## kept\n### detail\nbody\n', DAILY)).toEqual([
      { line: 7, text: '### detail\nbody', category: 'note', priority: 5, createdAt: '2026-12-02T00:00:00.000Z' },
    ]);
  });

  it('reads CRLF files and a byte order mark like LF files', () => {
    const lf = '## 10:00 · fact · p5\n\nOffice Wi-Fi is ACME-5G\nsecond line\n\n## Person\nnote\n';
    const crlf = '\uFEFF' + lf.replace(/\n/g, '\r\n');
    expect(parse(crlf, DAILY)).toEqual(parse(lf, DAILY));
    expect(parse(crlf, DAILY)[0]).toEqual({ line: 1, text: 'Office Wi-Fi is ACME-5G\nsecond line', category: 'fact', priority: 5, createdAt: '2026-12-02T10:00:00.000Z' });
  });

  it('gives byte ranges from the heading to the next heading', () => {
    const content = Buffer.from('# 2026-12-02\n\n## 10:00 · fact · p5\n\n妈妈是Alice\n\n## b\nB\n', 'utf8');
    const [first, second] = parseMemorySections(content, DAILY);
    expect(content.toString('utf8', first.start, first.end)).toBe('## 10:00 · fact · p5\n\n妈妈是Alice\n\n');
    expect(content.toString('utf8', second.start, second.end)).toBe('## b\nB\n');
    expect(second.end).toBe(content.length);
  });

  it('hashes the normalised text with SHA-256', () => {
    expect(memoryContentHash('  Mom   is\nALICE ')).toBe(sha256('mom is alice'));
    expect(memoryContentHash('ＡＢＣ')).toBe(sha256('abc'));
    const [section] = parseMemorySections(Buffer.from('## x\n\nMom  is Alice\n'), DAILY);
    expect(section.contentHash).toBe(sha256('mom is alice'));
  });

  it('escapes text lines that would read as headings, and reads them back as written', () => {
    const text = '## not a heading\n  ## indented\n\\## already escaped\n### deeper\n##tight';
    const written = formatMemorySection('daily', { text, category: 'fact', priority: 5 }, '2026-12-02T10:00:00Z');
    expect(written).toBe('## 10:00 · fact · p5\n\n\\## not a heading\n  \\## indented\n\\\\## already escaped\n### deeper\n##tight\n\n');
    expect(parse(written, DAILY)).toEqual([{ line: 1, text, category: 'fact', priority: 5, createdAt: '2026-12-02T10:00:00.000Z' }]);
  });

  it('cuts a longer text to 4,000 characters', () => {
    const [section] = parseMemorySections(Buffer.from(`## long\n${'a'.repeat(3999)}🙂tail\n`), DAILY);
    expect(section.text).toBe('a'.repeat(3999));
  });

  it('rejects blank or too long texts, bad categories, priorities and times as VALIDATION_FAILED', () => {
    const cases = [
      { text: ' \n ', category: 'fact', priority: 5, at: '2026-12-02T10:00:00Z' },
      { text: 'x'.repeat(4001), category: 'fact', priority: 5, at: '2026-12-02T10:00:00Z' },
      { text: 'x', category: 'Fact', priority: 5, at: '2026-12-02T10:00:00Z' },
      { text: 'x', category: 'a · p9', priority: 5, at: '2026-12-02T10:00:00Z' },
      { text: 'x', category: 'fact', priority: 11, at: '2026-12-02T10:00:00Z' },
      { text: 'x', category: 'fact', priority: 2.5, at: '2026-12-02T10:00:00Z' },
      { text: 'x', category: 'fact', priority: 5, at: 'yesterday' },
      { text: 'x', category: 'fact', priority: 5, at: '2026-12-32T10:00:00Z' },
    ];
    for (const { at, ...memory } of cases) {
      let error: unknown;
      try {
        formatMemorySection('daily', memory, at);
      } catch (err) {
        error = err;
      }
      expect(isMobileClawError(error, 'VALIDATION_FAILED')).toBe(true);
    }
  });
});
