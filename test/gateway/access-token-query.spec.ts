import { SseClient } from '../support/sse-client';
import { gatewayUrl, testGateways } from '../support/test-gateways';

/**
 * GETs that browsers make without headers (`<img>`, EventSource) carry the API token as
 * `?access_token=`: every GET route with a validated query accepts that parameter and ignores it.
 */

const gateways = testGateways('mobileclaw-access-token-query-');
const TOKEN = 'query-api-token-0123456789';

describe('?access_token= on GET routes with a query', () => {
  it('is accepted by the screenshot and the task list, which still validate their own parameters', async () => {
    const gw = await gateways.start({ MOBILECLAW_API_TOKEN: TOKEN });
    const devices = await SseClient.open(gatewayUrl(gw, `/api/devices/events?access_token=${TOKEN}`));
    await devices.next((e) => e.event === 'device.connected' || (e.event === 'devices' && e.data.includes('"sim-1"')));
    devices.close();
    const shot = await fetch(gatewayUrl(gw, `/api/devices/sim-1/screenshot?access_token=${TOKEN}&format=png`));
    expect(shot.status).toBe(200);
    expect(shot.headers.get('content-type')).toBe('image/png');
    const tasks = await fetch(gatewayUrl(gw, `/api/tasks?limit=5&access_token=${TOKEN}`));
    expect(tasks.status).toBe(200);
    expect(await tasks.json()).toMatchObject({ tasks: [] });
    const misspelt = await fetch(gatewayUrl(gw, `/api/tasks?limt=5&access_token=${TOKEN}`));
    expect(misspelt.status).toBe(400);
    expect(((await misspelt.json()) as { detail: string }).detail).toBe('invalid request: limt: property limt should not exist');
  });
});
