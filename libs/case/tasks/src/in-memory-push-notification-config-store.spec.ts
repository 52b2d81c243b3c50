import { describePushNotificationConfigStoreContract } from '@mobileclaw/domain/testing';
import { InMemoryPushNotificationConfigStore } from './in-memory-push-notification-config-store';

describePushNotificationConfigStoreContract('InMemoryPushNotificationConfigStore', { create: async () => new InMemoryPushNotificationConfigStore() });
