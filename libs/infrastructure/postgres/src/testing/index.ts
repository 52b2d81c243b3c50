/**
 * `@mobileclaw/store-postgres/testing`: a throw-away PostgreSQL server for tests and e2e
 * ({@link startPostgresServer}), and the Jest hooks the adapters' specs share. Test-only.
 */
export * from './postgres-server';
export * from './spec-database';
