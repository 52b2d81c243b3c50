import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { judgeRevision, parseSuiteOutput, summaryLine, type ConformanceCheck, type ExpectedFailuresFile, type ScenarioRun } from './conformance-verdict';

const ok = (id: string): ConformanceCheck => ({ id, status: 'SUCCESS' });
const fail = (id: string, errorMessage = `${id} broke`): ConformanceCheck => ({ id, status: 'FAILURE', errorMessage });
const run = (scenario: string, checks: ConformanceCheck[], notScored?: string): ScenarioRun => ({ scenario, checks, notScored });

describe('the MCP conformance verdict', () => {
  it('reads the scenarios of the SUMMARY block and why some are not scored', () => {
    const stdout = [
      '=== Running scenario: ping ===',
      '✓ not-a-summary-line: 1 passed, 0 failed',
      '',
      '=== SUMMARY ===',
      '✓ ping: 2 passed, 0 failed',
      '✗ tasks-lifecycle: 1 passed, 8 failed',
      '✓ json-schema-2020-12: 2 passed, 0 failed',
      '',
      'Total: 5 passed, 8 failed',
      '',
      'Not scored for 2026-07-28: 2 scenario(s) run, 1 failing. These do not affect conformance.',
      '  ✗ tasks-lifecycle (extension)',
      '  ✓ json-schema-2020-12 (pending)',
    ].join('\n');
    const parsed = parseSuiteOutput(stdout);
    expect(parsed.scenarios).toEqual(['ping', 'tasks-lifecycle', 'json-schema-2020-12']);
    expect([...parsed.notScored]).toEqual([
      ['tasks-lifecycle', 'extension'],
      ['json-schema-2020-12', 'pending'],
    ]);
  });

  it('refuses output without a SUMMARY: the suite did not finish', () => {
    expect(() => parseSuiteOutput('=== Running scenario: ping ===\n')).toThrow('the conformance suite printed no SUMMARY: it did not finish');
  });

  it('fails a failing check the file does not name, and counts the rest', () => {
    const verdict = judgeRevision(
      '2025-11-25',
      [run('ping', [ok('ping'), { id: 'wire', status: 'WARNING' }]), run('tools-list', [ok('a'), fail('b', 'Tool test_simple_text not found')]), run('tasks-lifecycle', [fail('x')], 'extension')],
      { 'tasks-lifecycle': 'extension not implemented' },
    );
    expect(verdict).toEqual({
      revision: '2025-11-25',
      scenarios: 3,
      passed: ['ping'],
      expected: ['tasks-lifecycle'],
      unexpected: ['tools-list:b — Tool test_simple_text not found'],
      stale: [],
      warnings: ['ping:wire'],
      notScored: 1,
    });
    expect(summaryLine(verdict)).toBe('2025-11-25: 3 scenarios, 1 passed, 1 failed, 1 expected failures (1 not scored), 1 warnings');
  });

  it('excuses only the named check of a scenario, tolerating it absent or skipped', () => {
    const expected = { 'server-stateless:listen': 'SHOULD, not served', 'caching:hint': 'not served' };
    const verdict = judgeRevision('2026-07-28', [run('server-stateless', [ok('discover'), fail('listen')]), run('caching', [ok('etag'), { id: 'hint', status: 'SKIPPED' }])], expected);
    expect(verdict).toMatchObject({ passed: ['caching'], expected: ['server-stateless'], unexpected: [], stale: [] });
    const other = judgeRevision('2026-07-28', [run('server-stateless', [fail('discover'), fail('listen')])], expected);
    expect(other.unexpected).toEqual(['server-stateless:discover — discover broke']);
    expect(other.expected).toEqual([]);
  });

  it('calls an entry stale when its scenario or check passes now, or when no such scenario ran', () => {
    const verdict = judgeRevision('2026-07-28', [run('ping', [ok('ping')]), run('caching', [ok('hint')])], { ping: 'was broken', 'caching:hint': 'was broken', 'gone-scenario': 'renamed upstream' });
    expect(verdict.stale.sort()).toEqual(['caching:hint (passes now)', 'gone-scenario (no such scenario ran)', 'ping (passes now)']);
    expect(summaryLine(verdict)).toBe('2026-07-28: 2 scenarios, 1 passed, 0 failed, 0 expected failures (0 not scored), 0 warnings, 3 stale expected-failure entries');
  });

  it('has a reason for every committed expected failure, for the installed suite release', () => {
    const file = JSON.parse(readFileSync(join(__dirname, 'conformance-expected-failures.json'), 'utf8')) as ExpectedFailuresFile;
    const tools = JSON.parse(readFileSync(join(__dirname, '..', '..', 'tools', 'mcp-conformance', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(file.suite).toBe(`@modelcontextprotocol/conformance@${tools.devDependencies['@modelcontextprotocol/conformance']}`);
    expect(Object.keys(file.revisions).sort()).toEqual(['2025-11-25', '2026-07-28']);
    for (const entries of Object.values(file.revisions)) {
      for (const [key, reason] of Object.entries(entries)) expect({ key, reasonLength: reason.length > 20 }).toEqual({ key, reasonLength: true });
    }
  });
});
