import { describeIdempotencyStoreContract } from '@mobileclaw/domain/testing';
import { SqliteIdempotencyStore } from './sqlite-idempotency-store';
import { storeLifecycle } from './testing/store-lifecycle';

describeIdempotencyStoreContract('SqliteIdempotencyStore', storeLifecycle((path) => SqliteIdempotencyStore.open(path), 'mobileclaw-idempotency-'));
