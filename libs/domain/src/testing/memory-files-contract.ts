import type { MemoryScope } from '../memory/memory';
import type { MemoryFiles, MemorySection } from '../memory/memory-ports';

/** How the contract suite gets the memory files under test. */
export interface MemoryFilesContractHooks {
  /** Opens new, empty memory files; called before every test. */
  create(): Promise<MemoryFiles>;
  /** Called after every test (closes the adapter, removes temporary files). */
  dispose?(): Promise<void>;
}

const SCOPE: MemoryScope = 'device:sim-1';
const OTHER_SCOPE: MemoryScope = 'context:ctx 7';
const DAILY_FILE = 'device/sim-1/2026-12-02.md';
const CURATED_FILE = 'device/sim-1/MEMORY.md';
const UNKNOWN_HASH = 'f'.repeat(64);

const fact = (text: string, category = 'fact', priority = 5) => ({ text, category, priority });
const byFile = (a: { file: string }, b: { file: string }): number => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);

/**
 * Registers the `describe`/`it` blocks every {@link MemoryFiles} adapter must pass, as the port
 * documents it: appends create a scope's daily document (the day of `at`, UTC) or its `MEMORY.md`,
 * and come back from {@link MemoryFiles.read} as they were returned (line, text, labels, time of the
 * heading, content hash); a missing document has no sections; daily documents listed from a day,
 * oldest first, per scope; removal of every section with a content hash, the rest kept; every
 * document listed; concurrent appends to one document all kept. Times are given on whole minutes
 * (daily) and midnights (curated), what a heading holds. Call it at the top level of an adapter's spec file.
 */
export function describeMemoryFilesContract(name: string, hooks: MemoryFilesContractHooks): void {
  describe(`${name} (MemoryFiles contract)`, () => {
    let files: MemoryFiles;

    beforeEach(async () => {
      files = await hooks.create();
    });

    afterEach(async () => {
      await hooks.dispose?.();
    });

    it('appends sections to the daily document of the day of `at` (UTC) and reads them back as returned', async () => {
      const first = await files.append(SCOPE, 'daily', fact('Mom is Alice', 'contact', 6), '2026-12-02T09:15:00.000Z');
      const second = await files.append(SCOPE, 'daily', fact('Office Wi-Fi is ACME-5G\nthe 5 GHz one'), '2026-12-02T22:01:00.000Z');
      expect(first).toMatchObject({ scope: SCOPE, layer: 'daily', file: DAILY_FILE, text: 'Mom is Alice', category: 'contact', priority: 6, createdAt: '2026-12-02T09:15:00.000Z' });
      expect(first.contentHash).toMatch(/^[0-9a-f]{64}$/);
      expect(second).toMatchObject({ file: DAILY_FILE, text: 'Office Wi-Fi is ACME-5G\nthe 5 GHz one', createdAt: '2026-12-02T22:01:00.000Z' });
      expect(second.line).toBeGreaterThan(first.line);
      expect(await files.read(DAILY_FILE)).toStrictEqual([first, second]);
    });

    it('gives one text one content hash, whatever its case and spacing, and another text another', async () => {
      const a = await files.append(SCOPE, 'daily', fact('Mom is Alice'), '2026-12-02T09:00:00.000Z');
      const b = await files.append(SCOPE, 'daily', fact('mom  is ALICE'), '2026-12-02T09:01:00.000Z');
      const c = await files.append(SCOPE, 'daily', fact('Dad is Bob'), '2026-12-02T09:02:00.000Z');
      expect(b.contentHash).toBe(a.contentHash);
      expect(c.contentHash).not.toBe(a.contentHash);
    });

    it("appends curated memories to the scope's MEMORY.md, apart from its daily documents", async () => {
      const curated = await files.append(SCOPE, 'curated', fact('Prefers dark mode', 'preference', 9), '2026-12-01T00:00:00.000Z');
      expect(curated).toMatchObject({ scope: SCOPE, layer: 'curated', file: CURATED_FILE, text: 'Prefers dark mode', category: 'preference', priority: 9, createdAt: '2026-12-01T00:00:00.000Z' });
      expect(await files.read(CURATED_FILE)).toStrictEqual([curated]);
      expect(await files.dailyFiles(SCOPE, '2000-01-01')).toStrictEqual([]);
    });

    it('reads a document that does not exist as no sections', async () => {
      expect(await files.read(DAILY_FILE)).toStrictEqual([]);
      expect(await files.read(CURATED_FILE)).toStrictEqual([]);
    });

    it("lists a scope's daily documents from a day (inclusive), oldest first, and no other scope's", async () => {
      await files.append(SCOPE, 'daily', fact('third'), '2026-12-03T08:00:00.000Z');
      await files.append(SCOPE, 'daily', fact('first'), '2026-11-30T08:00:00.000Z');
      await files.append(SCOPE, 'daily', fact('second'), '2026-12-01T08:00:00.000Z');
      await files.append(OTHER_SCOPE, 'daily', fact('elsewhere'), '2026-12-02T08:00:00.000Z');
      expect(await files.dailyFiles(SCOPE, '2026-12-01')).toStrictEqual([
        { day: '2026-12-01', file: 'device/sim-1/2026-12-01.md' },
        { day: '2026-12-03', file: 'device/sim-1/2026-12-03.md' },
      ]);
      expect((await files.dailyFiles(SCOPE, '2026-11-01')).map((daily) => daily.day)).toStrictEqual(['2026-11-30', '2026-12-01', '2026-12-03']);
      expect(await files.dailyFiles(SCOPE, '2026-12-04')).toStrictEqual([]);
    });

    it('removes every section with a content hash, keeps the others, and counts what it removed', async () => {
      const kept = await files.append(SCOPE, 'daily', fact('Dad is Bob'), '2026-12-02T09:00:00.000Z');
      const doomed = await files.append(SCOPE, 'daily', fact('Mom is Alice'), '2026-12-02T09:05:00.000Z');
      await files.append(SCOPE, 'daily', fact('mom is alice'), '2026-12-02T09:10:00.000Z');
      const last = await files.append(SCOPE, 'daily', fact('The car is blue'), '2026-12-02T09:15:00.000Z');
      expect(await files.removeSection(DAILY_FILE, doomed.contentHash)).toBe(2);
      const rest = await files.read(DAILY_FILE);
      expect(rest.map((section) => section.text)).toStrictEqual(['Dad is Bob', 'The car is blue']);
      expect(rest[0]).toStrictEqual(kept);
      expect(rest[1]).toStrictEqual({ ...last, line: doomed.line });
      expect(await files.removeSection(DAILY_FILE, doomed.contentHash)).toBe(0);
      expect(await files.removeSection(DAILY_FILE, UNKNOWN_HASH)).toBe(0);
      expect(await files.removeSection('device/sim-1/2026-01-01.md', doomed.contentHash)).toBe(0);
    });

    it('lists every document there is, with its scope and layer', async () => {
      expect(await files.allFiles()).toStrictEqual([]);
      await files.append(SCOPE, 'daily', fact('a'), '2026-12-02T09:00:00.000Z');
      await files.append(SCOPE, 'daily', fact('b'), '2026-12-02T10:00:00.000Z');
      await files.append(SCOPE, 'curated', fact('c', 'preference', 9), '2026-12-02T00:00:00.000Z');
      await files.append(OTHER_SCOPE, 'daily', fact('d'), '2026-12-03T09:00:00.000Z');
      const all = await files.allFiles();
      expect([...all].sort(byFile)).toStrictEqual([
        { scope: OTHER_SCOPE, layer: 'daily', file: 'context/ctx%207/2026-12-03.md' },
        { scope: SCOPE, layer: 'daily', file: DAILY_FILE },
        { scope: SCOPE, layer: 'curated', file: CURATED_FILE },
      ]);
    });

    it('keeps every one of many concurrent appends to one document, each at the line it reported', async () => {
      const texts = Array.from({ length: 12 }, (_, i) => `memory number ${i}`);
      const appended = await Promise.all(texts.map((text, i) => files.append(SCOPE, 'daily', fact(text), `2026-12-02T10:${String(i).padStart(2, '0')}:00.000Z`)));
      const read = await files.read(DAILY_FILE);
      expect(read.map((section) => section.text).sort()).toStrictEqual([...texts].sort());
      const byText = new Map<string, MemorySection>(read.map((section) => [section.text, section]));
      for (const section of appended) expect(byText.get(section.text)).toStrictEqual(section);
    });
  });
}
