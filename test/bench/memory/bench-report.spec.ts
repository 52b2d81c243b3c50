import { qualityTable, replaceSection, speedTable } from './bench-report';

describe('bench report', () => {
  const doc = '# Benchmarks\n\n## A (old)\n\ntext a\n\n## Memory retrieval (2026-12-01)\n\nold figures\n\n## Files\n\n- x\n';

  it('replaces the section up to the next heading, keeping the rest byte for byte', () => {
    expect(replaceSection(doc, 'Memory retrieval', '## Memory retrieval (2026-12-02)\n\nnew figures\n')).toBe('# Benchmarks\n\n## A (old)\n\ntext a\n\n## Memory retrieval (2026-12-02)\n\nnew figures\n\n## Files\n\n- x\n');
  });

  it('adds a missing section before Files, or at the end without one', () => {
    expect(replaceSection('# B\n\n## Files\n\n- x\n', 'Memory retrieval', '## Memory retrieval\n\nfigures\n')).toBe('# B\n\n## Memory retrieval\n\nfigures\n\n## Files\n\n- x\n');
    expect(replaceSection('# B\n', 'Memory retrieval', '## Memory retrieval\n\nfigures\n')).toBe('# B\n\n## Memory retrieval\n\nfigures\n');
  });

  it('prints recall and MRR per kind with three decimals, leaving out kinds without questions', () => {
    const score = { queries: 2, recallAtK: 0.5, mrr: 0.25, staleFirst: 0 };
    const table = qualityTable(
      [
        { arm: 'LIKE', score: { k: 3, all: score, byKind: { exact: score, latest: { ...score, staleFirst: 0.5 } } } },
        { arm: 'hybrid', score: { k: 3, all: { ...score, recallAtK: 1 }, byKind: { exact: score } } },
      ],
      3,
      { exact: 2, paraphrase: 0, 'cross-language': 0, latest: 2 },
    );
    expect(table.split('\n')).toEqual([
      '| arm | all (4) R@3 | MRR | exact (2) R@3 | MRR | latest (2) R@3 | MRR | stale first |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      '| LIKE | 0.500 | 0.250 | 0.500 | 0.250 | 0.500 | 0.250 | 0.500 |',
      '| hybrid | 1.000 | 0.250 | 0.500 | 0.250 | 0.000 | 0.000 | 0.000 |',
    ]);
  });

  it('prints throughput and latency per size', () => {
    const latency = (p50Ms: number, p99Ms: number) => ({ p50Ms, p99Ms, samples: 400 });
    expect(speedTable([{ memories: 100_000, indexPerSecond: 12_345.6, indexWithEmbeddingsPerSecond: 4000, search: latency(5.1234, 9), lexicalSearch: latency(1.2, 3.456), likeSearch: latency(30, 41.5) }]).split('\n')[2]).toBe(
      '| 100,000 | 12,346 | 4,000 | 5.12 | 9.00 | 1.20 / 3.46 | 30.00 / 41.50 |',
    );
  });
});
