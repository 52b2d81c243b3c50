// The Android client's part of `npm test`: builds android/ with Maven (Java 17) — the JVM core and its
// tests (including the shared protocol vectors), the Android layer compiled against the Android 15
// framework and tested under Robolectric, and the interop test against this checkout's gateway — then
// counts the JUnit results Surefire wrote and stores them in test-output/android-results.json
// ({numPassedTests, numFailedTests, numSkippedTests}) for the closing line of .ci/run.
// Exits with Maven's status; says what to install when Java or Maven is missing.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const android = join(root, 'android');
const modules = ['core', 'app', 'interop'];

for (const [tool, args] of [['java', ['-version']], ['mvn', ['-v']]]) {
  const probe = spawnSync(tool, args, { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) {
    console.error(`test:android needs ${tool} (Java 17 and Maven 3.8+; on Debian/Ubuntu: apt-get install openjdk-17-jdk-headless maven)`);
    process.exit(1);
  }
}

const maven = spawnSync('mvn', ['-B', '-ntp', '-q', '-f', join(android, 'pom.xml'), 'verify'], { stdio: 'inherit', env: { ...process.env, MOBILECLAW_NODE: process.execPath } });

/** Counts of the Surefire XML reports of one module. */
function countReports(dir) {
  const counts = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  if (!existsSync(dir)) return counts;
  for (const file of readdirSync(dir).filter((name) => name.startsWith('TEST-') && name.endsWith('.xml'))) {
    const head = readFileSync(join(dir, file), 'utf8').match(/<testsuite\b[^>]*>/)?.[0] ?? '';
    for (const key of Object.keys(counts)) counts[key] += Number(new RegExp(`\\b${key}="(\\d+)"`).exec(head)?.[1] ?? 0);
  }
  return counts;
}

const total = { tests: 0, failures: 0, errors: 0, skipped: 0 };
for (const module of modules) {
  const counts = countReports(join(android, module, 'target', 'surefire-reports'));
  for (const key of Object.keys(total)) total[key] += counts[key];
}
const failed = total.failures + total.errors;
const result = { numPassedTests: total.tests - failed - total.skipped, numFailedTests: failed, numSkippedTests: total.skipped };
mkdirSync(join(root, 'test-output'), { recursive: true });
writeFileSync(join(root, 'test-output', 'android-results.json'), JSON.stringify(result) + '\n');
console.log(`android (JVM core, Robolectric, interop): ${result.numPassedTests} passed, ${result.numFailedTests} failed`);
if (maven.status !== 0 || maven.error) process.exit(maven.status || 1);
if (result.numPassedTests === 0) {
  console.error('test:android ran no test');
  process.exit(1);
}
