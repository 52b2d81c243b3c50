// The Stryker configuration .ci/run uses: npm run mutation's (stryker.config.json) with the score table
// as its only output. The run is incremental against the committed reports/stryker-incremental.json,
// so it tests only mutants whose code or covering specs changed, and fails below thresholds.break.
import { readFileSync } from 'node:fs';

const base = JSON.parse(readFileSync(new URL('./stryker.config.json', import.meta.url), 'utf8'));

export default {
  ...base,
  logLevel: 'warn',
  reporters: ['clear-text'],
  clearTextReporter: { ...base.clearTextReporter, reportMutants: false },
};
