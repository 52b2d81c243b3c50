/**
 * Jest setup file of every project: with MOBILECLAW_TEST_RETRIES=n (an integer 1–3; `.ci/run` sets 1)
 * a failed test runs again, up to n more times, its failure printed first. A test that passes only on
 * a retry is not hidden: Jest records its invocations and failures in test-output/jest-results.json,
 * and `.ci/run` lists it as flaky in its closing lines. Unset (a developer's `npm test`), nothing is
 * retried.
 */
const retries = Number(process.env.MOBILECLAW_TEST_RETRIES ?? 0);
if (!Number.isInteger(retries) || retries < 0 || retries > 3) {
  throw new Error(`MOBILECLAW_TEST_RETRIES must be an integer from 0 to 3, got ${JSON.stringify(process.env.MOBILECLAW_TEST_RETRIES)}`);
}
if (retries > 0) jest.retryTimes(retries, { logErrorsBeforeRetry: true });
