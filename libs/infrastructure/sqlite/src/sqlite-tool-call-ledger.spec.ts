import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeToolCallLedgerContract } from '@mobileclaw/domain/testing';
import { SqliteToolCallLedger } from './sqlite-tool-call-ledger';

let dir: string | undefined;
const opened: SqliteToolCallLedger[] = [];

function open(): SqliteToolCallLedger {
  const store = SqliteToolCallLedger.open(join(dir as string, 'mobileclaw.db'));
  opened.push(store);
  return store;
}

describeToolCallLedgerContract('SqliteToolCallLedger', {
  create: async () => {
    dir = mkdtempSync(join(tmpdir(), 'mobileclaw-tool-calls-'));
    return open();
  },
  reopen: async () => {
    for (const store of opened.splice(0)) await store.close();
    return open();
  },
  dispose: async () => {
    for (const store of opened.splice(0)) await store.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  },
});
