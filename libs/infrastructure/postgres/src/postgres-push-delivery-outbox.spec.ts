import { describePushDeliveryOutboxContract, domainRejection } from '@mobileclaw/domain/testing';
import { PostgresPushDeliveryOutbox } from './postgres-push-delivery-outbox';
import { postgresStoreLifecycle, useSpecDatabase } from './testing';

const spec = useSpecDatabase('push_outbox');
const lifecycle = postgresStoreLifecycle(spec, (database) => new PostgresPushDeliveryOutbox(database));

describePushDeliveryOutboxContract('PostgresPushDeliveryOutbox', lifecycle);

describe('PostgresPushDeliveryOutbox', () => {
  beforeEach(async () => {
    await lifecycle.create();
  });
  afterEach(async () => {
    await lifecycle.dispose();
  });

  it('shares the due deliveries between two instances (pools) without giving one to both', async () => {
    const [a, b] = [lifecycle.open(), lifecycle.open()];
    const queued = await a.enqueue(
      Array.from({ length: 20 }, (_, i) => ({ taskId: 't-1', configId: `c-${i}`, eventId: 1, body: '{}' })),
      1000,
    );
    const [byA, byB] = await Promise.all([a.claimDue('gw-a', 1000, 60_000, 15), b.claimDue('gw-b', 1000, 60_000, 15)]);
    const claimed = [...byA, ...byB].map((d) => d.deliveryId).sort((x, y) => x - y);
    expect(claimed).toStrictEqual(queued.map((d) => d.deliveryId));
  });

  it('rejects with SHUTTING_DOWN once closed', async () => {
    const outbox = lifecycle.open();
    await outbox.close();
    await outbox.close();
    expect((await domainRejection(outbox.nextDueAt())).code).toBe('SHUTTING_DOWN');
    expect((await domainRejection(outbox.enqueue([], 0))).code).toBe('SHUTTING_DOWN');
  });
});
