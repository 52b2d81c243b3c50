import { describeToolCallLedgerContract } from '@mobileclaw/domain/testing';
import { InMemoryToolCallLedger } from './in-memory-tool-call-ledger';

describeToolCallLedgerContract('InMemoryToolCallLedger', { create: async (now) => new InMemoryToolCallLedger(now) });
