import { rawHttpExchange } from '@mobileclaw/transport-ws/testing';
import { testGateways, waitOnline } from '../support/test-gateways';

/**
 * Upgrade requests on the gateway's HTTP server, which also carries the phones' WebSocket: a REST
 * call with `Upgrade: h2c` (what Java's HttpClient sends by default) is answered as HTTP/1.1, and a
 * WebSocket upgrade to a path nothing serves gets a 404, never a dropped connection.
 */

const gateways = testGateways('mobileclaw-upgrade-');

/** The head Java's `HttpClient` sends by default on a new plain-HTTP connection (JDK 17). */
const H2C_UPGRADE = 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAEAAEAAAAIAAAAAAAMAAAAAAAQBAAAAAAUAAEAAAAYABgAA\r\n';

describe('upgrade requests to the gateway', () => {
  it('answers GET /api/devices with `Upgrade: h2c` as the plain HTTP/1.1 request: 200 and the phones', async () => {
    const gw = await gateways.start();
    await waitOnline(gw, 'sim-1');
    const [answer] = await rawHttpExchange(gw.httpPort, [`GET /api/devices HTTP/1.1\r\nHost: 127.0.0.1:${gw.httpPort}\r\n${H2C_UPGRADE}\r\n`]);
    expect({ status: answer.status, type: answer.headers['content-type'], upgrade: answer.headers['upgrade'] }).toEqual({ status: 200, type: 'application/json; charset=utf-8', upgrade: undefined });
    expect(JSON.parse(answer.body)).toEqual({ devices: [expect.objectContaining({ deviceId: 'sim-1', status: 'online' })] });
  });

  it('starts a task with POST /api/tasks and `Upgrade: h2c`: 202 and its id', async () => {
    const gw = await gateways.start();
    await waitOnline(gw, 'sim-1');
    const body = JSON.stringify({ deviceId: 'sim-1', goal: 'Turn on Wi-Fi' });
    const [answer] = await rawHttpExchange(gw.httpPort, [`POST /api/tasks HTTP/1.1\r\nHost: 127.0.0.1:${gw.httpPort}\r\n${H2C_UPGRADE}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`]);
    expect(answer.status).toBe(202);
    expect(JSON.parse(answer.body)).toMatchObject({ taskId: expect.stringMatching(/^[0-9a-f-]{36}$/), status: expect.any(String) });
  });

  it('answers a WebSocket upgrade to /ws/nope with 404 problem details', async () => {
    const gw = await gateways.start();
    const [answer] = await rawHttpExchange(gw.httpPort, [
      `GET /ws/nope HTTP/1.1\r\nHost: 127.0.0.1:${gw.httpPort}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    ]);
    expect({ status: answer.status, type: answer.headers['content-type'], body: JSON.parse(answer.body) }).toEqual({
      status: 404,
      type: 'application/problem+json; charset=utf-8',
      body: { type: 'urn:mobileclaw:error:NOT_FOUND', title: 'Not found', status: 404, detail: 'no WebSocket endpoint at /ws/nope', instance: '/ws/nope', code: 'NOT_FOUND' },
    });
  });
});
