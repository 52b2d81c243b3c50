import { DEFAULT_TCP_DEVICE_PORT } from '@mobileclaw/transport-tcp';
import { DEFAULT_GATEWAY_DEVICE_ADDRESS, localGatewayDeviceAddress } from './cli';
import { parseHostPort } from './host-port';

describe('parseHostPort', () => {
  it('reads host:port, [IPv6]:port and :port', () => {
    expect(parseHostPort('192.168.1.5:7397', 'X')).toEqual({ host: '192.168.1.5', port: 7397 });
    expect(parseHostPort(' gateway.local:1 ', 'X')).toEqual({ host: 'gateway.local', port: 1 });
    expect(parseHostPort('[::1]:5037', 'X')).toEqual({ host: '::1', port: 5037 });
    expect(parseHostPort(':5037', 'X')).toEqual({ host: '127.0.0.1', port: 5037 });
  });

  it('refuses anything else, naming what it reads', () => {
    for (const value of ['5037', 'host', 'host:0', 'host:65536', 'a:b:1', '::1:5037', 'host:5037x'])
      expect(() => parseHostPort(value, '--adb')).toThrow(`--adb must be host:port (port 1-65535), got ${JSON.stringify(value)}`);
  });

  it("gives `mobileclaw adb` the gateway's own default device port", () => {
    expect(parseHostPort(DEFAULT_GATEWAY_DEVICE_ADDRESS, 'X').port).toBe(DEFAULT_TCP_DEVICE_PORT);
  });
});

describe('localGatewayDeviceAddress', () => {
  it('finds the local gateway at its configured MOBILECLAW_DEVICE_PORT, else at the default port, on loopback', () => {
    expect(localGatewayDeviceAddress({ MOBILECLAW_DEVICE_PORT: '17397' })).toEqual({ host: '127.0.0.1', port: 17397 });
    expect(localGatewayDeviceAddress({ MOBILECLAW_DEVICE_PORT: ' 9000 ' })).toEqual({ host: '127.0.0.1', port: 9000 });
    expect(localGatewayDeviceAddress({})).toEqual({ host: '127.0.0.1', port: DEFAULT_TCP_DEVICE_PORT });
    expect(localGatewayDeviceAddress({ MOBILECLAW_DEVICE_PORT: '' })).toEqual({ host: '127.0.0.1', port: DEFAULT_TCP_DEVICE_PORT });
  });

  it('refuses a port it cannot connect to, 0 (chosen at start) included, and says to pass --gateway', () => {
    for (const port of ['0', '65536', 'abc', '7397x', '-1'])
      expect(() => localGatewayDeviceAddress({ MOBILECLAW_DEVICE_PORT: port })).toThrow(
        `MOBILECLAW_DEVICE_PORT must be a port from 1 to 65535 to find the local gateway (got ${JSON.stringify(port)}); pass --gateway <host:port>`,
      );
  });
});
