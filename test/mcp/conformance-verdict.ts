/**
 * Judges one run of the MCP conformance suite (`conformance server --requirements <revision> -o <dir>`)
 * against the committed expected failures (test/mcp/conformance-expected-failures.json). The suite's
 * own verdict counts only the scenarios a revision scores; this one holds every scenario it ran
 * (scored or not) to the file, so a new failure anywhere fails, and so does an entry that passes now
 * (the list only shrinks).
 */

/** One check of a scenario, as the suite writes it to `checks.json`. */
export interface ConformanceCheck {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
}

/** A scenario the suite ran, its checks, and why it is not scored (absent when it is). */
export interface ScenarioRun {
  scenario: string;
  checks: ConformanceCheck[];
  notScored?: string;
}

/**
 * Expected failures of one revision: `scenario` (every check of it may fail) or `scenario:check-id`
 * (only that check may fail) → the reason, one sentence.
 */
export type ExpectedFailures = Record<string, string>;

/** The committed file: expected failures per spec revision. */
export interface ExpectedFailuresFile {
  suite: string;
  revisions: Record<string, ExpectedFailures>;
}

export interface RevisionVerdict {
  revision: string;
  scenarios: number;
  passed: string[];
  /** Failing as the file expects. */
  expected: string[];
  /** Failing checks the file does not name, as `scenario:check-id — message`. */
  unexpected: string[];
  /** File entries that pass now (remove them), or that name a scenario this run did not have. */
  stale: string[];
  /** `scenario:check-id` of SHOULD-level checks the suite reported as warnings. */
  warnings: string[];
  notScored: number;
}

/** What the suite printed: every scenario of its SUMMARY block, and the reason of each one not scored. */
export function parseSuiteOutput(stdout: string): { scenarios: string[]; notScored: Map<string, string> } {
  const summary = stdout.split('=== SUMMARY ===')[1];
  if (summary === undefined) throw new Error('the conformance suite printed no SUMMARY: it did not finish');
  const scenarios = [...summary.matchAll(/^[✓✗] (\S+): \d+ passed, \d+ failed$/gm)].map((m) => m[1]);
  const notScored = new Map([...summary.matchAll(/^\s+[✓✗] (\S+) \(([a-z-]+)\)$/gm)].map((m) => [m[1], m[2]] as [string, string]));
  return { scenarios, notScored };
}

/** The verdict of one revision's runs against its expected failures. */
export function judgeRevision(revision: string, runs: ScenarioRun[], expected: ExpectedFailures): RevisionVerdict {
  const verdict: RevisionVerdict = { revision, scenarios: runs.length, passed: [], expected: [], unexpected: [], stale: [], warnings: [], notScored: 0 };
  const names = new Set(runs.map((r) => r.scenario));
  for (const key of Object.keys(expected)) {
    if (!names.has(key.split(':')[0])) verdict.stale.push(`${key} (no such scenario ran)`);
  }
  for (const run of runs) {
    if (run.notScored !== undefined) verdict.notScored++;
    verdict.warnings.push(...run.checks.filter((c) => c.status === 'WARNING').map((c) => `${run.scenario}:${c.id}`));
    const failing = run.checks.filter((c) => c.status === 'FAILURE');
    if (run.scenario in expected) {
      if (failing.length > 0) verdict.expected.push(run.scenario);
      else verdict.stale.push(`${run.scenario} (passes now)`);
      continue;
    }
    const excused = (c: ConformanceCheck) => `${run.scenario}:${c.id}` in expected;
    const unexcused = failing.filter((c) => !excused(c));
    verdict.unexpected.push(...unexcused.map((c) => `${run.scenario}:${c.id} — ${c.errorMessage ?? 'failed'}`));
    // A named check that passes is stale; one absent or skipped is tolerated (its scenario stopped earlier).
    const passing = new Set(run.checks.filter((c) => c.status === 'SUCCESS').map((c) => c.id));
    for (const key of Object.keys(expected).filter((k) => k.startsWith(`${run.scenario}:`))) {
      const id = key.slice(run.scenario.length + 1);
      if (passing.has(id) && !failing.some((c) => c.id === id)) verdict.stale.push(`${key} (passes now)`);
    }
    if (unexcused.length > 0) continue;
    if (failing.length > 0) verdict.expected.push(run.scenario);
    else verdict.passed.push(run.scenario);
  }
  return verdict;
}

/** The one-line summary of a revision, e.g. `2026-07-28: 50 scenarios, 41 passed, 0 failed, 9 expected failures (13 not scored), 2 warnings`. */
export function summaryLine(v: RevisionVerdict): string {
  const failed = new Set(v.unexpected.map((u) => u.split(':')[0])).size;
  return `${v.revision}: ${v.scenarios} scenarios, ${v.passed.length} passed, ${failed} failed, ${v.expected.length} expected failures (${v.notScored} not scored), ${v.warnings.length} warnings${v.stale.length > 0 ? `, ${v.stale.length} stale expected-failure entries` : ''}`;
}
