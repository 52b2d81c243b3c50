import { describeMemoryIndexContract } from '@mobileclaw/domain/testing';
import { InMemoryMemoryIndex } from './in-memory-memory-index';

// The fake the service's specs run on keeps the port's contract, as the SQLite index does.
describeMemoryIndexContract('InMemoryMemoryIndex', { create: async () => new InMemoryMemoryIndex() });
