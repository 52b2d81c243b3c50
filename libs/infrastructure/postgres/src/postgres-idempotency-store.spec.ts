import { describeIdempotencyStoreContract } from '@mobileclaw/domain/testing';
import { PostgresIdempotencyStore } from './postgres-idempotency-store';
import { postgresStoreLifecycle, useSpecDatabase } from './testing';

const spec = useSpecDatabase('idempotency_store');

describeIdempotencyStoreContract('PostgresIdempotencyStore', postgresStoreLifecycle(spec, (database) => new PostgresIdempotencyStore(database)));
