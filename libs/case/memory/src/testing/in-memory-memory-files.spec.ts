import { describeMemoryFilesContract } from '@mobileclaw/domain/testing';
import { InMemoryMemoryFiles } from './in-memory-memory-files';

describeMemoryFilesContract('InMemoryMemoryFiles', { create: async () => new InMemoryMemoryFiles() });
