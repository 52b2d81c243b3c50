import { describePushDeliveryOutboxContract } from '@mobileclaw/domain/testing';
import { InMemoryPushDeliveryOutbox } from './in-memory-push-delivery-outbox';

describePushDeliveryOutboxContract('InMemoryPushDeliveryOutbox', { create: async () => new InMemoryPushDeliveryOutbox() });
