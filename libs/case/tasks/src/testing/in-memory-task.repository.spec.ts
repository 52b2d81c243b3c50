import { describeTaskRepositoryContract } from '@mobileclaw/domain/testing';
import { InMemoryTaskRepository } from './in-memory-task.repository';

// The case tests' fake store behaves as the port documents, so what they prove holds for SQLite too.
describeTaskRepositoryContract('InMemoryTaskRepository', { create: async () => new InMemoryTaskRepository() });
