import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeIdempotencyStoreContract } from '@mobileclaw/domain/testing';
import { SqliteIdempotencyStore } from './sqlite-idempotency-store';

let dir: string | undefined;
const opened: SqliteIdempotencyStore[] = [];

function open(): SqliteIdempotencyStore {
  const store = SqliteIdempotencyStore.open(join(dir as string, 'mobileclaw.db'));
  opened.push(store);
  return store;
}

describeIdempotencyStoreContract('SqliteIdempotencyStore', {
  create: async () => {
    dir = mkdtempSync(join(tmpdir(), 'mobileclaw-idempotency-'));
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
