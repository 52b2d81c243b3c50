import { GatewayRotation, gatewayAddressList } from './gateway-rotation';

describe('gatewayAddressList', () => {
  it('takes one address or a list, in order, with the default host filled in', () => {
    expect(gatewayAddressList({ port: 7397 })).toEqual([{ host: '127.0.0.1', port: 7397 }]);
    expect(gatewayAddressList({ url: 'wss://gw.example.com/ws/device' })).toEqual([{ url: 'wss://gw.example.com/ws/device' }]);
    expect(gatewayAddressList({ gateways: [{ host: 'gw-b', port: 7000 }, { port: 7001 }, { url: 'ws://gw-c:3000/ws/device' }] })).toEqual([
      { host: 'gw-b', port: 7000 },
      { host: '127.0.0.1', port: 7001 },
      { url: 'ws://gw-c:3000/ws/device' },
    ]);
  });

  it('refuses an empty list and names a bad address', () => {
    expect(() => gatewayAddressList({ gateways: [] })).toThrow(new TypeError('at least one gateway address is needed'));
    expect(() => gatewayAddressList({ gateways: [{ port: 7397 }, { port: 70000 }] })).toThrow(new TypeError('the gateway port must be an integer 1-65535, got 70000'));
    expect(() => gatewayAddressList({ gateways: [{ url: 'http://gw/ws/device' }] })).toThrow(/must be ws:\/\/ or wss:\/\//);
  });
});

describe('GatewayRotation', () => {
  const three = { gateways: [{ port: 1 }, { port: 2 }, { port: 3 }] };

  it('tries the next address at once after a failed attempt, and waits the backoff once all failed in turn', () => {
    const rotation = new GatewayRotation(three);
    const seen: Array<[number, string]> = [];
    for (let i = 0; i < 7; i++) {
      const port = rotation.currentIndex + 1;
      seen.push([port, rotation.connectionEnded(false)]);
    }
    expect(seen).toEqual([
      [1, 'at-once'],
      [2, 'at-once'],
      [3, 'after-backoff'],
      [1, 'at-once'],
      [2, 'at-once'],
      [3, 'after-backoff'],
      [1, 'at-once'],
    ]);
  });

  it('after a welcomed connection ends, moves to the next address after the backoff and starts a fresh round there', () => {
    const rotation = new GatewayRotation(three);
    expect(rotation.connectionEnded(false)).toBe('at-once');
    expect(rotation.current).toEqual({ host: '127.0.0.1', port: 2 });
    expect(rotation.connectionEnded(true)).toBe('after-backoff');
    expect(rotation.current).toEqual({ host: '127.0.0.1', port: 3 });
    // The new round: 3, 1, 2 before the next backoff.
    expect([rotation.connectionEnded(false), rotation.connectionEnded(false), rotation.connectionEnded(false)]).toEqual(['at-once', 'at-once', 'after-backoff']);
    expect(rotation.current).toEqual({ host: '127.0.0.1', port: 3 });
  });

  it('with one address waits the backoff after every attempt, as a phone with a single address does', () => {
    const rotation = new GatewayRotation({ host: 'gw', port: 7397 });
    expect([rotation.connectionEnded(false), rotation.connectionEnded(true), rotation.connectionEnded(false)]).toEqual(['after-backoff', 'after-backoff', 'after-backoff']);
    expect(rotation.current).toEqual({ host: 'gw', port: 7397 });
    expect(rotation.describe()).toBe('gw:7397');
  });

  it('reset goes back to the first address in a fresh round', () => {
    const rotation = new GatewayRotation({ gateways: [{ host: 'a', port: 1 }, { url: 'ws://b:2/ws/device' }] });
    expect(rotation.describe()).toBe('a:1, ws://b:2/ws/device');
    rotation.connectionEnded(false);
    expect(rotation.currentIndex).toBe(1);
    rotation.reset();
    expect(rotation.current).toEqual({ host: 'a', port: 1 });
    expect(rotation.connectionEnded(false)).toBe('at-once');
  });
});
