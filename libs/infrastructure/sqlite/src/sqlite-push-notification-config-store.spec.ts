import { describePushNotificationConfigStoreContract } from '@mobileclaw/domain/testing';
import { SqlitePushNotificationConfigStore } from './sqlite-push-notification-config-store';
import { storeLifecycle } from './testing/store-lifecycle';

describePushNotificationConfigStoreContract('SqlitePushNotificationConfigStore', storeLifecycle((path) => SqlitePushNotificationConfigStore.open(path), 'mobileclaw-push-configs-'));
