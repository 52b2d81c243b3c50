import { rawHttpExchange } from '@mobileclaw/transport-ws/testing';
import { EventsSocketClient } from '../support/events-socket-client';
import { testGateways } from '../support/test-gateways';

/**
 * WebSocket upgrades reach a socket only with a normalised origin-form target: the HTTP routes do
 * not normalise `..` either, and a proxy's path rules would otherwise be walked around.
 */

const gateways = testGateways('mobileclaw-upgrade-targets-');
const WS_HEAD = 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';

describe('WebSocket upgrade request targets', () => {
  it.each(['/api/../ws/events', '/ws/./events', '/ws/%2e%2e/ws/events', 'http://evil.com/ws/events', '//ws/events'])('%s is refused 400 VALIDATION_FAILED', async (target) => {
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
    const [answer] = await rawHttpExchange(gw.httpPort, [`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${gw.httpPort}\r\n${WS_HEAD}\r\n`]);
    expect({ status: answer.status, code: JSON.parse(answer.body).code, detail: JSON.parse(answer.body).detail }).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: `not a normalised request target: ${JSON.stringify(target)}`,
    });
  });

  it('/ws/events?since=1 is upgraded', async () => {
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
    const socket = await EventsSocketClient.open(`ws://127.0.0.1:${gw.httpPort}/ws/events?since=1`);
    try {
      expect((await socket.next((m) => m.type === 'welcome')).type).toBe('welcome');
    } finally {
      socket.close();
    }
  });
});
