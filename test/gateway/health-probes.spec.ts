import { createServer, type AddressInfo, type Server } from 'node:net';
import { TaskRepository } from '@mobileclaw/domain';
import { gatewayUrl, testGateways } from '../support/test-gateways';

/**
 * `/health/live` and `/health/ready` of a real gateway: no token needed even when the API has one;
 * ready is 503 while the device port cannot be bound or the task store cannot take writes.
 */
const gateways = testGateways('mobileclaw-probes-');
const url = gatewayUrl;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

async function get(address: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(address);
  return { status: res.status, body: await res.json() };
}

describe('health probes', () => {
  let blocker: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve()));
    blocker = undefined;
  });

  it('answers live and ready without a token, ready naming each check', async () => {
    const gw = await gateways.start({ MOBILECLAW_API_TOKEN: 'probes-api-token-0123456789' });
    expect(await get(url(gw, '/health/live'))).toEqual({ status: 200, body: { status: 'ok' } });
    const up = {
      'device-listener': { status: 'up', tcp: 'listening' },
      'tasks-store': { status: 'up' },
      planner: { status: 'up', name: 'rule-based' },
    };
    expect(await get(url(gw, '/health/ready'))).toEqual({ status: 200, body: { status: 'ok', info: up, error: {}, details: up } });
    // The API's own health check keeps its token.
    expect((await fetch(url(gw, '/api/health'))).status).toBe(401);
  });

  it('is not ready while the device port is taken, and says why; live stays up', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(0, resolve));
    const taken = (blocker.address() as AddressInfo).port;
    const gw = await gateways.start({ MOBILECLAW_DEVICE_PORT: String(taken), MOBILECLAW_SIM: 'off' });
    expect(gw.devicePort).toBe(taken);
    const ready = await get(url(gw, '/health/ready'));
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({
      status: 'error',
      error: { 'device-listener': { status: 'down', tcp: expect.stringContaining('EADDRINUSE') } },
      info: { 'tasks-store': { status: 'up' }, planner: { status: 'up', name: 'rule-based' } },
    });
    expect(Object.keys(ready.body.error)).toEqual(['device-listener']);
    expect(await get(url(gw, '/health/live'))).toEqual({ status: 200, body: { status: 'ok' } });
    // The rest of the gateway serves meanwhile.
    expect((await fetch(url(gw, '/api/tasks'))).status).toBe(200);
  });

  it('is not ready once the task store cannot take writes', async () => {
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
    expect((await get(url(gw, '/health/ready'))).status).toBe(200);
    await gw.app.get(TaskRepository).close();
    const ready = await get(url(gw, '/health/ready'));
    expect(ready).toEqual({
      status: 503,
      body: {
        status: 'error',
        info: { 'device-listener': { status: 'up', tcp: 'listening' }, planner: { status: 'up', name: 'rule-based' } },
        error: { 'tasks-store': { status: 'down', message: 'the task store is closed' } },
        details: {
          'device-listener': { status: 'up', tcp: 'listening' },
          'tasks-store': { status: 'down', message: 'the task store is closed' },
          planner: { status: 'up', name: 'rule-based' },
        },
      },
    });
    expect(await get(url(gw, '/health/live'))).toEqual({ status: 200, body: { status: 'ok' } });
  });
});
