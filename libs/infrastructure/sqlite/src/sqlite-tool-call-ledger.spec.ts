import { describeToolCallLedgerContract } from '@mobileclaw/domain/testing';
import { SqliteToolCallLedger } from './sqlite-tool-call-ledger';
import { storeLifecycle } from './testing/store-lifecycle';

// The contract's clock, shared by every connection a test opens (a reopened ledger keeps it).
let now: () => number = Date.now;
const lifecycle = storeLifecycle((path) => SqliteToolCallLedger.open(path, () => now()), 'mobileclaw-tool-calls-');

describeToolCallLedgerContract('SqliteToolCallLedger', {
  ...lifecycle,
  create: (clock) => {
    now = clock;
    return lifecycle.create();
  },
});
