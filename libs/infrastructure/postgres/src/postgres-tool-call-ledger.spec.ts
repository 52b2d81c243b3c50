import { describeToolCallLedgerContract } from '@mobileclaw/domain/testing';
import { PostgresToolCallLedger } from './postgres-tool-call-ledger';
import { postgresStoreLifecycle, useSpecDatabase } from './testing';

const spec = useSpecDatabase('tool_calls');
// The contract's clock, shared by every ledger a test opens (a reopened ledger keeps it).
let now: () => number = Date.now;
const lifecycle = postgresStoreLifecycle(spec, (database) => new PostgresToolCallLedger(database, () => now()));

describeToolCallLedgerContract('PostgresToolCallLedger', {
  ...lifecycle,
  create: (clock) => {
    now = clock;
    return lifecycle.create();
  },
});
