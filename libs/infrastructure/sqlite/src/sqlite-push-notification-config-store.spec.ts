import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describePushNotificationConfigStoreContract } from '@mobileclaw/domain/testing';
import { SqlitePushNotificationConfigStore } from './sqlite-push-notification-config-store';

let dir: string | undefined;
const opened: SqlitePushNotificationConfigStore[] = [];

function open(): SqlitePushNotificationConfigStore {
  const store = SqlitePushNotificationConfigStore.open(join(dir as string, 'mobileclaw.db'));
  opened.push(store);
  return store;
}

describePushNotificationConfigStoreContract('SqlitePushNotificationConfigStore', {
  create: async () => {
    dir = mkdtempSync(join(tmpdir(), 'mobileclaw-push-configs-'));
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
