import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CATALOG, type ErrorCode } from '@mobileclaw/domain';
import { HTTP_STATUS_BY_CODE } from '@mobileclaw/trigger-rest';

/**
 * The README's "Errors" tables against the error catalog: every code a request can be answered with
 * is in the HTTP table with the status the gateway gives it, and every code there exists.
 */

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

/** Codes no HTTP request is answered with: task outcomes (the second table), phone-request answers, and what no client sees. */
const NOT_HTTP_ANSWERS: readonly ErrorCode[] = [
  'GOAL_FAILED', 'NO_EFFECT', 'MAX_STEPS', 'PLANNER_ERROR', 'APPROVAL_DENIED', 'CANCELED', 'INTERRUPTED', 'TOOL_RESULT_TIMEOUT',
  // Answers to a phone's own requests over its link (wire protocol v1 §7).
  'METHOD_NOT_FOUND', 'TOO_MANY_REQUESTS',
  // The client went away (nobody reads the answer); a phone's hello in an unknown protocol version (closes its link).
  'ABORTED', 'UNSUPPORTED_VERSION',
];

/** The rows `| status | \`CODE\` | when |` of the section "### Errors" up to its second table. */
function httpTable(): Map<string, number> {
  const section = /^### Errors\n([\s\S]*?)^A task that does not complete/m.exec(README)?.[1];
  expect(section).toBeDefined();
  const rows = new Map<string, number>();
  for (const [, status, code] of section!.matchAll(/^\| (\d{3}) \| `([A-Z_]+)` \|/gm)) {
    expect(rows.has(code)).toBe(false);
    rows.set(code, Number(status));
  }
  return rows;
}

describe('README: the errors table', () => {
  it('lists every code a request can be answered with, with its HTTP status', () => {
    const table = httpTable();
    const expected = (Object.keys(ERROR_CATALOG) as ErrorCode[]).filter((code) => !NOT_HTTP_ANSWERS.includes(code)).map((code) => [code, HTTP_STATUS_BY_CODE[code]]);
    expect([...table.entries()].sort()).toEqual(expected.sort());
  });

  it('names only codes of the catalog in the task outcome table', () => {
    const outcomes = /^\| code \| the task ended because \|\n\| --- \| --- \|\n((?:\|.*\n)+)/m.exec(README)?.[1];
    expect(outcomes).toBeDefined();
    const codes = [...outcomes!.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(codes).toEqual(['GOAL_FAILED', 'NO_EFFECT', 'MAX_STEPS', 'PLANNER_ERROR', 'APPROVAL_DENIED', 'CANCELED', 'INTERRUPTED']);
    for (const code of codes) expect(ERROR_CATALOG).toHaveProperty(code);
  });
});
