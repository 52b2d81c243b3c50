import { describePushNotificationConfigStoreContract } from '@mobileclaw/domain/testing';
import { PostgresPushNotificationConfigStore } from './postgres-push-notification-config-store';
import { postgresStoreLifecycle, useSpecDatabase } from './testing';

const spec = useSpecDatabase('push_configs');

describePushNotificationConfigStoreContract('PostgresPushNotificationConfigStore', postgresStoreLifecycle(spec, (database) => new PostgresPushNotificationConfigStore(database)));
