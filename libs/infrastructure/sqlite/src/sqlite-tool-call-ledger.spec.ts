import { describeToolCallLedgerContract } from '@mobileclaw/domain/testing';
import { SqliteToolCallLedger } from './sqlite-tool-call-ledger';
import { storeLifecycle } from './testing/store-lifecycle';

describeToolCallLedgerContract('SqliteToolCallLedger', storeLifecycle((path) => SqliteToolCallLedger.open(path), 'mobileclaw-tool-calls-'));
