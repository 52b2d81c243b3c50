import type { RunningGateway } from '@mobileclaw/gateway';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

const gateways = testGateways('mobileclaw-idempotency-');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

async function start(extra: Record<string, string> = {}): Promise<RunningGateway> {
  const gw = await gateways.start(extra);
  await waitOnline(gw, 'sim-1');
  // Tasks wait on the phone for ever: nothing finishes while a test compares answers.
  gw.simulator!.faults.neverReply = true;
  return gw;
}

async function create(gw: RunningGateway, body: unknown, key?: string): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await fetch(gatewayUrl(gw, '/api/tasks'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

async function taskIds(gw: RunningGateway, query = ''): Promise<string[]> {
  const res = await fetch(gatewayUrl(gw, `/api/tasks${query}`));
  return ((await res.json()) as Json).tasks.map((t: Json) => t.taskId);
}

describe('idempotent task creation over REST (real gateway, simulated phone, SQLite)', () => {
  it('answers the same key and content with the first answer, replayed: one task only', async () => {
    const gw = await start();
    const first = await create(gw, { deviceId: 'sim-1', goal: 'Turn on Wi-Fi', maxSteps: 5 }, 'order-4711');
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same content with its keys in another order is the same request.
    const again = await create(gw, { maxSteps: 5, goal: 'Turn on Wi-Fi', deviceId: 'sim-1' }, 'order-4711');
    expect(again.status).toBe(202);
    expect(again.body).toStrictEqual(first.body);
    expect(again.headers.get('location')).toBe(`/api/tasks/${first.body.taskId}`);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await taskIds(gw)).toStrictEqual([first.body.taskId]);
  });

  it('refuses the same key with other content (422 IDEMPOTENCY_KEY_REUSED) and creates nothing', async () => {
    const gw = await start();
    const first = await create(gw, { deviceId: 'sim-1', goal: 'Turn on Wi-Fi' }, 'order-4712');
    const other = await create(gw, { deviceId: 'sim-1', goal: 'Turn on Bluetooth' }, 'order-4712');
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', title: 'Idempotency key reused with different content', status: 422 });
    expect(await taskIds(gw)).toStrictEqual([first.body.taskId]);
  });

  it('of concurrent requests with one key, one creates the task; the others get it replayed or 409 IDEMPOTENCY_KEY_IN_PROGRESS', async () => {
    const gw = await start();
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(gw, { deviceId: 'sim-1', goal: 'Turn on Wi-Fi' }, 'order-4713')));
    const ids = await taskIds(gw);
    expect(ids).toHaveLength(1);
    for (const answer of answers) {
      if (answer.status === 202) expect(answer.body.taskId).toBe(ids[0]);
      else expect(answer).toMatchObject({ status: 409, body: { code: 'IDEMPOTENCY_KEY_IN_PROGRESS' } });
    }
    expect(answers.filter((a) => a.status === 202 && a.headers.get('idempotent-replayed') === null)).toHaveLength(1);
  });

  it('forgets a key whose creation failed, so that a corrected retry with it creates the task', async () => {
    const gw = await start();
    const failed = await create(gw, { deviceId: 'no-such-phone', goal: 'Turn on Wi-Fi' }, 'order-4714');
    expect(failed.body.code).toBe('DEVICE_NOT_FOUND');
    const retried = await create(gw, { deviceId: 'sim-1', goal: 'Turn on Wi-Fi' }, 'order-4714');
    expect(retried.status).toBe(202);
    expect(await taskIds(gw)).toStrictEqual([retried.body.taskId]);
  });

  it('creates a new task once the key expired (MOBILECLAW_IDEMPOTENCY_TTL_MS)', async () => {
    const gw = await start({ MOBILECLAW_IDEMPOTENCY_TTL_MS: '1000' });
    const first = await create(gw, { deviceId: 'sim-1', goal: 'Turn on Wi-Fi' }, 'order-4715');
    let later = await create(gw, { deviceId: 'sim-1', goal: 'Turn on Wi-Fi' }, 'order-4715');
    // Replays until the key expires, then creates anew: the loop ends on that change, not on a time.
    while (later.headers.get('idempotent-replayed') === 'true') {
      expect(later.body.taskId).toBe(first.body.taskId);
      await new Promise((resolve) => setTimeout(resolve, 100));
      later = await create(gw, { deviceId: 'sim-1', goal: 'Turn on Wi-Fi' }, 'order-4715');
    }
    expect(later.status).toBe(202);
    expect(later.body.taskId).not.toBe(first.body.taskId);
    expect((await taskIds(gw)).sort()).toStrictEqual([first.body.taskId, later.body.taskId].sort());
  });

  it('rejects a malformed key with VALIDATION_FAILED naming the header', async () => {
    const gw = await start();
    const bad = await create(gw, { deviceId: 'sim-1', goal: 'Turn on Wi-Fi' }, 'x'.repeat(257));
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toStrictEqual([{ field: 'Idempotency-Key', message: expect.stringContaining('1–256 printable ASCII') }]);
    expect(await taskIds(gw)).toStrictEqual([]);
  });

  it('keeps keys across a restart of the gateway on the same data directory', async () => {
    const dataDir = gateways.dataDir();
    const gw = await start({ MOBILECLAW_DATA_DIR: dataDir });
    const first = await create(gw, { deviceId: 'sim-1', goal: 'Turn on Wi-Fi' }, 'order-4716');
    await gw.close();
    const restarted = await start({ MOBILECLAW_DATA_DIR: dataDir });
    const again = await create(restarted, { deviceId: 'sim-1', goal: 'Turn on Wi-Fi' }, 'order-4716');
    expect(again).toMatchObject({ status: 202, body: first.body });
    expect(await taskIds(restarted)).toStrictEqual([first.body.taskId]);
  });

  it('stores a task\'s contextId and lists one conversation\'s tasks with ?contextId=', async () => {
    const gw = await start();
    const a = await create(gw, { deviceId: 'sim-1', goal: 'Turn on Wi-Fi', contextId: 'crm-case-9' });
    await create(gw, { deviceId: 'sim-1', goal: 'Turn on Bluetooth', contextId: 'crm-case-10' });
    const b = await create(gw, { deviceId: 'sim-1', goal: 'Go home', contextId: 'crm-case-9' });
    expect(await taskIds(gw, '?contextId=crm-case-9')).toStrictEqual([b.body.taskId, a.body.taskId]);
    const task = (await (await fetch(gatewayUrl(gw, `/api/tasks/${a.body.taskId}`))).json()) as Json;
    expect(task.contextId).toBe('crm-case-9');
    const bad = await create(gw, { deviceId: 'sim-1', goal: 'Go home', contextId: 'line\nbreak' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toStrictEqual([{ field: 'contextId', message: 'contextId must be printable (no control, format or line-separator characters)' }]);
  });
});
