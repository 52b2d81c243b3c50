/**
 * The closing lines of `.ci/run`: the counts `npm test` wrote (Jest's test-output/jest-results.json
 * and the Android client's test-output/android-results.json), then every Jest test that failed before
 * it passed on a retry (MOBILECLAW_TEST_RETRIES), with its first failure's first line — flaky tests to
 * fix, never counted as plain passes.
 */
const { relative } = require('node:path');
const jest = require('../test-output/jest-results.json');
const android = require('../test-output/android-results.json');

const flaky = [];
for (const suite of jest.testResults) {
  for (const test of suite.assertionResults) {
    if (test.status === 'passed' && test.invocations > 1) {
      const reason = String(test.retryReasons?.[0] ?? '').split('\n').find((line) => line.trim() !== '') ?? '';
      flaky.push(`flaky (passed on try ${test.invocations}): ${relative(process.cwd(), suite.name)} › ${test.fullName}: ${reason.trim()}`);
    }
  }
}
for (const line of flaky) console.log(line);
const passed = jest.numPassedTests + android.numPassedTests;
const failed = jest.numFailedTests + android.numFailedTests;
console.log(`tests: ${passed} passed${flaky.length > 0 ? ` (${flaky.length} flaky)` : ''}, ${failed} failed`);
