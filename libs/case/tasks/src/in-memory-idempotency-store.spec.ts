import { describeIdempotencyStoreContract } from '@mobileclaw/domain/testing';
import { InMemoryIdempotencyStore } from './in-memory-idempotency-store';

describeIdempotencyStoreContract('InMemoryIdempotencyStore', { create: async () => new InMemoryIdempotencyStore() });
