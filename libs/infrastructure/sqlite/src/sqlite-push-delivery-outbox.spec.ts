import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describePushDeliveryOutboxContract, domainRejection } from '@mobileclaw/domain/testing';
import { SqlitePushDeliveryOutbox } from './sqlite-push-delivery-outbox';

let dir: string | undefined;
const opened: SqlitePushDeliveryOutbox[] = [];

function open(): SqlitePushDeliveryOutbox {
  const outbox = SqlitePushDeliveryOutbox.open(join(dir as string, 'mobileclaw.db'));
  opened.push(outbox);
  return outbox;
}

async function closeAll(): Promise<void> {
  for (const outbox of opened.splice(0)) await outbox.close();
}

describePushDeliveryOutboxContract('SqlitePushDeliveryOutbox', {
  create: async () => {
    dir = mkdtempSync(join(tmpdir(), 'mobileclaw-push-outbox-'));
    return open();
  },
  reopen: async () => {
    await closeAll();
    return open();
  },
  dispose: async () => {
    await closeAll();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  },
});

describe('SqlitePushDeliveryOutbox', () => {
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mobileclaw-push-outbox-'));
  });
  afterEach(async () => {
    await closeAll();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shares the due deliveries between two connections without giving one to both', async () => {
    const [a, b] = [open(), open()];
    const queued = await a.enqueue(
      Array.from({ length: 20 }, (_, i) => ({ taskId: 't-1', configId: `c-${i}`, eventId: 1, body: '{}' })),
      1000,
    );
    const [byA, byB] = await Promise.all([a.claimDue('gw-a', 1000, 60_000, 15), b.claimDue('gw-b', 1000, 60_000, 15)]);
    const claimed = [...byA, ...byB].map((d) => d.deliveryId).sort((x, y) => x - y);
    expect(claimed).toStrictEqual(queued.map((d) => d.deliveryId));
  });

  it('rejects with SHUTTING_DOWN once closed', async () => {
    const outbox = open();
    await outbox.close();
    await outbox.close();
    expect((await domainRejection(outbox.nextDueAt())).code).toBe('SHUTTING_DOWN');
    expect((await domainRejection(outbox.enqueue([], 0))).code).toBe('SHUTTING_DOWN');
  });
});
